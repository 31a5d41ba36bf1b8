#!/usr/bin/env bash
# The rank's note on unattributed time names the C library function the
# program called and where it called it (docs/rank.md, "Output"): a C++
# loop whose substr copies the rest of the line spends its slow run in
# glibc's memmove variant (an IFUNC the PLT calls directly, named only by
# libc's debug file), called from std::string code inlined into main; the
# call site is main's line, not char_traits.h's.  Skipped (77) without
# libc's debug file (libc6-dbg).
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
libc=$(ldd /bin/sh | awk '/libc\.so/ {print $3}')
id=$(readelf -n "$libc" | awk '/Build ID/ {print $3}')
if [ ! -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ]; then
  echo "SKIP: no debug file for $libc (libc6-dbg)"; exit 77
fi
prog="$src/tests/e2e/progs/substr.cpp"
"$build/bin/vprof-c++" -O2 -g "$prog" -o "$work/substr"
"$build/bin/vprof" record -o "$work/n.vprof" -- "$work/substr" 150000 > /dev/null
"$build/bin/vprof" record -o "$work/s.vprof" -- "$work/substr" 450000 > /dev/null
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" --format json \
  -o "$work/r.json"
line=$(grep -n 'REST-LINE' "$prog" | cut -d: -f1)
/usr/bin/python3 - "$work/r.json" "$line" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
under = d["slow_unattributed_under"]
u = under[0] if under else {}
at = u.get("called_at") or {}
if not (d["slow_unattributed"] >= 0.25 and u.get("name", "").startswith("__mem")
        and u.get("module") == "libc.so.6" and u.get("share", 0) >= 0.25
        and at.get("file", "").endswith("substr.cpp") and at.get("line") == int(sys.argv[2])
        and at.get("function") == "main"):
    print("FAIL: the memmove variant and main's line are not named:",
          d["slow_unattributed"], under)
    sys.exit(1)
print("ok:", round(d["slow_unattributed"], 3), u)
PY
