#!/usr/bin/env bash
# Where the redundancy probes' overhead goes on bench/cases programs, in
# instructions executed (valgrind's callgrind), which the machine's noise
# does not move.  A complement to cases.sh's interleaved wall-time ratios,
# not a replacement: an instruction is not a cycle (a thread-local
# decrement and a cache-missing load count the same).
#
#   bench/redundancy/instr.sh BUILD_DIR CASE [ARGS...]
#
# Builds CASE as cases.sh does (vprof-cc -O2, loopclass probes off; the
# base without redundancy probes) but with loops placed as the compiler
# places them: the padding -falign-loops=64 puts before a loop header is
# executed by every path that falls into it (moz477564: 7 nops per matching
# sibling in the probed build, 1 in the base, +9.6 % of the instructions
# with nothing selected), and here it is instructions that are counted, not
# where they land.  It runs it under callgrind
# with the runtime preloaded, on ARGS (default: the truth's slow_args; under
# callgrind a run takes about 40x longer, so a smaller input is often
# wiser), in five variants:
#   base     the binary without redundancy probes
#   none     the probed binary, nothing selected
#   on       the truth's root-cause function selected, default rates
#   noinst   ... with instance recording off (VPROF_RED_INSTANCE_RATE=2^30)
#   noiter   ... with iteration sampling off (VPROF_RED_ITER_RATE=2^30)
# and prints each variant's instructions and ratio to base, then the
# functions whose instructions differ most between base and on.  From
# them: fixed probe cost = none - base, iteration sampling ~ on - noiter,
# instance recording ~ on - noinst.
#
# PROBED_FLAGS adds compiler flags to the probed build only (e.g.
# "-mllvm -vprof-redundancy-parser-uselists=0" to see what an option of the
# pass is worth).
#
# Needs valgrind (bench/deps.sh).  valgrind 3.19 cannot read clang-14's
# DWARF 5 and stops on the perf-event SIGTRAP the runtime samples with, so
# the binaries and the runtime run from copies without debug info (their
# symbol tables stay) and with VPROF_PERF_SIGTRAP=0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "instr.sh: $*" >&2; exit 2; }
[ $# -ge 2 ] || die "usage: instr.sh BUILD_DIR CASE [ARGS...]"
build=$(cd "$1" 2>/dev/null && pwd) || die "no build directory '$1'"
case=$2
shift 2
dir=$root/bench/cases/$case
[ -f "$dir/truth.json" ] || die "no bench case '$case' (bench/cases/$case/truth.json)"
command -v valgrind >/dev/null || die "valgrind is not installed (bench/deps.sh)"
command -v callgrind_annotate >/dev/null || die "callgrind_annotate is not installed (valgrind)"
cc=$build/bin/vprof-cc
rt=$build/lib/libvprof-rt.so
[ -x "$cc" ] && [ -f "$rt" ] || die "$build has no bin/vprof-cc and lib/libvprof-rt.so (build it first)"
read -r fn slow < <(python3 - "$dir/truth.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
rc = t.get('root_cause') or {}
print(rc.get('function', '-'), ' '.join(t.get('slow_args', [])))
EOF
)
[ "$fn" != "-" ] || die "$case is a control: it has no root-cause function to select"
if [ $# -gt 0 ]; then args=("$@"); else read -r -a args <<<"$slow"; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-O2 -std=gnu11 -mllvm -vprof-loop-probes=0)
read -r -a extra <<<"${PROBED_FLAGS:-}"
"$cc" "${flags[@]}" "${extra[@]}" "$dir"/*.c -o "$work/probed.g" -lm
"$cc" "${flags[@]}" -mllvm -vprof-redundancy-probes=0 "$dir"/*.c -o "$work/base.g" -lm
strip --strip-debug -o "$work/probed" "$work/probed.g"
strip --strip-debug -o "$work/base" "$work/base.g"
strip --strip-debug -o "$work/rt.so" "$rt"

# run VARIANT BINARY [VAR=VALUE...]: the callgrind output of the program
# (not of env, which execs it) is the one file left matching cg.VARIANT.*
run() {
  local v=$1 bin=$2
  shift 2
  (cd "$work" && valgrind --tool=callgrind --trace-children=yes \
    --callgrind-out-file="$work/cg.$v.%p" env VPROF_PERF_SIGTRAP=0 LD_PRELOAD="$work/rt.so" \
    VPROF_OUTPUT="$work/$v.vprof" "$@" "./$bin" "${args[@]}" >"$work/$v.out" 2>"$work/$v.err") ||
    die "$v: the run failed: $(tail -n 3 "$work/$v.err" | tr '\n' ' ')"
  local f
  for f in "$work"/cg."$v".*; do
    if grep -q "^cmd: *\./$bin\( \|$\)" "$f"; then mv "$f" "$work/$v.cg"; else rm -f "$f"; fi
  done
  [ -f "$work/$v.cg" ] || die "$v: no callgrind output for ./$bin"
}
total() { awk '/^totals:/ {print $2}' "$1"; }

off=1073741824
run base base
run none probed
run on probed VPROF_LOOP_FUNCTIONS="$fn"
run noinst probed VPROF_LOOP_FUNCTIONS="$fn" VPROF_RED_INSTANCE_RATE=$off
run noiter probed VPROF_LOOP_FUNCTIONS="$fn" VPROF_RED_ITER_RATE=$off
b=$(total "$work/base.cg")
echo "$case ($fn) on ${args[*]}: instructions executed (callgrind Ir)"
printf "%-8s %16s %8s\n" variant instructions /base
for v in base none on noinst noiter; do
  n=$(total "$work/$v.cg")
  printf "%-8s %16s %8.4f\n" "$v" "$n" "$(echo "$n / $b" | bc -l)"
done
n=$(total "$work/none.cg"); o=$(total "$work/on.cg")
ni=$(total "$work/noinst.cg"); nt=$(total "$work/noiter.cg")
printf "fixed probes (none - base) %.1f%%, iteration sampling (on - noiter) %.1f%%, instance recording (on - noinst) %.1f%% of base\n" \
  "$(echo "100 * ($n - $b) / $b" | bc -l)" "$(echo "100 * ($o - $nt) / $b" | bc -l)" \
  "$(echo "100 * ($o - $ni) / $b" | bc -l)"
echo
echo "functions, base against on (Ir; a probed clone counts as its function):"
for v in base on; do
  callgrind_annotate --threshold=100 "$work/$v.cg" 2>/dev/null |
    awk '/^ *[0-9,]+ +\(/ && /:/ { n=$1; gsub(",", "", n); f=$0; sub(/^.*\) +/, "", f);
         sub(/ \[.*$/, "", f); sub(/^.*:/, "", f); sub(/\.vprof_probed$/, "", f); print f, n }' \
      >"$work/$v.fn"
done
python3 - "$work/base.fn" "$work/on.fn" "$b" <<'EOF'
import sys
def load(p):
    d = {}
    for line in open(p):
        f, n = line.rsplit(' ', 1)
        d[f] = d.get(f, 0) + int(n)
    return d
base, on, b = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
rows = sorted(set(base) | set(on), key=lambda f: -abs(on.get(f, 0) - base.get(f, 0)))
print('%-44s %15s %15s %8s' % ('function', 'base', 'on', '+% base'))
for f in rows[:12]:
    x, y = base.get(f, 0), on.get(f, 0)
    if x == y:
        break
    print('%-44s %15d %15d %+8.2f' % (f[:44], x, y, 100.0 * (y - x) / b))
EOF
