#!/usr/bin/env bash
# test_install.sh BUILD_DIR WORK_DIR C_COMPILER
#
# `cmake --install` into a fresh prefix, then: every man page renders with
# groff -ww without a warning (and with man -l when man is installed);
# pkg-config finds vprof-rt and its flags link a program against the
# runtime; a tiny CMake project finds the package with find_package(vprof)
# and links vprof::rt.
set -euo pipefail
build=$1 work=$2 cc=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

for page in vprof vprof-loop vprof-cc; do
    f=$prefix/share/man/man1/$page.1
    [ -f "$f" ] || fail "$f not installed"
    groff -ww -man -Tutf8 -P-cbou "$f" >"$work/$page.txt" 2>"$work/$page.warn"
    [ -s "$work/$page.warn" ] && fail "$page.1: groff warnings: $(head -3 "$work/$page.warn")"
    grep -q '^NAME' "$work/$page.txt" || fail "$page.1 renders without a NAME section"
    if command -v man >/dev/null 2>&1; then
        MANWIDTH=80 man -l "$f" 2>&1 | grep -q 'SYNOPSIS' || fail "man -l $page.1"
    fi
done
grep -q 'export --folded' "$work/vprof.txt" || fail "vprof.1 lacks export"

lib=$(find "$prefix" -name libvprof-rt.so | head -1)
[ -n "$lib" ] || fail "libvprof-rt.so not installed"
libdir=$(dirname "$lib")
export PKG_CONFIG_PATH=$libdir/pkgconfig
libs=$(pkg-config --libs vprof-rt) || fail "pkg-config does not find vprof-rt"
case "$libs" in *"-L$libdir"*"-lvprof-rt"*) ;; *) fail "pkg-config --libs: $libs" ;; esac
[ "$(pkg-config --modversion vprof-rt)" = "$(sed -n 's/^Version: //p' "$libdir/pkgconfig/vprof-rt.pc")" ]

cat >"$work/hello.c" <<'C'
int main(void) { return 0; }
C
# shellcheck disable=SC2086  # pkg-config output is a list of flags
"$cc" "$work/hello.c" -o "$work/hello_pc" $libs
readelf -d "$work/hello_pc" | grep -q 'NEEDED.*libvprof-rt.so' || fail "pkg-config link: no NEEDED"

mkdir -p "$work/proj"
cat >"$work/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(uses_vprof C)
find_package(vprof 0.1 REQUIRED)
add_executable(hello ../hello.c)
target_link_libraries(hello PRIVATE vprof::rt)
message(STATUS "vprof ${vprof_VERSION} runtime ${vprof_RUNTIME}")
CM
cmake -S "$work/proj" -B "$work/proj/build" -DCMAKE_C_COMPILER="$cc" \
      -DCMAKE_PREFIX_PATH="$prefix" >"$work/proj.log" 2>&1 || fail "find_package: $(tail -5 "$work/proj.log")"
grep -q "runtime $lib" "$work/proj.log" || fail "vprof_RUNTIME: $(grep vprof "$work/proj.log")"
cmake --build "$work/proj/build" >>"$work/proj.log" 2>&1 || fail "build: $(tail -5 "$work/proj.log")"
readelf -d "$work/proj/build/hello" | grep -q 'NEEDED.*libvprof-rt.so' || fail "cmake link: no NEEDED"
echo "ok: installed to $prefix; man pages, pkg-config and find_package(vprof) work"
