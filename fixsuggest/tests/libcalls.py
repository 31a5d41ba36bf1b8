#!/usr/bin/python3
"""fixsuggest.libcalls: a loop that opens its log again for every event, and
one that compiles the same regex again for every line, are cross-iteration
with memoization (keep the handle, reuse the compiled regex), though whole
iterations never repeat (an induction variable among their sources) and
each is 1* by its side effects; the evidence names the setup call and
says to hoist it.  A loop that compiles a new pattern for every line is
not redundant (docs/redundancy.md, "Setup calls made again").  A loop that
sorts its whole array again after each element it adds is cross-loop with
change-data-structure, and the evidence says to keep the array sorted or
sort once ("Sorts made again").  A loop that calls pow with the same
arguments for every element of a channel is cross-iteration with
memoization; one that calls log of a new sample every time is not ("Math
calls made again").

usage: libcalls.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, by_line, finish, loop_json, ok  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case("libcalls", ("LOG-LOOP", "MATCH-LOOP",
                                                            "IDS-LOOP", "SORT-LOOP",
                                                            "GAIN-LOOP", "WAVE-LOOP"))
    argv = [prog, os.path.join(work, "events.log"), "4000", "3000", "5000", "100000"]
    r, loops = loop_json(bindir, work, "write_log,count_matches,count_ids,leaderboard,mix,"
                         "waveform", argv)
    ok(r.returncode == 0, "vprof-loop diagnoses the program", r.stderr[-1500:])
    log, match, ids = (by_line(loops, line[m]) for m in ("LOG-LOOP", "MATCH-LOOP", "IDS-LOOP"))
    ok(log is not None and match is not None and ids is not None, "the three loops are reported",
       str([(l["function"], l["line"]) for l in loops]))
    if log is None or match is None or ids is None:
        return finish()
    for loop, callee, what, fix in ((log, "fopen", "open again the file an earlier call opened",
                                     "open it once before the loop and keep the handle"),
                                    (match, "regcomp", "compile again the pattern",
                                     "compile it once before the loop and reuse the regex_t")):
        call = loop["repeated_call"] or {}
        ok(loop["root_cause"] == ["cross-iteration"] and loop["fix"] == ["memoization"],
           "the %s loop is cross-iteration: memoization" % callee,
           "%s %s" % (loop["root_cause"], loop["fix"]))
        ok(call.get("callee") == callee and call.get("setup") is True
           and call.get("redundant") is True and call.get("distinct_calls") == 1
           and call.get("sampled_calls", 0) >= 50,
           "its %s calls repeat: a setup call sampled 1 in 16, one distinct" % callee, str(call))
        ev = loop["evidence"]
        ok(what in ev and fix in ev, "the evidence says %s repeats and to hoist it" % callee, ev)
    ic = ids["repeated_call"] or {}
    ok("cross-iteration" not in ids["root_cause"] and ic.get("setup") is True
       and ic.get("redundant") is False and ic.get("distinct_calls") == ic.get("sampled_calls")
       and "compile again" not in ids["evidence"],
       "a new pattern compiled for every line is no repeat",
       "%s %s %s" % (ids["root_cause"], ic, ids["evidence"]))

    sort = by_line(loops, line["SORT-LOOP"])
    sc = (sort or {}).get("repeated_call") or {}
    ok(sort is not None and sort["root_cause"] == ["cross-loop"]
       and sort["fix"] == ["change-data-structure"] and sc.get("callee") == "qsort"
       and sc.get("sorts") is True and sc.get("rescans") is True
       and sc.get("compared_pairs", 0) >= 5,
       "the re-sorting loop is cross-loop: change-data-structure",
       str(sort and (sort["root_cause"], sort["fix"], sc)))
    ok(sort is not None and "sorts again the elements the previous call sorted" in sort["evidence"]
       and "keep the array sorted as elements arrive" in sort["evidence"],
       "the evidence says qsort sorts again and what to do instead",
       sort and sort["evidence"])

    gain, wave = by_line(loops, line["GAIN-LOOP"]), by_line(loops, line["WAVE-LOOP"])
    gc = (gain or {}).get("repeated_call") or {}
    ok(gain is not None and gain["root_cause"] == ["cross-iteration"]
       and gain["fix"] == ["memoization"] and gc.get("callee") == "pow"
       and gc.get("math") is True and gc.get("redundant") is True
       and gc.get("distinct_calls", 99) <= 8 and gc.get("sampled_calls", 0) >= 50,
       "the gain loop's pow repeats: cross-iteration, memoization",
       str(gain and (gain["root_cause"], gain["fix"], gc)))
    ok(gain is not None and "compute again a value an earlier call computed" in gain["evidence"]
       and "compute it once where its arguments are set" in gain["evidence"],
       "the evidence says pow computes again and to hoist it", gain and gain["evidence"])
    wc = (wave or {}).get("repeated_call") or {}
    ok(wave is not None and "cross-iteration" not in wave["root_cause"]
       and wc.get("math") is True and wc.get("redundant") is False,
       "log of a new sample every time is no repeat",
       str(wave and (wave["root_cause"], wc)))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
