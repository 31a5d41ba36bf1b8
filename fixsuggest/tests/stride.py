#!/usr/bin/python3
"""fixsuggest.stride: the sums of the columns of a matrix stored row after
row are 4x slower per element on a 4096 x 4096 matrix than on a 256 x 256
one.  vprof-loop's growth sentence for the column loop names the line that
holds the added time and why: its read of the matrix steps 32 KiB (one row)
from one iteration to the next in the slow run, 2 KiB in the normal run,
and the fix, to swap it with the loop around it or work in tiles
(docs/vprof-loop.md, "Strided walks").  The row loop reads the same matrix
in the order it is laid out: no stride, no such sentence.  Before, the
growth sentence ended at the line, with no cause and no fix.

usage: stride.py BINDIR TESTSRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import build_case, finish, loop_json, loops_at, ok  # noqa: E402


def main():
    bindir, src, work, prog, line = build_case(
        "stride", ("COLUMNS", "COLUMN-LOOP", "COLUMN-READ", "ROW-LOOP"))
    r, loops = loop_json(bindir, work, ["col_sums", "row_sums"], [prog, "4096", "3"],
                         options=["--normal-run", prog + " 256 800"])
    found = loops_at(r, loops, "vprof-loop", (line["COLUMN-LOOP"], line["ROW-LOOP"]),
                     "column and row loops")
    if found is None:
        return finish()
    col, row = found
    hot = (col["growth_lines"] or [{}])[0]
    ok(hot.get("line") == line["COLUMN-READ"], "the column loop's added time is at its read",
       str(col["growth_lines"]))
    ok(hot.get("stride_bytes") == 4096 * 8 and hot.get("normal_stride_bytes") == 256 * 8,
       "its read steps one row per iteration: 32 KiB slow, 2 KiB normal", str(hot))
    g = col["growth"] or ""
    ok("where a memory access steps 32 KiB from one iteration to the next (2 KiB in the "
       "normal run): every iteration touches another cache line" in g
       and "swap this loop with the loop around it at line %d, or work in tiles"
       % line["COLUMNS"] in g,
       "the growth sentence says why and how to fix it", g)
    ok(all(h.get("stride_bytes") is None for h in row["growth_lines"] or [])
       and "memory access steps" not in (row["growth"] or ""),
       "the row loop walks the matrix in order: no stride", str(row["growth_lines"]))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
