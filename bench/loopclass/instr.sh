#!/usr/bin/env bash
# Instructions executed (valgrind's callgrind) by one bench/loopclass program
# with the loopclass probes of one function on, against the same binary with
# nothing selected: the probes' cost without the machine's wall-time noise.
# An instruction is not a cycle; bench/loopclass/overhead.sh measures wall time.
#
#   bench/loopclass/instr.sh BUILD_DIR PROGRAM FUNCTION [ARGS...]
#   e.g. bench/loopclass/instr.sh build wordcount count_word 6
#
# Built as overhead.sh builds it (vprof-cc -O2, redundancy probes off).
# valgrind 3.19 cannot read clang-14's DWARF 5 and stops on the runtime's
# perf-event SIGTRAP: the binary and the runtime run from copies without
# debug info, with VPROF_PERF_SIGTRAP=0 (as bench/redundancy/instr.sh).
set -euo pipefail
die() { echo "instr.sh: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: instr.sh BUILD_DIR PROGRAM FUNCTION [ARGS...]"
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || die "no build directory $1"
prog=$2 fn=$3
shift 3
src=$here/$prog.c
[ -f "$src" ] || die "no program $src"
[ -x "$build/bin/vprof-cc" ] && [ -f "$build/lib/libvprof-rt.so" ] ||
  die "$build has no bin/vprof-cc and lib/libvprof-rt.so (build it first)"
command -v valgrind >/dev/null || die "valgrind is not installed (bench/deps.sh)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/vprof-cc" -O2 -mllvm -vprof-redundancy-probes=0 "$src" -o "$work/p.g"
strip --strip-debug -o "$work/p" "$work/p.g"
strip --strip-debug -o "$work/rt.so" "$build/lib/libvprof-rt.so"
ir() {
  (cd "$work" && valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=/dev/null \
    env VPROF_PERF_SIGTRAP=0 LD_PRELOAD="$work/rt.so" VPROF_OUTPUT="$work/o.vprof" "$@" 2>&1 \
    >/dev/null) | awk '/Collected/ {s = $4} END {if (s == "") exit 1; print s}' ||
    die "callgrind failed: $*"
}
none=$(ir ./p "$@")
on=$(ir env VPROF_LOOP_FUNCTIONS="$fn" ./p "$@")
printf '%-11s %-12s none %12s  on %12s  on/none %s\n' "$prog" "$fn" "$none" "$on" \
  "$(echo "scale=4; $on / $none" | bc -l)"
