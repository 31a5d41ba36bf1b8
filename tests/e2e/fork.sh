#!/usr/bin/env bash
# A program that forks: parent and child each get their own valid profile,
# and each profile holds the samples of its own process's work.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$build/bin/vprof-cc" -O2 "$src/tests/e2e/progs/forker.c" -o "$work/forker"
cd "$work"
"$build/bin/vprof" record -o forker.vprof -- ./forker > out.txt 2> err.txt
grep -q 'child-exit 3' out.txt || { echo "FAIL: program output changed"; cat out.txt; exit 1; }
children=(forker.vprof.*)
[ "${#children[@]}" -eq 1 ] && [ -f "${children[0]}" ] || { echo "FAIL: expected one child profile, got: ${children[*]}"; exit 1; }
# --one: a report of FILE adds in the processes it forked (FILE.<pid>), and
# parent and child do the same work: with jittered periods either may have
# a sample more (docs/runtime.md, "Jittered periods")
top() { "$build/bin/vprof" report --one --format json "$1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["functions"][0]["name"])'; }
[ "$(top forker.vprof)" = parent_work ] || { echo "FAIL: parent profile top is $(top forker.vprof)"; exit 1; }
[ "$(top "${children[0]}")" = child_work ] || { echo "FAIL: child profile top is $(top "${children[0]}")"; exit 1; }
echo "parent and child profiles valid and separate"
