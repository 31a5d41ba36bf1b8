#!/usr/bin/env python3
"""bench/run.sh: accuracy and overhead of vprof on the benchmark cases.

For each case in bench/cases/ (or the --cases subset):
  1. build it with vprof-cc (-O2 -g) in a scratch copy,
  2. vprof record the normal and the slow input (outputs checked against truth),
     each --recordings K times (default 1),
  3. vprof rank --format json of all the normal and slow profiles, vprof report
     --format json of the (first) slow profile (the plain profile: functions
     ordered by self samples, the gprof/perf view),
  4. vprof-loop --top 5 --rank rank.json --format json -- <slow command>,
  5. compare with truth.json, and optionally
  6. measure overhead: interleaved rounds of the plain run, vprof record,
     perf record -F 997 -g, gperftools' CPU profiler, vprof-loop with its
     default sampling rates and without sampling (every iteration/instance).

A case *matches* its truth when: the root-cause function is in the top 5 of
vprof rank, the reported pattern equals the truth's, and (when vprof-loop is
built) the root-cause loop's categories include the truth's categories, its
fixes share one with the truth's fixes, and no listed other/hot loop gets a
category outside its truth list.  Controls match when no listed hot loop gets
a false category.  The exit status is 1 when a case does not match (or fails
to build/run), 2 on usage errors.
"""
import argparse
import datetime
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
REPO = os.path.dirname(BENCH)
CASES = os.path.join(BENCH, 'cases')
TOPN = 5
GPERF_CANDIDATES = ['/usr/lib/x86_64-linux-gnu/libprofiler.so', '/usr/lib/x86_64-linux-gnu/libprofiler.so.0',
                    '/usr/lib/libprofiler.so', '/usr/local/lib/libprofiler.so']
