#!/usr/bin/python3
"""fixsuggest.bench.<case>: vprof-loop on one bench/cases program against its
truth.json (root cause, fix, and no false category on the other hot loops,
as LDoctor Table 5).

usage: bench_case.py BINDIR CASEDIR WORKDIR [--rank]

With --rank, the case is first recorded on its normal and slow inputs and
ranked (`vprof record`, `vprof rank`), and vprof-loop diagnoses the loops of
the ranking's top 5 (`--rank rank.json --top 5`), as bench/run.sh does: a 1*
loop may then get skip-loop from the ranking's missing constraint
(docs/vprof-loop.md, "A constraint the loop is missing"); its fix, `none`
included, must be one of the truth's.

Builds the case with vprof-cc -O2 -g, runs `vprof-loop --format json
--function ...` on the slow input with the root-cause function and the
functions of the other hot loops, and checks:
  - the root-cause loop ran and is reported at the truth's line and kind;
  - its root_cause[] includes the truth's categories (bench/harness's match
    rule: extra categories are printed, not failed); the redundancy ones
    (cross-iteration, cross-loop) must have been measured (a case whose
    truth names one fails without it; for the others, a loop whose
    redundancy was not measured must say 1* when it is 1*);
  - at least one reported fix is one of the truth's fixes; a loop whose only
    category is 1* gets `none` (LDoctor Table 4 misses GCC12322 the same way:
    printed as KNOWN-MISS when the developers skipped the loop);
  - every other hot loop that ran reports no category but 1* or the
    categories its truth.json entry lists (a symptom of the root cause,
    bench/harness's rule), except the false categories listed in
    bench/known-misses.json (reported as
    KNOWN-MISS with their reason; the list is shared with bench/run.sh).
"""
import json
import os
import subprocess
import sys

RED = {"cross-iteration", "cross-loop"}


def known_miss(casedir, case, problem):
    """The reason bench/known-misses.json gives for `problem`, or None."""
    path = os.path.join(casedir, "..", "..", "known-misses.json")
    if not os.path.exists(path):
        return None
    for m in json.load(open(path))["misses"]:
        if m["case"] == case and problem.startswith(m["problem"]):
            return m["reason"]
    return None


