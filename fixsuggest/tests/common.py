"""Helpers shared by the fixsuggest tests."""
import os
import subprocess


def build(bindir, srcs, out, extra=()):
    """vprof-cc -O2 -g; a compiler failure fails the test."""
    cc = [os.path.join(bindir, "vprof-cc"), "-O2", "-g"] + list(extra) + list(srcs) + ["-o", out, "-lm"]
    r = subprocess.run(cc, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("vprof-cc failed:\n" + r.stderr[-3000:])
