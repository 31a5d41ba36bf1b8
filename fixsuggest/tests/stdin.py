#!/usr/bin/python3
"""fixsuggest.stdin: `vprof diagnose` and vprof-loop's --normal-run take a
command line's '< FILE' (its standard input, opened anew for each of the
runs) and '> FILE' (its standard output): the slow input of a program that
reads standard input is a file, and the diagnosis finds the strlen the
loop condition calls again on the same string.  Before, '<' was an
argument and the program read vprof's own standard input.  A missing
input file is one line and exit 2 (docs/vprof-loop.md, "Commands").

usage: stdin.py BINDIR TESTSRCDIR WORKDIR
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, finish, ok, run  # noqa: E402


def text(path, paragraphs, words):
    rnd = random.Random(7)
    word = lambda: "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz")
                           for _ in range(rnd.randint(2, 9)))
    with open(path, "w") as f:
        f.write("\n\n".join(" ".join(word() for _ in range(words))
                            for _ in range(paragraphs)))


def main():
    bindir, src, work, prog, line = build_case("stdin", ("VOWEL-LOOP",))
    text(os.path.join(work, "short.txt"), 1500, 60)
    text(os.path.join(work, "long.txt"), 2, 14000)
    out = os.path.join(work, "d.json")
    slow_out = os.path.join(work, "slow.out")
    for f in (out, slow_out):
        if os.path.exists(f):
            os.unlink(f)
    vprof = os.path.join(bindir, "vprof")
    r = run([vprof, "diagnose", "--normal", "%s < short.txt" % prog,
             "--buggy", "%s <long.txt > '%s'" % (prog, slow_out),
             "--top", "2", "--format", "json", "-o", out], work)
    ok(r.returncode == 0 and os.path.exists(out), "vprof diagnose runs with '<' and '>'",
       r.stderr[-1500:])
    if not os.path.exists(out):
        return finish()
    d = json.load(open(out))
    ok(d["input"] == "long.txt" and d["normal_input"] == "short.txt"
       and d["command"] == [prog] and d["normal_command"] == [prog],
       "the report keeps the commands' inputs apart from their words",
       "%s %s %s %s" % (d["input"], d["normal_input"], d["command"], d["normal_command"]))
    counted = open(slow_out).read().strip() if os.path.exists(slow_out) else ""
    ok(counted.isdigit() and int(counted) > 1000,
       "the slow run's output went to its '> FILE' (rewritten by each run)", repr(counted))
    l = next((x for x in d["loops"] if x["line"] == line["VOWEL-LOOP"]), None)
    call = (l or {}).get("repeated_call") or {}
    ok(l is not None and d["loops"][0] is l and call.get("callee", "").startswith("strlen")
       and call.get("rescans") is True and "memoization" in l["fix"],
       "the loop that reads its input is first: strlen scans the string again",
       str(l and (l["root_cause"], l["fix"], call)))
    ok(l is not None and (l.get("normal_counts") or {}).get("instances", 0) >= 1000,
       "the normal run read short.txt (1,500 paragraphs)",
       str(l and l.get("normal_counts")))

    # the text says where the input came from
    r = run([vprof, "diagnose", "--normal", "%s < short.txt" % prog,
             "--buggy", "%s < long.txt" % prog, "--top", "1"], work)
    ok(r.returncode == 0 and "slow run: %s < long.txt" % prog in r.stdout
       and "normal run: %s < short.txt" % prog in r.stdout,
       "the text names the inputs", r.stdout[:600] + r.stderr[-600:])
    # vprof-loop's normal run takes them too
    # (its slow run, `-- CMD`, reads vprof-loop's own standard input)
    lj = os.path.join(work, "l.json")
    if os.path.exists(lj):
        os.unlink(lj)
    with open(os.path.join(work, "long.txt")) as stdin:
        r = subprocess.run([os.path.join(bindir, "vprof-loop"), "--function", "vowels",
                            "--normal-run", "%s < short.txt" % prog, "--format", "json",
                            "-o", lj, "--", prog], cwd=work, stdin=stdin,
                           capture_output=True, text=True)
    d = json.load(open(lj)) if os.path.exists(lj) else {"loops": []}
    l = next((x for x in d["loops"] if x["line"] == line["VOWEL-LOOP"]), None)
    ok(r.returncode == 0 and d.get("normal_input") == "short.txt" and d.get("input") is None
       and l is not None and l["counts"]["instances"] == 2
       and l["normal_counts"]["instances"] >= 1000,
       "vprof-loop --normal-run takes '< FILE'; the slow run reads vprof-loop's stdin",
       "%s %s" % (l and (l["counts"], l["normal_counts"]), r.stderr[-800:]))
    # a missing input: one line, exit 2; the '> FILE' of the other run,
    # checked too, is not truncated: no run wrote it
    kept = os.path.join(work, "kept.txt")
    with open(kept, "w") as f:
        f.write("earlier output\n")
    r = run([vprof, "diagnose", "--normal", "%s < short.txt > '%s'" % (prog, kept),
             "--buggy", "%s < nothere.txt" % prog], work)
    ok(open(kept).read() == "earlier output\n",
       "a refused command line leaves its '> FILE' as it was", repr(open(kept).read()))
    err = r.stderr.strip().split("\n")
    ok(r.returncode == 2 and any("cannot open the input '< nothere.txt'" in e for e in err),
       "a missing input file is named, exit 2", "%d %s" % (r.returncode, r.stderr[-600:]))
    ok(len(err) == 1 and "recording" not in r.stderr,
       "it is refused before any run is recorded", r.stderr[-600:])
    r = run([os.path.join(bindir, "vprof-loop"), "--function", "vowels", "--normal-run",
             "%s < nothere.txt" % prog, "--", prog], work)
    ok(r.returncode == 2 and len(r.stderr.strip().split("\n")) == 1
       and "--normal-run: cannot open the input '< nothere.txt'" in r.stderr,
       "vprof-loop refuses --normal-run's missing input before the slow run", r.stderr[-600:])
    r = run([vprof, "diagnose", "--normal", "%s <" % prog, "--buggy", prog], work)
    ok(r.returncode == 2 and "'<' needs a file name" in r.stderr and len(r.stderr.strip().split("\n")) == 1,
       "a '<' without a file is a one-line usage error", r.stderr[-600:])
    return finish()


if __name__ == "__main__":
    sys.exit(main())