NOT_BUILT = 'n/a (vprof-loop not built)'


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, timeout=600, stdout=subprocess.PIPE):
    """Run cmd; return (returncode, stdout text, stderr text, wall seconds, cpu seconds of children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = p.stdout.decode(errors='replace') if p.stdout is not None else ''
    return p.returncode, out, p.stderr.decode(errors='replace'), wall, cpu


# ---------------------------------------------------------------- tools

class Tools:
    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.vprof = os.path.join(self.build, 'bin', 'vprof')
        self.cc = os.path.join(self.build, 'bin', 'vprof-cc')
        loop = os.path.join(self.build, 'bin', 'vprof-loop')
        self.loop = loop if os.access(loop, os.X_OK) else None
        self.perf = shutil.which('perf')
        if self.perf and run([self.perf, 'record', '-q', '-o', '/dev/null', '--', 'true'])[0] != 0:
            self.perf_note = 'perf present but `perf record` fails here (perf_event_paranoid or no PMU?)'
            self.perf = None
        else:
            self.perf_note = None if self.perf else 'perf not installed (bench/deps.sh)'
        self.gperf = next((p for p in GPERF_CANDIDATES if os.path.exists(p)), None)

    def check(self):
        for p in (self.vprof, self.cc):
            if not os.access(p, os.X_OK):
                sys.exit(f'bench: {p} not found; build first: cmake --build {self.build}')


# ---------------------------------------------------------------- one case

def load_truth(case):
    with open(os.path.join(CASES, case, 'truth.json')) as f:
        return json.load(f)


def build_case(tools, case, work):
    dst = os.path.join(work, case)
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(os.path.join(CASES, case), dst)
    rc, out, err, _, _ = run(['make', '-s', '-B', '-C', dst, 'CC=' + tools.cc, 'CFLAGS=-O2 -g'])
    note = None
    if rc != 0:
        keep = [l.strip() for l in err.splitlines()
                if l.startswith('clang: error') or "Running pass '" in l or ': error:' in l]
        why = ' / '.join(keep[:3] or [err.strip()[-300:]])
        # Fall back to a build without the redundancy value probes, so that
        # rank and the resultless analysis are still measured; the case is
        # still reported as not matching.
        rc, out, err2, _, _ = run(['make', '-s', '-B', '-C', dst, 'CC=' + tools.cc,
                                   'CFLAGS=-O2 -g -mllvm -vprof-redundancy-probes=false'])
        if rc != 0:
            raise RuntimeError('vprof-cc failed: ' + why)
        note = 'vprof-cc failed with the redundancy probes (' + why.replace('\t', ' ') + \
               '); measured with -mllvm -vprof-redundancy-probes=false'
    return dst, os.path.join(dst, case), note


def check_output(truth, which, out):
    want = truth['expected_output_' + which]
    if out != want:
        raise RuntimeError(f'{which} output {out.strip()!r} != expected {want.strip()!r}')


def same_file(a, b):
    return a and b and os.path.basename(a) == os.path.basename(b)


def plain_rank(report, fname):
    """Rank of fname by self samples (1 + number of functions with more)."""
    funcs = report.get('functions', [])
    mine = [f for f in funcs if f.get('name') == fname]
    if not mine or not mine[0].get('self_samples'):
        return None
    s = mine[0]['self_samples']
    return 1 + sum(1 for f in funcs if f.get('self_samples', 0) > s)


def find_loop(loops, function, file, line):
    exact = [l for l in loops if l.get('function') == function and l.get('line') == line
             and (not file or not l.get('file') or same_file(l.get('file'), file))]
    if exact:
        return exact[0], True
    same_fn = [l for l in loops if l.get('function') == function]
    return (same_fn[0], False) if len(same_fn) == 1 else (None, False)


def evaluate(truth, rank, report, loopj):
    """Compare one case's outputs with its truth; returns a result dict."""
    r = {'case': truth['case'], 'control': truth.get('control', False), 'problems': []}
    rc = truth.get('root_cause')
    funcs = rank.get('functions', []) if rank else []
    if rc:
        fn = rc['function']
        entry = next((f for f in funcs if f.get('name') == fn), None)
        r['vprof_rank'] = entry.get('rank') if entry else None
        r['plain_rank'] = plain_rank(report or {}, fn)
        r['pattern'] = entry.get('pattern') if entry else None
        r['pattern_truth'] = rc.get('pattern')
        r['pattern_ok'] = r['pattern'] == rc.get('pattern')
        if r['vprof_rank'] is None or r['vprof_rank'] > TOPN:
            r['problems'].append(f'{fn} not in vprof rank top {TOPN} (rank {r["vprof_rank"] or "NR"})')
        if not r['pattern_ok']:
            r['problems'].append(f'pattern {r["pattern"]} != {rc.get("pattern")}')
        r['cats_truth'], r['fixes_truth'] = rc.get('categories', []), rc.get('fixes', [])
    listed = truth.get('hot_loops') if truth.get('control') else truth.get('other_loops')
    listed = listed or []
    if loopj is None:
        r['loop'] = None
        return r
    loops = loopj.get('loops', [])
    if rc:
        l, exact = find_loop(loops, rc['function'], rc.get('file'), rc.get('loop_line'))
        if l is None:
            r['cats'], r['fixes'] = None, None
            r['cat_ok'] = r['fix_ok'] = False
            r['problems'].append(f'root-cause loop {rc["function"]}:{rc.get("loop_line")} not reported')
        else:
            r['cats'], r['fixes'] = l.get('root_cause', []), l.get('fix', [])
            r['static_class'] = l.get('static_class')
            r['loop_line_exact'] = exact
            r['cat_ok'] = set(rc.get('categories', [])) <= set(r['cats'])
            r['fix_ok'] = bool(set(rc.get('fixes', [])) & set(r['fixes']))
            if not r['cat_ok']:
                r['problems'].append(f'categories {r["cats"]} miss {rc.get("categories")}')
            if not r['fix_ok']:
                r['problems'].append(f'fixes {r["fixes"]} share none with {rc.get("fixes")}')
    false, benign, unlisted = [], [], []
    for l in loops:
        if rc and l.get('function') == rc['function'] and l.get('line') == rc.get('loop_line'):
            continue
        cats = l.get('root_cause', []) or []
        entry = next((o for o in listed if o.get('function') == l.get('function') and o.get('line') == l.get('line')), None)
        if entry is None:
            # the truth says nothing of these loops: shown, with any fix
            # but none (a 1* loop's skip-loop is a claim worth a look)
            if cats:
                fixes = [f for f in (l.get('fix') or []) if f != 'none']
                unlisted.append(f'{l.get("function")}:{l.get("line")} {",".join(cats)}' +
                                (f' fix {",".join(fixes)}' if fixes else ''))
            continue
        bad = [c for c in cats if c not in entry.get('categories', [])]
        if not bad:
            continue
        where = f'{l.get("function")}:{l.get("line")} {",".join(bad)}'
        # A bare "1*" with fix "none" is the loop's static class and no blame
        # (LDoctor: 1* is reported only when nothing more informative holds,
        # and has no fix); counted apart, and not held against the match.
        if bad == ['1*'] and (l.get('fix') or ['none']) == ['none']:
            benign.append(where)
        else:
            false.append(where)
    r['false'], r['benign'], r['unlisted'] = false, benign, unlisted
    for f in false:
        r['problems'].append('false category: ' + f)
    r['loop'] = True
    return r


