#!/usr/bin/env bash
# A stripped shared library's internal code is named from its separate
# debug file (docs/reports.md, "Separate debug files"): vprof report and
# vprof-loop name scan_internal, found by build-id under VPROF_DEBUG_DIRS;
# vprof rank leaves it out (docs/rank.md, "Library code").  Without the
# debug file the code stays unnamed.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
progs="$src/tests/e2e/progs"
clang-14 -O2 -g -fPIC -shared -Wl,--build-id "$progs/libscan.c" -o "$work/libscan.so"
objcopy --only-keep-debug "$work/libscan.so" "$work/libscan.debug"
objcopy --strip-all "$work/libscan.so"
id=$(readelf -n "$work/libscan.so" | awk '/Build ID/ {print $3}')
mkdir -p "$work/dbg/.build-id/${id:0:2}" "$work/empty"
mv "$work/libscan.debug" "$work/dbg/.build-id/${id:0:2}/${id:2}.debug"
"$build/bin/vprof-cc" -O1 -g "$progs/libscan_main.c" -o "$work/main" -L"$work" -lscan \
  -Wl,-rpath,"$work"
export VPROF_DEBUG_DIRS="$work/dbg"
"$build/bin/vprof" record -o "$work/n.vprof" -- "$work/main" 20000 > /dev/null
"$build/bin/vprof" record -o "$work/s.vprof" -- "$work/main" 80000 > /dev/null
fail() { echo "FAIL: $*"; exit 1; }

"$build/bin/vprof" report "$work/s.vprof" > "$work/report.txt"
grep -q ' scan_internal ' "$work/report.txt" ||
  { cat "$work/report.txt"; fail "vprof report does not name scan_internal"; }
# a function without source shows its module in the source column, as
# perf's shared-object column does (JSON "module" too)
grep -Eq " scan_internal +$work/libscan.so\$" "$work/report.txt" ||
  { cat "$work/report.txt"; fail "vprof report does not give scan_internal's module"; }
"$build/bin/vprof" report --format json "$work/s.vprof" |
  python3 -c 'import json, sys
rows = [f for f in json.load(sys.stdin)["functions"] if f["name"] == "scan_internal"]
sys.exit(0 if rows and rows[0]["module"] == sys.argv[1] else 1)' "$work/libscan.so" ||
  fail "vprof report JSON: scan_internal has no module"
VPROF_DEBUG_DIRS="$work/empty" "$build/bin/vprof" report "$work/s.vprof" > "$work/report0.txt"
if grep -q 'scan_internal' "$work/report0.txt"; then
  fail "scan_internal named without its debug file"
fi
grep -q '\[libscan.so\]' "$work/report0.txt" ||
  { cat "$work/report0.txt"; fail "without the debug file the code is not [libscan.so]"; }

"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" --format json \
  -o "$work/r.json"
scan_line=$(grep -n 'SCAN-LINE' "$progs/libscan_main.c" | cut -d: -f1)
/usr/bin/python3 - "$work/r.json" "$scan_line" <<'PY'
import json, sys
names = [f["name"] for f in json.load(open(sys.argv[1]))["functions"]]
if "scan_internal" in names:
    print("FAIL: vprof rank ranks the library's internal scan_internal:", names[:8])
    sys.exit(1)
if "main" not in names[:3]:
    print("FAIL: main is not in the top 3:", names[:8])
    sys.exit(1)
d = json.load(open(sys.argv[1]))
if not d["slow_unattributed"] >= 0.25:
    print("FAIL: the internal code's share is not reported:", d["slow_unattributed"])
    sys.exit(1)
# ... and says which library function the program called it through
under = d["slow_unattributed_under"]
if not under or under[0]["name"] != "lib_scan" or under[0]["module"] != "libscan.so" \
        or not under[0]["share"] >= 0.25:
    print("FAIL: the internal code is not named by lib_scan:", under)
    sys.exit(1)
# ... and where the program called it: main's call of lib_scan
at = under[0].get("called_at") or {}
if not at.get("file", "").endswith("libscan_main.c") or at.get("line") != int(sys.argv[2]) \
        or at.get("function") != "main":
    print("FAIL: lib_scan's call site is not main's SCAN-LINE:", at, sys.argv[2])
    sys.exit(1)
print("ok: rank", names[:5], "unattributed", round(d["slow_unattributed"], 3), "under", under)
PY
# ... and the text says so under the table
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" > "$work/r.txt"
grep -q "^note: [0-9]*% of the slow run's PC samples are in code no ranked function holds.*; [0-9]*% under lib_scan \[libscan.so\] (called at libscan_main.c:$scan_line)" \
  "$work/r.txt" || { cat "$work/r.txt"; fail "vprof rank text has no note of the unranked code"; }
# without the debug file the code has no symbol: the note names lib_scan
# all the same (the first named frame of the module on the stack)
VPROF_DEBUG_DIRS="$work/empty" "$build/bin/vprof" rank --normal "$work/n.vprof" \
  --buggy "$work/s.vprof" > "$work/r0.txt"
grep -q "; [0-9]*% under lib_scan \[libscan.so\]" "$work/r0.txt" ||
  { cat "$work/r0.txt"; fail "without the debug file the note does not name lib_scan"; }

# vprof-loop's rank table carries the note, from the rank file and from
# the profiles ranked in place
"$build/bin/vprof-loop" --top 1 --rank "$work/r.json" -- "$work/main" 80000 \
  > "$work/loop1.txt" 2> /dev/null
"$build/bin/vprof-loop" --top 1 --normal "$work/n.vprof" --buggy "$work/s.vprof" \
  -- "$work/main" 80000 > "$work/loop2.txt" 2> /dev/null
for f in loop1 loop2; do
  grep -q "^  note: [0-9]*% of the slow run is in code no ranked function holds.*; [0-9]*% under lib_scan \[libscan.so\]" \
    "$work/$f.txt" || { cat "$work/$f.txt"; fail "vprof-loop's rank table has no note ($f)"; }
done

line=$(grep -n 'SCAN-LINE' "$progs/libscan_main.c" | cut -d: -f1)
"$build/bin/vprof-loop" --function main --normal-run "$work/main 20000" --format json \
  -o "$work/loop.json" -- "$work/main" 80000 > /dev/null 2>&1
/usr/bin/python3 - "$work/loop.json" "$line" <<'PY'
import json, sys
line = int(sys.argv[2])
loops = json.load(open(sys.argv[1]))["loops"]
gl = next((l["growth_lines"][0] for l in loops if l.get("growth_lines")), None)
if not gl or gl["line"] != line or gl["callee"] != "lib_scan" or gl["leaf"] != "scan_internal":
    print("FAIL: growth_lines[0]", gl, [l["growth"] for l in loops])
    sys.exit(1)
print("ok: growth_lines[0]", gl)
PY
