#!/usr/bin/env bash
# fork without exec, from the main thread and from a second thread while a
# third works: same output and statuses; parent and both children write
# valid profiles, no temporary file left.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc fork progs/fork.c
stress_compare hot ./fork
stress_profile_ok rec/rec.vprof
n=0
for f in rec/rec.vprof.*; do [ -e "$f" ] && { stress_profile_ok "$f"; n=$((n + 1)); }; done
[ "$n" -eq 2 ] || stress_fail "expected 2 child profiles, found $n"
stress_loop_ran hot
stress_no_temp "$work"
stress_pass "$n child profiles"
