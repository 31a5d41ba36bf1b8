#!/usr/bin/env bash
# A set-user-ID target (a copy owned by nobody, run as root): vprof record
# says the runtime is not loaded into it, the output is unchanged and no
# profile is written; the runtime itself, even when loaded by hand
# (dlopen), does nothing in an AT_SECURE process unless
# VPROF_ALLOW_SETUID=1 (the positive control: then it does write).
# Needs root to make the copy: skipped (status 77) otherwise.
source "$(dirname "$0")/lib.sh" "$@"
[ "$(id -u)" -eq 0 ] && getent passwd nobody >/dev/null || { echo "SKIP: needs root and user nobody"; exit 77; }
stress_cc setuid progs/setuid.c
chmod 711 "$work"
mkdir -p "$work/suid" && chmod 1777 "$work/suid"
cp "$work/setuid" "$work/suid/prog"
chown nobody "$work/suid/prog" && chmod 4755 "$work/suid/prog"
STRESS_RUNS="plain" stress_compare hot "$work/suid/prog"
grep -q 'set-id: yes' plain.out || stress_fail "case broken: the copy does not run set-user-ID"
# The target runs unchanged; vprof record ends with 1 (CMD succeeded, no
# profile: its documented status) after saying why.
st=$(cd "$work/rec" 2>/dev/null || mkdir -p "$work/rec"; cd "$work/rec" &&
     run_timed "$work/rec.out" "$work/rec.err" "$VPROF" record -o "$work/rec/rec.vprof" -- "$work/suid/prog")
[ "$st" = "exit 1" ] || { cat rec.err >&2; stress_fail "vprof record on a set-ID target ended with '$st', want 'exit 1'"; }
diff -u plain.out rec.out >&2 || stress_fail "the set-ID target's output changed under vprof record"
grep -q 'is set-user-ID or set-group-ID' rec.err ||
    { cat rec.err >&2; stress_fail "vprof record gave no set-ID message"; }
[ ! -e rec/rec.vprof ] || stress_fail "a profile was written for a set-ID target"
grep -q 'no profile was written' rec.err || stress_fail "vprof record did not say no profile was written"

# The runtime's own check: loaded by dlopen into the set-ID process.
rt=$build/lib/libvprof-rt.so
cd "$work/suid"
VPROF_OUTPUT=$work/suid/d.vprof timeout 60 ./prog dlopen "$rt" >d.out 2>d.err
[ $? -eq 0 ] || { cat d.err >&2; stress_fail "the set-ID target with the runtime dlopen'ed failed"; }
[ ! -e d.vprof ] || stress_fail "the runtime wrote a profile in an AT_SECURE process"
[ ! -s d.err ] || { cat d.err >&2; stress_fail "the runtime printed something in an AT_SECURE process"; }
VPROF_ALLOW_SETUID=1 VPROF_OUTPUT=$work/suid/a.vprof timeout 60 ./prog dlopen "$rt" >a.out 2>a.err
[ -e a.vprof ] || { cat a.err >&2; stress_fail "positive control: VPROF_ALLOW_SETUID=1 wrote no profile (the check above proves nothing)"; }
stress_profile_ok "$work/suid/a.vprof"
stress_pass