def run_case(tools, case, work, args):
    truth = load_truth(case)
    log(f'== {case}')
    d, prog, build_note = build_case(tools, case, work)
    if build_note:
        log('   ' + build_note)
    normal = [prog] + truth['normal_args']
    slow = [prog] + truth['slow_args']
    files = {k: os.path.join(d, k) for k in ('rank.json', 'report.json', 'loop.json')}
    # One profile per recording and input: normal.vprof/slow.vprof, or
    # normal-1.vprof ... normal-K.vprof (likewise slow) with --recordings K.
    profiles = {'normal': [], 'slow': []}
    for i in range(1, args.recordings + 1):
        for which, cmd in (('normal', normal), ('slow', slow)):
            name = f'{which}.vprof' if args.recordings == 1 else f'{which}-{i}.vprof'
            profiles[which].append(os.path.join(d, name))
            rc, out, err, wall, _ = run([tools.vprof, 'record', '-o', profiles[which][-1], '--'] + cmd, cwd=d)
            if rc != 0:
                raise RuntimeError(f'vprof record ({which}) exit {rc}: {err.strip()[-300:]}')
            check_output(truth, which, out)
            log(f'   recorded {which}' + (f' {i}/{args.recordings}' if args.recordings > 1 else '')
                + f' ({wall:.1f} s)')
    rc, _, err, _, _ = run([tools.vprof, 'rank', '--normal'] + profiles['normal'] + ['--buggy'] + profiles['slow'] +
                           ['--format', 'json', '-o', files['rank.json']], cwd=d)
    rank = None
    if os.path.exists(files['rank.json']):
        with open(files['rank.json']) as f:
            rank = json.load(f)
    if rank is None:
        raise RuntimeError(f'vprof rank exit {rc}: {err.strip()[-300:]}')
    # The plain profile is that of one run (the first slow recording), as gprof/perf would show it.
    rc, out, err, _, _ = run([tools.vprof, 'report', profiles['slow'][0], '--format', 'json'], cwd=d)
    report = json.loads(out) if rc == 0 and out.strip() else None
    loopj, loop_error = None, None
    if tools.loop:
        rc, out, err, wall, _ = run([tools.loop, '--top', str(TOPN), '--rank', files['rank.json'], '--format', 'json',
                                     '-o', files['loop.json'], '--'] + slow, cwd=d)
        if os.path.exists(files['loop.json']) and os.path.getsize(files['loop.json']):
            with open(files['loop.json']) as f:
                loopj = json.load(f)
            log(f'   vprof-loop ({wall:.1f} s, exit {rc})')
        else:
            loop_error = f'vprof-loop exit {rc}: ' + ' / '.join(l for l in err.strip().splitlines()[-2:])
            log('   ' + loop_error)
    res = evaluate(truth, rank, report, loopj)
    if loop_error:
        res['problems'].append(loop_error)
        res['loop_error'] = True
    res['dir'] = d
    if build_note:
        res['problems'].insert(0, build_note)
        res['build_note'] = True
    if args.overhead:
        res['overhead'] = measure_overhead(tools, truth, d, prog, args)
    return res


