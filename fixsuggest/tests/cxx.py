#!/usr/bin/python3
"""fixsuggest.cxx: the whole pipeline on a C++ program built with vprof-c++
(README's quick start): vprof record a normal and a slow run, vprof rank,
vprof-loop --top from the ranking.  Index<Entry>::find is a linear search
whose time is in std::string's == (inlined from libstdc++ headers), and
Entry's implicit move constructor has an unnamed parameter.  Before
2026-11-22 that parameter made the schema reader reject the program's whole
schema (no value samples: a ranking by PC samples alone), the anomalous lines
were in char_traits.h, and find's loop got 3% of the run.  Functions are
named as C++ qualifies them and keyed by their mangled names (samename.cpp:
two classes' `work` in one file were one row before 2026-11-22).

usage: cxx.py BINDIR TESTSRCDIR WORKDIR
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build, diagnose_json, finish, json_report, ok, record_rank, run  # noqa: E402


def line_of(path, marker):
    """The first line of the file at path holding `marker`."""
    text = open(path).read().split("\n")
    return next(i + 1 for i, t in enumerate(text) if marker in t)


def vprof_loop_json(bindir, work, name, args):
    """Runs vprof-loop ARGS --format json -o WORK/NAME; returns (the run,
    its loops, or [] when it wrote no report)."""
    cut = args.index("--")
    return json_report([os.path.join(bindir, "vprof-loop")] + args[:cut], work, name,
                       tail=args[cut:])


def probe_loop(bindir, src, work, name, marker, args):
    """Builds cxx/NAME.cpp with vprof-c++ and runs vprof-loop ARGS on it
    (the program goes after "--"); returns (the run, the loop at the line
    holding `marker` or None, that line)."""
    cpp = os.path.join(src, "cxx", name + ".cpp")
    loop_line = line_of(cpp, marker)
    prog = os.path.join(work, name)
    build(bindir, [cpp], prog, cc="vprof-c++")
    cut = args.index("--") + 1
    r, loops = vprof_loop_json(bindir, work, name + "-loop.json", args[:cut] + [prog] + args[cut:])
    return r, next((l for l in loops if l["line"] == loop_line), None), loop_line


def loop_detail(r, lk, keys):
    """What a failed check prints: the exit status, the loop's `keys`, and
    the end of stderr."""
    return "exit %d, loop %s\n%s" % (r.returncode, lk and {k: lk.get(k) for k in keys},
                                     r.stderr[-1500:])


def main():
    bindir, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    cpp = os.path.join(src, "cxx", "index.cpp")
    loop_line = line_of(cpp, "// FIND-LOOP")
    prog = os.path.join(work, "index")
    build(bindir, [cpp], prog, cc="vprof-c++")
    vprof = os.path.join(bindir, "vprof")

    for pro, lines, keys in (("n.vprof", "400000", "800"), ("b.vprof", "60000", "8000")):
        r = run([vprof, "record", "-o", pro, "--force", "--", prog, lines, keys], work)
        if r.returncode != 0:
            raise SystemExit("vprof record failed:\n" + r.stderr[-2000:])
        ok("cannot build the variable index" not in r.stderr and " 0 value samples" not in r.stderr,
           "%s: value samples recorded" % pro, r.stderr[-1000:])

    r = run([vprof, "rank", "--normal", "n.vprof", "--buggy", "b.vprof", "--format", "json",
             "-o", "rank.json"], work)
    funcs = json.load(open(os.path.join(work, "rank.json")))["functions"] \
        if r.returncode == 0 else []
    find = next((f for f in funcs if f["name"] == "Index<Entry>::find"), None)
    ok(find is not None and find["rank"] <= 2 and find["anomalous_variable"] and
       find.get("linkage", "").startswith("_ZN5IndexI5EntryE4find"),
       "vprof rank: find is in the top 2, with an anomalous variable",
       "exit %d, top %s\n%s" % (r.returncode,
                                [(f["rank"], f["name"], f.get("anomalous_variable"))
                                 for f in funcs[:5]], r.stderr[-1000:]))
    lines = find["anomalous_lines"] if find else []
    ok(lines and all(l["file"] == cpp and l["loop_line"] == loop_line for l in lines),
       "vprof rank: find's anomalous lines are in index.cpp, in its loop",
       "anomalous_lines %s" % lines)

    r, loops = vprof_loop_json(bindir, work, "loop.json",
                               ["--top", "2", "--rank", "rank.json", "--", prog, "60000", "8000"])
    lk = next((l for l in loops if l["function"] == "Index<Entry>::find" and
               l["line"] == loop_line), None)
    ok(r.returncode == 0 and lk and lk["share"] >= 0.5 and "0*1?" in lk["root_cause"] and
       "change-data-structure" in lk["fix"] and lk["rank_anomaly"],
       "vprof-loop: find's loop holds most of the run, 0*1?, change the data structure, "
       "marked by the ranking's anomaly",
       "exit %d, loop %s\n%s" % (r.returncode, lk and {k: lk[k] for k in
                                                      ("share", "root_cause", "fix",
                                                       "rank_anomaly")},
                                 r.stderr[-1500:]))

    # The text report names the selected functions without a loop apart.
    r = run([os.path.join(bindir, "vprof-loop"), "--function", "find,add", "--", prog,
             "6000", "800"], work)
    ok(r.returncode == 0 and "1 loop diagnosed in find (no loop in add)" in r.stdout and
       "#1 Index<Entry>::find " in r.stdout,
       "vprof-loop text: functions without a loop are named apart",
       "exit %d\n%s" % (r.returncode, r.stdout[:600]))

    # A virtual getter that writes nothing, called at every step of a walk
    # repeated by every request (docs/loopclass.md, "Calls through
    # pointers"): the walk is a search (0*1?), its instances repeat each
    # other, and they write nothing, so memoization.  Before 2026-11-22 the
    # virtual call was a result and a write in every iteration: 1*, batching.
    scopes_cpp = os.path.join(src, "cxx", "scopes.cpp")
    scopes = os.path.join(work, "scopes")
    build(bindir, [scopes_cpp], scopes, cc="vprof-c++")
    r, loops = vprof_loop_json(bindir, work, "scopes.json",
                               ["--function", "resolve", "--", scopes, "300", "100000"])
    rs = next((l for l in loops if l["function"] == "resolve"), None)
    ok(r.returncode == 0 and rs and rs["static_class"] == "0*1?" and
       "cross-loop" in rs["root_cause"] and rs["fix"] == ["memoization"],
       "vprof-loop: the walk through a pure virtual getter is a repeated search, memoization",
       "exit %d, loop %s\n%s" % (r.returncode, rs and {k: rs[k] for k in
                                                       ("static_class", "root_cause", "fix")},
                                 r.stderr[-1500:]))
    same_name(bindir, src, work)
    instances(bindir, src, work)
    string_copies(bindir, src, work)
    queue_erase(bindir, src, work)
    resort(bindir, src, work)
    repeated_call(bindir, src, work)
    router(bindir, src, work)
    bad_hash(bindir, src, work)
    system_header_loop(bindir, src, work)
    throws(bindir, src, work)
    return finish()


def system_header_loop(bindir, src, work):
    """A loop in a system header (std::find's, inlined into dedup) is
    reported with the program's line that called it (docs/vprof-loop.md,
    "Loops in system headers"): JSON called_at, the text heading and quote,
    SARIF's primary location (the header's loop a related one).  Its
    verdict says the change belongs at that call, and the calling loop's
    callee sentence names it by header and call (before 2026-11-26: "fix
    change-data-structure, memoization" with no word of where, and
    "std::__find_if<__gnu_cxx::__normal_iterator<int*, ...>'s loop at line
    2065", a line of a file the user does not have open)."""
    cpp = os.path.join(src, "cxx", "dedup.cpp")
    call = line_of(cpp, "// FIND-CALL")
    prog = os.path.join(work, "dedup")
    build(bindir, [cpp], prog, cc="vprof-c++")
    args = ["--function", "dedup", "--", prog, "30000", "30000"]
    r, loops = vprof_loop_json(bindir, work, "dedup.json", args)
    lk = next((l for l in loops if l["path"].startswith("/usr/include/")), None)
    at = (lk or {}).get("called_at") or {}
    ok(r.returncode == 0 and lk and lk["inlined_into"] == "dedup" and
       at.get("path") == cpp and at.get("line") == call and "0*1?" in lk["root_cause"],
       "vprof-loop: std::find's loop is called at the program's line",
       loop_detail(r, lk, ("function", "path", "line", "called_at", "root_cause")))
    ok(lk and ("It is library code (std::__find_if<...>, stl_algobase.h) run by the program's "
               "call at dedup.cpp:%d: the waste comes from what that call is given" % call)
       in lk["evidence"],
       "vprof-loop: the verdict on std::find's loop puts the change at the program's call",
       loop_detail(r, lk, ("evidence",)))
    own = next((l for l in loops if l["path"] == cpp), None)
    ok(own is not None and own["called_at"] is None,
       "vprof-loop: a loop in the program's own source has no call site", str(own))
    ok(own is not None and lk and re.search(r"std::__find_if<\.\.\.>'s loop \(stl_algobase\.h:%d, "
                                     r"called at dedup\.cpp:%d; 0\*1\?" % (lk["line"], call),
                                     own["evidence"]) and "library code" not in own["evidence"],
       "vprof-loop: the calling loop names std::find's loop by its header and the call",
       str(own and own["evidence"]))
    loop = os.path.join(bindir, "vprof-loop")
    r = run([loop] + args[:2] + ["--no-color"] + args[2:], work)
    ok(r.returncode == 0 and re.search(r"\(inlined into dedup, called at \S*dedup\.cpp:%d\)" % call,
                                       r.stdout)
       and ("%6d | if (std::find(out.begin(), out.end(), x) == out.end())" % call) in r.stdout,
       "vprof-loop text: the heading and the quote give the call", r.stdout[:2500])
    r = run([loop] + args[:2] + ["--format", "sarif", "-o", "dedup.sarif"] + args[2:], work)
    res = json.load(open(os.path.join(work, "dedup.sarif")))["runs"][0]["results"] \
        if r.returncode == 0 else []
    hdr = [x for x in res if x.get("relatedLocations")]
    ok(hdr and all(x["locations"][0]["physicalLocation"]["region"]["startLine"] == call and
                   x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
                       "dedup.cpp") and
                   "/usr/include/" in x["relatedLocations"][0]["physicalLocation"]
                   ["artifactLocation"]["uri"] for x in hdr),
       "SARIF: the header loop's result is located at the call, the loop related",
       json.dumps(res)[:2000])


