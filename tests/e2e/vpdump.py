"""Parse `vprof dump` output for the end-to-end tests.

load(path) -> Dump with .vars (id -> dict), .values (list of dicts in file
order), .pcs (list of dicts), .loss (dict).  Values keep the raw text of
`value=` and an int when it parses.
"""
import subprocess
import sys


class Dump:
    def __init__(self):
        self.vars, self.values, self.pcs, self.loss, self.header = {}, [], [], {}, {}

    def values_of(self, name, function=None, depth=None, status="ok"):
        out = []
        for v in self.values:
            var = self.vars[v["var"]]
            if var["name"] != name:
                continue
            if function is not None and var.get("function", "") != function:
                continue
            if depth is not None and v["depth"] != depth:
                continue
            if status is not None and v["status"] != status:
                continue
            out.append(v)
        return out


def _fields(line):
    out = {}
    for tok in line.split()[1:]:
        if "=" in tok:
            k, _, val = tok.partition("=")
            out[k] = val
    return out


def load(vprof, path):
    text = subprocess.run([vprof, "dump", path], check=True, capture_output=True,
                          text=True).stdout
    d = Dump()
    for line in text.splitlines():
        kind = line.split(" ", 1)[0]
        f = _fields(line)
        if kind == "var":
            vid = int(line.split()[1])
            d.vars[vid] = f
        elif kind == "value":
            var = f["var"].split("(")[0]
            v = {"seq": int(f["seq"]), "tid": int(f["tid"]), "var": int(var),
                 "depth": int(f["depth"]), "status": f["status"], "text": f.get("value", "")}
            try:
                v["int"] = int(v["text"], 0)
            except ValueError:
                v["int"] = None
            d.values.append(v)
        elif kind == "pc":
            d.pcs.append(f)
        elif kind == "loss":
            d.loss = {k: int(x) for k, x in f.items()}
        elif kind == "header":
            d.header = f
    return d


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)
