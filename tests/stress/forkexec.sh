#!/usr/bin/env bash
# fork + exec of another program (the same binary as "child", /bin/true),
# then exec of the process itself: statuses and output unchanged; the final
# image writes the plain name, every earlier image and child a valid file.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc forkexec progs/forkexec.c
STRESS_EXPECT_STATUS="exit 6" stress_compare hot ./forkexec
stress_profile_ok rec/rec.vprof
for f in rec/rec.vprof.*; do [ -e "$f" ] && stress_profile_ok "$f"; done
ls rec/rec.vprof.exec* >/dev/null 2>&1 || stress_fail "no .exec profile of the image before exec"
stress_no_temp "$work"
stress_pass
