#!/usr/bin/env python3
"""Rewrite one counter of a profile's loop-counts section (type 16), for the
bad-input tests: patch-counts.py IN OUT RECORD FIELD VALUE, FIELD one of
instances, iterations, results, max, or loop with VALUE @R: give RECORD the
loop id of record R (two records of one loop are summed).  Exit 2 when the
profile has no such section or record."""
import struct
import sys

FIELDS = {"loop": 0, "instances": 16, "iterations": 24, "results": 32, "max": 40}


def die(msg):
    print(f"patch-counts.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 6 or sys.argv[4] not in FIELDS:
        die("usage: patch-counts.py IN OUT RECORD instances|iterations|results|max|loop VALUE")
    src, dst, rec, field, value = sys.argv[1:6]
    try:
        rec = int(rec)
        copy = value.startswith("@")
        value = int(value[1:] if copy else value, 0)
        data = bytearray(open(src, "rb").read())
    except (ValueError, OSError) as e:
        die(str(e))
    if not 0 <= value < 1 << 64:
        die(f"{value}: not a 64-bit unsigned value")
    if len(data) < 16:
        die(f"{src}: not a profile ({len(data)} bytes)")
    (header_size,) = struct.unpack_from("<I", data, 12)
    off = header_size
    while off + 16 <= len(data):
        typ, _flags, size = struct.unpack_from("<IIQ", data, off)
        payload = off + 16
        if typ == 16:
            _ver, hsize, nmod, nrec = struct.unpack_from("<IIII", data, payload)
            at = payload + hsize + nmod * 8 + rec * 48 + FIELDS[field]
            if not 0 <= rec < nrec or at + 8 > payload + size:
                die(f"{src}: no record {rec} ({nrec} records)")
            if copy:
                if field != "loop" or not 0 <= value < nrec:
                    die(f"{src}: @{value}: only loop copies, from a record of the {nrec}")
                (value,) = struct.unpack_from("<Q", data, payload + hsize + nmod * 8 + value * 48)
            struct.pack_into("<Q", data, at, value)
            open(dst, "wb").write(data)
            return
        if typ == 0:
            break
        off = payload + ((size + 7) & ~7)
    die(f"{src}: no loop-counts section")


main()
