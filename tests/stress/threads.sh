#!/usr/bin/env bash
# 32 threads created and joined in a loop (1,280 threads in all, plus
# detached ones ending in pthread_exit): same output, profile valid, every
# thread's samples counted.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc threads progs/threads.c
stress_compare hot ./threads
stress_profile_ok rec/rec.vprof
stress_loop_ran hot
stress_no_temp "$work"
stress_pass
