#!/usr/bin/env bash
# The commands leave nothing behind in TMPDIR, not even the profiles that
# forked children of the workload write into the private directory
# (vprof-loop used to leak one directory per run of a forking program).
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR="$work/tmp"
"$build/bin/vprof-cc" -O2 "$src/tests/e2e/progs/forker.c" -o "$work/forker"
cd "$work"
"$build/bin/vprof" record -o r.vprof -- ./forker >/dev/null 2>&1
"$build/bin/vprof-loop" --function parent_work --function child_work -o loop.txt -- ./forker \
  >/dev/null 2>&1 || true
"$build/bin/vprof" diagnose --normal ./forker --buggy ./forker -o diag.txt >/dev/null 2>&1 || true
left=$(ls -A "$work/tmp")
[ -z "$left" ] || { echo "FAIL: left in TMPDIR: $left"; ls -laR "$work/tmp"; exit 1; }
[ -s loop.txt ] || { echo "FAIL: vprof-loop wrote no report"; exit 1; }
echo "TMPDIR clean after record, vprof-loop and diagnose of a forking program"
