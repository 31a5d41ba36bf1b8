#!/usr/bin/env bash
# _exit(5), exit(7) from a second thread while another spins, and
# quick_exit(8) (the program's at_quick_exit handler runs; before
# 2026-11-24 no profile was written): statuses kept, profiles written.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc ending progs/ending.c
STRESS_EXPECT_STATUS="exit 5" stress_compare hot ./ending _exit
stress_profile_ok rec/rec.vprof
rm -rf rec loop plain
STRESS_EXPECT_STATUS="exit 7" stress_compare hot ./ending thread-exit
stress_profile_ok rec/rec.vprof
rm -rf rec loop plain
STRESS_EXPECT_STATUS="exit 8" stress_compare hot ./ending quick_exit
stress_profile_ok rec/rec.vprof
grep -q '^header .* exit_status=8 ' dump.txt || stress_fail "quick_exit: the header does not record status 8"
stress_no_temp "$work"
stress_pass
