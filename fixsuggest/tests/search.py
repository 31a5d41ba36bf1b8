#!/usr/bin/python3
"""fixsuggest.search: a 0*1? search under LDoctor's threshold (one result in
1,000 iterations) whose instances scan at least 100 elements on average in
the slow run and at least twice as many as in the normal run is inefficient:
0*1?, change-data-structure, and the evidence says how the scans grew
(docs/vprof-loop.md, "Searches that grew").  Without a normal run, or with
a normal run as slow as the slow one, the loop keeps LDoctor's verdict.

usage: search.py BINDIR TESTSRCDIR WORKDIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, finish, ok, run  # noqa: E402


def chain(bindir, work, prog, line, normal):
    out = os.path.join(work, "loop.json")
    if os.path.exists(out):
        os.unlink(out)
    extra = ["--normal-run", normal] if normal else []
    r = run([os.path.join(bindir, "vprof-loop"), "--function", "lookup", "--format", "json",
             "-o", out] + extra + ["--", prog, "60000", "permuted"], work)
    loops = json.load(open(out))["loops"] if os.path.exists(out) else []
    return r, next((l for l in loops if l["line"] == line["CHAIN-LOOP"]), None)


def main():
    bindir, src, work, prog, line = build_case("search", ("CHAIN-LOOP",))
    r, l = chain(bindir, work, prog, line, "%s 60000" % prog)
    ok(r.returncode == 0 and l is not None, "the chain walk is diagnosed",
       "exit %d\n%s" % (r.returncode, r.stderr[-1500:]))
    if l is None:
        return finish()
    n, s = l["normal_counts"] or {}, l["counts"] or {}
    ok(l["static_class"] == "0*1?" and 100 <= s.get("avg_iterations", 0) < 1000
       and s["avg_iterations"] >= 2 * n.get("avg_iterations", 1e9),
       "a 0*1? walk under the 1-in-1,000 threshold that scans 2x more in the slow run",
       "%s %s %s" % (l["static_class"], n, s))
    ok(l["root_cause"] == ["0*1?"] and l["fix"] == ["change-data-structure"]
       and "the normal run scanned " in l["evidence"] and "the scans grew " in l["evidence"],
       "it is 0*1?: change the data structure, the scans grew",
       "%s %s %s" % (l["root_cause"], l["fix"], l["evidence"]))
    # the list is a hash bucket's chain, whose index hash() returns
    # (docs/vprof-loop.md, "Hash bucket chains")
    ok(l.get("bucket_line") == line["CHAIN-LOOP"]
       and "is the chain of one hash-table bucket (line %d: `for (struct entry *e = buckets[b]"
       % line["CHAIN-LOOP"] in l["evidence"] and "Fix the hash function" in l["evidence"],
       "the evidence names the bucket's chain and the hash as the fix",
       "%s %s" % (l.get("bucket_line"), l["evidence"]))

    # the same input in both runs: the scans did not grow
    r, l = chain(bindir, work, prog, line, "%s 60000 permuted" % prog)
    ok(r.returncode == 0 and l and l["root_cause"] == [] and "scans grew" not in l["evidence"],
       "the same search in both runs: no category",
       str(l and (l["root_cause"], l["evidence"])))
    # no normal run: LDoctor's threshold alone
    r, l = chain(bindir, work, prog, line, None)
    ok(r.returncode == 0 and l and l["root_cause"] == [] and "not resultless" in l["evidence"],
       "no normal run: LDoctor's threshold alone, no category",
       str(l and (l["root_cause"], l["evidence"])))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
