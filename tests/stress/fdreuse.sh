#!/usr/bin/env bash
# A target that closes its descriptors and opens files on the freed numbers
# must keep them to itself while the runtime unwinds callers on every
# sample: with libunwind (until 2026-11-24) its validation pipe, opened
# before the close, read from the input file (offset moved) and wrote
# stack bytes into the output file.  The runtime's own stepper uses no
# descriptor; the callers must still be recorded (deep's cumulative share).
source "$(dirname "$0")/lib.sh" "$@"
stress_cc fdreuse progs/fdreuse.c
stress_compare hot ./fdreuse
grep -q '^in.txt fd 3 same_file 1 offset 0 size 16$' "$work/plain.out" &&
grep -q '^out.txt fd 4 same_file 1 offset 0 size 0$' "$work/plain.out" ||
    stress_fail "the plain run is not as the case expects: $(cat "$work/plain.out")"
stress_profile_ok rec/rec.vprof
"$VPROF" report --format json rec/rec.vprof | python3 -c '
import json, sys
f = {x["name"]: x for x in json.load(sys.stdin)["functions"]}
ok = "deep" in f and f["deep"]["cumulative_percent"] > 50 and "main" in f and f["main"]["cumulative_percent"] > 50
sys.exit(0 if ok else 1)' || stress_fail "callers not recorded: deep/main have no cumulative share"
stress_pass
