#!/usr/bin/env bash
# The profile path: never overwrite what is not ours, never write through
# a planted symlink, two writers of one path both end with a valid file, and
# foreign/damaged profiles are refused with a clear message.
source "$(dirname "$0")/lib.sh" "$@"
stress_cc prog progs/plain.c
md5() { md5sum "$1" | cut -d' ' -f1; }

# 1. A user's file at -o (a source file by mistake): refused before the
#    target runs, the file untouched; --force replaces it.
cp "$src/tests/stress/progs/plain.c" user.c; sum=$(md5 user.c)
"$VPROF" record -o user.c -- ./prog >run.out 2>run.err; rc=$?
[ $rc -eq 2 ] || { cat run.err >&2; stress_fail "record over a source file: status $rc, want 2"; }
grep -q 'is a file that is not a vprof profile: not overwriting it' run.err ||
    { cat run.err >&2; stress_fail "no clear message for a non-profile -o"; }
[ "$(md5 user.c)" = "$sum" ] || stress_fail "the user's file was changed"
[ ! -s run.out ] || stress_fail "the target ran although the output was refused"
"$VPROF" record --force -o user.c -- ./prog >/dev/null 2>run.err || { cat run.err >&2; stress_fail "--force failed"; }
stress_profile_ok user.c

# 2. An earlier profile and an empty file are replaced.
"$VPROF" record -o user.c -- ./prog >/dev/null 2>run.err || { cat run.err >&2; stress_fail "replacing a profile failed"; }
: > empty.vprof
"$VPROF" record -o empty.vprof -- ./prog >/dev/null 2>run.err || { cat run.err >&2; stress_fail "replacing an empty file failed"; }
stress_profile_ok empty.vprof

# 3. A planted symlink at -o: the link itself is replaced by the profile,
#    the file it pointed to is never written.
echo secret > victim; ln -s victim link.vprof
"$VPROF" record -o link.vprof -- ./prog >/dev/null 2>run.err || { cat run.err >&2; stress_fail "record over a symlink failed"; }
[ "$(cat victim)" = secret ] || stress_fail "the symlink's target was written"
[ ! -L link.vprof ] || stress_fail "the symlink is still there"
stress_profile_ok link.vprof
mkdir adir; "$VPROF" record --force -o adir -- ./prog >/dev/null 2>run.err; rc=$?
[ $rc -eq 2 ] && grep -q 'is a directory' run.err || stress_fail "a directory at -o: status $rc"

# 4. The runtime alone (preloaded by hand, no launcher check): it does not
#    rename over a user's file either, and leaves no temporary file.
cp user.c user2.c 2>/dev/null; echo 'int main;' > user2.c; sum=$(md5 user2.c)
LD_PRELOAD=$build/lib/libvprof-rt.so VPROF_OUTPUT=$work/user2.c ./prog >/dev/null 2>rt.err
[ "$(md5 user2.c)" = "$sum" ] || stress_fail "the runtime replaced a user's file"
grep -q 'not replacing a file that is not a vprof profile' rt.err ||
    { cat rt.err >&2; stress_fail "the runtime did not say why it wrote nothing"; }
rm -f victim2; ln -s victim victim2
LD_PRELOAD=$build/lib/libvprof-rt.so VPROF_OUTPUT=$work/victim2 ./prog >/dev/null 2>rt.err
[ "$(cat victim)" = secret ] || stress_fail "the runtime wrote through a symlink"
stress_no_temp "$work"

# 5. Two `vprof record -o same` at once: both finish, the last rename wins
#    with a valid file of one of them, the other says its file was
#    replaced, nothing temporary is left.
for i in 1 2 3; do
    "$VPROF" record -F 5000 -o same.vprof -- ./prog >/dev/null 2>a.err & a=$!
    "$VPROF" record -F 5000 -o same.vprof -- ./prog >/dev/null 2>b.err & b=$!
    wait $a; ra=$?; wait $b; rb=$?
    stress_profile_ok same.vprof
    for x in "a $ra" "b $rb"; do
        set -- $x
        case $2 in
            0) grep -q 'wrote .*same.vprof' $1.err || { cat $1.err >&2; stress_fail "writer $1: status 0 without a summary"; } ;;
            1) grep -q 'was replaced by the profile of another run' $1.err ||
                   { cat $1.err >&2; stress_fail "writer $1: status 1 without saying its file was replaced"; } ;;
            *) cat $1.err >&2; stress_fail "concurrent writer $1 ended with $2" ;;
        esac
    done
    [ $ra -eq 0 ] || [ $rb -eq 0 ] || stress_fail "neither concurrent writer kept its file"
done
stress_no_temp "$work"

# 6. The reports' atomic writes ("OUT.tmp.<pid>", a predictable name in a
#    possibly shared directory): a symlink planted at that name (the
#    command is exec'd by a shell that knows its pid) is never followed:
#    the command fails, the file it points to keeps its content.
echo secret > victim3
cp same.vprof ok.vprof
for cmd in "export --folded ok.vprof -o planted.out" "export --pprof ok.vprof -o planted.out" \
           "rank --normal link.vprof --buggy ok.vprof --format json -o planted.out"; do
    # shellcheck disable=SC2016,SC2086
    bash -c 'ln -s "$1" "planted.out.tmp.$$"; shift; exec "$@"' _ "$work/victim3" "$VPROF" $cmd \
        >/dev/null 2>planted.err
    rc=$?
    [ "$(cat victim3)" = secret ] || stress_fail "vprof ${cmd%% *} wrote through a planted symlink"
    [ $rc -ne 0 ] && grep -q 'File exists' planted.err ||
        { cat planted.err >&2; stress_fail "vprof ${cmd%% *}: status $rc with a planted temporary name"; }
    echo "  vprof $cmd: refused the planted temporary name, victim intact"
    rm -f planted.out.tmp.* planted.out
done
"$VPROF_LOOP" --function hot --format json -o planted.out -- ./prog >/dev/null 2>&1 ||
    stress_fail "vprof-loop -o failed"
rm -f planted.out

# 7. Profiles from another vprof version, another word size, another byte
#    order, or cut short: refused with the file and offset named.
cp same.vprof ok.vprof
patch_at() { python3 -c 'import sys; f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(bytes.fromhex(sys.argv[3]))' "$@"; }
cp ok.vprof v9.vprof; patch_at v9.vprof 8 09000000
cp ok.vprof w4.vprof; patch_at w4.vprof 20 04
cp ok.vprof be.vprof; patch_at be.vprof 16 01020304
head -c $(( $(stat -c %s ok.vprof) / 2 )) ok.vprof > cut.vprof
head -c 40 ok.vprof > short.vprof
for f in v9 w4 be cut short; do
    for cmd in report dump; do
        "$VPROF" $cmd $f.vprof >/dev/null 2>bad.err; rc=$?
        { [ $rc -eq 1 ] || [ $rc -eq 2 ]; } || { cat bad.err >&2; stress_fail "vprof $cmd $f.vprof: status $rc"; }
        grep -q "$f.vprof" bad.err && grep -qi 'offset\|version\|word size\|truncated\|byte order\|endian' bad.err ||
            { cat bad.err >&2; stress_fail "vprof $cmd $f.vprof: unclear message"; }
    done
    echo "  $f.vprof: $(head -1 bad.err)"
done
stress_pass
