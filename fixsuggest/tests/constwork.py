#!/usr/bin/python3
"""fixsuggest.constwork: a CRC-32 that builds its 256-entry table again on
every call (a function's static, written by nothing else) is slow on many
small records.  `vprof diagnose` names the table loop cross-loop with
memoization: it reads no input, so every instance writes what the one
before it wrote, and the evidence names the table and says to build it
once (docs/redundancy.md, "Constant work done again").  The checksum loop
beside it reads new bytes in every call: not redundant.  Before the
constant-work flag the table loop had no values to compare: "1*, fix
none", cross-loop not measured.

usage: constwork.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, diagnose_json, finish, loops_at, ok  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case("constwork", ("TABLE-LOOP", "CRC-LOOP"))
    r, loops = diagnose_json(bindir, work, prog + " 300 40960", prog + " 600000 16")
    found = loops_at(r, loops, "vprof diagnose", (line["TABLE-LOOP"], line["CRC-LOOP"]),
                     "table and checksum loops")
    if found is None:
        return finish()
    table, crc = found
    ok(table["root_cause"] == ["cross-loop"] and table["fix"] == ["memoization"]
       and table.get("constant_work") == "table" and table["cross_loop_rate"] == 1.0,
       "the table loop is constant work: cross-loop, memoization",
       "%s %s %s %s" % (table["root_cause"], table["fix"], table.get("constant_work"),
                        table["cross_loop_rate"]))
    ev = table["evidence"]
    ok("from constants alone (it reads no input), and writes them to table" in ev
       and "Compute table once" in ev, "the evidence names the table and says to build it once",
       ev)
    ok("cross-loop" not in crc["root_cause"] and crc.get("constant_work") is None,
       "the checksum loop reads new bytes: no cross-loop verdict",
       "%s %s" % (crc["root_cause"], crc.get("constant_work")))
    ok(loops[0]["line"] == line["TABLE-LOOP"], "the table loop comes first",
       str([(l["function"], l["line"], l["share"]) for l in loops]))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
