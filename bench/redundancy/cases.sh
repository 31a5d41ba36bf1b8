#!/usr/bin/env bash
# Overhead of the redundancy probes on the bench/cases programs, per diagnosed
# function (issue: "<= 5 % per diagnosed function"), on the slow input the
# loop stage runs (docs/redundancy.md, "Overhead").
#
#   bench/redundancy/cases.sh [BUILD_DIR] [ROUNDS] [CASE...]
#
# Each case is built twice with vprof-cc -O2 and loopclass's probes off
# (-mllvm -vprof-loop-probes=0), so only the redundancy probes are measured:
# without them (-mllvm -vprof-redundancy-probes=0) and with them.  Each is
# run ROUNDS times (default 5), interleaved, with the runtime preloaded:
#   base: the binary without redundancy probes
#   none: the probed binary, nothing selected (every probed function takes
#         its gate and runs the original code; callees with sources are
#         left as compiled, recorded iterations call copies of them)
#   on:   the probed binary, VPROF_LOOP_FUNCTIONS=<the truth's root-cause
#         function>, default rates (1/1000 iterations, 1/100 instances)
# and prints per case the base median and the medians of the per-round
# ratios none/base and on/base (wall time), then their medians over the
# cases.  Controls have no root cause and are skipped.
#
# OLD=BUILD_DIR (another build, e.g. of an earlier commit) adds a variant
# interleaved with the others, for an A/B of two versions of the probes:
#   old:  the case built with OLD's vprof-cc, its root-cause function
#         selected, run with OLD's runtime
# and a column old/base (the base stays this build's).
#
# TABLE7=1 adds LDoctor's Table 7 columns, the effect of each optimisation:
#   rate1:    the probed binary, the function selected, every iteration and
#             every instance recorded (VPROF_RED_ITER_RATE=1
#             VPROF_RED_INSTANCE_RATE=1): without sampling
#   noprune:  the case built with -mllvm -vprof-redundancy-no-pruning, the
#             function selected, default rates: without the static pruning
# as rate1/base and noprune/base.
#
# All builds align loops to 64 bytes (ALIGN=64; ALIGN=0: as the compiler
# places them).  On an AMD EPYC a hot loop that straddles a 64-byte line
# costs up to 40 %: mysql27287's xml_parent_of loop, byte for byte the
# same in two probed builds, ran at 0.86x and 1.27x its base depending on
# where it landed.  The ratio should measure the probes, not that lottery
# (docs/redundancy.md, "One branch per iteration").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "cases.sh: $*" >&2; exit 2; }
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || die "no build directory '${1:-$root/build}'"
rounds=${2:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
shift $(($# > 2 ? 2 : $#))
cc=$build/bin/vprof-cc
align=${ALIGN:-64}
[[ $align =~ ^[0-9]+$ ]] || die "ALIGN must be a number of bytes (0: off), not '$align'"
aflag=()
[ "$align" -gt 0 ] && aflag=("-falign-loops=$align")
rt=$build/lib/libvprof-rt.so
[ -x "$cc" ] && [ -f "$rt" ] || die "$build has no bin/vprof-cc and lib/libvprof-rt.so (build it first)"
old=""
if [ -n "${OLD:-}" ]; then
  old=$(cd "$OLD" 2>/dev/null && pwd) || die "OLD: no build directory '$OLD'"
  [ -x "$old/bin/vprof-cc" ] && [ -f "$old/lib/libvprof-rt.so" ] ||
    die "OLD: $old has no bin/vprof-cc and lib/libvprof-rt.so (build it first)"
fi
t7=${TABLE7:-0}
[[ $t7 =~ ^[01]$ ]] || die "TABLE7 must be 0 or 1, not '$t7'"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=("$@")
for c in "${cases[@]}"; do
  [ -f "$root/bench/cases/$c/truth.json" ] || die "no bench case '$c' (bench/cases/$c/truth.json)"
done
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$root"/bench/cases/*/; do
    [ -f "$d/truth.json" ] && cases+=("$(basename "$d")")
  done
fi

now() { date +%s.%N; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now); echo "$t1 - $t0" | bc -l; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# the median over the rounds of a variant's time over the base's
ratio() { paste "$work/$1" "$work/base" | awk '{print $1/$2}' | median; }

t7h=""
[ "$t7" = 1 ] && t7h=$(printf "  %10s %12s" rate1/base noprune/base)
printf "%-24s %-28s %8s %10s %8s%s%s\n" case function base_s none/base on/base "${old:+  old/base}" "$t7h"
: >"$work/all_none"; : >"$work/all_on"; : >"$work/all_old"; : >"$work/all_rate1"; : >"$work/all_noprune"
for c in "${cases[@]}"; do
  dir=$root/bench/cases/$c
  read -r fn args < <(python3 - "$dir/truth.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
rc = t.get('root_cause') or {}
print(rc.get('function', '-'), ' '.join(t.get('slow_args', [])))
EOF
)
  [ "$fn" = "-" ] && continue
  "$cc" -O2 -std=gnu11 "${aflag[@]}" -mllvm -vprof-loop-probes=0 "$dir"/*.c -o "$work/$c" -lm
  "$cc" -O2 -std=gnu11 "${aflag[@]}" -mllvm -vprof-loop-probes=0 -mllvm -vprof-redundancy-probes=0 \
    "$dir"/*.c -o "$work/$c.base" -lm
  [ -n "$old" ] && "$old/bin/vprof-cc" -O2 -std=gnu11 "${aflag[@]}" -mllvm -vprof-loop-probes=0 \
    "$dir"/*.c -o "$work/$c.old" -lm
  [ "$t7" = 1 ] && "$cc" -O2 -std=gnu11 "${aflag[@]}" -mllvm -vprof-loop-probes=0 \
    -mllvm -vprof-redundancy-no-pruning "$dir"/*.c -o "$work/$c.noprune" -lm
  : >"$work/base"; : >"$work/none"; : >"$work/on"; : >"$work/old"; : >"$work/rate1"; : >"$work/noprune"
  for ((i = 0; i < rounds; i++)); do
    # shellcheck disable=SC2086
    (cd "$work" && timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/base.vprof" "./$c.base" $args) >>"$work/base"
    # shellcheck disable=SC2086
    (cd "$work" && timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/none.vprof" "./$c" $args) >>"$work/none"
    # shellcheck disable=SC2086
    (cd "$work" && timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/on.vprof" VPROF_LOOP_FUNCTIONS="$fn" \
      "./$c" $args) >>"$work/on"
    # shellcheck disable=SC2086
    [ -z "$old" ] || (cd "$work" && timeit env LD_PRELOAD="$old/lib/libvprof-rt.so" \
      VPROF_OUTPUT="$work/old.vprof" VPROF_LOOP_FUNCTIONS="$fn" "./$c.old" $args) >>"$work/old"
    if [ "$t7" = 1 ]; then
      # shellcheck disable=SC2086
      (cd "$work" && timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/rate1.vprof" VPROF_LOOP_FUNCTIONS="$fn" \
        VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 "./$c" $args) >>"$work/rate1"
      # shellcheck disable=SC2086
      (cd "$work" && timeit env LD_PRELOAD="$rt" VPROF_OUTPUT="$work/noprune.vprof" VPROF_LOOP_FUNCTIONS="$fn" \
        "./$c.noprune" $args) >>"$work/noprune"
    fi
  done
  rn=$(ratio none)
  ro=$(ratio on)
  echo "$rn" >>"$work/all_none"; echo "$ro" >>"$work/all_on"
  rold=""
  if [ -n "$old" ]; then
    rold=$(ratio old)
    echo "$rold" >>"$work/all_old"
    rold=$(printf "  %8.4f" "$rold")
  fi
  r7=""
  if [ "$t7" = 1 ]; then
    r1=$(ratio rate1)
    rp=$(ratio noprune)
    echo "$r1" >>"$work/all_rate1"; echo "$rp" >>"$work/all_noprune"
    r7=$(printf "  %10.4f %12.4f" "$r1" "$rp")
  fi
  printf "%-24s %-28s %8.3f %10.4f %8.4f%s%s\n" "$c" "$fn" "$(median <"$work/base")" "$rn" "$ro" "$rold" "$r7"
done
mold=""
[ -n "$old" ] && mold=$(printf "  %8.4f" "$(median <"$work/all_old")")
m7=""
[ "$t7" = 1 ] && m7=$(printf "  %10.4f %12.4f" "$(median <"$work/all_rate1")" "$(median <"$work/all_noprune")")
printf "%-24s %-28s %8s %10.4f %8.4f%s%s\n" "median" "" "" "$(median <"$work/all_none")" \
  "$(median <"$work/all_on")" "$mold" "$m7"
