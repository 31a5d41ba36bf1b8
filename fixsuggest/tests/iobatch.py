#!/usr/bin/python3
"""fixsuggest.iobatch: a loop whose every iteration does I/O, and whose
time is in called loops that redo their previous instance's work once per
iteration, is cross-iteration redundant around its I/O: batching
(docs/vprof-loop.md, "Repeated work around I/O"; LDoctor's I/O-related
cross-iteration redundancy, Mozilla 490742).  A loop that does I/O in
every iteration over work that does not repeat gets no such category, nor
one whose called loop polls (waits in every iteration: HTTPD-54852's
dummy connections); that polling loop's alike instances get no cache or
batch, nor do the caller's repeated calls of it, and without a verdict its
time is still called waiting
(docs/vprof-loop.md, "Loops that wait").  A loop whose repeated call of a
function does I/O gets batching, not memoization ("Repeated calls that do
I/O").  A loop that reads and writes one byte per system call gets
batching; the same copy in blocks of 4096 bytes does not ("A system call
per few bytes", iobatch/bytewise.c).

usage: iobatch.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build, build_case, finish, loop_json, marker_lines, ok, run  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case(
        "iobatch", ("SUM-LOOP", "SAVE-LOOP", "HEX-LOOP", "LOG-LOOP", "POLL-LOOP", "WAKE-LOOP",
                    "SERVE-LOOP", "TITLE-LOOP"))
    funcs = "save_all,checksum,log_all,hexfmt,signal_all,await_ack,serve"
    r, loops = loop_json(bindir, work, funcs, [prog, "60000"])
    by = {(l["function"], l["line"]): l for l in loops}
    save = by.get(("save_all", line["SAVE-LOOP"]))
    csum = by.get(("checksum", line["SUM-LOOP"]))
    log = by.get(("log_all", line["LOG-LOOP"]))
    wake = by.get(("signal_all", line["WAKE-LOOP"]))
    poll = by.get(("await_ack", line["POLL-LOOP"]))
    ok(r.returncode == 0 and save and csum and log and wake and poll, "the loops are diagnosed",
       "exit %d, loops %s\n%s" % (r.returncode, sorted(by), r.stderr[-1500:]))
    if not (save and csum and log and wake and poll):
        return finish()
    ok("cross-loop" in csum["root_cause"] and csum["counts"]["instances"] == 60000,
       "checksum's loop is cross-loop redundant, once per save",
       "%s %s" % (csum["root_cause"], csum["counts"]))
    ok(save["io_call"] == {"callee": "save", "line": line["SAVE-LOOP"] + 2},
       "save_all's call of save does I/O in every iteration", str(save["io_call"]))
    ok("cross-iteration" in save["root_cause"] and save["fix"][0] == "batching"
       and save["cross_iteration_rate"] is None,
       "save_all's loop is cross-iteration redundant around its I/O: batching "
       "(its own signatures were ruled out by the index)",
       "%s %s %s" % (save["root_cause"], save["fix"], save["evidence"]))
    ok("does I/O (the call of save at line %d)" % (line["SAVE-LOOP"] + 2) in save["evidence"]
       and "checksum's loop at line %d (cross-loop" % line["SUM-LOOP"] in save["evidence"],
       "its evidence names the I/O call and the repeated loop", save["evidence"])
    ok(log["io_call"] is not None and log["root_cause"] == ["1*"] and log["fix"] == ["none"]
       and "does I/O" not in log["evidence"],
       "log_all's loop does I/O in every iteration, but nothing repeats: 1*",
       "%s %s %s %s" % (log["io_call"], log["root_cause"], log["fix"], log["evidence"]))

    # A called loop that polls: alike instances, but waits, not work.
    serve = by.get(("serve", line["SERVE-LOOP"]))
    ok(poll["wait_call"] == {"callee": "poll", "line": line["POLL-LOOP"] + 1}
       and poll["io_call"] is None and save["wait_call"] is None,
       "await_ack's loop calls poll in every iteration", "%s %s" % (poll["wait_call"], poll["io_call"]))
    ok(serve is not None and serve["wait_call"] is None and "waits in every" not in serve["evidence"],
       "serve's loop polls in every iteration, then calls handle: it does not only wait",
       str(serve and (serve["wait_call"], serve["evidence"])))
    ok("cross-loop" in poll["root_cause"] and poll["fix"] == ["none"]
       and "its call of poll at line %d waits in every iteration" % (line["POLL-LOOP"] + 1)
       in poll["evidence"].lower(),
       "its alike instances (cross-loop) are waits: no memoization, no batching",
       "%s %s %s" % (poll["root_cause"], poll["fix"], poll["evidence"]))
    callees = (wake["in_callees"] or {}).get("loops") or []
    ok(wake["io_call"] is not None and wake["root_cause"] == ["1*"] and wake["fix"] == ["none"]
       and "does I/O" not in wake["evidence"]
       and [c["waits"] for c in callees if c["function"] == "await_ack"] == [True]
       and "await_ack's loop at line %d (cross-loop, waiting in every iteration" % line["POLL-LOOP"]
       in wake["evidence"],
       "signal_all's loop does I/O in every iteration around a polling loop: not batching",
       "%s %s %s %s %s" % (wake["io_call"], wake["root_cause"], wake["fix"], callees,
                           wake["evidence"]))

    # Calls sampled often enough for a verdict (1 in 30, not 1 in 1,000): the
    # calls of await_ack repeat, with the same inputs, a wait that got the
    # same answer.  Not memoization: signal_all stays 1* and says why.
    r, loops = loop_json(bindir, work, "signal_all,await_ack,title_all", [prog, "60000"],
                         {"VPROF_RED_ITER_RATE": "30"})
    by = {(l["function"], l["line"]): l for l in loops}
    wake = by.get(("signal_all", line["WAKE-LOOP"]))
    call = wake and wake["repeated_call"] or {}
    ok(r.returncode == 0 and call.get("callee") == "await_ack" and call.get("redundant")
       and call.get("callee_waits_line") == line["POLL-LOOP"]
       and wake["root_cause"] == ["1*"] and wake["fix"] == ["none"]
       and "but await_ack waits in every iteration of its loop at line %d: what repeats is a "
       "wait that got the same answer" % line["POLL-LOOP"] in wake["evidence"]
       and "no repeated work was found" not in wake["evidence"],
       "signal_all's repeated calls of await_ack repeat a wait: no memoization",
       "exit %d %s\n%s" % (r.returncode, wake and (wake["root_cause"], wake["fix"], call,
                                                   wake["evidence"]), r.stderr[-1500:]))

    # The same title escaped and written before every row: the repeated
    # call does I/O, so batching, not a cache that would drop the output.
    title = by.get(("title_all", line["TITLE-LOOP"]))
    call = title and title["repeated_call"] or {}
    ok(title and call.get("callee") == "put_title" and call.get("redundant")
       and call.get("does_io") and title["root_cause"] == ["cross-iteration"]
       and title["fix"] == ["batching"]
       and "each call does I/O: caching the call would drop its output" in title["evidence"],
       "title_all's repeated calls of put_title do I/O: batching, not memoization",
       str(title and (title["root_cause"], title["fix"], call, title["evidence"])))

    # With no instance recorded (a rate no run reaches), nothing repeats, but
    # the polling loop went round 48 times per instance: its time is waiting.
    r, loops = loop_json(bindir, work, "signal_all,await_ack", [prog, "20000"],
                         {"VPROF_RED_INSTANCE_RATE": "1073741824"})
    poll = {(l["function"], l["line"]): l for l in loops}.get(("await_ack", line["POLL-LOOP"]))
    ok(r.returncode == 0 and poll and poll["root_cause"] == ["1*"] and poll["fix"] == ["none"]
       and "its call of poll at line %d waits in every iteration, and its instances went "
       "round 48 times on average: most waits got no answer" % (line["POLL-LOOP"] + 1)
       in poll["evidence"].lower(),
       "without a redundancy verdict, the polling loop's time is still called waiting",
       "exit %d %s\n%s" % (r.returncode, poll and (poll["root_cause"], poll["evidence"]),
                           r.stderr[-1500:]))

    # The text report says it too.
    r = run([os.path.join(bindir, "vprof-loop"), "--function", funcs, "--no-color", "--", prog,
             "30000"], work)
    text = " ".join(r.stdout.split())
    ok(r.returncode == 0 and "repeats the previous one's work around its I/O" in text
       and "ruled out for whole iterations (an induction variable among its sources), "
       "repeated work around its I/O in the loops it calls" in text,
       "the text report says it, also where its own signatures were ruled out",
       r.stdout[-2000:] + r.stderr[-500:])
    bytewise(bindir, src, work)
    return finish()


def bytewise(bindir, src, work):
    c = os.path.join(src, "iobatch", "bytewise.c")
    bl = marker_lines(c, ("BYTE-LOOP", "BLOCK-LOOP"))
    prog = os.path.join(work, "bytewise")
    build(bindir, [c], prog)
    data = os.path.join(work, "bytewise.data")
    with open(data, "wb") as f:
        f.write(bytes(range(256)) * 1200)
    r, loops = loop_json(bindir, work, "copy_bytes", [prog, data, "1"])
    got = [(l["function"], l["line"], l["root_cause"], l["fix"], l["syscalls"],
            l["syscall_samples"], l["counts"] and l["counts"]["samples"]) for l in loops]
    b = [l for l in loops if l["line"] == bl["BYTE-LOOP"]]
    ok(r.returncode == 0 and len(b) == 1, "the byte loop is diagnosed", r.stderr + repr(got))
    if len(b) == 1:
        b = b[0]
        ok(sorted((s["callee"], s["line"], s["bytes"]) for s in b["syscalls"]) ==
           [("read", bl["BYTE-LOOP"], 1), ("write", bl["BYTE-LOOP"] + 1, 1)],
           "its read and write of 1 byte per iteration are named", repr(got))
        ok(b["root_cause"] == ["1*"] and b["fix"] == ["batching"] and
           b["syscall_samples"] >= 0.5 * b["counts"]["samples"],
           "the system calls hold its time: 1*, batching", repr(got))
        ok("calls read (line %d) for 1 byte and write (line %d) for 1 byte: two system calls "
           "per iteration" % (bl["BYTE-LOOP"], bl["BYTE-LOOP"] + 1) in b["evidence"],
           "its evidence names the calls", b["evidence"])
    r, loops = loop_json(bindir, work, "copy_blocks", [prog, data, "2"])
    got = [(l["function"], l["line"], l["root_cause"], l["fix"], l["syscalls"]) for l in loops]
    b = [l for l in loops if l["line"] == bl["BLOCK-LOOP"]]
    ok(r.returncode == 0 and len(b) == 1 and b[0]["syscalls"] == [] and
       "batching" not in b[0]["fix"], "the block copy gets no such finding", r.stderr + repr(got))


if __name__ == "__main__":
    sys.exit(main())
