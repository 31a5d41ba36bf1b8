#!/usr/bin/env bash
# Nothing from a profile or the command line reaches a shell: a program
# whose path (and so every module path in its profiles) holds $(...),
# backticks and ';' is recorded, reported, dumped, ranked, exported and
# diagnosed, and vprof diagnose gets command strings with the same; no
# command inside them ever runs (no marker file appears anywhere).
source "$(dirname "$0")/lib.sh" "$@"
mark=$work/pwned
evil='d$(touch '"$mark"'1)`touch '"$mark"'2`;touch '"$mark"'3;x'
mkdir -p "$work/$evil"
stress_cc "$evil/prog" progs/args.c
p="$work/$evil/prog"
cd "$work/$evil" || stress_fail "cannot enter the directory"
check() { ls "$work" | grep -q pwned && stress_fail "a shell ran a command from $1"; true; }
"$VPROF" record -o n.vprof -- "$p" a >/dev/null 2>&1 || stress_fail "record failed"
"$VPROF" record -o b.vprof -- "$p" b '$(touch '"$mark"'4)' '`touch '"$mark"'5`' >/dev/null 2>&1 ||
    stress_fail "record with shell-like arguments failed"
grep -q "$evil" <("$VPROF" dump n.vprof) || stress_fail "the module path is not in the profile"
check record
for c in "report n.vprof" "report --format json n.vprof" "dump n.vprof" \
         "export --folded n.vprof" "export --pprof -o p.pb.gz n.vprof" \
         "rank --normal n.vprof --buggy b.vprof --format json -o rank.json" \
         "rank --normal n.vprof --buggy b.vprof --format md" \
         "rank --normal n.vprof --buggy b.vprof --format html -o rank.html"; do
    # shellcheck disable=SC2086
    "$VPROF" $c >/dev/null 2>cmd.err; rc=$?
    [ $rc -le 2 ] || { cat cmd.err >&2; stress_fail "vprof $c died ($rc)"; }
    check "vprof $c"
done
"$VPROF_LOOP" --top 1 --rank rank.json --format json -- "$p" b ';touch '"$mark"'6' >/dev/null 2>&1
[ $? -le 2 ] || stress_fail "vprof-loop died"
check vprof-loop
"$build/bin/vprof-diagnose" --normal "'$p' a '\$(touch ${mark}7)'" \
    --buggy "'$p' b \`touch ${mark}8\` ';touch ${mark}9' '|touch ${mark}10'" --top 1 \
    >diag.out 2>diag.err
rc=$?
[ $rc -le 2 ] || { cat diag.err >&2; stress_fail "vprof diagnose died ($rc)"; }
check "vprof diagnose"
# The words reached the program as words, unexpanded (an unquoted
# backtick word is split at its space, like a shell that does not expand).
grep -qF 'arg[2]=`touch' diag.err diag.out && grep -qF "arg[5]=|touch ${mark}10" diag.err diag.out ||
    { head -20 diag.err >&2; stress_fail "vprof diagnose did not pass the backtick word literally"; }
stress_pass
