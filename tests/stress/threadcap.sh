#!/usr/bin/env bash
# More threads than the runtime's thread table holds (VPROF_MAX_THREADS=16,
# 600 threads): the threads past the table are still sampled, and each
# one's timer (a perf fd, or a POSIX timer with VPROF_TIMER=thread) is
# released when it exits.  They were not (no exit destructor without a
# row): 16,000 threads left the target without descriptors (found
# dogfooding, 2026-11-24).
source "$(dirname "$0")/lib.sh" "$@"
stress_cc threadcap progs/threadcap.c
export VPROF_MAX_THREADS=16
stress_compare hot ./threadcap
grep -q 'leaked_fds 0 leaked_timers 0$' "$work/plain.out" ||
    stress_fail "the plain run is not as the case expects: $(cat "$work/plain.out")"
stress_profile_ok rec/rec.vprof
[ "$(stress_profile_samples rec/rec.vprof)" -gt 0 ] || stress_fail "no PC samples"
VPROF_TIMER=thread STRESS_RUNS="plain rec" stress_compare hot ./threadcap
stress_pass
