#!/usr/bin/env bash
# Install every Debian 12 package vprof builds, tests or benchmarks with.
# Idempotent and quick when everything is present.  Run as root.
set -euo pipefail
PKGS=(
  build-essential binutils cmake pkg-config git
  clang-14 llvm-14 llvm-14-dev llvm-14-tools libclang-rt-14-dev
  libdw-dev libelf-dev libunwind-dev libxxhash-dev zlib1g-dev
  libcmocka-dev python3 python3-scipy python3-jsonschema
  libprotobuf-c-dev protobuf-c-compiler
  # report tests: headless rendering of HTML reports (about 3 min to install),
  # man pages, and `go tool pprof` reading our pprof export (about 1 min)
  chromium groff-base man-db golang-go
  # bench/build/build-cost.sh: tclsh generates sqlite3.c, /usr/bin/time times
  # the compiles
  tcl time
  # rt.valgrind: the runtime under valgrind; bench/redundancy/instr.sh
  valgrind
  # rt.forkheld*: backtraces of a hung test process; the core.dwarf.gdb tests
  gdb
  # the C library's symbols (docs/reports.md, "Separate debug files"): the
  # bench's reports name the memmove or strlen variant the time is in
  libc6-dbg
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "vprof: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
