#!/usr/bin/env bash
# Install dependencies, build vprof, and diagnose the bundled example:
# `vprof diagnose` records a normal and a slow run of examples/recovery,
# ranks the root-cause functions, probes the loops of the top five and
# prints the combined report.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
      -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$top/build/bin/vprof-cc" -O2 examples/recovery/recovery.c -o "$work/recovery"
cd "$work"
"$top/build/bin/vprof" diagnose --top 5 \
    --normal './recovery 1500000 1024' \
    --buggy './recovery 1500000 1024 large'
