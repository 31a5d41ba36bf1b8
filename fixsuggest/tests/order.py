#!/usr/bin/python3
"""fixsuggest.order: among loops with nearly the same share (nested through
a call) whose diagnoses say as much, the loop of the function the ranking
puts higher comes first (docs/vprof-loop.md, "Ordering").  Before, the
caller's loop, which holds every sample of the callee's, came first
whatever the ranking said: a driver loop headed the report.  And a loop
without a root cause whose time is nearly all in loops it calls that have
one comes after them (order/driver.c).  A resultless driver loop whose
result-producing calls hold nearly all its samples gets no resultless root
cause, and keeps it when its own scan is the time (order/results.c).  A
recursion with a root cause of its own comes after the loop inside it that
holds nearly all its samples (order/qsort.c).

usage: order.py BINDIR TESTSRCDIR WORKDIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build, build_case, finish, loop_json, marker_lines, ok, run  # noqa: E402


def rank_json(path, first, second, lines, source):
    funcs = []
    for r, name in enumerate((first, second), 1):
        funcs.append({"rank": r, "name": name, "file": source, "line": lines[name],
                      "raw_cost": 2.0 / r, "calibrated_cost": 2.0 / r, "discount": 0,
                      "pattern": "scalability"})
    json.dump({"schema": "vprof-rank/1", "inputs": [], "function_count": 2,
               "functions": funcs}, open(path, "w"))


def main():
    bindir, src, work, prog, line = build_case("order", ("INNER-LOOP", "OUTER-LOOP"))
    for first, second in (("inner", "outer"), ("outer", "inner")):
        rank = os.path.join(work, "rank-%s.json" % first)
        rank_json(rank, first, second, {"inner": line["INNER-LOOP"] - 3,
                                        "outer": line["OUTER-LOOP"] - 3},
                  os.path.join(src, "order", "prog.c"))
        out = os.path.join(work, "loop-%s.json" % first)
        if os.path.exists(out):
            os.unlink(out)
        r = run([os.path.join(bindir, "vprof-loop"), "--top", "2", "--rank", rank,
                 "--format", "json", "-o", out, "--", prog, "800000", "5", "150"], work)
        loops = json.load(open(out))["loops"] if os.path.exists(out) else []
        names = [(l["function"], l["line"], l["root_cause"], round(l["share"], 4)) for l in loops]
        two = [l for l in loops if (l["function"], l["line"]) in
               (("inner", line["INNER-LOOP"]), ("outer", line["OUTER-LOOP"]))]
        ok(r.returncode == 0 and len(two) == 2, "both loops are diagnosed (%s first)" % first,
           r.stderr + " " + repr(names))
        if len(two) != 2:
            continue
        inn = next(l for l in two if l["function"] == "inner")
        out_ = next(l for l in two if l["function"] == "outer")
        ok(all(l["root_cause"] == ["1*"] for l in two),
           "neither loop has a root cause beyond 1*", repr(names))
        ok(inn["share"] <= out_["share"] and inn["share"] >= 0.98 * out_["share"],
           "the caller's loop has a little more of the run, within 2 %", repr(names))
        ok(two[0]["function"] == first,
           "the loop of %s, ranked first, comes first" % first, repr(names))

    driver_c = os.path.join(src, "order", "driver.c")
    dl = marker_lines(driver_c, ("FIND-A", "FIND-B", "DRIVER-LOOP"))
    driver = os.path.join(work, "driver")
    build(bindir, [driver_c], driver)
    r, loops = loop_json(bindir, work, ["drive", "find_a", "find_b"], [driver, "30000"])
    got = [(l["function"], l["line"], l["root_cause"], round(l["share"], 3)) for l in loops]
    order = [(l["function"], l["line"]) for l in loops]
    want = [("find_a", dl["FIND-A"]), ("find_b", dl["FIND-B"]), ("drive", dl["DRIVER-LOOP"])]
    ok(r.returncode == 0 and sorted(order) == sorted(want), "the three loops are diagnosed",
       r.stderr + " " + repr(got))
    if sorted(order) == sorted(want):
        d = next(l for l in loops if l["function"] == "drive")
        ok(d["root_cause"] == ["1*"] and all(l["root_cause"] != ["1*"] for l in loops
                                             if l["function"] != "drive"),
           "the searches have a root cause beyond 1*, the driver does not", repr(got))
        ok(d["share"] >= max(l["share"] for l in loops),
           "the driver's loop holds the largest share", repr(got))
        ok(order == want, "the searches come first, most samples first, then the driver",
           repr(got))

    # a [0|1]* driver whose calls that produce its results hold the time
    results_c = os.path.join(src, "order", "results.c")
    rl = marker_lines(results_c, ("DRIVE-LOOP", "COUNT-CALL", "SCAN-LOOP"))
    results = os.path.join(work, "results")
    build(bindir, [results_c], results)
    r, loops = loop_json(bindir, work, ["drive", "count"], [results, "300000", "3000", "1", "1"])
    got = [(l["function"], l["line"], l["root_cause"], l["fix"], round(l["share"], 3))
           for l in loops]
    d = [l for l in loops if (l["function"], l["line"]) == ("drive", rl["DRIVE-LOOP"])]
    ok(r.returncode == 0 and len(d) == 1, "the driver's loop is diagnosed",
       r.stderr + " " + repr(got))
    if len(d) == 1:
        d = d[0]
        rc = d.get("result_calls") or {}
        ok(rc.get("callee") == "count" and rc.get("line") == rl["COUNT-CALL"] and
           rc.get("samples", 0) >= 0.9 * d["counts"]["samples"],
           "its samples are in the calls of count that produce its results", repr(rc))
        ok(d["root_cause"] == [] and d["fix"] == [] and d["static_class"] == "[0|1]*",
           "the [0|1]* driver gets no resultless root cause and no fix", repr(got))
        ok("the calls that produce those results hold" in d["evidence"],
           "its evidence says where the time is", d["evidence"])
        order = [(l["function"], l["line"]) for l in loops]
        ok(("count", rl["SCAN-LOOP"]) in order and
           order.index(("count", rl["SCAN-LOOP"])) < order.index(("drive", rl["DRIVE-LOOP"])),
           "count's scan loop comes before the driver's", repr(got))
    # the same driver whose own scan is the time keeps its root cause
    r, loops = loop_json(bindir, work, ["drive", "count"],
                         [results, "1000000", "3000", "0", "600"])
    got = [(l["function"], l["line"], l["root_cause"], l["fix"], round(l["share"], 3))
           for l in loops]
    d = [l for l in loops if (l["function"], l["line"]) == ("drive", rl["DRIVE-LOOP"])]
    ok(r.returncode == 0 and len(d) == 1 and "[0|1]*" in d[0]["root_cause"] and
       "skip-loop" in d[0]["fix"],
       "a driver whose scan is its time keeps [0|1]* and skip-loop", r.stderr + " " + repr(got))

    # a recursion and the loop inlined into it, both with a root cause
    qsort_c = os.path.join(src, "order", "qsort.c")
    ql = marker_lines(qsort_c, ("PARTITION-LOOP", "QUICKSORT"))
    qs = os.path.join(work, "qsort")
    build(bindir, [qsort_c], qs)
    r, loops = loop_json(bindir, work, "quicksort", [qs, "40000"])
    got = [(l["function"], l["line"], l["kind"], l["root_cause"], round(l["share"], 4))
           for l in loops]
    part = [i for i, l in enumerate(loops) if (l["function"], l["line"]) ==
            ("partition", ql["PARTITION-LOOP"])]
    rec = [i for i, l in enumerate(loops) if l["kind"] == "recursion"]
    ok(r.returncode == 0 and len(part) == 1 and len(rec) == 1,
       "the partition loop and the recursion are diagnosed", r.stderr + " " + repr(got))
    if len(part) == 1 and len(rec) == 1:
        p, q = loops[part[0]], loops[rec[0]]
        ok(p["root_cause"] != ["1*"] and q["root_cause"] not in ([], ["1*"]) and
           p["share"] >= 0.9 * q["share"] and p["share"] <= q["share"],
           "both have a root cause, the recursion a little more of the run", repr(got))
        ok(part[0] < rec[0], "the loop inside the recursion comes first", repr(got))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
