#!/usr/bin/env bash
# _exit(5) and exit(7) from a second thread while another spins: statuses
# kept, profiles written.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc ending progs/ending.c
STRESS_EXPECT_STATUS="exit 5" stress_compare hot ./ending _exit
stress_profile_ok rec/rec.vprof
rm -rf rec loop plain
STRESS_EXPECT_STATUS="exit 7" stress_compare hot ./ending thread-exit
stress_profile_ok rec/rec.vprof
stress_no_temp "$work"
stress_pass
