#!/usr/bin/env bash
# One recording is the whole process tree (docs/rank.md, "Forked
# processes"): the root cause runs in two forked workers while the process
# vprof record started only waits.  vprof rank adds the workers' profiles
# (FILE.<pid>) to their recording's run and ranks dedupe first; before, the
# slow profile alone had no samples and the rank failed.  A worker's file
# left by an earlier recording to the same path is not added.  vprof-loop
# reads the workers' loop counts as well (docs/vprof-loop.md, "Forked
# processes").
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$build/bin/vprof-cc" -O2 -g "$src/tests/e2e/progs/forkw.c" -o "$work/forkw"
cd "$work"
"$build/bin/vprof" record -o n.vprof -- ./forkw 400000 100 > /dev/null
# an earlier slow recording to the same path: its workers' files stay
"$build/bin/vprof" record -o s.vprof -- ./forkw 20000 10000 > /dev/null
"$build/bin/vprof" record -o s.vprof --force -- ./forkw 100000 40000 > /dev/null
ls s.vprof.* > /dev/null || fail "no worker profile s.vprof.<pid>"
[ "$(ls s.vprof.* | wc -l)" -ge 4 ] || fail "the earlier recording's worker files are gone"
"$build/bin/vprof" rank --normal n.vprof --buggy s.vprof --format json -o r.json
/usr/bin/python3 - r.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
procs = {i["role"]: i["processes"] for i in d["inputs"]}
names = [f["name"] for f in d["functions"]]
if procs != {"normal": 3, "buggy": 3}:
    print("FAIL: processes per recording (want 3 each: the root and its two workers):", procs)
    sys.exit(1)
if names[:1] != ["dedupe"]:
    print("FAIL: dedupe is not first:", names[:5])
    sys.exit(1)
f = d["functions"][0]
if f["pc_samples"] < 50:
    print("FAIL: the workers' samples are not dedupe's:", f["pc_samples"])
    sys.exit(1)
print("ok:", procs, names[:3], f["pattern"], f["pc_samples"])
PY
"$build/bin/vprof" rank --normal n.vprof --buggy s.vprof > r.txt
grep -q "^vprof rank: 1 normal, 1 buggy profile(s) (6 processes);" r.txt ||
  { head -3 r.txt; fail "the text does not count the processes"; }
# perf-style exports are of the whole tree too: the flame graph's dedupe
# stacks are the workers' (before, s.vprof alone had no PC samples)
"$build/bin/vprof" export --folded s.vprof > s.folded
awk '/dedupe/ {n += $NF} END {exit !(n >= 50)}' s.folded || { cat s.folded; fail "the folded stacks leave the workers out"; }
"$build/bin/vprof" diff --folded n.vprof s.vprof > d.folded
awk '/dedupe/ && $NF > 0 {ok = 1} END {exit !ok}' d.folded || { cat d.folded; fail "the differential stacks leave the workers out"; }
"$build/bin/vprof" export --pprof s.vprof -o s.pb.gz
/usr/bin/python3 - s.pb.gz <<'PY' || fail "the pprof profile leaves the workers out"
import gzip, sys
data = gzip.open(sys.argv[1]).read()
sys.exit(0 if b"s.vprof (3 processes)" in data and b"dedupe" in data else 1)
PY
# vprof report adds the workers in, as perf report does a perf.data's
# children; --one is the process vprof record started, which only waits
"$build/bin/vprof" report s.vprof > rep.txt
grep -q "^vprof report: s.vprof and the 2 processes it forked" rep.txt ||
  { head -3 rep.txt; fail "vprof report does not say it adds the workers"; }
awk '$4 == "dedupe" && $3 >= 50 {ok = 1} END {exit !ok}' rep.txt ||
  { cat rep.txt; fail "vprof report leaves the workers' samples out of dedupe"; }
# a variable's samples come from both workers: dedupe's n (each worker's
# share, 50,000) is sampled wherever dedupe is
"$build/bin/vprof" report --format json s.vprof > rep.json
"$build/bin/vprof" report --format json --one s.vprof > one.json || true
/usr/bin/python3 - rep.json one.json <<'PY'
import json, sys
d, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
if len(d["pids"]) != 3 or d["pids"][0] != d["pid"] or len(set(d["pids"])) != 3:
    print("FAIL: pids", d["pids"]); sys.exit(1)
f = {x["name"]: x for x in d["functions"]}["dedupe"]
v = {x["name"]: x for x in f["variables"]}
total = sum(x["self_samples"] for x in d["functions"])
if total != d["pc_weight"] or f["self_samples"] < 50:
    print("FAIL: self samples", total, d["pc_weight"], f["self_samples"]); sys.exit(1)
if v["n"]["samples"] < 50 or v["n"]["min"] != 50000 or v["n"]["max"] != 50000:
    print("FAIL: dedupe's n", v["n"]); sys.exit(1)
if one["pids"] != [d["pid"]] or one["pc_samples"] >= d["pc_samples"]:
    print("FAIL: --one", one["pids"], one["pc_samples"], d["pc_samples"]); sys.exit(1)
if "dedupe" in [x["name"] for x in one["functions"] if x["self_samples"]]:
    print("FAIL: --one has the workers' dedupe samples"); sys.exit(1)
print("ok: report", d["pids"], f["self_samples"], v["n"]["samples"])
PY
# a file named as a worker's profile that is none: refused, not skipped
echo garbage > s.vprof.99999999
if "$build/bin/vprof" rank --normal n.vprof --buggy s.vprof > bad.txt 2> bad.err; then
  fail "a broken worker profile was ignored"
