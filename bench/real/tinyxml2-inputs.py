#!/usr/bin/python3
"""tinyxml2-inputs.py DIR: the two inputs of the tinyxml2 run in
bench/results/real-programs.md, 32,000 attributes each:
  normal.xml  1,600 elements of 20 attributes;
  slow.xml    4 elements of 8,000 attributes.
"""
import os
import sys


def gen(path, nelem, nattr):
    with open(path, "w") as f:
        f.write("<root>\n")
        for _ in range(nelem):
            f.write("<item " + " ".join('a%d="v%d"' % (i, i) for i in range(nattr)) + "/>\n")
        f.write("</root>\n")


d = sys.argv[1] if len(sys.argv) > 1 else "."
if not os.path.isdir(d):
    sys.exit("%s: %s: not a directory" % (os.path.basename(sys.argv[0]), d))
gen(os.path.join(d, "normal.xml"), 1600, 20)
gen(os.path.join(d, "slow.xml"), 4, 8000)
