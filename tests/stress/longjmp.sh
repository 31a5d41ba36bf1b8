#!/usr/bin/env bash
# longjmp out of nested probed loops thousands of times: same output; the
# probes' per-thread state survives the frames that never return.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc longjmp progs/longjmp.c
stress_compare scan ./longjmp
stress_profile_ok rec/rec.vprof
stress_loop_ran scan
stress_pass
