#!/usr/bin/env python3
"""Maintenance helper (not needed to run the cases): recompute the line numbers
and expected outputs in each case's truth.json.

Line numbers come from markers in the sources: the root-cause loop carries the
comment `/* ROOT-CAUSE LOOP */` (or `/* ROOT-CAUSE RECURSION */` on the function
definition line), and other hot loops carry `/* HOT LOOP */`.  Expected outputs
are taken from running the freshly built binary on normal_args / slow_args.
Usage: fill_truth.py CASE_DIR...   (the case must already be built)
"""
import json, os, re, subprocess, sys

def markers(case_dir, tag):
    out = []
    for fn in sorted(os.listdir(case_dir)):
        if not fn.endswith('.c'):
            continue
        with open(os.path.join(case_dir, fn)) as f:
            for i, line in enumerate(f, 1):
                if tag in line:
                    out.append((fn, i, line))
    return out

def enclosing_function(case_dir, fn, line_no):
    with open(os.path.join(case_dir, fn)) as f:
        lines = f.readlines()
    for i in range(line_no - 1, -1, -1):
        m = re.match(r'^(?:static\s+|__attribute__\S*\s+)*[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(', lines[i])
        if m and not lines[i].startswith((' ', '\t', '}', '#', '/')) and not lines[i].rstrip().endswith(';'):
            return m.group(1)
    return None

for case_dir in sys.argv[1:]:
    tpath = os.path.join(case_dir, 'truth.json')
    with open(tpath) as f:
        t = json.load(f)
    prog = os.path.join(case_dir, t['case'])
    rc = t.get('root_cause')
    if rc:
        tag = '/* ROOT-CAUSE RECURSION */' if rc['kind'] == 'recursion' else '/* ROOT-CAUSE LOOP */'
        ms = markers(case_dir, tag)
        assert len(ms) == 1, (case_dir, ms)
        fn, ln, _ = ms[0]
        rc['file'], rc['loop_line'] = fn, ln
        rc['function'] = enclosing_function(case_dir, fn, ln) if rc['kind'] == 'loop' else rc['function']
    hot = markers(case_dir, '/* HOT LOOP */')
    lst = [{'function': enclosing_function(case_dir, fn, ln), 'file': fn, 'line': ln} for fn, ln, _ in hot]
    key = 'hot_loops' if t.get('control') else 'other_loops'
    old = {h['function']: h for h in t.get(key, [])}       # keep hand-written fields (categories)
    t[key] = [dict(old.get(h['function'], {}), **h) for h in lst]
    for which in ('normal', 'slow'):
        out = subprocess.run([prog] + t[which + '_args'], capture_output=True, text=True, check=True).stdout
        t['expected_output_' + which] = out
    with open(tpath, 'w') as f:
        json.dump(t, f, indent=2)
        f.write('\n')
    print('filled', tpath)
