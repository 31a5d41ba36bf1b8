#!/usr/bin/env python3
"""Rewrite one counter of a profile's loop-counts section (type 16), for the
bad-input tests: patch-counts.py IN OUT RECORD FIELD VALUE, FIELD one of
instances, iterations, results, max.  Exit 2 when the profile has no such
section or record."""
import struct
import sys

FIELDS = {"instances": 16, "iterations": 24, "results": 32, "max": 40}


def main():
    src, dst, rec, field, value = sys.argv[1:6]
    data = bytearray(open(src, "rb").read())
    (header_size,) = struct.unpack_from("<I", data, 12)
    off = header_size
    while off + 16 <= len(data):
        typ, _flags, size = struct.unpack_from("<IIQ", data, off)
        payload = off + 16
        if typ == 16:
            _ver, hsize, nmod, nrec = struct.unpack_from("<IIII", data, payload)
            if int(rec) >= nrec:
                sys.exit(f"patch-counts.py: {src}: no record {rec} ({nrec} records)")
            at = payload + hsize + nmod * 8 + int(rec) * 48 + FIELDS[field]
            struct.pack_into("<Q", data, at, int(value, 0))
            open(dst, "wb").write(data)
            return
        if typ == 0:
            break
        off = payload + ((size + 7) & ~7)
    print(f"patch-counts.py: {src}: no loop-counts section", file=sys.stderr)
    sys.exit(2)


main()
