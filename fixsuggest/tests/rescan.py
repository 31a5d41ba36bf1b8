#!/usr/bin/python3
"""fixsuggest.rescan: a loop whose strcat calls scan again the string the
previous call scanned (the Schlemiel loop) is cross-loop, memoization, and
the evidence says to keep the string's length (docs/redundancy.md, "Strings
scanned again"); a loop whose strlen calls read a different string each
time is not; nor is a loop parsing a line with glibc's sscanf, which
measures the rest of the line on every call.  Built without the pairs (-vprof-prefix-pairs=0) the Schlemiel
loop is the 1* it was before.

usage: rescan.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build, build_case, by_line, finish, loop_json, ok  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case("rescan", ("JOIN-LOOP", "LINES-LOOP",
                                                          "PARSE-LOOP"))
    argv = [prog, "6000", "6"]
    r, loops = loop_json(bindir, work, "to_csv,to_lines,sum_csv", argv)
    ok(r.returncode == 0, "vprof-loop diagnoses the program", r.stderr[-1500:])
    join, lines = by_line(loops, line["JOIN-LOOP"]), by_line(loops, line["LINES-LOOP"])
    ok(join is not None and lines is not None, "both loops are reported",
       str([(l["function"], l["line"]) for l in loops]))
    if join is None or lines is None:
        return finish()
    call = join["repeated_call"] or {}
    ok(join["root_cause"] == ["cross-loop"] and join["fix"] == ["memoization"],
       "the strcat loop is cross-loop: memoization", "%s %s" % (join["root_cause"], join["fix"]))
    ok(call.get("rescans") is True and call.get("compared_pairs", 0) >= 5
       and call.get("rescan_rate", 0) >= 0.5 and call.get("rescanned_share", 0) >= 0.9,
       "its strcat calls scan the string again: pairs, rate and share in the JSON", str(call))
    ev = join["evidence"]
    ok("reads again the string the previous call read" in ev
       and "keep its length (or a pointer to its end)" in ev,
       "the evidence names the rescan and the fix", ev)
    lc = lines["repeated_call"] or {}
    ok("cross-loop" not in lines["root_cause"] and lc.get("rescans") is False
       and lc.get("compared_pairs", 0) >= 5 and "reads again the string" not in lines["evidence"],
       "a strlen over a different string each call is no rescan",
       "%s %s %s" % (lines["root_cause"], lc, lines["evidence"]))

    parse = by_line(loops, line["PARSE-LOOP"])
    pc = (parse or {}).get("repeated_call") or {}
    ok(parse is not None and parse["root_cause"] == ["cross-loop"]
       and parse["fix"] == ["memoization"] and pc.get("callee") == "sscanf"
       and pc.get("rescans") is True
       and "glibc's sscanf measures its whole input on every call" in parse["evidence"],
       "the sscanf parse is cross-loop, and the evidence says why and what to use",
       str(parse and (parse["root_cause"], pc, parse["evidence"])))

    # without the pairs: the loop is what it was before
    off = os.path.join(work, "prog-off")
    build(bindir, [os.path.join(src, "rescan", "prog.c")], off,
          extra=["-mllvm", "-vprof-prefix-pairs=0"])
    r, loops = loop_json(bindir, work, "to_csv", [off, "6000", "6"])
    join = by_line(loops, line["JOIN-LOOP"])
    ok(r.returncode == 0 and join is not None and join["root_cause"] == ["1*"]
       and "reads again the string" not in join["evidence"],
       "without the pairs the strcat loop is 1*",
       str(join and (join["root_cause"], join["evidence"])))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
