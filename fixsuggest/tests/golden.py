#!/usr/bin/python3
"""fixsuggest.golden: every output format of vprof-loop on golden_prog.c,
compared byte for byte with golden/expected.* after normalising what varies
between runs and machines: the work directory, the repository root, loop ids
(hashes of absolute paths), and the PC-sample counts and shares (sampling is statistical).  The program is built without the redundancy probes, whose
sampling is random.  sarif_validate.py checks the SARIF output against the
official schema.

usage: golden.py BINDIR TESTSRCDIR WORKDIR [--update]
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

FORMATS = {"text": "txt", "json": "json", "md": "md", "sarif": "sarif"}


def normalise(text, work, root):
    text = text.replace(work, "@WORK@").replace(root, "@SRCROOT@")
    text = re.sub(r"shares of [0-9,]+ PC samples", "shares of N PC samples", text)
    text = re.sub(r"[0-9.]+% of the slow run", "N% of the slow run", text)
    text = re.sub(r'"(total_samples|samples|share|seconds|probe_samples)": [0-9.e+-]+', r'"\1": N', text)
    text = re.sub(r"; [0-9,]+ in vprof's probes left out", "", text)
    text = re.sub(r"by share of its [0-9,]+ PC samples", "by share of its N PC samples", text)
    text = re.sub(r"\| [0-9.]+% \|", "| N% |", text)
    # loop ids hash the absolute source path (loopclass LoopIds.h), which
    # differs between checkouts
    text = re.sub(r'"loop_id": "[0-9a-f]{16}"', '"loop_id": "@ID@"', text)
    return text


def main():
    bindir, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    update = "--update" in sys.argv
    os.makedirs(work, exist_ok=True)
    root = os.path.dirname(os.path.dirname(src))  # fixsuggest/tests -> repository
    prog = os.path.join(work, "golden_prog")
    # Without the redundancy probes: they sample at random, and this test is
    # about the formats (the bench tests cover the redundancy verdicts).
    common.build(bindir, [os.path.join(src, "golden_prog.c")], prog,
                 ["-mllvm", "-vprof-redundancy-probes=0"])
    bad = 0
    env = dict(os.environ, NO_COLOR="")
    for fmt, ext in FORMATS.items():
        out = os.path.join(work, "out." + ext)
        cmd = [os.path.join(bindir, "vprof-loop"), "--top", "2", "--rank",
               os.path.join(src, "golden_rank.json"), "--normal-run", prog + " 2000 200",
               "--format", fmt, "-o", out, "--", prog, "20000", "2000"]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=work, env=env)
        if r.returncode != 0:
            print("FAIL: %s: exit %d\n%s" % (fmt, r.returncode, r.stderr))
            bad += 1
            continue
        got = normalise(open(out).read(), work, root)
        exp_path = os.path.join(src, "golden", "expected." + ext)
        if update:
            open(exp_path, "w").write(got)
            continue
        exp = open(exp_path).read()
        if got != exp:
            print("FAIL: %s differs from %s:" % (fmt, exp_path))
            import difflib
            sys.stdout.writelines(difflib.unified_diff(exp.splitlines(True), got.splitlines(True),
                                                       "expected", "got"))
            bad += 1
        if "\033[" in open(out).read():
            print("FAIL: %s has colour codes in a file" % fmt)
            bad += 1
    # the JSON report's stable fields
    rep = json.load(open(os.path.join(work, "out.json")))
    first = rep["loops"][0]
    for k in ("function", "file", "line", "kind", "root_cause", "fix", "static_class", "evidence"):
        if k not in first:
            print("FAIL: vprof-loop/1 loop without %s" % k)
            bad += 1
    print("PASS" if not bad else "FAILED")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