# ---------------------------------------------------------------- overhead

def overhead_modes(tools, d, cmd):
    """(name, argv, extra env) for each way of running cmd; None argv = unavailable, with a note."""
    modes = [('plain', cmd, {}),
             ('vprof record', [tools.vprof, 'record', '-o', os.path.join(d, 'oh.vprof'), '--'] + cmd, {})]
    if tools.perf:
        modes.append(('perf -F 997 -g', [tools.perf, 'record', '-q', '-F', '997', '-g', '-o',
                                          os.path.join(d, 'oh.perf.data'), '--'] + cmd, {}))
    else:
        modes.append(('perf -F 997 -g', None, {}))
    if tools.gperf:
        modes.append(('gperftools', cmd, {'LD_PRELOAD': tools.gperf, 'CPUPROFILE': os.path.join(d, 'oh.gperf'),
                                          'CPUPROFILE_FREQUENCY': '997'}))
    else:
        modes.append(('gperftools', None, {}))
    if tools.loop:
        base = [tools.loop, '--top', str(TOPN), '--rank', os.path.join(d, 'rank.json'), '--format', 'json',
                '-o', os.path.join(d, 'oh.loop.json'), '--'] + cmd
        modes.append(('vprof-loop', base, {}))
        modes.append(('vprof-loop unsampled', base, {'VPROF_RED_ITER_RATE': '1', 'VPROF_RED_INSTANCE_RATE': '1'}))
    else:
        modes.append(('vprof-loop', None, {}))
        modes.append(('vprof-loop unsampled', None, {}))
    return modes


def measure_overhead(tools, truth, d, prog, args):
    cmd = [prog] + truth[args.overhead_input + '_args']
    modes = overhead_modes(tools, d, cmd)
    wall = {m[0]: [] for m in modes}
    cpu = {m[0]: [] for m in modes}
    failed = {}
    for rnd in range(args.rounds):                 # interleaved: one run of every mode per round
        for name, argv, extra in modes:
            if argv is None or name in failed:
                continue
            env = dict(os.environ, **extra)
            rc, _, err, w, c = run(argv, cwd=d, env=env, stdout=subprocess.DEVNULL, timeout=1200)
            if rc != 0:
                failed[name] = f'exit {rc}: ' + ' '.join(err.strip().splitlines()[-1:])[-120:]
                continue
            wall[name].append(w)
            cpu[name].append(c)
    base_w = statistics.median(wall['plain'])
    base_c = statistics.median(cpu['plain'])
    out = {'input': args.overhead_input, 'rounds': args.rounds, 'plain_wall': base_w, 'plain_cpu': base_c, 'modes': {}}
    for name, argv, _ in modes:
        if argv is None:
            out['modes'][name] = None
        elif name in failed:
            out['modes'][name] = 'failed: ' + failed[name]
        else:
            out['modes'][name] = {'wall': statistics.median(wall[name]) / base_w,
                                  'cpu': statistics.median(cpu[name]) / base_c}
    log(f'   overhead: ' + ', '.join(f'{k}={v["wall"]:.2f}x' if isinstance(v, dict) else f'{k}=n/a'
                                     for k, v in out['modes'].items()))
    return out


# ---------------------------------------------------------------- tables

def fmt_rank(v):
    return str(v) if v else 'NR'


def fmt_list(v):
    return ', '.join(v) if v else '—'


KNOWN_MISSES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'known-misses.json')


