#!/bin/sh
# Build every benchmark case with $CC (default clang-14), run its normal and
# slow inputs, compare the output with truth.json and print the wall/user times.
# Usage: bench/cases/check.sh [CASE...]      (exit status 1 if any case fails)
set -u
CC=${CC:-clang-14}
CFLAGS=${CFLAGS:-"-O2 -g"}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
cases=${*:-$(for t in */truth.json; do dirname "$t"; done)}
fail=0
logs=$(mktemp -d)   # build logs of failed cases are kept here
bins=$(mktemp -d)   # the programs: built outside the source tree
trap 'rm -rf "$bins"' EXIT
printf '%-26s %-6s %8s %8s  %s\n' case run wall_s user_s result
for c in $cases; do
    c=${c%/}
    if ! make -s -C "$c" CC="$CC" CFLAGS="$CFLAGS" PROG="$bins/$c" >"$logs/$c.build" 2>&1; then
        printf '%-26s %-6s %8s %8s  %s\n' "$c" build - - "FAIL (see $logs/$c.build)"; fail=1; continue
    fi
    for run in normal slow; do
        args=$(python3 -c "import json,shlex,sys; print(' '.join(shlex.quote(a) for a in json.load(open(sys.argv[1]))['${run}_args']))" "$c/truth.json")
        want=$(python3 -c "import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))['expected_output_${run}'])" "$c/truth.json")
        out=$(mktemp); tf=$(mktemp)
        eval "/usr/bin/time -f '%e %U' -o '$tf' '$bins'/'$c' $args" >"$out" 2>/dev/null
        got=$(cat "$out")
        read -r wall user <"$tf"
        if [ "$got" = "$want" ]; then res=ok; else res="FAIL: got '$got'"; fail=1; fi
        printf '%-26s %-6s %8s %8s  %s\n' "$c" "$run" "$wall" "$user" "$res"
        rm -f "$out" "$tf"
    done
done
[ "$fail" = 0 ] && rm -rf "$logs"
exit $fail
