#!/usr/bin/env bash
# SIGKILL: no profile can be written, but the earlier profile at the same
# path is left intact (byte for byte) and no temporary file remains.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc ending progs/ending.c
mkdir -p rec
"$VPROF" record -o rec/rec.vprof -- ./ending >/dev/null 2>rec/first.err ||
    [ $? -eq 3 ] || { cat rec/first.err >&2; stress_fail "the first (normal) run failed"; }
cp rec/rec.vprof first.vprof
STRESS_EXPECT_STATUS="signal 9" stress_compare hot ./ending sigkill
cmp -s first.vprof rec/rec.vprof || stress_fail "the earlier profile was changed by the killed run"
stress_profile_ok rec/rec.vprof
grep -q 'from an earlier run' rec.err || stress_fail "vprof record did not say the file is from an earlier run"
stress_no_temp "$work"
stress_pass
