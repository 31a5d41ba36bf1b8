#!/usr/bin/env python3
"""rt_ab.py VPROF A_RUNTIME B_RUNTIME ROUNDS -- PROGRAM [ARGS...]

A/B of two builds of libvprof-rt.so under the same `vprof record` (the
launcher finds the runtime at <dir of vprof>/../lib, so each runtime gets a
temporary tree with a copy of VPROF next to it).  Interleaved rounds, the
order rotated each round: plain, A, B.  Prints the median CPU time (user +
system of the whole run, launcher included), the median of the per-round
ratios against plain, the handler's mean time (VPROF_DEBUG=1) and the
median per-round B/A CPU ratio."""
import os, re, resource, shutil, statistics, subprocess, sys, tempfile

def main():
    if len(sys.argv) < 7 or sys.argv[5] != '--':
        sys.exit('usage: ' + __doc__.splitlines()[0])
    vprof, rt_a, rt_b, rounds, prog = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[6:]
    if not rounds.isdigit() or int(rounds) < 1:
        sys.exit('rt_ab.py: ROUNDS must be a positive integer, not %r' % rounds)
    rounds = int(rounds)
    for what, path in (('VPROF', vprof), ('A_RUNTIME', rt_a), ('B_RUNTIME', rt_b)):
        if not os.path.isfile(path):
            sys.exit('rt_ab.py: %s %s: no such file' % (what, path))
    tmp = tempfile.mkdtemp(prefix='vprof-rt-ab.')
    try:
        cfg = {'plain': prog}
        for name, rt in (('A', rt_a), ('B', rt_b)):
            for sub in ('bin', 'lib'):
                os.makedirs(os.path.join(tmp, name, sub))
            shutil.copy(vprof, os.path.join(tmp, name, 'bin', 'vprof'))
            shutil.copy(rt, os.path.join(tmp, name, 'lib', 'libvprof-rt.so'))
            cfg[name] = [os.path.join(tmp, name, 'bin', 'vprof'), 'record', '-o',
                         os.path.join(tmp, name + '.vprof'), '--'] + prog
        cpu = {k: [] for k in cfg}
        handler = {k: [] for k in cfg}
        order = list(cfg)
        env = dict(os.environ, VPROF_DEBUG='1')
        for _ in range(rounds):
            order = order[1:] + order[:1]
            for k in order:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                p = subprocess.run(cfg[k], env=env, capture_output=True, text=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if p.returncode != 0:
                    last = (p.stderr.strip().splitlines() or [''])[-1]
                    sys.exit('rt_ab.py: the %s run exited with %d%s' % (k, p.returncode, ': ' + last if last else ''))
                cpu[k].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
                m = re.search(r'handler_mean_ns=(\d+)', p.stderr)
                if m:
                    handler[k].append(int(m.group(1)))
        print('| run | median CPU s | CPU ratio (paired median) | handler mean ns (median) |')
        print('|---|---:|---:|---:|')
        for k in cfg:
            ratio = statistics.median(x / y for x, y in zip(cpu[k], cpu['plain']))
            h = '%d' % statistics.median(handler[k]) if handler[k] else '-'
            print('| %s | %.3f | %.4f | %s |' % (k, statistics.median(cpu[k]), ratio, h))
        print('\nB/A CPU ratio, paired median: %.4f (rounds: %s)' % (
            statistics.median(b / a for a, b in zip(cpu['A'], cpu['B'])),
            ' '.join('%.3f' % (b / a) for a, b in zip(cpu['A'], cpu['B']))))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

main()