fi
[ "$(wc -l < bad.err)" -eq 1 ] && grep -q "s.vprof.99999999.*(named as a process of s.vprof's recording)" bad.err ||
  { cat bad.err; fail "no one-line error for the broken worker profile"; }
# the exports read the same tree: refused the same way, nothing written
for cmd in "export --folded s.vprof -o bad.folded" "diff --folded n.vprof s.vprof -o bad.diff" "report s.vprof"; do
  if "$build/bin/vprof" $cmd > /dev/null 2> bad.err; then
    fail "vprof $cmd ignored a broken worker profile"
  fi
  [ "$(wc -l < bad.err)" -eq 1 ] && grep -q "s.vprof.99999999.*(named as a process of s.vprof's recording)" bad.err ||
    { cat bad.err; fail "vprof $cmd: no one-line error for the broken worker profile"; }
done
[ ! -e bad.folded ] && [ ! -e bad.diff ] || fail "an export was written from a refused recording"
rm s.vprof.99999999
# a worker's file given besides its recording would count twice: refused
kid=$(ls -t s.vprof.* | head -1) # written last: a worker of the later recording
if "$build/bin/vprof" rank --normal n.vprof --buggy s.vprof "$kid" > dup.txt 2> dup.err; then
  fail "a worker's profile given besides its recording was counted twice"
fi
grep -q "a process that s.vprof forked, counted with it already" dup.err ||
  { cat dup.err; fail "no one-line error for the worker given twice"; }
# vprof-loop reads the workers' loop counts and redundancy samples too:
# dedupe's inner scan ran only in them (before, "no loop ran in dedupe")
"$build/bin/vprof-loop" --top 1 --rank r.json --format json -o loop.json -- ./forkw 100000 40000 > /dev/null 2> loop.err ||
  { cat loop.err; fail "vprof-loop failed"; }
! grep -q "forked" loop.err || { cat loop.err; fail "vprof-loop still says the workers' counts are not read"; }
/usr/bin/python3 - loop.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["slow_processes"] != 3:
    print("FAIL: slow_processes", d["slow_processes"])
    sys.exit(1)
loops = [l for l in d["loops"] if l["function"] == "dedupe"]
if not loops:
    print("FAIL: no loop of dedupe diagnosed:", [(l["function"], l["line"]) for l in d["loops"]])
    sys.exit(1)
top = d["loops"][0]
c = top["counts"]
if (top["function"], top["line"]) != ("dedupe", 15) or c["instances"] < 40000 or c["iterations"] < 100 * c["instances"]:
    print("FAIL: the first loop is not dedupe's scan with both workers' counts:", top["function"], top["line"], c)
    sys.exit(1)
if "0*1?" not in top["root_cause"]:
    print("FAIL: root cause", top["root_cause"])
    sys.exit(1)
print("ok: vprof-loop", top["function"], top["line"], c["instances"], c["iterations"], top["root_cause"])
PY
"$build/bin/vprof-loop" --top 1 --rank r.json -- ./forkw 100000 40000 > loop.txt 2> /dev/null || true
grep -q "slow run: ./forkw 100000 40000 (3 processes)" loop.txt || { head -5 loop.txt; fail "the text does not count the processes"; }
echo "ok: vprof-loop reads the workers"
# normal counts recorded with the ranking's normal profile (its loop probes
# on) and no normal command: they are its whole tree's, and vprof-loop used
# to dereference a normal run it did not have (segfault)
VPROF_LOOP_FUNCTIONS=dedupe "$build/bin/vprof" record -o np.vprof -- ./forkw 400000 100 > /dev/null
"$build/bin/vprof" rank --normal np.vprof --buggy s.vprof --format json -o rp.json
"$build/bin/vprof-loop" --top 1 --rank rp.json --format json -o loopn.json -- ./forkw 100000 40000 > /dev/null 2> loopn.err ||
  { cat loopn.err; fail "vprof-loop with normal counts from the ranked profile failed"; }
/usr/bin/python3 - loopn.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
top = d["loops"][0]
n = top["normal_counts"]
if not d["normal_counts"] or not n or n["instances"] < 300000:
    print("FAIL: the normal counts are not both workers':", d["normal_counts"], n)
    sys.exit(1)
print("ok: normal counts from the ranked profile", n["instances"], n["samples"])
PY
# a wrapper script that forks and execs the program: its work is in
# processes running another executable than the recorded command (the
# shell), which the analysis of the recording leaves out.  Each tool says
# where the samples are and what to do, instead of a bare "no samples".
printf '#!/bin/sh\n./forkw "$@"\necho done\n' > run.sh
chmod +x run.sh
"$build/bin/vprof" record -o w.vprof -- ./run.sh 100000 40000 > /dev/null 2> w.err
grep -q "^vprof: note: the analysis of w.vprof leaves out most of the run: [0-9]* PC samples are in 3 processes running $work/forkw, .*record that program itself (vprof record -- $work/forkw ...)" w.err ||
  { cat w.err; fail "vprof record does not say the run's samples are in the program the script ran"; }
for cmd in "rank --normal w.vprof --buggy s.vprof" "report w.vprof" "export --folded w.vprof -o w.folded"; do
  "$build/bin/vprof" $cmd > /dev/null 2> w.err || true
  [ "$(wc -l < w.err)" -eq 1 ] && grep -q "w.vprof.*no.*samples.*; [0-9]* PC samples are in 3 processes running $work/forkw" w.err ||
    { cat w.err; fail "vprof $cmd: no one line saying where the samples are"; }
done
echo "ok: a wrapper script's program is named"
