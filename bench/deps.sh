#!/bin/sh
# bench/deps.sh - packages only the benchmarks need (not the tests: those
# are in scripts/deps.sh).  bench/overhead/run.sh and bench/run.sh compare
# against `perf record` (linux-perf) and gperftools' CPU profiler; run.sh
# skips either one with a note when it is missing.  bench/redundancy/*.sh and
# bench/loopclass/overhead.sh time runs with bc; bench/redundancy/instr.sh
# and bench/loopclass/instr.sh count instructions with valgrind's callgrind.
set -eu
PKGS="linux-perf google-perftools libgoogle-perftools-dev bc valgrind"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
fi
