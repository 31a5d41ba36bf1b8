#!/usr/bin/env bash
# bench/overhead/run.sh [BUILD_DIR] - overhead of `vprof record` against a
# plain run, `perf record -F 997 -g` and gperftools' CPU profiler at 997 Hz,
# on a generated CPU-bound program with >= 500 monitored variables; start-up
# cost of the PC index for >= 1,000 variables; location coverage at -O2.
# Results: medians of interleaved rounds (order rotated each round), printed
# as Markdown on stdout.  Environment: ROUNDS (11), WORK (16000: ~2 s),
# NFUNCS (80: ~570 variables), NFUNCS_BIG (142: ~1,005 variables),
# BUILD_ONLY (set: build the programs and helpers, measure nothing).
# Bench-only packages: bench/deps.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$repo/build-rt2}" && pwd)
W=$(mktemp -d /tmp/vprof-overhead.XXXXXX)
trap 'rm -rf "$W"' EXIT
python3 "$here/gen.py" "${NFUNCS:-80}" > "$W/prog.c"
python3 "$here/gen.py" "${NFUNCS_BIG:-142}" > "$W/big.c"
"$build/bin/vprof-cc" -O2 -o "$W/prog" "$W/prog.c"
"$build/bin/vprof-cc" -O2 -o "$W/big" "$W/big.c"
cc -O2 -I"$repo/vprof-core/include" -o "$W/index_time" "$here/index_time.c" \
  "$build/lib/libvprof_core.a" -ldw -lelf -lz -lm -lstdc++
# BUILD_ONLY=1: stop here, the helpers built (test bench.scripts)
[ -z "${BUILD_ONLY:-}" ] || { echo "bench/overhead: built prog, big and index_time"; exit 0; }
python3 "$here/measure.py" "$build" "$W" "${ROUNDS:-11}" "${WORK:-16000}"
