#!/usr/bin/env bash
# run.sh FUZZER SEEDS WORK SECONDS: one short libFuzzer run over the seeds
# (read-only) and a work corpus; fails on any crash, leak, timeout or
# sanitizer report, and prints libFuzzer's final statistics.
set -uo pipefail
fuzzer=$1 seeds=$2 work=$3 secs=$4
[ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ] || { echo "FAIL: no seeds in $seeds"; exit 1; }
rm -rf "$work.artifacts"  # (what a failed run found is printed below)
mkdir -p "$work" "$work.artifacts"
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work.artifacts/" "$work" "$seeds" 2>"$work.log"
rc=$?
grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$work.log"
grep -E 'cov: [0-9]+' "$work.log" | tail -1
if [ $rc -ne 0 ]; then
    grep -E -A30 'ERROR: |runtime error|Test unit written' "$work.log" | head -60
    # The input itself, so a failure on a machine whose files are gone (CI)
    # can be replayed: base64 -d > crash; FUZZER crash.
    for a in "$work.artifacts"/*; do
        [ -f "$a" ] && [ "$(stat -c %s "$a")" -le 65536 ] || continue
        echo "input $(basename "$a") (base64):"; base64 -w 76 "$a"
    done
    echo "FAIL: $(basename "$fuzzer") found a problem (status $rc); artifacts in $work.artifacts"
    exit 1
fi
echo "ok: $(basename "$fuzzer"): no crash in ${secs}s"