def throws(bindir, src, work):
    """A loop whose added time is std::stoi's thrown exceptions: the growth
    sentence says the line's time is C++ exception unwinding and what to
    do instead (docs/vprof-loop.md, "Thrown exceptions"); before, it ended
    at "most of it in [libgcc_s.so.1]"."""
    cpp = os.path.join(src, "cxx", "throws.cpp")
    loop_line, stoi = line_of(cpp, "// TOKEN-LOOP"), line_of(cpp, "// STOI-LINE")
    prog = os.path.join(work, "throws")
    build(bindir, [cpp], prog, cc="vprof-c++")
    r, loops = vprof_loop_json(bindir, work, "throws.json",
                               ["--function", "sum_numbers", "--normal-run", prog + " 200000 0",
                                "--", prog, "20000", "60"])
    lk = next((l for l in loops if l["line"] == loop_line), None)
    gl = ((lk or {}).get("growth_lines") or [{}])[0]
    ok(r.returncode == 0 and lk and gl.get("line") == stoi and gl.get("unwinding") is True
       and "unwinding C++ exceptions thrown there" in (lk.get("growth") or "")
       and "test for the failure before the call" in lk["growth"],
       "vprof-loop: the stoi line's time is exception unwinding",
       loop_detail(r, lk, ("line", "growth", "growth_lines")))


