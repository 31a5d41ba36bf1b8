#!/usr/bin/env bash
# The profile is written while another thread loads and unloads a library
# without pause: at exit (the module table read without the loader's lock,
# or scanned with it when the list keeps moving) and from SIGTERM's handler
# (read without the lock, or the start-up table kept).  Never a crash, a
# hang or a broken profile, in 6 records of each.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc modchurn progs/modchurn.c
stress_compare hot ./modchurn exit
stress_profile_ok rec/rec.vprof
for i in 1 2 3 4 5; do
    rm -f rec/rec.vprof
    STRESS_RUNS=rec stress_compare hot ./modchurn exit
    stress_profile_ok rec/rec.vprof
done
for i in 1 2 3 4 5 6; do
    rm -f rec/rec.vprof
    STRESS_RUNS=rec STRESS_EXPECT_STATUS="signal 15" stress_compare hot ./modchurn sigterm
    stress_profile_ok rec/rec.vprof
    [ "$(stress_profile_samples rec/rec.vprof)" -gt 0 ] || stress_fail "the SIGTERM profile has no samples"
done
stress_no_temp "$work"
stress_pass
