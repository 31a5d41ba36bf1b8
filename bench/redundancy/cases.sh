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
# PARTS=1 adds where `on`'s time goes, from the same probed binary with the
# function selected:
#   noinst:   instance recording off (VPROF_RED_INSTANCE_RATE=2^30): the
#             probes and cross-iteration sampling
#   noiter:   iteration sampling off (VPROF_RED_ITER_RATE=2^30): the probes
#             and instance recording
#   neither:  both off: the probes' countdowns and decisions alone
# as noinst/base, noiter/base and neither/base (instr.sh counts the same
# variants in instructions).
#
# All builds align loops to 64 bytes (ALIGN=64; ALIGN=0: as the compiler
# places them).  On an AMD EPYC a hot loop that straddles a 64-byte line
# costs up to 40 %: mysql27287's xml_parent_of loop, byte for byte the
# same in two probed builds, ran at 0.86x and 1.27x its base depending on
# where it landed.  The ratio should measure the probes, not that lottery
# (docs/redundancy.md, "One branch per iteration").
#
# LAYOUTS=K (K > 1, with ALIGN=0) measures each case in K code layouts
# instead: every variant is linked K times behind a padding object of
# 0, 64/K, 2*64/K, ... bytes (rounded to 16, the functions' alignment), which
# moves all of the case's code by that much against the 64-byte lines.  Each
# round runs every layout of every variant, interleaved; a variant's ratio is
# the geometric mean over the layouts of the median over the rounds of its
# time over the base's in the same layout.  Aligning one layout (ALIGN=64)
# also decides where the probed code's blocks fall, and does not align the
# blocks a loop is entered by falling into (redis8145, docs/redundancy.md
# "Use-list order"); averaging over layouts measures what a user gets in
# whatever layout the program has, as Stabilizer argues (Curtsinger and
# Berger, ASPLOS 2013).  The columns lo/hi give the lowest and highest
# per-layout ratio of `on`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "cases.sh: $*" >&2; exit 2; }
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || die "no build directory '${1:-$root/build}'"
rounds=${2:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
shift $(($# > 2 ? 2 : $#))
cc=$build/bin/vprof-cc
layouts=${LAYOUTS:-1}
[[ $layouts =~ ^[1-4]$ ]] || die "LAYOUTS must be 1, 2, 3 or 4 (layouts 16 bytes apart at most), not '$layouts'"
align=${ALIGN:-$([ "$layouts" -gt 1 ] && echo 0 || echo 64)}
[[ $align =~ ^[0-9]+$ ]] || die "ALIGN must be a number of bytes (0: off), not '$align'"
[ "$layouts" -gt 1 ] && [ "$align" -gt 0 ] &&
  die "LAYOUTS=$layouts needs ALIGN=0 (a 64-byte aligned section does not move with the padding)"
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
parts=${PARTS:-0}
[[ $parts =~ ^[01]$ ]] || die "PARTS must be 0 or 1, not '$parts'"
off=1073741824
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
# per layout, the median over the rounds of a variant's time over the base's
# in that layout; ratio: their geometric mean over the layouts (with one
# layout, the median of the per-round ratios as before); lo/hi: the lowest
# and highest of them
layout_ratios() {
  local k
  for ((k = 0; k < layouts; k++)); do
    paste "$work/$1.$k" "$work/base.$k" | awk '{print $1/$2}' | median
  done
}
ratio() { layout_ratios "$1" | awk '{s += log($1)} END {print exp(s / NR)}'; }
ratio_lo() { layout_ratios "$1" | sort -g | head -n1; }
ratio_hi() { layout_ratios "$1" | sort -g | tail -n1; }

# layout k: the case's code behind a padding object of pad[k] bytes (none
# for k = 0, so LAYOUTS=1 builds exactly what it built before)
pad=()
for ((k = 0; k < layouts; k++)); do
  pad+=($((k * 64 / layouts / 16 * 16)))
  if [ "$k" -gt 0 ]; then
    printf '\t.text\n\t.p2align 4\n__vprof_bench_pad:\n\t.skip %d, 0xcc\n\t.section .note.GNU-stack,"",@progbits\n' \
      "${pad[k]}" >"$work/pad$k.s"
    # assembled apart: vprof-cc passes its -mllvm flags to every input
    clang-14 -c "$work/pad$k.s" -o "$work/pad$k.o"
  fi
done
# build NAME CC [FLAG...]: the case in every layout, as NAME.0, NAME.1, ...
build() {
  local name=$1 comp=$2 k
  shift 2
  for ((k = 0; k < layouts; k++)); do
    local src=()
    [ "$k" -gt 0 ] && src=("$work/pad$k.o")
    "$comp" -O2 -std=gnu11 "${aflag[@]}" "$@" "${src[@]}" "$dir"/*.c -o "$work/$name.$k" -lm
  done
}
# run VARIANT LAYOUT RUNTIME BINARY [VAR=VALUE...]: one timed run of the
# slow input, appended to VARIANT.LAYOUT
# The process's strings (the environment, argv[0] and the file name the
# kernel puts at the top of the stack) take the same number of bytes in
# every variant: VPROF_BENCH_PAD fills up what the variant's variables,
# output name and binary name leave.  Otherwise the stack starts at a
# different address in each variant, which can move timings on its own
# (Mytkowicz et al., ASPLOS 2009).  It was not what made PARTS's variants of
# one binary disagree by 0.05-0.1 (bench/results/redundancy-overhead.md):
# they still do with it.
run() {
  local v=$1 k=$2 lib=$3 bin=$4 a n
  shift 4
  local out="$work/$v.vprof" exe="./$bin.$k"
  n=$((${#lib} + 12 + ${#out} + 14 + 2 * (${#exe} + 1)))
  for a in "$@"; do n=$((n + ${#a} + 1)); done
  [ "$n" -lt 1024 ] || die "the variables of variant $v take $n bytes (at most 1023)"
  local padv
  padv=$(printf '%*s' $((1024 - n)) '' | tr ' ' x)
  # shellcheck disable=SC2086
  (cd "$work" && timeit env LD_PRELOAD="$lib" VPROF_OUTPUT="$out" "$@" VPROF_BENCH_PAD="$padv" \
    "$exe" $args) >>"$work/$v.$k"
}

t7h=""
[ "$t7" = 1 ] && t7h=$(printf "  %10s %12s" rate1/base noprune/base)
[ "$parts" = 1 ] && t7h+=$(printf "  %11s %11s %12s" noinst/base noiter/base neither/base)
lh=""
if [ "$layouts" -gt 1 ]; then
  lh=$(printf "  %7s %7s" lo hi)
  echo "# $layouts layouts: the cases' code moved by ${pad[*]} bytes; ratios are geometric means over them"
fi
printf "%-24s %-28s %8s %10s %8s%s%s%s\n" case function base_s none/base on/base "$lh" "${old:+  old/base}" "$t7h"
: >"$work/all_none"; : >"$work/all_on"; : >"$work/all_old"; : >"$work/all_rate1"; : >"$work/all_noprune"
: >"$work/all_noinst"; : >"$work/all_noiter"; : >"$work/all_neither"
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
  build "$c" "$cc" -mllvm -vprof-loop-probes=0
  build "$c.base" "$cc" -mllvm -vprof-loop-probes=0 -mllvm -vprof-redundancy-probes=0
  [ -n "$old" ] && build "$c.old" "$old/bin/vprof-cc" -mllvm -vprof-loop-probes=0
  [ "$t7" = 1 ] && build "$c.noprune" "$cc" -mllvm -vprof-loop-probes=0 -mllvm -vprof-redundancy-no-pruning
  for ((k = 0; k < layouts; k++)); do
    for v in base none on old rate1 noprune noinst noiter neither; do : >"$work/$v.$k"; done
  done
  for ((i = 0; i < rounds; i++)); do
    for ((k = 0; k < layouts; k++)); do
      run base "$k" "$rt" "$c.base"
      run none "$k" "$rt" "$c"
      run on "$k" "$rt" "$c" VPROF_LOOP_FUNCTIONS="$fn"
      [ -z "$old" ] || run old "$k" "$old/lib/libvprof-rt.so" "$c.old" VPROF_LOOP_FUNCTIONS="$fn"
      if [ "$t7" = 1 ]; then
        run rate1 "$k" "$rt" "$c" VPROF_LOOP_FUNCTIONS="$fn" VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1
        run noprune "$k" "$rt" "$c.noprune" VPROF_LOOP_FUNCTIONS="$fn"
      fi
      if [ "$parts" = 1 ]; then
        run noinst "$k" "$rt" "$c" VPROF_LOOP_FUNCTIONS="$fn" VPROF_RED_INSTANCE_RATE=$off
        run noiter "$k" "$rt" "$c" VPROF_LOOP_FUNCTIONS="$fn" VPROF_RED_ITER_RATE=$off
        run neither "$k" "$rt" "$c" VPROF_LOOP_FUNCTIONS="$fn" VPROF_RED_ITER_RATE=$off \
          VPROF_RED_INSTANCE_RATE=$off
      fi
    done
  done
  rn=$(ratio none)
  ro=$(ratio on)
  echo "$rn" >>"$work/all_none"; echo "$ro" >>"$work/all_on"
  rlh=""
  [ "$layouts" -gt 1 ] && rlh=$(printf "  %7.4f %7.4f" "$(ratio_lo on)" "$(ratio_hi on)")
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
  if [ "$parts" = 1 ]; then
    for v in noinst noiter neither; do ratio "$v" >>"$work/all_$v"; done
    r7+=$(printf "  %11.4f %11.4f %12.4f" "$(ratio noinst)" "$(ratio noiter)" "$(ratio neither)")
  fi
  printf "%-24s %-28s %8.3f %10.4f %8.4f%s%s%s\n" "$c" "$fn" "$(cat "$work"/base.[0-9] | median)" "$rn" "$ro" \
    "$rlh" "$rold" "$r7"
done
mold=""
[ -n "$old" ] && mold=$(printf "  %8.4f" "$(median <"$work/all_old")")
m7=""
[ "$t7" = 1 ] && m7=$(printf "  %10.4f %12.4f" "$(median <"$work/all_rate1")" "$(median <"$work/all_noprune")")
[ "$parts" = 1 ] && m7+=$(printf "  %11.4f %11.4f %12.4f" "$(median <"$work/all_noinst")" \
  "$(median <"$work/all_noiter")" "$(median <"$work/all_neither")")
mlh=""
[ "$layouts" -gt 1 ] && mlh=$(printf "  %7s %7s" "" "")
printf "%-24s %-28s %8s %10.4f %8.4f%s%s%s\n" "median" "" "" "$(median <"$work/all_none")" \
  "$(median <"$work/all_on")" "$mlh" "$mold" "$m7"
