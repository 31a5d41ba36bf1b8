#!/usr/bin/env bash
# The target blocks all signals (process and thread masks) while it works:
# no hang (our SIGPROF stays pending), same output, profile written.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc sigmask progs/sigmask.c
stress_compare hot ./sigmask
stress_profile_ok rec/rec.vprof
stress_pass
