#!/usr/bin/env bash
# A target that closes its descriptors and opens files on the freed numbers
# must keep them to itself while the runtime unwinds callers on every
# sample: with libunwind (until 2026-11-24) its validation pipe, opened
# before the close, read from the input file (offset moved) and wrote
# stack bytes into the output file.  The runtime's own stepper uses no
# descriptor; the callers must still be recorded (deep's cumulative share).
# The same with the pipe reader, which does keep one.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc fdreuse progs/fdreuse.c
stress_compare hot ./fdreuse
[ "$(grep -c '^in.txt fd [3579] same_file 1 offset 0 size 16$' "$work/plain.out")" = 4 ] &&
[ "$(grep -c '^out[0-3].txt fd \([468]\|10\) same_file 1 offset 0 size 0$' "$work/plain.out")" = 4 ] ||
    stress_fail "the plain run is not as the case expects: $(cat "$work/plain.out")"
stress_profile_ok rec/rec.vprof
# The pipe reader (the fallback when process_vm_readv is refused) keeps a
# pipe: it must sit above the target's numbers and never be used once the
# target has closed it and reused the number (before: opened at 3 and 4,
# it read the target's input file and wrote stack bytes into its output).
# VPROF_DIRECT_READS=0 sends every read through it.
mkdir -p "$work/pipe"
st=$(cd "$work/pipe" && VPROF_SAFE_READ=pipe VPROF_DIRECT_READS=0 run_timed "$work/pipe.out" "$work/pipe.err" \
    "$VPROF" record -o "$work/pipe/rec.vprof" -- "$work/fdreuse")
[ "$st" = "$PLAIN_STATUS" ] || { cat "$work/pipe.err" >&2; stress_fail "vprof record with the pipe reader: status '$st'"; }
diff -u "$work/plain.out" "$work/pipe.out" >&2 || stress_fail "vprof record with the pipe reader: the target's output changed"
"$VPROF" report --format json rec/rec.vprof | python3 -c '
import json, sys
f = {x["name"]: x for x in json.load(sys.stdin)["functions"]}
ok = "deep" in f and f["deep"]["cumulative_percent"] > 50 and "main" in f and f["main"]["cumulative_percent"] > 50
sys.exit(0 if ok else 1)' || stress_fail "callers not recorded: deep/main have no cumulative share"
stress_pass
