#!/usr/bin/env bash
# 150 forks while a thread spins and another creates short-lived threads:
# no child hangs (a child that inherits a lock a sampling handler held at the
# fork waits forever), every child writes its profile.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc forkstorm progs/forkstorm.c
stress_compare hot ./forkstorm
stress_profile_ok rec/rec.vprof
n=0
for f in rec/rec.vprof.*; do [ -e "$f" ] && n=$((n + 1)); done
[ "$n" -eq 150 ] || stress_fail "expected 150 child profiles, found $n"
stress_loop_ran hot
stress_no_temp "$work"
stress_pass "$n child profiles"
