#!/usr/bin/env bash
# bench/fuzz/run.sh [BUILD] [SECONDS] [TARGET...]: the long fuzzing run of
# every reader (docs/hardening.md).  Builds nothing: BUILD (default
# build) must have been built (the fuzz targets are part of `all`).
# Seeds come from tests/fuzz/seeds.sh (real files) plus, for the profile
# reader, vprof-core's synthetic seed generator.  One target at a time,
# SECONDS each (default 600), corpora kept in BUILD/bench-fuzz/<target>/
# so a later run continues from them.  Prints one result line per target:
#   target seconds executions exec/s coverage features corpus crashes
# and leaves libFuzzer's log and any crashing input next to the corpus.
set -uo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
build=$(cd "${1:-build}" && pwd); secs=${2:-600}; shift 2 2>/dev/null || shift $#
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(profile schema looptable redund rankjson rankmodel)
out=$build/bench-fuzz
mkdir -p "$out"
# Seeds once (several run.sh may share them); rm -rf BUILD/bench-fuzz/seeds
# to regenerate.
# (again when a target was added since: its seed directory is missing)
[ -d "$out/seeds/schema" ] && [ -d "$out/seeds/rankmodel" ] ||
    bash "$src/tests/fuzz/seeds.sh" "$build" "$src" "$out/seeds" >/dev/null || { echo "seeds failed"; exit 1; }
if [ ! -d "$out/seeds/profile" ]; then
    "$build/bin/profile_fuzz_seeds" "$out/seeds/profile" "$out/profile-work-unused" >/dev/null
fi
printf '%-10s %7s %12s %8s %6s %8s %8s %7s\n' target seconds executions exec/s cov ft corpus crashes
status=0
for t in "${targets[@]}"; do
    fz=$build/tests/fuzz/fuzz_$t
    [ "$t" = profile ] && fz=$build/vprof-core/tests/profile/profile_fuzz
    [ -x "$fz" ] || { echo "$t: no fuzzer at $fz"; status=1; continue; }
    mkdir -p "$out/$t/corpus" "$out/$t/crashes"
    # One process (fork mode re-reads the corpus for every job, which cut
    # the throughput of the big-input targets 100-fold here): a crash stops
    # the target, its input is kept, the count says 1.
    "$fz" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/$t/crashes/" "$out/$t/corpus" "$out/seeds/$t" \
        >"$out/$t/log" 2>&1
    execs=$(grep -oE 'average_exec_per_sec: *[0-9]+' "$out/$t/log" | grep -oE '[0-9]+$')
    total=$(grep -oE 'number_of_executed_units: *[0-9]+' "$out/$t/log" | grep -oE '[0-9]+$')
    cov=$(grep -oE 'cov: [0-9]+' "$out/$t/log" | tail -1 | grep -oE '[0-9]+')
    ft=$(grep -oE 'ft: [0-9]+' "$out/$t/log" | tail -1 | grep -oE '[0-9]+')
    corpus=$(ls "$out/$t/corpus" | wc -l)
    crashes=$(ls "$out/$t/crashes" | wc -l)
    [ "$crashes" -eq 0 ] || status=1
    printf '%-10s %7s %12s %8s %6s %8s %8s %7s\n' "$t" "$secs" "${total:-?}" "${execs:-?}" \
        "${cov:-?}" "${ft:-?}" "$corpus" "$crashes"
done
exit $status