def same_name(bindir, src, work):
    """Two methods named `work` in one file are two functions."""
    cpp = os.path.join(src, "cxx", "samename.cpp")
    grows, fixed = line_of(cpp, "// GROWS-LOOP"), line_of(cpp, "// FIXED-LOOP")
    prog = os.path.join(work, "samename")
    build(bindir, [cpp], prog, cc="vprof-c++", opt="-O1")
    vprof = os.path.join(bindir, "vprof")
    funcs, r = record_rank(bindir, work, [prog, "2"], [prog, "40"], prefix="s")
    rows = {f["name"]: f for f in funcs}
    g, f = rows.get("shapes::Grows::work"), rows.get("shapes::Fixed::work")
    ok(g and f and g["rank"] == 1 and g["linkage"] != f["linkage"] and
       # Grows::work runs about 5x Fixed::work's time on the slow input
       # (4.99x on an AMD EPYC, where its division is cheap: 349 against
       # 70 samples failed a 5x check); 2x shows the two kept apart
       g["line"] < f["line"] and g["pc_samples"] > 2 * f["pc_samples"] > 0 and
       all(l["loop_line"] in (grows, grows + 1) for l in g["anomalous_lines"]) and
       "work" not in rows,
       "vprof rank: two classes' `work` in one file are two rows, the growing one first",
       "exit %d, rows %s\n%s" % (r.returncode,
                                 [(x["rank"], x["name"], x["line"], x["pc_samples"])
                                  for x in funcs], r.stderr[-1000:]))
    r = run([vprof, "rank", "--normal", "sn.vprof", "--buggy", "sb.vprof"], work)
    ok(r.returncode == 0 and " shapes::Grows::work " in r.stdout, "vprof rank text: qualified name",
       r.stdout[-1500:])
    # vprof report: each method's row lists its own variables (by linkage
    # name; the loop counter `i` of Fixed::work was listed under both)
    r = run([vprof, "report", "sb.vprof"], work)
    rows, cur = {}, None
    for t in r.stdout.split("\n"):
        w = t.split()
        if len(w) >= 5 and w[3].startswith("shapes::"):
            cur = w[3]
            rows[cur] = set()
        elif cur and len(w) >= 2 and w[0] == "i" and w[1].isdigit():
            rows[cur].add(int(w[1]))
    ok(r.returncode == 0 and rows.get("shapes::Grows::work") == {grows} and
       rows.get("shapes::Fixed::work", {fixed}) == {fixed},
       "vprof report: each `work` row has its own loop counter", "%s\n%s" % (rows, r.stdout[:1500]))
    r = run([vprof, "export", "--folded", "sb.vprof"], work)
    ok(r.returncode == 0 and ";shapes::Grows::work " in r.stdout and
       ";work " not in r.stdout, "vprof export --folded: qualified names", r.stdout[:800])

    r, loops = vprof_loop_json(bindir, work, "sloop.json",
                               ["--function", "shapes::Grows::work", "--", prog, "8"])
    ok(r.returncode == 0 and loops and
       all(l["function"] == "shapes::Grows::work" for l in loops) and
       {l["line"] for l in loops} <= {grows, grows + 1} and
       any(l["line"] == grows for l in loops),
       "vprof-loop --function with a qualified name: that class's loops only",
       "exit %d, loops %s\n%s" % (r.returncode, [(l["function"], l["line"]) for l in loops],
                                   r.stderr[-1500:]))


