#!/usr/bin/env bash
# A target's SIGHUP handler (a fatal signal we hook and chain to) leaves by
# longjmp, which keeps the mask it ran with: it must be the one the kernel
# gives the target's own handler (SIGHUP and its sa_mask), not ours, which
# blocks every asynchronous signal; with ours SIGUSR1 stayed blocked and
# was never delivered (review of 2026-11-24's sa_mask change).
source "$(dirname "$0")/lib.sh" "$@"
stress_cc handlermask progs/handlermask.c
stress_compare hot ./handlermask
grep -q '^usr1 1 blocked: hup 1 usr2 1 usr1 0 alrm 0 ' "$work/plain.out" ||
    stress_fail "the plain run is not as the case expects: $(cat "$work/plain.out")"
stress_profile_ok rec/rec.vprof
stress_pass
