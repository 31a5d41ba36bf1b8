#!/usr/bin/env bash
# vfork + exec, posix_spawn and posix_spawnp: statuses and output unchanged,
# all profiles valid.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc spawn progs/spawn.c
stress_compare hot ./spawn
stress_profile_ok rec/rec.vprof
for f in rec/rec.vprof.*; do [ -e "$f" ] && stress_profile_ok "$f"; done
stress_no_temp "$work"
stress_pass