def load_known_misses(path=KNOWN_MISSES):
    """The mismatches we know of and have not fixed yet (bench/known-misses.json):
    each names a case, the start of the problem text, the issue that owns it and
    why.  They are reported, never hidden, but do not fail the run, so the exit
    status says whether anything *new* broke."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f)['misses']


def apply_known_misses(results, misses=None):
    """Moves problems matched by a known miss out of r['problems'] into
    r['known']; returns (matched, unseen known misses)."""
    misses = load_known_misses() if misses is None else misses
    used, matched = set(), []
    for r in results:
        keep = []
        for p in r.get('problems', []):
            k = next((i for i, m in enumerate(misses)
                      if m['case'] == r['case'] and p.startswith(m['problem'])), None)
            if k is None:
                keep.append(p)
                continue
            used.add(k)
            r.setdefault('known', []).append(p)
            matched.append((r['case'], p, misses[k]['reason']))
        if 'problems' in r:
            r['problems'] = keep
    ran = {r['case'] for r in results}
    unseen = [m for i, m in enumerate(misses) if i not in used and m['case'] in ran]
    return matched, unseen


def accuracy_table(results, tools):
    loop_built = tools.loop is not None
    rows = ['| case | vprof rank | plain rank | pattern (truth) | loop categories (truth) | fixes (truth) | false categories | match |',
            '|---|---|---|---|---|---|---|---|']
    tot = dict(n=0, benign=0, top1=0, top5=0, plain1=0, plain5=0, pat=0, cat=0, fix=0, false=0, match=0, bugs=0, ctl=0)
    for r in results:
        tot['n'] += 1
        if 'error' in r:
            rows.append(f'| {r["case"]} | error | | | | | | **FAIL**: {r["error"]} |')
            continue
        ok = not r['problems'] and not r.get('known')
        tot['match'] += ok
        if r.get('build_note'):
            r['case'] += ' ‡'
            tot['nored'] = tot.get('nored', 0) + 1
        if loop_built and r.get('loop_error'):
            falses = 'vprof-loop failed'
        elif loop_built:
            falses = fmt_list(r.get('false'))
            if r.get('benign'):
                falses += f' (bare 1*: {"; ".join(r["benign"])})'
            if r.get('unlisted'):
                falses += f' (unlisted loops: {"; ".join(r["unlisted"])})'
            tot['benign'] += len(r['benign'])
        else:
            falses = NOT_BUILT
        tot['false'] += len(r.get('false') or [])
        if r['control']:
            tot['ctl'] += 1
            rows.append(f'| {r["case"]} (control) | — | — | — | — | — | {falses} | {"yes" if ok else "**no**"} |')
            continue
        tot['bugs'] += 1
        vr, pr = r['vprof_rank'], r['plain_rank']
        tot['top1'] += vr == 1
        tot['top5'] += bool(vr) and vr <= TOPN
        tot['plain1'] += pr == 1
        tot['plain5'] += bool(pr) and pr <= TOPN
        tot['pat'] += r['pattern_ok']
        if loop_built and r.get('loop_error'):
            cats = fixes = 'vprof-loop failed'
        elif loop_built:
            tot['cat'] += bool(r.get('cat_ok'))
            tot['fix'] += bool(r.get('fix_ok'))
            cats = f'{fmt_list(r.get("cats")) if r.get("cats") is not None else "not reported"} ({fmt_list(r["cats_truth"])})'
            fixes = f'{fmt_list(r.get("fixes")) if r.get("fixes") is not None else "not reported"} ({fmt_list(r["fixes_truth"])})'
            if r.get('cats') is not None and not r.get('loop_line_exact', True):
                cats += ' [line differs]'
        else:
            cats = fixes = NOT_BUILT
        rows.append(f'| {r["case"]} | {fmt_rank(vr)} | {fmt_rank(pr)} | {r["pattern"] or "—"} ({r["pattern_truth"]}) '
                    f'| {cats} | {fixes} | {falses} | {"yes" if ok else "**no**"} |')
    b = tot['bugs']
    rows.append('')
    if tot.get('nored'):
        rows.append(f'‡ {tot["nored"]} case(s): vprof-cc crashed with the redundancy value probes; built with '
                    '`-mllvm -vprof-redundancy-probes=false` (no cross-iteration/cross-loop measurement), '
                    'counted as not matching.')
        rows.append('')
    rows.append(f'Totals over {b} bug cases and {tot["ctl"]} controls: vprof rank top-1 {tot["top1"]}/{b}, '
                f'top-5 {tot["top5"]}/{b}; plain profile top-1 {tot["plain1"]}/{b}, top-5 {tot["plain5"]}/{b}; '
                f'pattern {tot["pat"]}/{b}; '
                + (f'loop categories {tot["cat"]}/{b}, fixes {tot["fix"]}/{b}, false categories {tot["false"]} '
                   f'(plus {tot["benign"]} bare 1* on necessary loops); '
                   if loop_built else 'loop columns: ' + NOT_BUILT + '; ')
                + f'cases matching their truth {tot["match"]}/{tot["n"]}.')
    return '\n'.join(rows), tot


def overhead_table(results, tools):
    names = ['vprof record', 'perf -F 997 -g', 'gperftools', 'vprof-loop', 'vprof-loop unsampled']
    rows = ['| case | input | plain s (wall / cpu) | ' + ' | '.join(names) + ' |',
            '|---|---|---|' + '---|' * len(names)]
    per_mode = {n: [] for n in names}
    for r in results:
        o = r.get('overhead')
        if not o:
            continue
        cells = []
        for n in names:
            v = o['modes'].get(n)
            if isinstance(v, dict):
                cells.append(f'{v["wall"]:.2f}x / {v["cpu"]:.2f}x')
                per_mode[n].append(v['wall'])
            elif v is None:
                cells.append('n/a')
            else:
                cells.append(' '.join(v.split())[:60].replace('|', '/'))
        rows.append(f'| {r["case"]} | {o["input"]} | {o["plain_wall"]:.2f} / {o["plain_cpu"]:.2f} | ' + ' | '.join(cells) + ' |')
    med = [f'{statistics.median(per_mode[n]):.2f}x' if per_mode[n] else 'n/a' for n in names]
    rows.append('| **median (wall)** | | | ' + ' | '.join(med) + ' |')
    notes = []
    if not tools.perf:
        notes.append('perf: ' + (tools.perf_note or 'unavailable'))
    if not tools.gperf:
        notes.append('gperftools: libprofiler.so not found (bench/deps.sh installs libgoogle-perftools-dev)')
    if not tools.loop:
        notes.append('vprof-loop: ' + NOT_BUILT)
    return '\n'.join(rows), notes


def write_md(path, generated):
    """Write the generated tables, keeping a hand-written '## Reading' section of the old file."""
    reading = ''
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
        i = old.find('\n## Reading')
        if i >= 0:
            reading = old[i:]
    with open(path, 'w') as f:
        f.write(generated + reading)


def machine():
    cpu = 'unknown'
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next(l.split(':', 1)[1].strip() for l in f if l.startswith('model name'))
    except (OSError, StopIteration):
        pass
    return f'nproc {os.cpu_count()}, CPU {cpu}, kernel {platform.release()}'


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(prog='bench/run.sh', description=__doc__.split('\n')[0])
    ap.add_argument('--cases', help='comma-separated subset of bench/cases/')
    ap.add_argument('--fast', action='store_true', help='5 overhead rounds instead of 11')
    ap.add_argument('--no-overhead', dest='overhead', action='store_false', help='accuracy only')
    ap.add_argument('--build', default=os.environ.get('VPROF_BUILD', os.path.join(REPO, 'build-bench')),
                    help='vprof build tree with bin/vprof, bin/vprof-cc (default: build-bench or $VPROF_BUILD)')
    ap.add_argument('--overhead-input', choices=('normal', 'slow'), default='normal',
                    help='input used for the overhead runs (default normal: 0.2-1 s per run)')
    ap.add_argument('--results', help='write accuracy.md / bench-overhead.md to this directory '
                                      '(default: bench/results when all cases run, else nowhere)')
    ap.add_argument('--work', help='scratch directory (default: a fresh temporary one, removed at the end)')
    ap.add_argument('--keep', action='store_true', help='keep the scratch directory')
    ap.add_argument('--recordings', type=int, default=1, metavar='K',
                    help='vprof record each input K times and rank all K normal and K slow profiles (default 1)')
    args = ap.parse_args()
    if args.recordings < 1:
        ap.error('--recordings must be at least 1')
    args.rounds = 5 if args.fast else 11
    all_cases = sorted(c for c in os.listdir(CASES) if os.path.exists(os.path.join(CASES, c, 'truth.json')))
    cases = all_cases
    if args.cases:
        cases = [c.strip().rstrip('/') for c in args.cases.split(',') if c.strip()]
        unknown = [c for c in cases if c not in all_cases]
        if unknown:
            ap.error('unknown case(s): ' + ', '.join(unknown))
    results_dir = args.results or (os.path.join(BENCH, 'results') if not args.cases else None)
    tools = Tools(args.build)
    tools.check()
    work = args.work or tempfile.mkdtemp(prefix='vprof-bench-')
    os.makedirs(work, exist_ok=True)
    started = time.monotonic()
    results = []
    for c in cases:
        try:
            results.append(run_case(tools, c, work, args))
        except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as e:
            log(f'   ERROR: {e}')
            results.append({'case': c, 'error': str(e).replace('|', '/').replace('\n', ' ')[:300]})
    acc, tot = accuracy_table(results, tools)
    cmdline = 'bench/run.sh ' + ' '.join(shlex.quote(a) for a in sys.argv[1:])
    when = datetime.datetime.now().strftime('%Y-%m-%d %H:%M %Z').strip()
    head = f'Date: {when}. Machine: {machine()}. Command: `{cmdline}` ({time.monotonic() - started:.0f} s).\n'
    print('\n## Accuracy\n\n' + acc)
    oh = None
    if args.overhead:
        oh, notes = overhead_table(results, tools)
        print('\n## Overhead (median ratio to the plain run over interleaved rounds, wall / cpu)\n\n' + oh)
        for n in notes:
            print('note: ' + n)
    known, unseen = apply_known_misses(results)
    for case, problem, why in known:
        print(f'known miss: {case}: {problem} -- {why}')
    for k in unseen:
        print(f'note: known miss no longer seen (remove it from bench/known-misses.json): '
              f'{k["case"]}: {k["problem"]}')
    failing = [r for r in results if 'error' in r or r.get('problems')]
    if failing:
        print('\nCases that do not match their truth:')
        for r in failing:
            print(f'  {r["case"]}: ' + (r.get('error') or '; '.join(r['problems'])))
    if results_dir:
        os.makedirs(results_dir, exist_ok=True)
        write_md(os.path.join(results_dir, 'accuracy.md'),
                 '# bench: accuracy of vprof rank and vprof-loop on bench/cases\n\n' + head + '\n' + acc + '\n')
        if oh:
            write_md(os.path.join(results_dir, 'bench-overhead.md'),
                     '# bench: overhead of vprof against perf and gperftools on bench/cases\n\n' + head +
                     f'\nInput: {args.overhead_input}; {args.rounds} interleaved rounds per case; cells are '
                     'median wall-time ratio / median CPU-time (user+sys of all child processes) ratio against '
                     'the plain run. vprof-loop runs the whole command (probed run plus analysis); '
                     '"unsampled" sets VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 (every iteration and '
                     'instance recorded).\n\n' + oh + '\n' + ''.join(f'\nNote: {n}\n' for n in notes))
        log(f'results written to {results_dir}')
    if not args.work and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    elif args.keep or args.work:
        log(f'scratch kept in {work}')
    return 1 if failing else 0


if __name__ == '__main__':
    sys.exit(main())
