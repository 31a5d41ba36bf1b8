#!/usr/bin/python3
"""fixsuggest.anomaly: the loop `vprof rank`'s anomaly points to
(docs/vprof-loop.md, "Where the ranking's anomaly is").  The ranking gives
each anomalous line its innermost loop; vprof-loop marks, per function, the
innermost loop holding at least 90% of the function's anomalous samples
counting its inner loops' (the recursion holds its function's loops), else
the loop holding the most.  Rankings written here, against a real binary.

usage: anomaly.py BINDIR TESTSRCDIR WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ok, finish  # noqa: E402


def main():
    bindir, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    prog_c = os.path.join(src, "anomaly", "prog.c")
    text = open(prog_c).read().split("\n")
    line = {m: next(i + 1 for i, t in enumerate(text) if "/* %s */" % m in t)
            for m in ("OUTER", "INNER", "OUTER-ONLY", "FIRST", "SECOND", "RECURSION",
                      "IN-RECURSION")}
    walk_line = next(i + 1 for i, t in enumerate(text) if t.startswith("__attribute__") and "walk(" in t)
    prog = os.path.join(work, "prog")
    r = subprocess.run([os.path.join(bindir, "vprof-cc"), "-O1", "-g", "-fno-vectorize",
                        "-fno-unroll-loops", "-mllvm", "-vprof-redundancy-probes=0", prog_c,
                        "-o", prog], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("vprof-cc failed:\n" + r.stderr[-3000:])

    def rank(name, lines, extra=None, full=False):
        """lines: function -> [(source line, loop line, samples)]; extra:
        function -> more fields of its entry; full: return the loops"""
        funcs = []
        for k, fn in enumerate(("scan", "pair", "walk")):
            funcs.append({"rank": k + 1, "name": fn, "file": "prog.c", "line": 1,
                          "anomalous_variable": "v_" + fn,
                          "anomalous_lines": [{"file": prog_c, "line": sl, "loop_line": ll,
                                               "samples": n} for sl, ll, n in lines.get(fn, [])]})
            funcs[-1].update((extra or {}).get(fn, {}))
        path = os.path.join(work, name + ".rank.json")
        json.dump({"schema": "vprof-rank/1", "inputs": [], "functions": funcs}, open(path, "w"))
        out = os.path.join(work, name + ".json")
        r = subprocess.run([os.path.join(bindir, "vprof-loop"), "--top", "3", "--rank", path,
                            "--format", "json", "-o", out, "--", prog], capture_output=True,
                           text=True, cwd=work)
        if r.returncode != 0 or not os.path.exists(out):
            ok(False, name, "exit %d; stderr:\n%s" % (r.returncode, r.stderr[-2000:]))
            return {}
        loops = json.load(open(out))["loops"]
        if full:
            return {(l["function"], l["line"]): l for l in loops}
        return {(l["function"], l["line"]): l["rank_anomaly"] for l in loops}

    O, I, OO = line["OUTER"], line["INNER"], line["OUTER-ONLY"]
    F, S, IR = line["FIRST"], line["SECOND"], line["IN-RECURSION"]
    # 60% in the inner loop, 40% on the outer loop's own lines: the outer
    # loop holds them all, the inner one less than 90%.
    got = rank("spread", {"scan": [(I + 1, I, 60), (OO, O, 40)],
                          "pair": [(F + 1, F, 60), (S + 1, S, 40)],
                          "walk": [(IR + 1, IR, 70), (line["RECURSION"], walk_line, 30)]})
    marked = {k: v for k, v in got.items() if v}
    ok(marked.get(("scan", O)) == {"variable": "v_scan", "samples": 100, "function_samples": 100}
       and ("scan", I) not in marked,
       "spread over an outer loop and its inner loop: the outer one", str(marked))
    ok(marked.get(("pair", F), {}).get("samples") == 60 and ("pair", S) not in marked,
       "spread over two loops one after the other: the one holding the most", str(marked))
    ok(marked.get(("walk", walk_line), {}).get("samples") == 100 and ("walk", IR) not in marked,
       "a recursion holds the loops of its function", str(marked))
    # 95% in the inner loop: the inner one.
    got = rank("inner", {"scan": [(I + 1, I, 95), (OO, O, 5)]})
    marked = {k: v for k, v in got.items() if v}
    ok(marked.get(("scan", I), {}).get("samples") == 95 and ("scan", O) not in marked and
       marked[("scan", I)]["function_samples"] == 100,
       "nearly all in the inner loop: the inner one", str(marked))
    # Counts from the file as large as it may hold (LLONG_MAX each): the sums
    # saturate instead of wrapping.  Two thirds are the outer loop's own, so it
    # holds them all; wrapped, the function's total fell below the inner
    # loop's count and the inner loop was marked.
    big = 2 ** 63 - 1
    got = rank("huge", {"scan": [(I + 1, I, big), (OO, O, big), (OO, O, big)]})
    marked = {k: v for k, v in got.items() if v}
    ok(marked.get(("scan", O), {}).get("samples") == 2 ** 64 - 1 and ("scan", I) not in marked,
       "huge counts in the ranking: sums saturate", str(marked))

    # A missing constraint (docs/vprof-loop.md, "A constraint the loop is
    # missing"): the ranking's rule 1 on the variable its anomalous lines are
    # of marks the loop, which gets skip-loop with the check at the line
    # holding most of them; the loops it does not mark keep their fix.
    def constraint(pattern, pv, runs=(1, 9), kind="sint", values=(False, 0.8, 0.0), proc=0.0):
        val = {"rejected": values[0], "discount": values[1]}
        if values[2] is not None:
            val["slow_outside"] = values[2]
        var = {"name": pv, "kind": kind, "dimensions": {
            "values": val,
            "processing-cost": ({"normal_median_run": runs[0], "slow_median_run": runs[1],
                                 "discount": proc} if runs else {})}}
        return {"scan": {"pattern": pattern, "pattern_variable": pv, "variables": [var]}}
    lines = {"scan": [(I + 1, I, 60), (OO, O, 40)]}
    # values told apart, but no more than DefaultDiscount discounts (H 0.12)
    got = rank("constraint", lines, constraint("missing-constraint", "v_scan",
                                               values=(True, 0.88, 0.4)), full=True)
    outer, inner = got.get(("scan", O), {}), got.get(("scan", I), {})
    ok(outer.get("root_cause") == ["1*"] and outer.get("fix") == ["skip-loop"] and
       "the work at line %d: `s += a[i] * r;`" % (I + 1) in outer.get("condition", "") and
       "`v_scan` takes the same values as in the normal run, where it changed at every "
       "sample, but stays the same for 9 sample intervals in the slow run" in
       outer.get("evidence", ""),
       "missing constraint: the marked loop gets skip-loop, the check at its top line",
       json.dumps({k: outer.get(k) for k in ("fix", "condition", "evidence")}))
    ok(inner.get("fix") == ["none"], "missing constraint: the unmarked loop keeps none",
       str(inner.get("fix")))
    # values told apart (H 0.33, the CI run of httpd54852 under load), all of
    # the slow samples inside the normal run's range: the same values
    got = rank("constraint-in", lines, constraint("missing-constraint", "v_scan",
                                                  values=(True, 0.67, 0.02)), full=True)
    ok(got.get(("scan", O), {}).get("fix") == ["skip-loop"],
       "missing constraint: values told apart within the normal range keep skip-loop",
       str(got.get(("scan", O), {}).get("fix")))
    MC = "missing-constraint"
    for nm, c in (("another variable's", constraint(MC, "v_other")),
                  ("scalability's", constraint("scalability", "v_scan")),
                  ("an aggregate's", constraint(MC, "v_scan", kind="aggregate")),
                  ("a pointer to a struct's", constraint(MC, "v_scan", kind="ptr-other")),
                  ("values of a wider range (ctl_sort_join's width: 13 % outside)",
                   constraint(MC, "v_scan", values=(True, 0.73, 0.13))),
                  ("values that differ more than they agree, inside the range",
                   constraint(MC, "v_scan", values=(True, 0.32, 0.0))),
                  ("values told apart, no share outside in the file",
                   constraint(MC, "v_scan", values=(True, 0.73, None))),
                  ("values told apart, a share outside below 0 (a corrupt file)",
                   constraint(MC, "v_scan", values=(True, 0.73, -0.5))),
                  ("iterations long in the normal run too", constraint(MC, "v_scan", runs=(5, 18))),
                  ("a weak processing-cost anomaly (discount 0.77)",
                   constraint(MC, "v_scan", proc=0.77)),
                  ("no run lengths in the file", constraint(MC, "v_scan", runs=None))):
        got = rank("constraint-no", lines, c, full=True)
        ok(got.get(("scan", O), {}).get("fix") == ["none"],
           "missing constraint, %s: no skip-loop" % nm, str(got.get(("scan", O), {}).get("fix")))
    sys.exit(finish())


if __name__ == "__main__":
    main()
