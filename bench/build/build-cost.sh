#!/bin/sh
# Compile time and code size of vprof-cc against plain clang on real C
# programs (bench/results/build-cost.md).
#   bench/build/build-cost.sh BUILD_DIR SQLITE_ORIG_TAR LUA_ORIG_TAR [WORK]
# The tarballs are Debian 12's source packages (apt-get source --download-only
# sqlite3 lua5.4, with a deb-src line): sqlite3_3.40.1.orig.tar.xz and
# lua5.4_5.4.4.orig.tar.gz.  sqlite3.c is generated with tclsh (package tcl).
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_DIR SQLITE_ORIG_TAR LUA_ORIG_TAR [WORK]" >&2; exit 2
fi
BUILD=$(cd "$1" && pwd); SQL=$(realpath "$2"); LUA=$(realpath "$3"); WORK=${4:-/tmp/vprof-build-cost}
CC="$BUILD/bin/vprof-cc"
for f in "$CC" "$SQL" "$LUA"; do
  [ -e "$f" ] || { echo "build-cost.sh: $f: no such file" >&2; exit 2; }
done
command -v tclsh >/dev/null || { echo "build-cost.sh: tclsh not found (scripts/deps.sh installs tcl)" >&2; exit 2; }
mkdir -p "$WORK" && cd "$WORK"
text() { size -A "$1" | awk '$1 == ".text" { print $2 }'; }
secs() { /usr/bin/time -f %e -o "$WORK/t" "$@" >/dev/null 2>&1; cat "$WORK/t"; }
row() { # name file flags...
  n=$1; f=$2; shift 2
  tp=$(secs clang-14 -O2 -g -c "$f" -o plain.o)
  tv=$(secs "$CC" -O2 -g -c "$f" -o vprof.o "$@")
  printf "| %s | %s | %s | %s | %s | %s |\n" "$n" "$tp" "$tv" "$(text plain.o)" "$(text vprof.o)" \
    "$(size -A vprof.o | awk '$1 == ".vprof.redund" { print $2 }')"
}
if [ ! -f sqlite3.c ]; then
  tar xJf "$SQL" && mkdir -p sqlite-bld && cd sqlite-bld && ../sqlite3-*/configure --disable-tcl \
    >/dev/null && make sqlite3.c >/dev/null && cp sqlite3.c .. && cd ..
fi
[ -d lua-5.4.4 ] || tar xzf "$LUA"
echo "| file | clang s | vprof-cc s | plain .text | vprof .text | .vprof.redund |"
echo "|---|---|---|---|---|---|"
for f in lvm.c lstrlib.c lparser.c; do row "lua $f" "lua-5.4.4/src/$f"; done
row "sqlite3.c, loop probes only" sqlite3.c -mllvm -vprof-redundancy-probes=0
row "sqlite3.c" sqlite3.c
