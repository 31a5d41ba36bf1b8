#!/usr/bin/env python3
"""measure.py BUILD WORKDIR ROUNDS WORK - the measurements of run.sh.

Every round runs each configuration once, in an order rotated by one each
round, so slow drifts of a shared machine spread over all of them.  Per
run: wall time and CPU time (user+sys of every process the run started,
getrusage(RUSAGE_CHILDREN)), and the samples the tool took.

CONFIGS (environment, comma-separated) runs a subset; "plain" is always run.
BASE_RT (a libvprof-rt.so) adds vprof-rt-base: vprof-rt with that runtime.
The vprof-* configurations other than vprof/vprof-everywhere preload the
runtime directly (no launcher: no index build, no read-back), with an index
built once by index_time, so they measure the runtime alone.
"""
import os, re, resource, shutil, statistics, struct, subprocess, sys, time

build, W, rounds, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
vprof = os.path.join(build, "bin", "vprof")
prog, big = os.path.join(W, "prog"), os.path.join(W, "big")
libprofiler = next((p for p in ("/usr/lib/x86_64-linux-gnu/libprofiler.so.0",
                                "/usr/lib/x86_64-linux-gnu/libprofiler.so") if os.path.exists(p)), None)


def run(cmd, env=None):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    return t1 - t0, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), p.stderr


