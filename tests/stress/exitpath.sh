#!/usr/bin/env bash
# A probed loop with an error exit that uses a value computed on the exit
# path: builds (the probes' clone stays valid IR) and behaves the same,
# both when the loop finishes and when it takes the exit.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc exitpath progs/exitpath.c
stress_compare drive ./exitpath
stress_loop_ran drive
rm -rf plain rec loop
STRESS_EXPECT_STATUS="exit 10" stress_compare drive ./exitpath -1 150
stress_pass
