#!/usr/bin/env bash
# The target's own SIGTRAP handler, raise(SIGTRAP) and int3 in its hot loops,
# then SIG_IGN: the sampler's own SIGTRAPs (perf sigtrap mode) never reach
# the target, the target's reach it once each, sampling survives.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc sigtrap progs/sigtrap.c
stress_compare hot ./sigtrap
grep -q '^raised seen: 20$' plain.out && grep -q '^breakpoints seen: 20$' plain.out ||
    stress_fail "case broken: the plain run did not see its 20 + 20 traps"
stress_profile_ok rec/rec.vprof
n=$(stress_profile_samples rec/rec.vprof)
[ "$n" -ge 20 ] || stress_fail "only $n PC samples: sampling stopped among the target's traps"
stress_pass "$n samples"
