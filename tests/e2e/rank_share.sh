#!/usr/bin/env bash
# vprof rank's second localisation rule on a real vprof-cc program: the slow
# run's values of g_mix (3 and 7) lie inside the normal run's range (0-19),
# so no sample is outside it; the lines come from the values the slow run
# has at least 4x as often (docs/rank.md, "Localisation").  Before the rule
# the report named no line.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
prog_c="$src/tests/e2e/progs/share.c"
"$build/bin/vprof-cc" -O1 "$prog_c" -o "$work/share"
"$build/bin/vprof" record -o "$work/n.vprof" -- "$work/share" 300000 > /dev/null
SHARE_SLOW=1 "$build/bin/vprof" record -o "$work/s.vprof" -- "$work/share" 300000 > /dev/null
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" --format json -o "$work/r.json"
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" > "$work/r.txt"
mix=$(grep -n '/\* MIX \*/' "$prog_c" | cut -d: -f1)
/usr/bin/python3 - "$work/r.json" "$mix" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mix = int(sys.argv[2])
f = next((f for f in r["functions"] if f["name"] == "main"), None)
def fail(msg):
    print("FAIL:", msg, json.dumps({k: v for k, v in (f or {}).items() if k != "variables"}))
    sys.exit(1)
if f is None:
    fail("main not ranked")
if f["anomalous_variable"] != "g_mix" or f["anomalous_dimension"] not in ("values", "deltas"):
    fail("g_mix (values or deltas) should be the anomalous variable")
v = next(v for v in f["variables"] if v["name"] == "g_mix")
if f["localised_by"] != "share":
    fail("localised_by %r, want share" % f["localised_by"])
if not f["anomalous_lines"] or f["anomalous_lines"][0]["line"] != mix:
    fail("the first anomalous line should be the memset of g_mix, line %d" % mix)
if f["outside_samples"] < v["slow_samples"] // 4:
    fail("only %d of g_mix's %d slow samples localised" % (f["outside_samples"], v["slow_samples"]))
print("ok: g_mix %s, %d of %d slow samples at lines %s" % (
    f["anomalous_dimension"], f["outside_samples"], v["slow_samples"],
    [(l["line"], l["samples"]) for l in f["anomalous_lines"]]))
PY
grep -q "anomalous samples (none outside the normal range; values at least 4x as frequent in the slow run): share.c:$mix " "$work/r.txt" ||
  { cat "$work/r.txt"; echo "FAIL: text report does not say how the lines were found"; exit 1; }
