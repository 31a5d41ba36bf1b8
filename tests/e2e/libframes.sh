#!/usr/bin/env bash
# Library frames between the program's own (docs/rank.md, "Library code";
# docs/runtime.md, "Library frames"):
# - the runtime reads a caller's variables through any number of library
#   frames: a loop that calls fputs on an unbuffered stream has its
#   variables sampled while write(2) runs six frames below it, so its
#   variable cost is its inclusive time and it ranks first;
# - an exported library function that library code called (__write under
#   fputs; malloc under libstdc++'s operator new) is no candidate, its time
#   is named under the function the program called (fputs, at the
#   program's line); the same function called by the program itself
#   ("direct") stays a candidate;
# - the call site of library time reached through another library (glibc's
#   memmove under libstdc++'s string code) is the program's line.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
progs="$src/tests/e2e/progs"
"$build/bin/vprof-cc" -O2 -g "$progs/unbuffered.c" -o "$work/unbuffered"
"$build/bin/vprof-c++" -O2 -g "$progs/rejoin.cpp" -o "$work/rejoin"
"$build/bin/vprof-c++" -O2 -g "$progs/churn.cpp" -o "$work/churn"
rec() { out=$1; shift; "$build/bin/vprof" record -o "$work/$out" -- "$@" > /dev/null; }
rec n.vprof "$work/unbuffered" 100000
rec s.vprof "$work/unbuffered" 1500000
rec nd.vprof "$work/unbuffered" 100000 direct
rec sd.vprof "$work/unbuffered" 1500000 direct
rec nj.vprof "$work/rejoin" 15000
rec sj.vprof "$work/rejoin" 60000
rec nc.vprof "$work/churn" 2000000
rec sc.vprof "$work/churn" 20000000
rank() { "$build/bin/vprof" rank --normal "$work/$1" --buggy "$work/$2" --format json --top 100 \
  -o "$work/$3"; }
rank n.vprof s.vprof stdio.json
"$build/bin/vprof" report "$work/s.vprof" --format json > "$work/report.json"
rank nd.vprof sd.vprof direct.json
rank nj.vprof sj.vprof join.json
rank nc.vprof sc.vprof churn.json
stdio=$(grep -n 'STDIO-LINE' "$progs/unbuffered.c" | cut -d: -f1)
join=$(grep -n 'JOIN-LINE' "$progs/rejoin.cpp" | cut -d: -f1)
new=$(grep -n 'NEW-LINE' "$progs/churn.cpp" | cut -d: -f1)
/usr/bin/python3 - "$work" "$stdio" "$join" "$new" <<'PY'
import json, os, sys
work, stdio, join, new = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def load(name):
    return json.load(open(os.path.join(work, name)))
def fail(msg, d):
    print("FAIL:", msg)
    print(json.dumps([{k: f[k] for k in ("rank", "name", "module", "pc_samples", "value_ticks",
                                          "raw_cost")} for f in d["functions"][:6]]))
    print(d.get("slow_unattributed_under"))
    sys.exit(1)
def write_rows(d):
    return [f for f in d["functions"] if f["name"] in ("__write", "write", "__libc_write")]

d = load("stdio.json")
slow_pcs = load("report.json")["pc_weight"]
emit = next((f for f in d["functions"] if f["name"] == "emit"), None)
if not emit or emit["rank"] != 1:
    fail("emit is not ranked first", d)
# its variables are read under write(2) too: most of the slow run's ticks
if emit["value_ticks"] < 0.7 * slow_pcs:
    fail(f"emit's variables were read in {emit['value_ticks']} of {slow_pcs} ticks", d)
if write_rows(d):
    fail("write(2), called by fputs, is ranked", d)
under = d["slow_unattributed_under"]
u = under[0] if under else {}
at = u.get("called_at") or {}
if not (u.get("name") == "fputs" and at.get("line") == stdio and at.get("function") == "emit"):
    fail("the write time is not named under fputs at the program's line", d)

d = load("direct.json")
w = write_rows(d)
if not w or w[0]["rank"] > 3:
    fail("write(2) called by the program is not a candidate with its time", d)

d = load("join.json")
under = d["slow_unattributed_under"]
u = under[0] if under else {}
at = u.get("called_at") or {}
if not (u.get("name", "").startswith("__mem") and at.get("file", "").endswith("rejoin.cpp")
        and at.get("line") == join):
    fail("the memmove under libstdc++ is not called at the join line", d)
d = load("churn.json")
mal = next((u for u in d["slow_unattributed_under"] if u["name"] == "malloc"), {})
if any(f["name"] == "malloc" for f in d["functions"]) or \
        (mal.get("called_at") or {}).get("line") != new:
    fail("malloc, called by operator new, is ranked or not named at the new line", d)

print("ok:", emit["value_ticks"], "of", slow_pcs, "ticks;", u["name"], at)
PY
