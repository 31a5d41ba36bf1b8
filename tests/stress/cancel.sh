#!/usr/bin/env bash
# Threads cancelled right after pthread_create: every start routine runs
# and every cleanup handler too, no descriptor is left behind.  The
# runtime's thread start closes a descriptor (a cancellation point) before
# the target's routine: a deferred cancel acted there, so about half the
# threads never started and each leaked its perf fds (found dogfooding,
# 2026-11-24).
source "$(dirname "$0")/lib.sh" "$@"
stress_cc cancel progs/cancel.c
stress_compare hot ./cancel
grep -q '^cancelled 1000 started 1000 cleaned 1000 leaked_fds 0 ' "$work/plain.out" ||
    stress_fail "the plain run is not as the case expects: $(cat "$work/plain.out")"
stress_profile_ok rec/rec.vprof
stress_pass
