#!/usr/bin/python3
"""gzip-inputs.py DIR: the two inputs of the gzip run in
bench/results/real-programs.md, 300,000 bytes each:
  n.dat  random text over a 40-character alphabet;
  s.dat  random text over the two letters a and b (long hash chains).
"""
import os
import random
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "."
if not os.path.isdir(d):
    sys.exit("%s: %s: not a directory" % (os.path.basename(sys.argv[0]), d))
rnd = random.Random(1)
alpha = b"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ.,\n"
with open(os.path.join(d, "n.dat"), "wb") as f:
    f.write(bytes(rnd.choice(alpha) for _ in range(300000)))
rnd = random.Random(3)
with open(os.path.join(d, "s.dat"), "wb") as f:
    f.write(bytes(rnd.choice(b"ab") for _ in range(300000)))
