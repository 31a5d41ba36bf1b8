#!/usr/bin/env bash
# A daemon that double-forks (setsid, the middle process _exits): same
# output; the grandchild's profile is valid.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc daemon progs/daemon.c
stress_compare hot ./daemon
stress_profile_ok rec/rec.vprof
n=0
for f in rec/rec.vprof.*; do [ -e "$f" ] && { stress_profile_ok "$f"; n=$((n + 1)); }; done
[ "$n" -ge 1 ] || stress_fail "the daemon wrote no profile"
stress_no_temp "$work"
stress_pass
