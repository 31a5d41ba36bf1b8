#!/usr/bin/env bash
# The target's own SIGPROF handler and ITIMER_PROF, raise(SIGPROF) and
# SIG_IGN: the target sees its own signals, sampling survives.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc sigprof progs/sigprof.c
stress_compare hot ./sigprof
grep -q 'itimer ticks seen: yes' plain.out || stress_fail "case broken: no itimer ticks in the plain run"
stress_profile_ok rec/rec.vprof
stress_pass
