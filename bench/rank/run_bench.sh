#!/bin/sh
# Measure `vprof rank` throughput (MB/s of input, one core) and peak RSS on a
# synthetic profile pair.  usage: bench/rank/run_bench.sh [MB_PER_FILE] [BUILD_DIR]
# Default 520 MB per file (>= 1 GB of value samples in total).  Run from the
# repository root after building `vprof` in BUILD_DIR (default build-rank).
set -eu
MB=${1:-520}
BUILD=${2:-build-rank}
ROOT=$(pwd)
WORK=${TMPDIR:-/tmp}/vprof-rank-bench
mkdir -p "$WORK"
CC=${CC:-clang-14}
$CC -g -O0 -fno-pie -no-pie "$ROOT/vprof-core/tests/rank/prog_rank.c" -o "$WORK/prog_rank"
$CC -O2 -std=gnu11 -I"$ROOT/vprof-core/include" "$ROOT/bench/rank/gen_rank_profiles.c" \
    "$BUILD/lib/libvprof_core.a" -ldw -lelf -lm -lz -lstdc++ -o "$WORK/gen_rank_profiles"
"$WORK/gen_rank_profiles" "$WORK/prog_rank" "$WORK/normal.vprof" "$WORK/slow.vprof" "$MB"
BYTES=$(( $(stat -c %s "$WORK/normal.vprof") + $(stat -c %s "$WORK/slow.vprof") ))
# warm the page cache so we measure vprof, not the disk
cat "$WORK/normal.vprof" "$WORK/slow.vprof" > /dev/null
/usr/bin/time -v taskset -c 0 "$BUILD/bin/vprof" rank --normal "$WORK/normal.vprof" \
    --buggy "$WORK/slow.vprof" --format json -o "$WORK/rank.json" 2> "$WORK/time.txt"
WALL=$(grep "Elapsed (wall clock)" "$WORK/time.txt" | awk '{print $NF}')
RSS_KB=$(grep "Maximum resident set size" "$WORK/time.txt" | awk '{print $NF}')
SECS=$(echo "$WALL" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
echo "input_bytes=$BYTES wall_s=$SECS peak_rss_kb=$RSS_KB"
awk -v b="$BYTES" -v s="$SECS" -v r="$RSS_KB" 'BEGIN {
  printf "throughput_MBps=%.1f rss_over_input=%.2f\n", b/1e6/s, r*1024/b }'
