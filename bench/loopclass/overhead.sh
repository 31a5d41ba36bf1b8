#!/usr/bin/env bash
# Overhead of the loopclass probes (docs/loopclass.md, "Probe scheme").
#
#   bench/loopclass/overhead.sh [BUILD_DIR] [RUNS]
#
# For each program, four builds/runs, interleaved RUNS times (default 11):
#   base     vprof-cc -O2, no loop probes at all (no gates, no clones)
#   off      vprof-cc -O2 with loopclass's probes only (gates + clones; the
#            redundancy probes are measured by bench/redundancy/), run
#            without the runtime
#   rt-none  vprof-cc -O2, runtime preloaded, no loop selected
#   rt-on    vprof-cc -O2, runtime preloaded, VPROF_LOOP_FUNCTIONS=<hot function>
# and prints the median wall-clock ratios off/base (probes off) and
# rt-on/rt-none (probes on for the loops of one function; both runs pay the
# same sampler cost, so the ratio isolates the probes).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build-loopint}
runs=${2:-11}
cc=$build/bin/vprof-cc
rt=$build/lib/libvprof-rt.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

progs=(${VPROF_BENCH_PROGS:-"listsearch:lookup" "matmul:matmul" "wordcount:count_word"})

now() { date +%s.%N; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); echo "$t1 - $t0" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

printf "%-11s %9s %9s %9s %9s %9s %9s\n" program base_s off_s off/base rtnone_s rton_s on/none
for entry in "${progs[@]}"; do
  p=${entry%%:*}; fn=${entry#*:}
  "$cc" -O2 -mllvm -vprof-loop-probes=0 -mllvm -vprof-redundancy-probes=0 \
    "$here/$p.c" -o "$work/$p.base"
  "$cc" -O2 -mllvm -vprof-redundancy-probes=0 "$here/$p.c" -o "$work/$p.probed"
  : >"$work/base"; : >"$work/off"; : >"$work/none"; : >"$work/on"
  for ((i = 0; i < runs; i++)); do
    timeit "$work/$p.base" >>"$work/base"
    timeit "$work/$p.probed" >>"$work/off"
    # env, not VAR=... timeit: the variables must reach the program only, not
    # the date/bc processes timeit runs (they would load the runtime and
    # overwrite the profile)
    timeit env VPROF_OUTPUT="$work/none.vprof" LD_PRELOAD="$rt" "$work/$p.probed" >>"$work/none"
    timeit env VPROF_OUTPUT="$work/on.vprof" VPROF_LOOP_FUNCTIONS="$fn" LD_PRELOAD="$rt" \
      "$work/$p.probed" >>"$work/on"
  done
  # per-run ratios of interleaved pairs, then their median
  rb=$(paste "$work/off" "$work/base" | awk '{print $1/$2}' | median)
  ro=$(paste "$work/on" "$work/none" | awk '{print $1/$2}' | median)
  printf "%-11s %9.3f %9.3f %9.4f %9.3f %9.3f %9.4f\n" "$p" \
    "$(median <"$work/base")" "$(median <"$work/off")" "$rb" \
    "$(median <"$work/none")" "$(median <"$work/on")" "$ro"
  # the probes really ran
  "$build/loopclass/loopclass-report" "$work/$p.probed" "$work/on.vprof" | sed -n 2p >&2
done
