#!/usr/bin/env bash
# Recursion into the guard page (caught on the target's sigaltstack) and
# recursion to ~128 KiB short of the stack limit while sampling at depth 3.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc stackoverflow progs/stackoverflow.c
stress_compare down ./stackoverflow
grep -q 'overflow caught: 1' plain.out || stress_fail "case broken: no overflow in the plain run"
stress_profile_ok rec/rec.vprof
stress_pass
