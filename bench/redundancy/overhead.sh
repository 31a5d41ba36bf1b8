#!/usr/bin/env bash
# Overhead of the redundancy probes (docs/redundancy.md), LDoctor Table 7 style.
#
#   bench/redundancy/overhead.sh [BUILD_DIR] [RUNS]
#
# Each program is built three times with vprof-cc -O2 and loopclass's probes
# off (-mllvm -vprof-loop-probes=0), so only the redundancy probes are
# measured (bench/loopclass/ measures loopclass's):
#   base     no redundancy probes either (-mllvm -vprof-redundancy-probes=0)
#   probed   the redundancy probes (gate + clone)
#   noprune  probes recording every source (-mllvm -vprof-redundancy-no-pruning)
# and run RUNS times (default 11), interleaved:
#   base, probed                      no runtime           -> off  = probed/base
#   none:    probed, runtime, nothing selected
#   on:      probed, runtime, VPROF_LOOP_FUNCTIONS=<fn>     -> on   = on/none
#   rate1:   same, VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 -> rate1/none
#   noprune: noprune binary, runtime, <fn> selected        -> noprune/none
# All builds align loops to 64 bytes (ALIGN=64, ALIGN=0: off; cases.sh
# explains why).  Ratios are medians of the per-round ratios.  After each program the verdicts
# of the default run are printed (stderr), so a run whose probes did not fire
# shows.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=$(cd "${1:-$root/build-loopint}" && pwd)
runs=${2:-11}
cc=$build/bin/vprof-cc
align=${ALIGN:-64}
[[ $align =~ ^[0-9]+$ ]] || { echo "overhead.sh: ALIGN must be a number of bytes (0: off), not '$align'" >&2; exit 2; }
rt=$build/lib/libvprof-rt.so
report=$build/redundancy/redundancy-report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|sources|diagnosed function|arguments
progs=(
  "telnet|$root/bench/cases/apache34464_telnet/telnettask.c|indexOf|4 10000 200000 1"
  "wordcount|$root/bench/loopclass/wordcount.c|count_word|30"
  "matmul|$root/bench/loopclass/matmul.c|matmul|4"
)
[ -n "${VPROF_BENCH_ONLY:-}" ] && progs=("${progs[@]:$VPROF_BENCH_ONLY:1}")

now() { date +%s.%N; }
# The variables go to the program only (env), never to date/bc.
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); echo "$t1 - $t0" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { paste "$work/$1" "$work/$2" | awk '{print $1/$2}' | median; }

printf "%-10s %8s %8s %8s %8s %8s %8s %9s\n" program base_s off none_s on_s on rate1 noprune
for entry in "${progs[@]}"; do
  IFS='|' read -r p src fn args <<<"$entry"
  flags=(-O2 -std=gnu11 -mllvm -vprof-loop-probes=0)
  [ "$align" -gt 0 ] && flags+=("-falign-loops=$align")
  "$cc" "${flags[@]}" -mllvm -vprof-redundancy-probes=0 "$src" -o "$work/$p.base" -lm
  "$cc" "${flags[@]}" "$src" -o "$work/$p.probed" -lm
  "$cc" "${flags[@]}" -mllvm -vprof-redundancy-no-pruning "$src" -o "$work/$p.noprune" -lm
  for f in base off none on rate1 noprune; do : >"$work/$f"; done
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    timeit "$work/$p.base" $args >>"$work/base"
    timeit "$work/$p.probed" $args >>"$work/off"
    timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/none.vprof" "$work/$p.probed" $args >>"$work/none"
    timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/on.vprof" VPROF_LOOP_FUNCTIONS="$fn" \
      "$work/$p.probed" $args >>"$work/on"
    timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/rate1.vprof" VPROF_LOOP_FUNCTIONS="$fn" \
      VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 "$work/$p.probed" $args >>"$work/rate1"
    timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/noprune.vprof" VPROF_LOOP_FUNCTIONS="$fn" \
      "$work/$p.noprune" $args >>"$work/noprune"
  done
  printf "%-10s %8.3f %8.4f %8.3f %8.3f %8.4f %8.2f %9.4f\n" "$p" \
    "$(median <"$work/base")" "$(ratio off base)" "$(median <"$work/none")" \
    "$(median <"$work/on")" "$(ratio on none)" "$(ratio rate1 none)" "$(ratio noprune none)"
  "$report" "$work/$p.probed" "$work/on.vprof" | grep -A2 "^loop $fn:" | sed 's/^/  /' >&2
done
