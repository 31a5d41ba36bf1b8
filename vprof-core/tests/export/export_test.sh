#!/usr/bin/env bash
# export_test.sh BIN_DIR SPIN_C TEST_EXPORT OUT_DIR
#
# Exports of real recordings: build spin.c with vprof-cc, record a normal
# (short) and a buggy (long) run, then check `vprof export --folded`,
# `vprof diff --folded` and `vprof export --pprof` (decoded by test_export
# --check, and read by `go tool pprof` when Go is installed), and the
# commands' usage errors.
set -euo pipefail
bin=$1 src=$2 check=$3 out=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$out"
cd "$out"
rm -f ./*.folded ./*.pb.gz

"$bin/vprof-cc" -O1 -g -fno-omit-frame-pointer "$src" -o spin
"$bin/vprof" record -o normal.vprof -- ./spin 20000000
"$bin/vprof" record -o slow.vprof -- ./spin 120000000

# folded: "frame;frame;... count", root first, sorted, deterministic
"$bin/vprof" export --folded slow.vprof -o slow.folded
"$bin/vprof" export --folded slow.vprof > slow2.folded
cmp slow.folded slow2.folded || fail "folded output differs between runs"
[ -s slow.folded ] || fail "empty folded output"
grep -Evq '^[^ ].* [0-9]+$' slow.folded && fail "malformed folded line: $(grep -Ev '^[^ ].* [0-9]+$' slow.folded | head -1)"
# (callers of main are libc's, named by module + offset when libc has no symbol)
grep -Eq '(^|;)main;outer;work [0-9]+$' slow.folded || fail "no main;outer;work stack: $(head -5 slow.folded)"
# code of mix() inlined into work() is a frame of its own under work
grep -Eq '(^|;)main;outer;work;mix [0-9]+$' slow.folded || fail "no inlined work;mix frame: $(cat slow.folded)"
work=$(awk '/(^|;)main;outer;work[ ;]/{s += $NF} END {print s}' slow.folded)
total=$(awk '{s += $NF} END {print s}' slow.folded)
[ "$work" -gt $((total / 2)) ] || fail "work has $work of $total samples"

# diff: "stack normal buggy", every stack of both
"$bin/vprof" export --folded normal.vprof -o normal.folded
"$bin/vprof" diff --folded normal.vprof slow.vprof -o diff.folded
grep -Evq '^[^ ].* [0-9]+ [0-9]+$' diff.folded && fail "malformed diff line"
n_sum=$(awk '{s += $(NF-1)} END {print s}' diff.folded)
b_sum=$(awk '{s += $NF} END {print s}' diff.folded)
[ "$n_sum" = "$(awk '{s += $NF} END {print s}' normal.folded)" ] || fail "normal column sum"
[ "$b_sum" = "$total" ] || fail "buggy column sum $b_sum != $total"
grep -Eq '(^|;)main;outer;work [0-9]+ [0-9]+$' diff.folded || fail "no work row in the diff"

# pprof: decodes with protobuf-c, same sample total as the folded stacks
"$bin/vprof" export --pprof slow.vprof -o slow.pb.gz
pp_total=$("$check" --check slow.pb.gz mix work) || fail "pprof: no mix() inlined into work()"
[ "$pp_total" = "$total" ] || fail "pprof has $pp_total samples, folded $total"
"$bin/vprof" export --pprof slow.vprof --normal-diff normal.vprof -o diff.pb.gz
d_total=$("$check" --check diff.pb.gz)
[ "$d_total" = "$((total - n_sum))" ] || fail "diff pprof total $d_total"

if command -v go >/dev/null 2>&1; then
    export HOME=${HOME:-$out} GOCACHE="$out/gocache" GOFLAGS=-mod=mod
    go tool pprof -top slow.pb.gz > top.txt 2>&1 || fail "go tool pprof -top: $(cat top.txt)"
    grep -q ' work$' top.txt || fail "pprof -top has no work: $(cat top.txt)"
    # the inlined helper is a function of its own (inline frames as Lines)
    grep -Eq ' mix( \(inline\))?$' top.txt || fail "pprof -top has no inlined mix: $(cat top.txt)"
    go tool pprof -raw slow.pb.gz > raw.txt 2>&1 || fail "go tool pprof -raw: $(cat raw.txt)"
    grep -q 'samples/count cpu/nanoseconds' raw.txt || fail "pprof -raw sample types"
    grep -q 'Build ID' raw.txt || grep -q '[0-9a-f]\{40\}' raw.txt || fail "pprof -raw: no build id"
    echo "ok: go tool pprof reads the export"
else
    echo "note: go not installed, go tool pprof not tried (apt-get install golang-go)"
fi

# usage and input errors: exit 2
set +e
"$bin/vprof" export >/dev/null 2>&1; [ $? = 2 ] || fail "export without arguments"
"$bin/vprof" export --pprof slow.vprof >/dev/null 2>&1; [ $? = 2 ] || fail "--pprof without -o"
"$bin/vprof" export --folded missing.vprof >/dev/null 2>&1; [ $? = 2 ] || fail "missing file"
"$bin/vprof" diff --folded normal.vprof >/dev/null 2>&1; [ $? = 2 ] || fail "diff with one file"
"$bin/vprof" export --folded slow.vprof --normal-diff normal.vprof >/dev/null 2>&1
[ $? = 2 ] || fail "--normal-diff without --pprof"
set -e
echo "ok: $total samples; $(wc -l < slow.folded) stacks"
