#!/usr/bin/env python3
"""Writes a copy of a profile with its iteration-sketch section (type 19)
damaged, for the readers' error tests: `register` sets the first loop's
first register to 200 (above the largest rank, 53); `count` claims more
loops than the section holds.

usage: corrupt-sketch.py IN OUT register|count
"""
import struct
import sys

src, dst, mode = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
off = struct.unpack_from("<I", data, 12)[0]  # header_size: the first section
while off + 16 <= len(data):
    typ, _flags, size = struct.unpack_from("<IIQ", data, off)
    if typ == 19:
        payload = off + 16
        if mode == "register":
            # header (32 bytes), then loop_id and sampled, then the registers
            data[payload + 32 + 16] = 200
        else:
            struct.pack_into("<Q", data, payload + 8, 1 << 40)
        open(dst, "wb").write(data)
        sys.exit(0)
    if typ == 0:
        break
    off += 16 + ((size + 7) & ~7)
sys.exit("corrupt-sketch.py: no sketch section in " + src)
