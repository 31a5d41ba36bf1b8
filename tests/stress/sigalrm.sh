#!/usr/bin/env bash
# The target's SIGALRM (ITIMER_REAL every 2 ms, alarm interrupting
# nanosleep): same output and EINTR behaviour under sampling.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc sigalrm progs/sigalrm.c
stress_compare hot ./sigalrm
stress_profile_ok rec/rec.vprof
stress_pass
