#!/usr/bin/python3
"""fixsuggest.scaling: a queue kept in an array and dequeued by a helper
that moves the rest of the array down (prog.c).  Draining 60,000 jobs at
once against 100 jobs 60,000 times: 600x the iterations per instance, and
each iteration ~300-600x slower.  vprof-loop's growth sentence for the
drain loop says that the time per iteration grew with the loop's length,
as if an iteration's work were proportional to it, so an instance takes
time about as the square of its length (JSON growth_exponent ~2), and
names the line and the memmove under it.  The fill loop's iterations cost
the same in both runs: no such sentence, growth_exponent null.  Before,
the drain loop's report was "1*, fix none" with the hot line only
(docs/vprof-loop.md, "Work per iteration that grows").

pop's memmove is also a copy unit of the drain loop, lifted from the
helper (docs/redundancy.md, "Copies in a helper"): consecutive pops move
the same bytes again, shifted, so the loop is cross-loop with the fix
change-data-structure, and its repeated call names memmove in pop, at the
memmove's line, called at the loop's line.  Before the lifting the unit
did not exist (the memmove is not in the loop's own body) and the loop
stayed 1*.  The fill loop's push copies one struct (a constant size): no
unit, still 1*.

usage: scaling.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, finish, loop_json, loops_at, ok  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case("scaling",
                                               ("FILL-LOOP", "DRAIN-LOOP", "POP", "SHIFT"))
    r, loops = loop_json(bindir, work, ["fill", "drain"], [prog, "60000", "1"],
                         options=["--normal-run", prog + " 100 60000"])
    found = loops_at(r, loops, "vprof-loop", (line["DRAIN-LOOP"], line["FILL-LOOP"]),
                     "drain and fill loops")
    if found is None:
        return finish()
    drain, fill = found
    g = drain["growth"] or ""
    e = drain.get("growth_exponent")
    ok(e is not None and 1.75 <= e <= 2.25, "draining takes time about as the square of the "
       "queue's length (two-point exponent)", "growth_exponent %r" % (e,))
    ok("the time per iteration grew with the iterations per instance (" in g
       and "as if one iteration's work were proportional to how long its loop runs, which "
       "makes an instance's time grow about as the square of its length" in g,
       "the growth sentence says so", g)
    hot = (drain["growth_lines"] or [{}])[0]
    ok(hot.get("line") == line["POP"] and hot.get("callee") == "pop"
       and "memmove" in (hot.get("leaf") or ""),
       "and names the pop and the memmove under it", str(drain["growth_lines"]))
    call = drain.get("repeated_call") or {}
    ok("cross-loop" in drain["root_cause"] and drain["fix"] == ["change-data-structure"],
       "pop's memmove, lifted to the drain loop, makes it cross-loop: change the data "
       "structure", "%s %s" % (drain["root_cause"], drain["fix"]))
    ok(call.get("callee") == "memmove" and call.get("via") == "pop"
       and call.get("via_line") == line["SHIFT"] and call.get("line") == line["POP"]
       and call.get("copies") and call.get("shifted"),
       "the repeated call is pop's memmove, shifted", str(call))
    ok("each call of memmove (line %d, in pop, called at line %d) moves again the bytes"
       % (line["SHIFT"], line["POP"]) in drain["evidence"].lower(),
       "the evidence names the memmove in pop and the call of pop", drain["evidence"])
    ok(fill["root_cause"] == ["1*"] and fill.get("repeated_call") is None,
       "fill's push copies one struct: no unit, 1*",
       "%s %s" % (fill["root_cause"], fill.get("repeated_call")))
    ok(fill.get("growth_exponent") is None
       and "as if one iteration's work" not in (fill["growth"] or ""),
       "the fill loop's iterations cost the same: not said", fill["growth"] or "")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
