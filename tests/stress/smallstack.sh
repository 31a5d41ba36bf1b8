#!/usr/bin/env bash
# Samples that land on small stacks: a SIGUSR1 handler on a SIGSTKSZ
# sigaltstack, ucontext coroutines with ~5 KiB free below their hot loop.
# The handler keeps its read buffers and unwinding state per thread, off
# the interrupted stack (it needed ~8 KiB of it before 2026-11-24: both
# parts died of SIGSEGV under vprof record).  The profile must hold samples
# of hot() taken there.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc smallstack progs/smallstack.c
stress_compare hot ./smallstack
stress_profile_ok rec/rec.vprof
n=$(stress_profile_samples rec/rec.vprof)
[ "$n" -ge 50 ] || stress_fail "only $n samples recorded"
stress_pass "$n samples"