def instances(bindir, src, work):
    """Two instantiations of one class template (instances.cpp): each keeps
    its own variables (the DWARF index matched them by name and line, so
    each took the other's samples, before 2026-11-26), and the text reports
    show two different names where their template arguments, elided, read
    alike (two rows of "shapes::Runner<...>::run" before)."""
    cpp = os.path.join(src, "cxx", "instances.cpp")
    prog = os.path.join(work, "instances")
    build(bindir, [cpp], prog, cc="vprof-c++", opt="-O1")
    vprof = os.path.join(bindir, "vprof")
    funcs, r = record_rank(bindir, work, [prog, "2"], [prog, "40"], prefix="i")
    grow = "shapes::Runner<shapes::Policy<std::vector<long, std::allocator<long> >, 1> >::run"
    steady = grow.replace(", 1> >", ", 2> >")
    rows = {f["name"]: f for f in funcs}
    ok(r.returncode == 0 and grow in rows and steady in rows and rows[grow]["rank"] == 1,
       "vprof rank: the growing instantiation first, the other its own row",
       "exit %d, rows %s\n%s" % (r.returncode, [(x["rank"], x["name"]) for x in funcs],
                                 r.stderr[-1000:]))
    r = run([vprof, "report", "ib.vprof", "--format", "json"], work)
    rep = {f["name"]: {v["name"]: v for v in f["variables"]}
           for f in json.loads(r.stdout)["functions"]} if r.returncode == 0 else {}
    g, s = rep.get(grow, {}).get("n"), rep.get(steady, {}).get("n")
    ok(g and s and g["min"] == g["max"] == 800000 and s["min"] == s["max"] == 200000,
       "vprof report: each instantiation's `n` holds only its own values",
       "%s %s" % (g, s))
    for cmd in (["rank", "--normal", "in.vprof", "--buggy", "ib.vprof"], ["report", "ib.vprof"]):
        r = run([vprof] + cmd, work)
        shown = [t for t in r.stdout.split("\n") if ">::run " in t or "<...>::run " in t]
        ok(r.returncode == 0 and len(shown) == 2 and ", 1> >::run " in shown[0] and
           ", 2> >::run " in shown[1],
           "vprof %s text: the two instantiations read differently" % cmd[0],
           "\n".join(shown) or r.stdout[-1500:])


