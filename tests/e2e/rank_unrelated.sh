#!/usr/bin/env bash
# vprof rank refuses a normal profile of another program (docs/rank.md,
# "Unrelated programs"): versions.c and share.c share `main` and libc
# functions, which the function-name check alone let through (found
# dogfooding two C++ programs, 2026-11-24); the source files their builds
# instrumented have none in common.  Another version of one program
# (rank_new_code.sh) keeps its files and is still ranked.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$build/bin/vprof-cc" -O1 "$src/tests/e2e/progs/versions.c" -o "$work/v1"
"$build/bin/vprof-cc" -O1 -DV2 "$src/tests/e2e/progs/versions.c" -o "$work/v2"
"$build/bin/vprof-cc" -O1 "$src/tests/e2e/progs/share.c" -o "$work/share"
"$build/bin/vprof" record -o "$work/n.vprof" -- "$work/share" 300000 > /dev/null
"$build/bin/vprof" record -o "$work/s.vprof" -- "$work/v2" 400 > /dev/null
"$build/bin/vprof" record -o "$work/n1.vprof" -- "$work/v1" 400 > /dev/null
set +e
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" > "$work/out" 2> "$work/err"
rc=$?
set -e
want="n.vprof: its program's source files (share.c) and those of $work/s.vprof (versions.c) have none in common: profiles of unrelated programs?"
if [ $rc -ne 2 ] || ! grep -qF "$want" "$work/err" || [ "$(wc -l < "$work/err")" -ne 1 ]; then
    echo "FAIL: want exit 2 and one line '$want'; got exit $rc:"; cat "$work/err"; exit 1
fi
"$build/bin/vprof" rank --normal "$work/n1.vprof" --buggy "$work/s.vprof" > /dev/null ||
    { echo "FAIL: another version of the program was refused"; exit 1; }
# The binary rebuilt since recording (v1 replaced by v2 at v1's path): its
# code cannot be symbolized, and a ranking of the library functions left
# was printed with exit 0 (found dogfooding, 2026-11-25); now refused.
cp "$work/v2" "$work/v1"
set +e
"$build/bin/vprof" rank --normal "$work/n1.vprof" --buggy "$work/s.vprof" > "$work/out" 2> "$work/err"
rc=$?
set -e
want="n1.vprof: $work/v1: build-id differs from the recorded one"
if [ $rc -ne 2 ] || ! grep -qF "$want" "$work/err" || ! grep -qF "record the run again" "$work/err" ||
   [ "$(wc -l < "$work/err")" -ne 1 ]; then
    echo "FAIL: want exit 2 and one line '$want ...'; got exit $rc:"; cat "$work/err"; exit 1
fi
# vprof export and diff still write what they can (unsymbolized addresses
# as module+offset, as perf does) but say why
"$build/bin/vprof" export --folded "$work/n1.vprof" > /dev/null 2> "$work/err"
grep -qF "vprof export: warning: $work/v1: rebuilt (another build-id) since recording" "$work/err" ||
    { echo "FAIL: vprof export does not warn of the rebuilt binary:"; cat "$work/err"; exit 1; }
echo "ok: a profile of another program is refused, one of another version is ranked, one of a rebuilt binary is refused (export warns)"
