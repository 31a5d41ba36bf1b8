#!/usr/bin/env bash
# The harness can fail: a deliberately broken runtime (progs/sabotage.c,
# preloaded into the profiled target only) that crashes, hangs, changes the
# output or the exit status must make a stress case fail, under vprof
# record and under vprof-loop, with the right diagnosis.
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vprof-stress-self.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
clang-14 -O1 -shared -fPIC "$src/tests/stress/progs/sabotage.c" -o "$tmp/libsabotage.so" ||
    { echo "FAIL: cannot build the sabotage library"; exit 1; }
bad=0
expect_fail_case() { # CASE MODE RUNS PATTERN
    local out rc
    out=$(STRESS_SABOTAGE=$2 STRESS_RUNS=$3 STRESS_TIMEOUT=4 LD_PRELOAD="$tmp/libsabotage.so" \
          bash "$src/tests/stress/$1.sh" "$build" "$src" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] || ! grep -qE "$4" <<<"$out"; then
        echo "FAIL: $1 sabotage=$2 runs='$3': the harness did not report /$4/ (status $rc)"
        tail -5 <<<"$out"
        bad=1
    else
        echo "ok: $1 sabotage=$2 runs='$3': $(grep -E "$4" <<<"$out" | head -1)"
    fi
}
expect_fail_case threads crash  "plain rec"  "vprof record: status 'signal 11', plain 'exit 0'"
expect_fail_case threads crash  "plain loop" "vprof-loop: workload status 'signal 11', plain 'exit 0'"
expect_fail_case threads hang   "plain rec"  "vprof record: hang"
expect_fail_case threads hang   "plain loop" "vprof-loop: hang"
expect_fail_case threads output "plain rec"  "vprof record: the target's output changed"
expect_fail_case threads output "plain loop" "vprof-loop: the target's output changed"
expect_fail_case threads status "plain rec"  "vprof record: status 'exit 42'"
expect_fail_case threads status "plain loop" "vprof-loop: workload status 'exit 42'"
# Without sabotage the same case passes (the preload itself is harmless).
LD_PRELOAD="$tmp/libsabotage.so" bash "$src/tests/stress/threads.sh" "$build" "$src" >/dev/null 2>&1 ||
    { echo "FAIL: threads fails with the inactive sabotage library preloaded"; bad=1; }
[ $bad -eq 0 ] && echo "the harness detects crashes, hangs, output and status changes"
exit $bad
