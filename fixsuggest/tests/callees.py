#!/usr/bin/python3
"""fixsuggest.callees: a loop whose samples lie mostly in a loop of a
function it calls that has a root cause of its own says so, and takes no
category from it (docs/vprof-loop.md, "Time in the loops it calls").
Before, receive()'s loop read "every path through its body produces a
result ...; no repeated work was found" while 99% of its time was find()'s
cross-loop redundant search.

usage: callees.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, finish, loop_json, ok, run  # noqa: E402

SENTENCE = "of its samples are in loops of the functions it calls that have a root cause"


def main():
    bindir, src, work, prog, line = build_case(
        "callees", ("FIND-LOOP", "RECEIVE-LOOP", "MIX-LOOP", "BLOCKS-LOOP"))
    r, loops = loop_json(bindir, work, "receive,find,blocks,mix", [prog, "30000", "1500"])
    cmd = [os.path.join(bindir, "vprof-loop"), "--function", "receive,find,blocks,mix"]
    by = {(l["function"], l["line"]): l for l in loops}
    rec = by.get(("receive", line["RECEIVE-LOOP"]))
    fnd = by.get(("find", line["FIND-LOOP"]))
    blk = by.get(("blocks", line["BLOCKS-LOOP"]))
    mix = by.get(("mix", line["MIX-LOOP"]))
    ok(r.returncode == 0 and rec and fnd and blk and mix,
       "the four loops are diagnosed",
       "exit %d, loops %s\n%s" % (r.returncode, sorted(by), r.stderr[-1500:]))
    if not (rec and fnd and blk and mix):
        return finish()
    ok("cross-loop" in fnd["root_cause"], "find's loop is cross-loop redundant",
       "find: %s %s" % (fnd["root_cause"], fnd["evidence"]))
    ic = rec.get("in_callees")
    ok(ic and ic["loops"] and ic["loops"][0]["function"] == "find"
       and ic["loops"][0]["line"] == line["FIND-LOOP"]
       and "cross-loop" in ic["loops"][0]["root_cause"]
       and ic["samples"] >= 0.9 * ic["loop_samples"] and ic["loop_samples"] == rec["samples"],
       "receive's loop names find's loop as holding its time, with its root cause",
       "in_callees %s, samples %s" % (ic, rec["samples"]))
    ok(SENTENCE in rec["evidence"] and "find's loop at line %d (" % line["FIND-LOOP"]
       in rec["evidence"] and "no repeated work was found in its own code" in rec["evidence"],
       "its evidence says where its time goes", rec["evidence"])
    ok(rec["root_cause"] == ["1*"] and rec["fix"] == ["none"],
       "it takes no category from the loop it calls (the waste is find's)",
       "receive: %s %s" % (rec["root_cause"], rec["fix"]))
    ok(blk.get("in_callees") is None and SENTENCE not in blk["evidence"]
       and not (set(mix["root_cause"]) - {"1*", "0*1?"}),
       "blocks' loop, whose callee repeats nothing, says nothing of it",
       "blocks: %s %s; mix %s" % (blk.get("in_callees"), blk["evidence"], mix["root_cause"]))
    ok(fnd.get("in_callees") is None, "find's loop calls nothing: no callees",
       str(fnd.get("in_callees")))

    # The text report carries the sentence too.
    r = run(cmd + ["--", prog, "20000", "100"], work)
    ok(r.returncode == 0 and SENTENCE in " ".join(r.stdout.split()),
       "the text report says it", r.stdout[-2000:] + r.stderr[-500:])
    return finish()


if __name__ == "__main__":
    sys.exit(main())