def string_copies(bindir, src, work):
    """`s = s + field` in a loop: each iteration's operator+ copies the
    whole string built so far (std::string's _M_replace, inlined from the
    header).  vprof-loop says the loop copies the string again, at the
    loop's own line, and that appending in place is the fix; before
    2026-11-26 it said 1*, fix none (docs/redundancy.md, "Copies made
    again")."""
    r, lk, loop_line = probe_loop(bindir, src, work, "concat", "// JOIN-LOOP",
                                  ["--function", "join", "--", "10", "20000"])
    rc = lk and lk.get("repeated_call")
    ok(r.returncode == 0 and lk and "cross-loop" in lk["root_cause"] and
       lk["fix"] == ["memoization"] and rc and rc["callee"] == "std::string::_M_replace" and
       rc["line"] == loop_line + 1 and rc["rescans"] and rc["copies"] and not rc["shifted"] and
       "copies again the string the previous call copied" in lk["evidence"] and
       "(s += x" in lk["evidence"],
       "vprof-loop: s = s + x copies the string again; append in place",
       loop_detail(r, lk, ("root_cause", "fix", "repeated_call", "evidence")))


def queue_erase(bindir, src, work):
    """A std::vector popped from its front with erase(): each memmove moves
    again what the previous one moved, one element along.  The chunks cut
    from the start of the copy never matched (cross-loop was not found), and
    the loop got 0.0% of the run: the inline chain of the memmove's call
    site is ten frames deep and the symbolizer kept the innermost eight,
    dropping drain's (both 2026-11-25)."""
    r, lk, _ = probe_loop(bindir, src, work, "queue", "// DRAIN-LOOP",
                          ["--function", "main", "--", "60000", "3"])
    rc = lk and lk.get("repeated_call")
    ok(r.returncode == 0 and lk and "cross-loop" in lk["root_cause"] and
       lk["fix"] == ["change-data-structure"] and rc and rc["callee"] == "memmove" and
       rc["copies"] and rc["shifted"] and lk["share"] > 0.5 and
       "moves again the bytes the previous call moved, shifted" in lk["evidence"] and
       "std::deque" in lk["evidence"],
       "vprof-loop: erase() at a vector's front moves the rest again; use a queue",
       loop_detail(r, lk, ("root_cause", "fix", "share", "repeated_call", "evidence")))


def resort(bindir, src, work):
    """A leaderboard sorted again with std::sort after each score: a sort
    unit at the loop's call of std::__introsort_loop (docs/redundancy.md,
    "Sorts made again"), cross-loop, change-data-structure.  A fresh
    random vector sorted each time: no repeat.  Before 2026-11-25 std::sort
    was no unit (only qsort was) and the loop was 1*, fix none."""
    r, lk, _ = probe_loop(bindir, src, work, "resort", "// BOARD-LOOP",
                          ["--function", "leaderboard,ranks", "--", "12000"])
    rc = lk and lk.get("repeated_call")
    ok(r.returncode == 0 and lk and "cross-loop" in lk["root_cause"] and
       lk["fix"] == ["change-data-structure"] and rc and rc["callee"] == "std::sort" and
       rc["sorts"] and "sorts again the elements the previous call sorted" in lk["evidence"],
       "vprof-loop: std::sort of the whole board after each score sorts it again",
       loop_detail(r, lk, ("root_cause", "fix", "repeated_call", "evidence")))
    cpp = os.path.join(src, "cxx", "resort.cpp")
    fresh = next((l for l in json.load(open(os.path.join(work, "resort-loop.json")))["loops"]
                  if l["line"] == line_of(cpp, "// FRESH-LOOP")), None) \
        if os.path.exists(os.path.join(work, "resort-loop.json")) else None
    frc = fresh and fresh.get("repeated_call")
    ok(fresh is not None and "cross-loop" not in fresh["root_cause"] and
       (not frc or not frc.get("rescans")),
       "vprof-loop: a fresh vector sorted each time is no repeat",
       str(fresh and {k: fresh.get(k) for k in ("root_cause", "fix", "repeated_call")}))


