#!/usr/bin/python3
"""fixsuggest.spin: a spin lock's loop (loop table VP_LOOPF_SPIN) that two
threads contend for is 0*1? with no LDoctor fix, and the evidence says that
its tries wait for another thread (docs/vprof-loop.md, "Spin loops"); with
one thread the same loop never goes round and gets no category.

usage: spin.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, finish, loop_json, ok  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case("spin", ("SPIN-LOOP",))
    at = line["SPIN-LOOP"]
    r, loops = loop_json(bindir, work, "worker", [prog, "2", "1000000"])
    l = next((x for x in loops if x["line"] == at), None)
    ok(r.returncode == 0 and l is not None, "the spin loop is diagnosed",
       "exit %d\n%s" % (r.returncode, r.stderr[-1500:]))
    if l is None:
        return finish()
    s = l["counts"] or {}
    ok(l.get("spin_line") == at, "the loop table flags it as a spin on line %d" % at,
       str(l.get("spin_line")))
    ok(s.get("avg_iterations", 0) >= 2 and l["root_cause"] == ["0*1?"] and l["fix"] == ["none"]
       and "It spins on the atomic access at line %d" % at in l["evidence"]
       and "every try but the last changed nothing" in l["evidence"]
       and "produces a result" not in l["evidence"]
       and abs(l["resultless_rate"] - (1 - s["instances"] / s["iterations"])) < 1e-5,
       "two threads: 0*1?, no LDoctor fix, the tries wait for the other thread, resultless "
       "as 0*1? counts it (all tries but the last)",
       "%s %s %s %s %s" % (s.get("avg_iterations"), l["root_cause"], l["fix"],
                           l["resultless_rate"], l["evidence"]))

    r, loops = loop_json(bindir, work, "worker", [prog, "1", "200000"])
    l = next((x for x in loops if x["line"] == at), None)
    ok(r.returncode == 0 and l is not None and l["root_cause"] == []
       and "spins" not in l["evidence"].lower().replace("its instances", ""),
       "one thread: the lock is always free, no category",
       str(l and (l["counts"], l["root_cause"], l["evidence"])))
    # the work loop beside it, which holds the lock, is no spin
    w = next((x for x in loops if x["function"] == "work"), None)
    ok(w is not None and w.get("spin_line") is None, "the work loop is no spin",
       str(w and w.get("spin_line")))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
