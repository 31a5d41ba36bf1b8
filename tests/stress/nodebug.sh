#!/usr/bin/env bash
# A program built without -g, and a stripped one: vprof record says what is
# lost, the PC profile still works, the output is unchanged; vprof-loop on
# the stripped binary diagnoses or fails with a message, never crashes.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc nog progs/plain.c -g0
STRESS_RUNS="plain rec" stress_compare hot ./nog
grep -q 'no DWARF debug info (build with -g)' rec.err ||
    { cat rec.err >&2; stress_fail "no message about the missing debug info"; }
stress_profile_ok rec/rec.vprof
[ "$(stress_profile_samples rec/rec.vprof)" -gt 0 ] || stress_fail "no PC samples without -g"
grep -q ' hot' report.txt || stress_fail "hot is not named in the report without -g"

rm -rf plain rec loop
stress_cc stripped progs/plain.c
strip "$work/stripped"
STRESS_RUNS="plain rec" stress_compare hot ./stripped
grep -q 'warning' rec.err || { cat rec.err >&2; stress_fail "no message for the stripped binary"; }
stress_profile_ok rec/rec.vprof
[ "$(stress_profile_samples rec/rec.vprof)" -gt 0 ] || stress_fail "no PC samples for the stripped binary"
timeout 60 "$VPROF_LOOP" --function hot -- ./stripped >loop.out 2>loop.err </dev/null
rc=$?
# The loop table survives strip (it names its functions), so vprof-loop may
# well diagnose; otherwise it must say why.  Never a crash.
case $rc in
    0) grep -q 'hot' loop.out || stress_fail "vprof-loop succeeded on the stripped binary but reported no loop of hot" ;;
    1|2) grep -q '^vprof-loop: ' loop.err || stress_fail "vprof-loop failed on the stripped binary without a message" ;;
    *) cat loop.err >&2; stress_fail "vprof-loop on a stripped binary ended with $rc" ;;
esac
stress_pass "vprof-loop on the stripped binary: status $rc"
