#!/usr/bin/python3
"""bzip2-inputs.py DIR: the two inputs of the bzip2 run in
bench/results/real-programs.md, 3.6 MB each (four 900 KB blocks):
  normal.dat  random text over a 40-character alphabet;
  slow.dat    one random 50,000-byte unit of the same alphabet, repeated
              (bzip2 runs out of its sorting budget and falls back).
"""
import os
import random
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
if not os.path.isdir(d):
    sys.exit("%s: %s: not a directory" % (os.path.basename(sys.argv[0]), d))
alpha = b"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ.,\n"
n = 4 * 900 * 1000
rnd = random.Random(1)
with open(os.path.join(d, "normal.dat"), "wb") as f:
    f.write(bytes(rnd.choice(alpha) for _ in range(n)))
rnd = random.Random(2)
unit = bytes(rnd.choice(alpha) for _ in range(50000))
with open(os.path.join(d, "slow.dat"), "wb") as f:
    f.write((unit * (n // len(unit) + 1))[:n])
