#!/usr/bin/env python3
"""bench/harness/rerank.py: vprof rank again over kept bench runs.

    bench/harness/rerank.py [--vprof BIN] WORK_DIR... [-- RANK_ARG...]

Each WORK_DIR is the scratch directory of a `bench/run.sh --keep --work DIR`
run: one subdirectory per case with its truth.json and the recorded
normal*.vprof and slow*.vprof.  Every case recording is ranked again with
BIN (default build/bin/vprof) and the RANK_ARGs, and compared with its
truth: the root-cause function's rank and the pattern.  Prints the totals
over all the recordings (top-1, top-5, patterns) and one line per case with
its rank in each WORK_DIR ("-" when it is not ranked) and, after it, the
pattern when it is not the truth's.

A rule of `vprof rank` can so be tried on many recordings in seconds, where
recording them again takes minutes each (docs/rank.md: "Tried and
dropped").  Controls (no root-cause function) are skipped.  Exit status 0,
1 at the first rank run that fails (its error printed), 2 on usage errors
and when no directory holds a case recording.
"""
import argparse
import collections
import glob
import json
import os
import signal
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rank_case(vprof, case_dir, extra):
    normal = sorted(glob.glob(os.path.join(case_dir, 'normal*.vprof')))
    slow = sorted(glob.glob(os.path.join(case_dir, 'slow*.vprof')))
    if not normal or not slow:
        return None, f'{case_dir}: no normal*.vprof or slow*.vprof'
    p = subprocess.run([vprof, 'rank', '--normal'] + normal + ['--buggy'] + slow +
                       ['--format', 'json'] + extra, capture_output=True, text=True, cwd=case_dir)
    if p.returncode != 0:
        return None, f'{case_dir}: vprof rank exit {p.returncode}: {p.stderr.strip()[-300:]}'
    return json.loads(p.stdout), None


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    argv = sys.argv[1:]
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(prog='bench/harness/rerank.py', description=__doc__.split('\n')[0])
    ap.add_argument('--vprof', default=os.path.join(REPO, 'build', 'bin', 'vprof'),
                    help='the vprof binary (default build/bin/vprof)')
    ap.add_argument('work', nargs='+', help='kept bench/run.sh scratch directories')
    args = ap.parse_args(argv)
    vprof = os.path.abspath(args.vprof)
    if not os.access(vprof, os.X_OK):
        ap.error(f'no executable vprof at {vprof}')
    for w in args.work:
        if not os.path.isdir(w):
            ap.error(f'no directory {w}')

    tot = collections.Counter()
    per = collections.defaultdict(list)
    for w in args.work:
        for case in sorted(os.listdir(w)):
            tpath = os.path.join(w, case, 'truth.json')
            if not os.path.exists(tpath):
                continue
            with open(tpath) as f:
                root = json.load(f).get('root_cause') or {}
            if not root.get('function'):
                continue
            rank, err = rank_case(vprof, os.path.join(w, case), extra)
            if err:  # a bad RANK_ARG fails every case: one line is enough
                print(f'rerank.py: {err}', file=sys.stderr)
                return 1
            hit = [e for e in rank.get('functions', []) if e.get('name') == root['function']]
            r = hit[0].get('rank') if hit else None
            pattern = hit[0].get('pattern') if hit else None
            tot['recordings'] += 1
            tot['top1'] += r == 1
            tot['top5'] += r is not None and r <= 5
            tot['patterns'] += pattern == root.get('pattern')
            cell = str(r) if r is not None else '-'
            if pattern != root.get('pattern'):
                cell += ':' + (pattern or 'none')
            per[case].append(cell)
    n = tot['recordings']
    if n == 0:
        print(f"rerank.py: no case recordings (CASE/truth.json with a root cause) in {' '.join(args.work)}",
              file=sys.stderr)
        return 2
    print(f"{n} case recordings: top-1 {tot['top1']}, top-5 {tot['top5']}, patterns {tot['patterns']}")
    for case, cells in sorted(per.items()):
        print(f'{case:24s} ' + ' '.join(cells))
    return 0


if __name__ == '__main__':
    sys.exit(main())
