#!/usr/bin/env bash
# vprof rank with the normal run from another version of the program
# (docs/rank.md, "New code"): v2 moves the tokenizer's word test into a new
# function, is_word.  Its variables are sampled only in the slow run, as a
# path the normal run did not take would be, but v1's build does not declare
# them: they are marked new in this build and decide no pattern rule (before,
# a slow-only `cond` variable made the new function wrong-constraint).  The
# variables both builds declare are matched as before.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
prog_c="$src/tests/e2e/progs/versions.c"
"$build/bin/vprof-cc" -O1 "$prog_c" -o "$work/v1"
"$build/bin/vprof-cc" -O1 -DV2 "$prog_c" -o "$work/v2"
"$build/bin/vprof" record -o "$work/n.vprof" -- "$work/v1" 400 > /dev/null
"$build/bin/vprof" record -o "$work/s.vprof" -- "$work/v2" 400 > /dev/null
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" --format json -o "$work/r.json"
"$build/bin/vprof" rank --normal "$work/n.vprof" --buggy "$work/s.vprof" > "$work/r.txt"
/usr/bin/python3 - "$work/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
funcs = {f["name"]: f for f in r["functions"]}
def fail(msg):
    print("FAIL:", msg)
    print(json.dumps([{k: v for k, v in f.items() if k != "variables"} for f in r["functions"][:4]], indent=1))
    sys.exit(1)
if "is_word" not in funcs or "count_words" not in funcs:
    fail("is_word and count_words should both be ranked")
new = [v for v in funcs["is_word"]["variables"] if v["slow_samples"] > 0]
if not new or not all(v.get("new_in_build") and v["dimension"] == "slow-only" for v in new):
    fail("is_word's variables should be slow-only and new in this build: %s" % new)
if funcs["is_word"]["pattern"] == "wrong-constraint":
    fail("a variable new in the build decided rule 3")
old = [v for v in funcs["count_words"]["variables"]]
if not old or any(v.get("new_in_build") for v in old) or not any(v["normal_samples"] for v in old):
    fail("count_words's variables exist in both builds and should match: %s" % old)
print("ok: is_word %s (%s), count_words matched %s" % (
    funcs["is_word"]["pattern"], [v["name"] for v in new],
    [(v["name"], v["normal_samples"], v["slow_samples"]) for v in old]))
PY
grep -q "is_word .*new in this build)" "$work/r.txt" ||
  { cat "$work/r.txt"; echo "FAIL: the text report does not say the variable is new"; exit 1; }
