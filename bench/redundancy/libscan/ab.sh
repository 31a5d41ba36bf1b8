#!/usr/bin/env bash
# The cost of the library-scan repeated-call units: libscan_bench.c built
# with them (on) and without (-mllvm -vprof-repeated-calls=0: off), both
# with the loop and redundancy probes otherwise alike, its four functions
# selected, default rates.  ROUNDS interleaved runs (order alternating),
# user+sys time; prints the medians and the median of the per-round ratios.
#
#   bench/redundancy/libscan/ab.sh [BUILD_DIR] [ROUNDS] [PROGRAM.c]
#
# PROGRAM.c (default libscan_bench.c) and the environment:
#   OFF_FLAGS  the "off" build's flags (default -mllvm -vprof-repeated-calls=0;
#              -mllvm -vprof-prefix-pairs=0 measures the string-rescan pairs)
#   FUNCS      the functions selected (default escape,count,fixed_cmp,rolling_cmp)
#   ARGS       the program's arguments (default none), split as a shell would
#   LIBS       libraries to link (default none; -lm for math_bench.c)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "ab.sh: $*" >&2; exit 2; }
[ -x "${1:-build}/bin/vprof-cc" ] || die "no ${1:-build}/bin/vprof-cc: give the build directory"
build=$(cd "${1:-build}" && pwd)
rounds=${2:-41}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer, not '$rounds'"
prog=${3:-$here/libscan_bench.c}
[ -r "$prog" ] || die "cannot read $prog"
read -r -a off_flags <<< "${OFF_FLAGS:--mllvm -vprof-repeated-calls=0}"
funcs=${FUNCS:-escape,count,fixed_cmp,rolling_cmp}
read -r -a libs <<< "${LIBS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/vprof-cc" -O2 -g "$prog" -o "$work/on" ${libs[@]+"${libs[@]}"}
"$build/bin/vprof-cc" -O2 -g "$prog" -o "$work/off" "${off_flags[@]}" ${libs[@]+"${libs[@]}"}
python3 - "$build/lib/libvprof-rt.so" "$work" "$rounds" "$funcs" <<'PY'
import os, resource, shlex, statistics, subprocess, sys
rt, work, rounds, funcs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
args = shlex.split(os.environ.get("ARGS", ""))
env = dict(os.environ, LD_PRELOAD=rt, VPROF_LOOP_FUNCTIONS=funcs)
def run(p):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([os.path.join(work, p)] + args, env=dict(env, VPROF_OUTPUT=os.path.join(work, p + ".vprof")),
                   stdout=subprocess.DEVNULL, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
t, ratios = {"on": [], "off": []}, []
for i in range(rounds):
    got = {p: run(p) for p in (("on", "off") if i % 2 == 0 else ("off", "on"))}
    for p in got:
        t[p].append(got[p])
    ratios.append(got["on"] / got["off"])
print("off median %.4f s, on median %.4f s, on/off median of per-round ratios %.3f "
      "(min %.3f, max %.3f), %d rounds" % (statistics.median(t["off"]), statistics.median(t["on"]),
                                          statistics.median(ratios), min(ratios), max(ratios), rounds))
PY
