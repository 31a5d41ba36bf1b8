#!/usr/bin/env bash
# The target's SIGSEGV handler on a sigaltstack recovers from 100 faults
# inside a probed loop: none of them is taken for ours, none of ours is
# delivered to it.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc sigsegv progs/sigsegv.c
stress_compare probe ./sigsegv
stress_profile_ok rec/rec.vprof
stress_loop_ran probe
stress_pass
