"""Helpers shared by the fixsuggest tests."""
import json
import os
import subprocess
import sys


def build(bindir, srcs, out, extra=(), cc="vprof-cc", opt="-O2"):
    """CC OPT -g (vprof-cc, or vprof-c++); a compiler failure fails the test."""
    cmd = [os.path.join(bindir, cc), opt, "-g"] + list(extra) + list(srcs) + ["-o", out, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("%s failed:\n%s" % (cc, r.stderr[-3000:]))


def marker_lines(path, markers):
    """{marker: line} of the lines holding /* marker */ in the file at path."""
    text = open(path).read().split("\n")
    return {m: next(i + 1 for i, t in enumerate(text) if "/* %s */" % m in t) for m in markers}


def build_case(case, markers):
    """The prologue of a test of one program, TESTSRCDIR/case/prog.c, from
    the command line BINDIR TESTSRCDIR WORKDIR: creates WORKDIR, builds the
    program there (vprof-cc -O2 -g) and returns (bindir, src, work, prog,
    {marker: line} of prog.c)."""
    bindir, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    prog_c = os.path.join(src, case, "prog.c")
    line = marker_lines(prog_c, markers)
    prog = os.path.join(work, "prog")
    build(bindir, [prog_c], prog)
    return bindir, src, work, prog, line


def run(cmd, cwd, env=None):
    """Runs cmd in cwd, output captured as text; env: variables to add."""
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, **env) if env else None)


def json_report(cmd, work, name, env=None, tail=()):
    """Runs CMD --format json -o WORK/NAME TAIL (a vprof command line; a
    stale report removed first) in WORK, env: variables to add: (its
    CompletedProcess, the report's loops, [] when it wrote none)."""
    out = os.path.join(work, name)
    if os.path.exists(out):
        os.unlink(out)
    r = run(list(cmd) + ["--format", "json", "-o", out] + list(tail), work, env)
    return r, (json.load(open(out))["loops"] if os.path.exists(out) else [])


def loop_json(bindir, work, functions, argv, env=None, options=()):
    """vprof-loop --function FUNCTIONS (a name, or a list of them) [OPTIONS]
    --format json -o WORK/loop.json -- ARGV: json_report's answer."""
    names = [functions] if isinstance(functions, str) else list(functions)
    chosen = [a for f in names for a in ("--function", f)]
    return json_report([os.path.join(bindir, "vprof-loop")] + chosen + list(options), work,
                       "loop.json", env, ["--"] + list(argv))


def diagnose_json(bindir, work, normal, buggy, name="diag.json"):
    """vprof diagnose --normal NORMAL --buggy BUGGY (command strings) into
    WORK/NAME: json_report's answer."""
    return json_report([os.path.join(bindir, "vprof"), "diagnose", "--normal", normal,
                        "--buggy", buggy], work, name)


def by_line(loops, line):
    """The loop of a vprof-loop JSON report's `loops` at this line, or None."""
    return next((l for l in loops if l["line"] == line), None)


def loops_at(r, loops, tool, lines, what):
    """Checks that TOOL's run `r` reported loops and that one is at each of
    `lines`; returns those loops in order, or None when one is missing."""
    ok(r.returncode == 0 and loops, "%s reports loops" % tool,
       "exit %d\n%s" % (r.returncode, r.stderr[-1500:]))
    found = [by_line(loops or [], n) for n in lines]
    ok(all(l is not None for l in found), "the %s are reported" % what,
       str([(l["function"], l["line"]) for l in loops or []]))
    return found if all(l is not None for l in found) else None


def record_rank(bindir, work, normal, slow, prefix=""):
    """vprof record of the argv lists `normal` and `slow` (PREFIXn.vprof,
    PREFIXb.vprof in work), then vprof rank --format json into
    PREFIXrank.json: (the ranked functions, [] when rank failed, and rank's
    CompletedProcess).  A failed recording fails the test."""
    vprof = os.path.join(bindir, "vprof")
    for pro, argv in ((prefix + "n.vprof", normal), (prefix + "b.vprof", slow)):
        r = run([vprof, "record", "-o", pro, "--force", "--"] + list(argv), work)
        if r.returncode != 0:
            raise SystemExit("vprof record failed:\n" + r.stderr[-2000:])
    out = prefix + "rank.json"
    r = run([vprof, "rank", "--normal", prefix + "n.vprof", "--buggy", prefix + "b.vprof",
             "--format", "json", "-o", out], work)
    funcs = json.load(open(os.path.join(work, out)))["functions"] if r.returncode == 0 else []
    return funcs, r


failures = 0


def ok(cond, what, detail=""):
    """Prints one check's verdict; counts the failures (common.failures)."""
    global failures
    print("%s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        print("  " + detail)
        failures += 1


def finish():
    """The exit status of a test made of ok() checks."""
    print("PASS" if not failures else "FAILED: %d" % failures)
    return 1 if failures else 0
