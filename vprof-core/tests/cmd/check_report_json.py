#!/usr/bin/env python3
"""Structural check of `vprof report --format json` on the synthetic profile
written by test_cmd (see make_profile there).  Usage: check_report_json.py FILE"""
import json
import sys


def fail(msg):
    print("check_report_json: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("schema") != "vprof-report/1":
        fail("schema is %r" % doc.get("schema"))
    for key, typ in (("pc_samples", int), ("value_samples", int), ("functions", list),
                     ("globals", list), ("profile", str)):
        if not isinstance(doc.get(key), typ):
            fail("%s missing or not %s" % (key, typ.__name__))
    if doc["pc_samples"] != 100 or doc["value_samples"] != 9:
        fail("counts %r %r" % (doc["pc_samples"], doc["value_samples"]))
    cov = doc.get("coverage")
    if not cov or cov["schema_vars"] != 10 or cov["located"] != 6 or \
            cov["range_lost_by_reason"]["optimised out"] != 3 or \
            cov["range_lost_by_reason"]["entry_value"] != 1 or \
            cov["pc_bytes_total"] != 400 or cov["pc_bytes_located"] != 300:
        fail("coverage %r" % cov)
    funcs = doc["functions"]
    for f in funcs:
        for key, typ in (("name", str), ("file", str), ("line", int), ("self_samples", int),
                         ("variables", list)):
            if not isinstance(f.get(key), typ):
                fail("function %r: %s missing or not %s" % (f.get("name"), key, typ.__name__))
    names = [f["name"] for f in funcs]
    want = ["cmdtest_hot_function", "cmdtest_tie_a", "cmdtest_tie_b", "[libfake.so]",
            "[unknown]", "cmdtest_no_pc_samples"]
    if names != want:
        fail("function order %r, wanted %r" % (names, want))
    samples = [f["self_samples"] for f in funcs]
    if samples != [50, 15, 15, 12, 8, 0]:
        fail("self samples %r" % samples)
    if samples != sorted(samples, reverse=True):
        fail("not sorted")
    hot = funcs[0]
    if not hot["file"].endswith("test_cmd.c") or hot["line"] <= 0:
        fail("hot function source %r:%r" % (hot["file"], hot["line"]))
    if hot["self_percent"] != 50 or funcs[1]["cumulative_percent"] != 65:
        fail("percentages %r %r" % (hot["self_percent"], funcs[1]["cumulative_percent"]))
    vars_ = {v["name"]: v for v in hot["variables"]}
    if [v["name"] for v in hot["variables"]] != ["__begin1", "n", "x"]:
        fail("hot variables %r" % [v["name"] for v in hot["variables"]])
    if vars_["__begin1"]["line"] != 0:  # JSON keeps 0: no declaration line
        fail("__begin1 line %r" % vars_["__begin1"]["line"])
    n = vars_["n"]
    if (n["samples"], n["unreadable"], n["min"], n["median"], n["max"]) != (3, 1, -3, 5, 7):
        fail("n stats %r" % n)
    if n["tags"] != ["loop", "cond"] or n["type"] != "int" or n["line"] != 12:
        fail("n attributes %r" % n)
    x = vars_["x"]
    if (x["min"], x["median"], x["max"]) != (1.5, 1.5, 2.5) or x["type_kind"] != "float":
        fail("x stats %r" % x)
    never = funcs[-1]["variables"]
    if len(never) != 1 or never[0]["name"] != "quiet" or never[0]["samples"] != 0 or \
            never[0]["unreadable"] != 1 or never[0]["min"] is not None:
        fail("no-sample variable %r" % never)
    g = doc["globals"]
    if len(g) != 1 or g[0]["name"] != "g_limit" or g[0]["max"] != 4000000000:
        fail("globals %r" % g)
    print("ok")


main()
