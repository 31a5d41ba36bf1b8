#!/usr/bin/python3
"""fixsuggest.inline: samples in code inlined into a loop belong to the loop
(docs/vprof-loop.md, "Samples in inlined code"; docs/rank.md,
"Localisation").  lookup()'s loop spends its time in key_equal(), inlined
from keys.h: the line table puts those samples in keys.h, which no loop of
prog.c holds.  Before the inline chains, vprof-loop gave the loop a few
percent of the run and vprof rank put lookup's anomalous lines in keys.h,
with no loop.

usage: inline.py BINDIR TESTSRCDIR WORKDIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (build, build_case, finish, loop_json, marker_lines, ok,  # noqa: E402
                    record_rank, run)


def main():
    bindir, src, work, prog, line = build_case("inline", ("LOOKUP-LOOP", "LOOKUP-CALL"))
    prog_c = os.path.join(src, "inline", "prog.c")

    # vprof-loop: the loop's share counts the inlined comparison.
    r, loops = loop_json(bindir, work, "lookup", [prog, "28000", "6000"])
    lk = [l for l in loops if l["function"] == "lookup" and l["line"] == line["LOOKUP-LOOP"]]
    ok(r.returncode == 0 and lk and lk[0]["share"] >= 0.6,
       "lookup's loop holds the samples of the comparison inlined into it",
       "exit %d, loops %s\n%s" % (r.returncode,
                                  [(l["function"], l["line"], l["share"]) for l in loops],
                                  r.stderr[-1500:]))

    # A static helper's loop inlined into its caller is a loop of the
    # caller's code: selected with it and said to be inlined (before
    # 2026-11-22 such loops were left out: bzip2's mainSort, inlined into
    # the ranked BZ2_blockSort, showed no loop).
    helper_c = os.path.join(src, "inline", "helper.c")
    hline = marker_lines(helper_c, ("HELPER-LOOP", "HOST-LOOP"))
    helper = os.path.join(work, "helper")
    build(bindir, [helper_c], helper)
    hout = os.path.join(work, "helper.json")
    if os.path.exists(hout):
        os.unlink(hout)
    r = run([os.path.join(bindir, "vprof-loop"), "--function", "scan_all", "--format", "json",
             "-o", hout, "--", helper, "20000", "3000"], work)
    rep = json.load(open(hout)) if os.path.exists(hout) else {}
    hl = rep.get("loops", [])
    inl = [l for l in hl if l["function"] == "count_matches" and l["line"] == hline["HELPER-LOOP"]]
    host = [l for l in hl if l["function"] == "scan_all" and l["line"] == hline["HOST-LOOP"]]
    ok(r.returncode == 0 and inl and all(l.get("inlined_into") == "scan_all" for l in inl)
       and host and host[0].get("inlined_into") is None,
       "count_matches's loop, inlined into scan_all, is diagnosed as inlined into scan_all",
       "exit %d, loops %s\n%s" % (r.returncode,
                                  [(l["function"], l["line"], l.get("inlined_into")) for l in hl],
                                  r.stderr[-1500:]))
    ok(inl and inl[0]["share"] >= 0.5 and inl[0]["counts"]["instances"] == 3000,
       "it holds most of the run, with one instance per call of the helper",
       "loops %s" % inl)
    ok(rep.get("functions") == ["scan_all"],
       "the selected functions are scan_all alone (count_matches is not listed as chosen)",
       "functions %s" % rep.get("functions"))
    # The helper alone, by name: it has no symbol (only DWARF knows it), yet
    # it is a function of the program, and its loop is diagnosed.  The check
    # of names before the run first took it for a misspelt name.
    nm = run(["nm", helper], work).stdout
    r = run([os.path.join(bindir, "vprof-loop"), "--function", "count_matches", "--", helper,
             "2000", "300"], work)
    ok("count_matches" not in nm and r.returncode == 0 and
       "1 loop diagnosed in count_matches" in r.stdout and "no function" not in r.stderr,
       "--function names a function that is only inlined: its loop is diagnosed",
       "exit %d, symbols %s\n%s" % (r.returncode, "count_matches" in nm,
                                     r.stdout[-1000:] + r.stderr[-500:]))
    r = run([os.path.join(bindir, "vprof-loop"), "--function", "scan_all", "--", helper, "2000",
             "300"], work)
    ok(r.returncode == 0 and "count_matches (inlined into scan_all)" in r.stdout,
       "the text report names the loop's function and the function it is inlined into",
       r.stdout[-1500:] + r.stderr[-500:])

    # One helper inlined into two selected functions: two loops, each said
    # to be inlined into the function whose code holds it, with that copy's
    # counts and samples (before 2026-11-25 they were one entry, said to be
    # inlined into the first function, with the other copy's counts, and
    # both copies had the samples of both).
    two_c = os.path.join(src, "inline", "twohosts.c")
    tline = marker_lines(two_c, ("MIX-LOOP",))["MIX-LOOP"]
    two = os.path.join(work, "twohosts")
    build(bindir, [two_c], two)
    r, tl = loop_json(bindir, work, ["heavy", "light"], [two, "20000", "400", "20"])
    mixes = {l.get("inlined_into"): l for l in tl if l["function"] == "mix" and l["line"] == tline}
    hv, lt = mixes.get("heavy"), mixes.get("light")
    ok(r.returncode == 0 and len(mixes) == 2 and hv and lt and
       hv["share"] >= 0.7 and lt["share"] <= 0.2 and
       hv["counts"]["iterations"] >= 10 * lt["counts"]["iterations"] and
       hv["counts"]["instances"] == lt["counts"]["instances"] == 20 * 20000,
       "a helper's loop inlined into two functions is two loops, each with its own host, "
       "counts and share",
       "exit %d, loops %s\n%s" % (r.returncode,
                                   [(l["function"], l["line"], l.get("inlined_into"),
                                     l["share"], l["counts"]) for l in tl], r.stderr[-1500:]))

    # vprof rank on the helper program: the host loop's counter j slows
    # down (its deltas) because each call of the inlined helper scans 10x
    # more.  Its anomalous samples are taken in the helper's loop, of the
    # same file: they are reported there, in that loop, not on the call line
    # in HOST-LOOP (before 2026-11-24 they were; in a program whose helpers
    # are all inlined into main, main's call line was in no loop at all),
    # and vprof-loop marks the helper's loop, inlined into scan_all.
    funcs, r = record_rank(bindir, work, [helper, "2000", "100000"], [helper, "20000", "30000"],
                           prefix="h")
    f = next((f for f in funcs if f["name"] == "scan_all"), None)
    lines = f["anomalous_lines"] if f else []
    inside = sum(l["samples"] for l in lines if l["loop_line"] == hline["HELPER-LOOP"]
                 and hline["HELPER-LOOP"] <= l["line"] <= hline["HELPER-LOOP"] + 1)
    ok(lines and inside * 10 >= 9 * sum(l["samples"] for l in lines)
       and all(l["file"] == helper_c for l in lines),
       "scan_all's anomalous lines are in the inlined helper's loop (HELPER-LOOP)",
       "exit %d, scan_all %s\n%s" % (r.returncode, f and {k: f[k] for k in
                                                           ("anomalous_variable", "anomalous_lines")},
                                     r.stderr[-1000:]))
    # vprof report: count_matches has no code of its own (inlined); its
    # variables' row is named and placed from the inline frames of their
    # samples (before 2026-11-25: line 0, and C++ names unqualified).
    r = run([os.path.join(bindir, "vprof"), "report", "--format", "json", "hb.vprof"], work)
    rows = json.loads(r.stdout)["functions"] if r.returncode == 0 else []
    cm = [f for f in rows if f["name"] == "count_matches"]
    decl = next(i + 1 for i, t in enumerate(open(helper_c).read().split("\n"))
                if "count_matches(const int" in t)
    ok(cm and cm[0]["inlined"] and cm[0]["line"] == decl and cm[0]["file"] == helper_c
       and cm[0]["variables"],
       "vprof report places the inlined helper's variables at its declaration (%d)" % decl,
       "exit %d, rows %s" % (r.returncode, [(f["name"], f["file"], f["line"], f.get("inlined"))
                                            for f in rows]))
    hout = os.path.join(work, "helper-rank-loop.json")
    if os.path.exists(hout):
        os.unlink(hout)
    r = run([os.path.join(bindir, "vprof-loop"), "--top", "1", "--rank", "hrank.json", "--format",
             "json", "-o", hout, "--", helper, "20000", "3000"], work)
    hl = json.load(open(hout))["loops"] if os.path.exists(hout) else []
    marked = [(l["function"], l["line"]) for l in hl if l.get("rank_anomaly")]
    ok(r.returncode == 0 and marked == [("count_matches", hline["HELPER-LOOP"])],
       "vprof-loop marks the inlined helper's loop as where scan_all's anomaly is",
       "exit %d, marked %s\n%s" % (r.returncode, marked, r.stderr[-1000:]))

    # vprof rank: the anomalous lines are lookup's own, in its loop.  The
    # slow run searches 10x more keys, so the loop index is anomalous.
    funcs, r = record_rank(bindir, work, [prog, "2800", "60000"], [prog, "28000", "6000"])
    f = next((f for f in funcs if f["name"] == "lookup"), None)
    lines = f["anomalous_lines"] if f else []
    ok(lines and all(l["file"] == prog_c and l["loop_line"] == line["LOOKUP-LOOP"]
                     for l in lines),
       "lookup's anomalous lines are in prog.c, each in lookup's loop",
       "exit %d, lookup %s\n%s" % (r.returncode, f and {k: f[k] for k in
                                                         ("rank", "anomalous_variable",
                                                          "anomalous_lines")},
                                   r.stderr[-1000:]))
    call = sum(l["samples"] for l in lines if l["line"] == line["LOOKUP-CALL"])
    ok(call * 2 > sum(l["samples"] for l in lines),
       "most of them are on the line that calls the inlined comparison",
       "anomalous_lines %s" % lines)
    # The helper rebuilt since hb.vprof was recorded: its addresses are not
    # symbolized (a warning says why), and no row is called inlined.
    build(bindir, [helper_c], helper, opt="-O1")
    r = run([os.path.join(bindir, "vprof"), "report", "--format", "json", "hb.vprof"], work)
    rows = json.loads(r.stdout)["functions"] if r.returncode == 0 else []
    ok(r.returncode == 0 and "build-id differs" in r.stderr and rows
       and not any(f["inlined"] for f in rows),
       "a report against a changed binary calls no function inlined",
       "exit %d, rows %s\n%s" % (r.returncode, [(f["name"], f["inlined"]) for f in rows],
                                   r.stderr[-500:]))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