def gperf_samples(path):
    """Sum of the sample counts of a gperftools CPU profile (64-bit words)."""
    data = open(path, "rb").read()
    w = struct.unpack("<%dQ" % (len(data) // 8), data[: len(data) // 8 * 8])
    i, total = 5, 0  # header: 0, 3, 0, period, 0
    while i + 1 < len(w):
        count, npcs = w[i], w[i + 1]
        if count == 0 and npcs == 1:
            break  # trailer
        total += count
        i += 2 + npcs
    return total


def perf_samples(path):
    out = subprocess.run(["perf", "script", "-i", path, "-F", "tid"], capture_output=True, text=True).stdout
    return sum(1 for l in out.splitlines() if l.strip())


rt_lib = os.path.join(build, "lib", "libvprof-rt.so")
prog_index = os.path.join(W, "prog.index")
subprocess.run([W + "/index_time", prog, prog_index], capture_output=True, check=True)


def preload(out, **kw):
    """The runtime preloaded by hand into prog (what `vprof record` does, minus
    the launcher): VPROF_DEBUG for the sample count and the handler time."""
    env = dict(os.environ, LD_PRELOAD=rt_lib, VPROF_INDEX=prog_index, VPROF_DEBUG="1",
               VPROF_OUTPUT=W + "/" + out, VPROF_FREQ="997", VPROF_DEPTH="3")
    env.update(kw)
    return [prog, work], env


configs = {
    "plain": lambda: ([prog, work], None),
    "vprof": lambda: ([vprof, "record", "-F", "997", "--depth", "3", "-o", W + "/v.vprof", "--", prog, work],
                      dict(os.environ, VPROF_DEBUG="1")),
    # vProf's placement: every global read at every sample (still plain loads)
    "vprof-everywhere": lambda: ([vprof, "record", "-F", "997", "--depth", "3", "-o", W + "/e.vprof", "--", prog, work],
                                 dict(os.environ, VPROF_DEBUG="1", VPROF_GLOBALS="everywhere")),
    # the runtime alone, same settings as "vprof" (launcher cost = vprof - vprof-rt)
    "vprof-rt": lambda: preload("r.vprof"),
    # BASE_RT=path/to/libvprof-rt.so: the same, with another runtime build
    # (before/after a change, measured in the same rounds)
    "vprof-rt-base": lambda: preload("rb.vprof", LD_PRELOAD=os.environ["BASE_RT"]),
    # the floor: timer + signal delivery + an empty sample (PC, time, no
    # unwinding, no values)
    "vprof-floor": lambda: preload("f.vprof", VPROF_DEPTH="0", VPROF_VALUES="0"),
    # the same two with perf events signalling through fasync (SIGPROF) instead
    # of sigtrap (the default where the kernel has it)
    "vprof-rt-fasync": lambda: preload("ra.vprof", VPROF_PERF_SIGTRAP="0"),
    "vprof-floor-fasync": lambda: preload("fa.vprof", VPROF_DEPTH="0", VPROF_VALUES="0", VPROF_PERF_SIGTRAP="0"),
    # gperftools' timer (setitimer ITIMER_PROF, tick-limited), full sampling:
    # vprof and gperftools at the same effective rate
    "vprof-itimer": lambda: preload("i.vprof", VPROF_TIMER="process"),
    # ... and its floor
    "vprof-itimer-floor": lambda: preload("if.vprof", VPROF_TIMER="process", VPROF_DEPTH="0", VPROF_VALUES="0"),
}
if shutil.which("perf"):
    configs["perf"] = lambda: (["perf", "record", "-q", "-F", "997", "-g", "-o", W + "/p.data", "--", prog, work], None)
if libprofiler:
    configs["gperftools"] = lambda: ([prog, work], dict(os.environ, LD_PRELOAD=libprofiler,
                                                         CPUPROFILE=W + "/g.prof", CPUPROFILE_FREQUENCY="997"))
if not os.environ.get("BASE_RT"):
    del configs["vprof-rt-base"]
if os.environ.get("CONFIGS"):
    keep = set(os.environ["CONFIGS"].split(",")) | {"plain"}
    configs = {n: f for n, f in configs.items() if n in keep}
names = list(configs)
res = {n: {"wall": [], "cpu": [], "samples": [], "handler_ns": [], "values": []} for n in names}
for r in range(rounds):
    order = names[r % len(names):] + names[: r % len(names)]
    for n in order:
        cmd, env = configs[n]()
        wall, cpu, err = run(cmd, env)
        res[n]["wall"].append(wall)
        res[n]["cpu"].append(cpu)
        if n.startswith("vprof"):
            m = re.search(r"wrote .*?: ([\d,]+) PC samples", err)
            if not m:  # preloaded: the root process's debug line
                out = configs[n]()[1]["VPROF_OUTPUT"]
                m = re.search(re.escape(out) + r": samples=(\d+)", err)
            res[n]["samples"].append(int(m.group(1).replace(",", "")) if m else 0)
            m = re.search(r"handler_mean_ns=(\d+)", err)
            if m:
                res[n]["handler_ns"].append(int(m.group(1)))
            m = re.search(r" values=(\d+)", err)
            if m and res[n]["samples"][-1]:
                res[n]["values"].append(int(m.group(1)) / res[n]["samples"][-1])
        elif n == "perf":
            res[n]["samples"].append(perf_samples(W + "/p.data"))
        elif n == "gperftools":
            res[n]["samples"].append(gperf_samples(W + "/g.prof"))
    print("round %d/%d done" % (r + 1, rounds), file=sys.stderr)

med = lambda xs: statistics.median(xs) if xs else float("nan")
pw, pc = med(res["plain"]["wall"]), med(res["plain"]["cpu"])
print("| configuration | median wall s | wall ratio | median CPU s | CPU ratio | median samples | samples per CPU s of the program | extra CPU per sample, us | handler mean, ns | values per sample |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for n in names:
    w, c, s = med(res[n]["wall"]), med(res[n]["cpu"]), med(res[n]["samples"])
    per = "%.0f" % (s / pc) if res[n]["samples"] else "-"
    cost = "%.1f" % ((c - pc) / s * 1e6) if res[n]["samples"] and s else "-"
    hns = "%d" % med(res[n]["handler_ns"]) if res[n]["handler_ns"] else "-"
    vps = "%.1f" % med(res[n]["values"]) if res[n]["values"] else "-"
    print("| %s | %.3f | %.4f | %.3f | %.4f | %s | %s | %s | %s | %s |" % (
        n, w, w / pw, c, c / pc, "%d" % s if res[n]["samples"] else "-", per, cost, hns, vps))
print()
print("per-round paired CPU differences against plain (same round), median, us per sample:")
for n in names[1:]:
    d = [(res[n]["cpu"][i] - res["plain"]["cpu"][i]) / res[n]["samples"][i] * 1e6
         for i in range(len(res[n]["cpu"])) if res[n]["samples"] and res[n]["samples"][i]]
    if d:
        print("- %s: %.1f (runs: %s)" % (n, med(d), " ".join("%.0f" % x for x in d)))
print()
print("raw (seconds, per round in run order):")
for n in names:
    print("- %s wall: %s" % (n, " ".join("%.3f" % x for x in res[n]["wall"])))
    print("  %s cpu: %s" % (n, " ".join("%.3f" % x for x in res[n]["cpu"])))
    if res[n]["samples"]:
        print("  %s samples: %s" % (n, " ".join(str(x) for x in res[n]["samples"])))
for n in names:
    if res[n]["handler_ns"]:
        print("- %s handler mean ns (VPROF_DEBUG, wall time inside the handler): median %d, runs: %s" % (
            n, med(res[n]["handler_ns"]), " ".join(str(x) for x in res[n]["handler_ns"])))
    if res[n]["values"]:
        print("  %s value records per PC sample: median %.1f" % (n, med(res[n]["values"])))

# coverage of the benchmark program (last vprof profile)
if os.environ.get("NO_STARTUP"):
    sys.exit(0)
rep = subprocess.run([vprof, "report", W + "/v.vprof"], capture_output=True, text=True).stdout
print()
print("coverage (vprof report, prog at -O2):")
for l in rep.splitlines()[:4]:
    if "coverage" in l or "lost" in l:
        print("    " + l.strip())

# start-up: index build for the >= 1,000-variable program
ms = []
for k in range(max(5, rounds // 2)):
    out = subprocess.run([W + "/index_time", big, W + "/big.index"], capture_output=True, text=True, check=True).stdout
    ms.append(float(re.search(r"build_ms=([\d.]+)", out).group(1)))
stats = out.strip()
launch, plain0 = [], []
for k in range(max(5, rounds // 2)):
    launch.append(run([vprof, "record", "-o", W + "/b.vprof", "--", big, "0"])[0])
    plain0.append(run([big, "0"])[0])
rep = subprocess.run([vprof, "report", W + "/b.vprof"], capture_output=True, text=True).stdout
cov = next((l.strip() for l in rep.splitlines() if "coverage" in l), "?")
print()
print("start-up, big program: %s" % cov)
print("- vp_index_build: median %.1f ms (runs: %s); last: %s" % (med(ms), " ".join("%.1f" % x for x in ms), stats))
print("- whole launcher (`vprof record -- big 0` minus `big 0`, wall): median %.1f ms" % (
    (med(launch) - med(plain0)) * 1e3))
