#!/usr/bin/env bash
# A target whose SIGUSR1 handler leaves by siglongjmp, 20,000 times: same
# output, and sampling goes on.  Our handler did not block SIGUSR1, so a
# jump could leave it halfway: the thread's in-handler mark stayed set,
# every later sample of the thread was refused as re-entrant, and each fork
# waited 0.5 s for the sampler to pause (found dogfooding, 2026-11-24).
source "$(dirname "$0")/lib.sh" "$@"
stress_cc sigjmp progs/sigjmp.c
STRESS_RUNS="plain rec" stress_compare hot ./sigjmp
stress_profile_ok rec/rec.vprof
read -r signals reentrant < <(sed -n 's/^loss signals=\([0-9]*\) .* reentrant=\([0-9]*\) .*/\1 \2/p' "$work/dump.txt")
[ -n "$signals" ] || stress_fail "no loss line in the dump"
[ $((reentrant * 20)) -le "$signals" ] ||
    stress_fail "$reentrant of $signals samples refused as re-entrant: the handler was left halfway"
stress_pass "$reentrant of $signals samples refused as re-entrant"
