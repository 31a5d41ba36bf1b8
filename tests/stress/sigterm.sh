#!/usr/bin/env bash
# raise(SIGTERM) with the default disposition: the target still dies of
# SIGTERM, and the profile is written (flagged signalled, status 143).
source "$(dirname "$0")/lib.sh" "$@"
stress_cc ending progs/ending.c
STRESS_EXPECT_STATUS="signal 15" stress_compare hot ./ending sigterm
stress_profile_ok rec/rec.vprof
[ "$(stress_profile_samples rec/rec.vprof)" -gt 0 ] || stress_fail "the SIGTERM profile has no samples"
stress_no_temp "$work"
stress_pass
