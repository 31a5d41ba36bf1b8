#!/usr/bin/env bash
# abort(): the target dies of SIGABRT under the profiler too (the profile is
# lost, docs/runtime.md), and nothing half-written is left.
source "$(dirname "$0")/lib.sh" "$@"
ulimit -c 0
stress_cc ending progs/ending.c
STRESS_EXPECT_STATUS="signal 6" stress_compare hot ./ending abort
stress_no_temp "$work"
stress_pass