def repeated_call(bindir, src, work):
    """A repeated call's callee is named as C++ qualifies it: the evidence
    said "its calls of width" before 2026-11-23 (the redundancy table kept
    the callee's DWARF name, which is unqualified)."""
    r, lk, loop_line = probe_loop(bindir, src, work, "repcall", "// RENDER-LOOP",
                                  ["--function", "Layout::render", "--", "2000000"])
    rc = lk and lk.get("repeated_call")
    ok(r.returncode == 0 and lk and lk["function"] == "Layout::render" and rc and
       rc["callee"] == "text::Shaper::width" and rc["redundant"] and
       "calls of text::Shaper::width (line %d)" % (loop_line + 1) in lk["evidence"],
       "vprof-loop: a repeated call names its callee qualified",
       loop_detail(r, lk, ("function", "repeated_call", "evidence")))


def bad_hash(bindir, src, work):
    """A std::unordered_map whose hash puts every key in one bucket: the
    chain walk inlined from libstdc++ (_M_find_before_node, 1*) says the keys
    collide and names the bucket's load (docs/vprof-loop.md, "Hash bucket
    chains"); before 2026-11-25 it said only "every path through its body
    produces a result"."""
    cpp = os.path.join(src, "cxx", "badhash.cpp")
    prog = os.path.join(work, "badhash")
    build(bindir, [cpp], prog, cc="vprof-c++")
    r, loops = diagnose_json(bindir, work, prog + " 4000", prog + " 16000", "badhash.json")
    lk = next((l for l in loops if l["function"].endswith("::_M_find_before_node")), None)
    ok(r.returncode == 0 and lk and lk.get("bucket_line") and lk["file"].endswith("hashtable.h")
       and "is the chain of one hash-table bucket (line %d: `" % lk["bucket_line"]
       in lk["evidence"] and "Fix the hash function" in lk["evidence"],
       "vprof diagnose: the bucket chain of a std::unordered_map with a bad hash",
       "exit %d, loops %s\n%s" % (r.returncode, [(l["function"][-40:], l["line"],
                                                  l.get("bucket_line"), l["evidence"][-300:])
                                                 for l in loops], r.stderr[-1500:]))


def router(bindir, src, work):
    """A rule loop without its `break` is [0|1]*, skip-loop, and the
    condition names the update the rules guard (`chosen = ...`), not the
    virtual `matches` call before it: that call writes nothing, so it is no
    result (before 2026-11-25 the condition named it, as the body's first
    side-effect site)."""
    cpp = os.path.join(src, "cxx", "router.cpp")
    loop_line, chosen = line_of(cpp, "// ROUTE-LOOP"), line_of(cpp, "// CHOSEN-LINE")
    prog = os.path.join(work, "router")
    build(bindir, [cpp], prog, cc="vprof-c++")
    r, loops = vprof_loop_json(bindir, work, "router.json",
                               ["--function", "Router::route", "--", prog, "2000", "20000"])
    lk = next((l for l in loops if l["line"] == loop_line), None)
    ok(r.returncode == 0 and lk and lk["root_cause"] == ["[0|1]*"] and
       lk["fix"] == ["skip-loop"] and lk.get("side_effect_line") == chosen,
       "vprof-loop: the rule loop's skip condition names its update, not the virtual call",
       "exit %d, loop %s\n%s" % (r.returncode, lk and {k: lk.get(k) for k in
                                                        ("root_cause", "fix",
                                                         "side_effect_line")},
                                 r.stderr[-1500:]))


if __name__ == "__main__":
    sys.exit(main())