def main():
    bindir, casedir, work = (os.path.abspath(a) for a in sys.argv[1:4])
    with_rank = sys.argv[4:5] == ["--rank"]
    truth = json.load(open(os.path.join(casedir, "truth.json")))
    name = truth["case"]
    os.makedirs(work, exist_ok=True)
    prog = os.path.join(work, name)
    srcs = sorted(os.path.join(casedir, f) for f in os.listdir(casedir) if f.endswith(".c"))
    cc = [os.path.join(bindir, "vprof-cc"), "-O2", "-g"] + srcs + ["-o", prog, "-lm"]
    b = subprocess.run(cc, capture_output=True, text=True)
    if b.returncode != 0:
        print("vprof-cc failed:\n" + b.stderr[-2000:])
        return 1

    rc = truth.get("root_cause")
    loops = truth.get("other_loops", []) + truth.get("hot_loops", [])
    funcs = []
    for f in ([rc["function"]] if rc else []) + [l["function"] for l in loops]:
        if f not in funcs:
            funcs.append(f)
    out = os.path.join(work, "report.json")
    cmd = [os.path.join(bindir, "vprof-loop"), "--format", "json", "-o", out]
    if with_rank:
        vprof = os.path.join(bindir, "vprof")
        for run in ("normal", "slow"):
            r = subprocess.run([vprof, "record", "-o", os.path.join(work, run + ".vprof"), "--",
                                prog] + truth[run + "_args"], capture_output=True, text=True,
                               cwd=work)
            if r.returncode != 0:
                print("FAIL: vprof record (%s) exited %d: %s" % (run, r.returncode, r.stderr[-1000:]))
                return 1
        rank = os.path.join(work, "rank.json")
        r = subprocess.run([vprof, "rank", "--normal", os.path.join(work, "normal.vprof"),
                            "--buggy", os.path.join(work, "slow.vprof"), "--format", "json",
                            "-o", rank], capture_output=True, text=True, cwd=work)
        if r.returncode != 0:
            print("FAIL: vprof rank exited %d: %s" % (r.returncode, r.stderr[-1000:]))
            return 1
        cmd += ["--top", "5", "--rank", rank]
    else:
        for f in funcs:
            cmd += ["--function", f]
    cmd += ["--", prog] + truth["slow_args"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
    sys.stdout.write(r.stderr)
    if r.returncode not in (0, 1) or not os.path.exists(out):
        print("FAIL: vprof-loop exited %d" % r.returncode)
        return 1
    rep = json.load(open(out))
    assert rep["schema"] == "vprof-loop/1"
    bad = 0
    by_line = {}
    for l in rep["loops"]:
        by_line.setdefault((l["function"], os.path.basename(l["file"]), l["line"]), []).append(l)

    def show(l):
        return "%s %s:%d kind=%s class=%s root_cause=%s fix=%s red=%s | %s" % (
            l["function"], os.path.basename(l["file"]), l["line"], l["kind"], l["static_class"],
            l["root_cause"], l["fix"], l["redundancy_measured"], l["evidence"])

    if rc:
        key = (rc["function"], rc["file"], rc["loop_line"])
        found = by_line.get(key)
        if not found:
            print("FAIL: root-cause loop %s:%d (%s) not reported; reported: %s"
                  % (rc["file"], rc["loop_line"], rc["function"], sorted(by_line)))
            return 1
        l = found[0]
        print("root cause: expected %s fix %s; reported %s" % (rc["categories"], rc["fixes"], show(l)))
        measured = l["redundancy_measured"]
        want = set(rc["categories"])
        if not measured:
            want -= RED
            if not want:
                want = {"1*"} if rc["static_class"] == "1*" else set()
        if l["kind"] != rc["kind"]:
            print("FAIL: kind %s, want %s" % (l["kind"], rc["kind"]))
            bad += 1
        if l["static_class"] != rc["static_class"]:
            print("FAIL: static class %s, want %s" % (l["static_class"], rc["static_class"]))
            bad += 1
        if not want <= set(l["root_cause"]):
            print("FAIL: root cause %s, want %s%s" % (l["root_cause"], sorted(want),
                  "" if measured else " (redundancy not measured)"))
            bad += 1
        elif set(l["root_cause"]) - want - {"1*"}:
            print("note: also reports %s" % sorted(set(l["root_cause"]) - want))
        if l["root_cause"] == ["1*"] and with_rank:
            # the ranking may bring skip-loop (a missing constraint): the
            # fix must be one of the truth's, none included
            if not set(l["fix"]) & set(rc["fixes"]):
                print("FAIL: fixes %s, none of them in %s" % (l["fix"], rc["fixes"]))
                bad += 1
        elif l["root_cause"] == ["1*"]:
            if l["fix"] != ["none"]:
                print("FAIL: a 1* loop must get fix none, got %s" % l["fix"])
                bad += 1
            elif "none" not in rc["fixes"]:
                print("KNOWN-MISS: developers used %s; LDoctor's taxonomy has no fix for 1*"
                      % rc["fixes"])
        elif not want:
            print("NOT-CHECKED: fix (nothing measurable holds without redundancy)")
        elif not set(l["fix"]) & set(rc["fixes"]):
            print("FAIL: fixes %s, none of them in %s" % (l["fix"], rc["fixes"]))
            bad += 1
        if not measured and set(rc["categories"]) & RED:
            # the case exists to show this category: not measuring it fails
            print("FAIL: %s not measured (no redundancy probes ran in the loop)"
                  % sorted(set(rc["categories"]) & RED))
            bad += 1
    for o in loops:
        for l in by_line.get((o["function"], o["file"], o["line"]), []):
            print("other loop: %s" % show(l))
            for cat in sorted(set(l["root_cause"]) - {"1*"}):
                if cat in o.get("categories", []):
                    # truth.json lists it: a true symptom of the root cause
                    # one level down (bench/harness's rule)
                    print("symptom: %s:%d %s (%s)" % (l["function"], l["line"], cat,
                                                      o.get("why", "listed in truth.json")))
                    continue
                problem = "false category: %s:%d %s" % (l["function"], l["line"], cat)
                why = known_miss(casedir, name, problem)
                if why:
                    print("KNOWN-MISS: %s (%s)" % (problem, why))
                else:
                    print("FAIL: %s, on a loop that is not the root cause" % problem)
                    bad += 1
    print("PASS" if not bad else "FAILED: %d check(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
