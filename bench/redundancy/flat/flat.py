#!/usr/bin/env python3
"""Is a probed loop's overhead the recording work or the sampling branch?

    bench/redundancy/flat/flat.py [--build DIR] [--rounds N] [--case NAME]

The case, default moz477564_sibling, its slow input): the case is
built with vprof-cc -O2 and loopclass's probes off, with and without the
redundancy probes (as cases.sh), and run interleaved, the root-cause function
selected, instance recording off:
  base        no redundancy probes
  none        the probes, iteration sampling off (rate 2^30)
  real:R      the runtime's iteration sampling at 1 in R
  reset:R     reset_only.so preloaded: the countdown branch is taken every R
              iterations, nothing is recorded
  fused:...   the same with -vprof-redundancy-fuse-latch (the countdown test
              folded into the loop's own branch back, where there is one)
  early100    reset_only.so, the branch taken 100 times at start, then never
Prints medians of user+sys time over the rounds and of the per-round ratios
to the first variant (the machine is noisy: ratios of interleaved runs).
"""
import argparse, os, statistics, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, '..', '..', '..'))
sys.path.insert(0, os.path.join(root, 'bench', 'harness'))
import bench as harness  # noqa: E402  (run(), load_truth())
INF = '1073741824'


def timed(cmd, env):
    """user + sys seconds of one run of cmd (the harness's run())."""
    rc, _, err, _, cpu = harness.run(cmd, env=env, stdout=subprocess.DEVNULL)
    if rc != 0:
        last = (err.strip().splitlines() or ['no message'])[-1]
        sys.exit(f"flat.py: {' '.join(cmd)} exited with {rc}: {last}")
    return cpu


def build(cmd):
    rc, _, err, _, _ = harness.run(cmd)
    if rc != 0:
        lines = err.strip().splitlines() or ['no message']
        last = next((l for l in lines if 'error' in l), lines[-1])
        sys.exit(f"flat.py: build failed: {' '.join(cmd[:1] + cmd[-3:])}: {last}")


def table(title, variants, rounds):
    """variants: [(name, cmd, env)], interleaved; env padded to one size."""
    times = {n: [] for n, _, _ in variants}
    size = max(sum(len(k) + len(v) + 2 for k, v in e.items()) for _, _, e in variants) + 64
    for _ in range(rounds):
        for n, cmd, e in variants:
            e = dict(e)
            e['FLAT_PAD'] = 'x' * (size - sum(len(k) + len(v) + 2 for k, v in e.items()))
            times[n].append(timed(cmd, e))
    first = variants[0][0]
    print(f"\n{title} ({rounds} interleaved rounds, user+sys s)")
    print(f"| variant | median s | median ratio to {first} |")
    print("|---|---|---|")
    for n, _, _ in variants:
        r = statistics.median(a / b for a, b in zip(times[n], times[first]))
        print(f"| {n} | {statistics.median(times[n]):.3f} | {r:.3f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default=os.path.join(root, 'build'))
    ap.add_argument('--rounds', type=int, default=9)
    ap.add_argument('--case', default='moz477564_sibling')
    a = ap.parse_args()
    cc = os.path.join(a.build, 'bin', 'vprof-cc')
    rt = os.path.join(a.build, 'lib', 'libvprof-rt.so')
    if not (os.access(cc, os.X_OK) and os.path.isfile(rt)):
        sys.exit(f"flat.py: {a.build} has no bin/vprof-cc and lib/libvprof-rt.so (build it first)")
    if a.rounds < 1:
        sys.exit("flat.py: --rounds must be at least 1")
    case = os.path.join(harness.CASES, a.case)
    try:
        truth = harness.load_truth(a.case)
    except OSError:
        sys.exit(f"flat.py: no bench case '{a.case}' ({case}/truth.json)")
    except ValueError as e:
        sys.exit(f"flat.py: {case}/truth.json is not valid JSON: {e}")
    if not isinstance(truth, dict):
        sys.exit(f"flat.py: {case}/truth.json is not a JSON object")
    rc = truth.get('root_cause')
    fn = rc.get('function') if isinstance(rc, dict) else None
    if not fn:
        sys.exit(f"flat.py: case '{a.case}' has no root-cause function")
    srcs = sorted(os.path.join(case, f) for f in os.listdir(case) if f.endswith('.c'))
    if not srcs:
        sys.exit(f"flat.py: case '{a.case}' has no .c files")
    args = truth.get('slow_args', [])
    if not isinstance(args, list) or not all(isinstance(x, str) for x in args):
        sys.exit(f"flat.py: {case}/truth.json: slow_args is not a list of strings")
    with tempfile.TemporaryDirectory() as w:
        probed, base = os.path.join(w, 'probed'), os.path.join(w, 'base')
        shim = os.path.join(w, 'reset_only.so')
        common = ['-O2', '-std=gnu11', '-falign-loops=64', '-mllvm', '-vprof-loop-probes=0']
        build([cc] + common + srcs + ['-o', probed, '-lm'])
        build([cc] + common + ['-mllvm', '-vprof-redundancy-probes=0'] + srcs +
              ['-o', base, '-lm'])
        fused = os.path.join(w, 'fused')
        build([cc] + common + ['-mllvm', '-vprof-redundancy-fuse-latch'] + srcs +
              ['-o', fused, '-lm'])
        build(['cc', '-O2', '-shared', '-fPIC', os.path.join(here, 'reset_only.c'), '-o', shim])
        env = dict(os.environ, VPROF_OUTPUT=os.path.join(w, 'out.vprof'), VPROF_LOOP_FUNCTIONS=fn,
                   VPROF_RED_INSTANCE_RATE=INF, LD_PRELOAD=rt)
        v = [('base', [base] + args, env),
             ('none', [probed] + args, dict(env, VPROF_RED_ITER_RATE=INF))]
        for r in ('1000', '16000'):
            v.append((f'real:{r}', [probed] + args, dict(env, VPROF_RED_ITER_RATE=r)))
        for r in ('1000', '16000', '256000'):
            v.append((f'reset:{r}', [probed] + args,
                      dict(env, VPROF_RED_ITER_RATE=INF, LD_PRELOAD=shim + ':' + rt, FLAT_RATE=r)))
        v.append(('fused:none', [fused] + args, dict(env, VPROF_RED_ITER_RATE=INF)))
        v.append(('fused:real:1000', [fused] + args, dict(env, VPROF_RED_ITER_RATE='1000')))
        v.append(('fused:reset:16000', [fused] + args,
                  dict(env, VPROF_RED_ITER_RATE=INF, LD_PRELOAD=shim + ':' + rt, FLAT_RATE='16000')))
        v.append(('early100', [probed] + args,
                  dict(env, VPROF_RED_ITER_RATE=INF, LD_PRELOAD=shim + ':' + rt,
                       FLAT_RATE=INF, FLAT_FIRST='100')))
        table(f"{a.case}: {fn}, instance recording off", v, a.rounds)


if __name__ == '__main__':
    main()
