#!/usr/bin/env bash
# Variables read correctly by the sampler on a real vprof-cc program at -O2
# and -O0: register loop counter (in range, increasing), pointer to int,
# global, caller-frame local through unwinding, dangling pointer unreadable
# without crashing the target.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for opt in -O2 -O0; do
  n=300000000; [ "$opt" = -O0 ] && n=100000000
  "$build/bin/vprof-cc" $opt "$src/tests/e2e/progs/values.c" -o "$work/values$opt"
  expected=$("$work/values$opt" "$n")
  got=$("$build/bin/vprof" record -o "$work/p$opt.vprof" -- "$work/values$opt" "$n" 2>"$work/err$opt")
  [ "$got" = "$expected" ] || { echo "FAIL: output changed under vprof record ($opt)"; exit 1; }
  PYTHONPATH="$src/tests/e2e" /usr/bin/python3 - "$build/bin/vprof" "$work/p$opt.vprof" "$n" "$opt" <<'PY'
import sys
from vpdump import load, fail
vprof, path, n, opt = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
d = load(vprof, path)
# Loop counter of work(): every readable sample in [0, n), increasing over time.
iv = sorted(d.values_of("i", "work", depth=0), key=lambda v: v["seq"])
if len(iv) < 20:
    fail(f"{opt}: only {len(iv)} samples of work's loop counter i")
vals = [v["int"] for v in iv]
if any(x is None or x < 0 or x >= n for x in vals):
    fail(f"{opt}: loop counter out of range: {[x for x in vals if x is None or x < 0 or x >= n][:5]}")
back = sum(1 for a, b in zip(vals, vals[1:]) if b < a)
if back:
    fail(f"{opt}: loop counter went backwards {back} times: {vals[:10]}")
# Pointer to int: the pointee is sampled.
sc = d.values_of("scale", "main")
if len(sc) < 10 or any(v["int"] != 7 for v in sc):
    fail(f"{opt}: *scale should read 7, got {[v['text'] for v in sc[:5]]}")
# Global: only the values the program stored.
gp = d.values_of("g_phase")
if not gp or set(v["int"] for v in gp) - {1, 2}:
    fail(f"{opt}: g_phase values {sorted(set(v['text'] for v in gp))[:5]}")
# Caller frame: outer's marker read while work() runs, one frame up.
mk = d.values_of("marker", "outer", depth=1)
if len(mk) < 10 or any(v["int"] != 12345 for v in mk):
    fail(f"{opt}: caller-frame marker: {len(mk)} samples, values {sorted(set(v['text'] for v in mk))[:5]}")
# Dangling pointer: dereference fails cleanly.
gone = [v for v in d.values if d.vars[v["var"]]["name"] == "gone"]
bad = [v for v in gone if v["status"] != "ok"]
if not bad:
    fail(f"{opt}: no unreadable sample of the dangling pointer ({len(gone)} samples)")
print(f"{opt}: i {len(iv)} samples in range and increasing; *scale=7; g_phase ok; "
      f"marker {len(mk)} caller samples; dangling {len(bad)} unreadable")
PY
done
