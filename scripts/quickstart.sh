#!/usr/bin/env bash
# Install dependencies, build vprof, and diagnose the bundled example:
# profile a normal and a slow run of examples/recovery and rank the
# root-cause functions.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
      -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make -s -C examples/recovery CC="$top/build/bin/vprof-cc" CFLAGS="-O2" \
     OUT="$work" >/dev/null
app=examples/recovery/recovery
echo "== normal run: $app 1500000 1024"
build/bin/vprof record -o "$work/normal.vprof" -- "$app" 1500000 1024
echo "== slow run:   $app 1500000 1024 large"
build/bin/vprof record -o "$work/slow.vprof" -- "$app" 1500000 1024 large
echo
build/bin/vprof rank --normal "$work/normal.vprof" --buggy "$work/slow.vprof" --top 5
