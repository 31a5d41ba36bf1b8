#!/usr/bin/env python3
"""Print the .vprof.schema blobs of an ELF file (object, executable, .so).

A test tool for llvm/: an independent reader of the layout in
vprof-core/include/vprof/format.h (section 1), so tests can check that what
the schema pass printed (-mllvm -vprof-print-schema) is what the object file
and the linked binary carry.  Entries are printed in the same one-line form:

  vprof-schema-blob: entries=N comp_dir=DIR
  vprof-schema: fn=F var=V line=N tags=T kind=K size=S pointee=P arg=A type="T" file=PATH [linkage=L]
  vprof-schema-users: var=V users=F1,F2        (v2: a global's user functions)
  vprof-schema-use: var=SYMBOL tags=T users=F1  (v2: a use record of an extern)

Every offset is bounds-checked; malformed data exits with status 1 and a
message naming the file and offset.  Usage: vprof-schema-dump.py FILE...
"""
import struct
import sys

SECTION = b".vprof.schema"
MAGIC = 0x43535056
VERSIONS = (1, 2)
HEADER = struct.Struct("<IHHIIIIII")        # struct vp_schema_header, v1 part, 32 bytes
HEADER2 = struct.Struct("<IHH")             # v2: users_offset, entry_size, reserved
ENTRY = struct.Struct("<IIIIIIHHIII")       # struct vp_schema_entry, v1 part, 40 bytes
ENTRY2 = struct.Struct("<IHH")              # v2: users_first, users_count, flags
USE_ONLY = 1
TAGS = [(1, "loop"), (2, "cond"), (4, "args"), (8, "global")]
KINDS = {0: "unknown", 1: "sint", 2: "uint", 3: "float", 4: "ptr_basic",
         5: "ptr_other", 6: "aggregate"}


class BadSchema(Exception):
    pass


def section_bytes(path):
    """Contents of the .vprof.schema section of ELF64 little-endian `path`."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise BadSchema("%s: not an ELF64 little-endian file" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff + shnum * shentsize > len(data) or shstrndx >= shnum:
        raise BadSchema("%s: section headers out of bounds" % path)

    def header(i):
        name, _type, _flags, _addr, off, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + i * shentsize)
        return name, off, size

    _, stroff, strsize = header(shstrndx)
    for i in range(shnum):
        name, off, size = header(i)
        end = data.find(b"\0", stroff + name, stroff + strsize)
        if end >= 0 and data[stroff + name:end] == SECTION:
            if off + size > len(data):
                raise BadSchema("%s: %s out of bounds" % (path, SECTION.decode()))
            return data[off:off + size]
    return None


def string_at(blob, base, strings_off, strings_size, off, where):
    if off >= strings_size:
        raise BadSchema("%s: string offset %d outside table of %d bytes"
                        % (where, off, strings_size))
    start = base + strings_off + off
    end = blob.find(b"\0", start, base + strings_off + strings_size)
    if end < 0:
        raise BadSchema("%s: unterminated string at %d" % (where, off))
    return blob[start:end].decode("utf-8", "replace")


def tag_list(tags):
    names = [n for bit, n in TAGS if tags & bit]
    return ",".join(names) if names else "none"


def dump_blobs(path, blob, out):
    pos = 0
    while pos < len(blob):
        if len(blob) - pos >= 8 and blob[pos:pos + 8] == b"\0" * 8:
            pos += 8  # inter-blob padding some linkers insert
            continue
        where = "%s: .vprof.schema+%#x" % (path, pos)
        if len(blob) - pos < HEADER.size:
            raise BadSchema("%s: truncated header" % where)
        (magic, version, header_size, total, count, strings_off, strings_size,
         comp_dir, users_count) = HEADER.unpack_from(blob, pos)
        if magic != MAGIC:
            raise BadSchema("%s: bad magic %#x" % (where, magic))
        want = HEADER.size + (HEADER2.size if version == 2 else 0)
        if version not in VERSIONS or header_size != want:
            raise BadSchema("%s: version %d header_size %d"
                            % (where, version, header_size))
        entry_size, users_off = ENTRY.size, 0
        if version == 2:
            users_off, entry_size, _ = HEADER2.unpack_from(blob, pos + HEADER.size)
            if entry_size != ENTRY.size + ENTRY2.size:
                raise BadSchema("%s: entry_size %d" % (where, entry_size))
            if users_count and (users_off < header_size + count * entry_size
                                or users_off + 4 * users_count > strings_off):
                raise BadSchema("%s: users %d+%d" % (where, users_off, users_count))
        else:
            users_count = 0
        if total % 8 or total > len(blob) - pos:
            raise BadSchema("%s: total_size %d" % (where, total))
        if (strings_off < header_size + count * entry_size
                or strings_off + strings_size > total or strings_size < 1
                or blob[pos + strings_off] != 0):
            raise BadSchema("%s: string table %d+%d" % (where, strings_off,
                                                         strings_size))
        s = lambda off: string_at(blob, pos, strings_off, strings_size, off, where)
        out.write("vprof-schema-blob: entries=%d comp_dir=%s\n" % (count, s(comp_dir)))
        for i in range(count):
            epos = pos + header_size + i * entry_size
            (file_, fn, linkage, name, type_, line, tags, kind, size, pointee,
             arg_no) = ENTRY.unpack_from(blob, epos)
            users_first, nusers, flags = 0, 0, 0
            if version == 2:
                users_first, nusers, flags = ENTRY2.unpack_from(blob, epos + ENTRY.size)
                if users_first + nusers > users_count:
                    raise BadSchema("%s: entry %d users" % (where, i))
            users = ",".join(
                s(struct.unpack_from("<I", blob, pos + users_off + 4 * (users_first + k))[0])
                for k in range(nusers))
            if flags & USE_ONLY:
                out.write("vprof-schema-use: var=%s tags=%s users=%s\n"
                          % (s(name), tag_list(tags), users))
                continue
            text = ('vprof-schema: fn=%s var=%s line=%d tags=%s kind=%s size=%d '
                    'pointee=%d arg=%d type="%s" file=%s'
                    % (s(fn) or "#global", s(name), line, tag_list(tags),
                       KINDS.get(kind, "unknown"), size, pointee, arg_no,
                       s(type_), s(file_)))
            if linkage:
                text += " linkage=" + s(linkage)
            out.write(text + "\n")
            if nusers:
                out.write("vprof-schema-users: var=%s users=%s\n" % (s(name), users))
        pos += total


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: vprof-schema-dump.py FILE...\n")
        return 2
    status = 0
    for path in argv[1:]:
        try:
            blob = section_bytes(path)
            if blob is None:
                sys.stderr.write("%s: no .vprof.schema section\n" % path)
                status = 1
                continue
            dump_blobs(path, blob, sys.stdout)
        except (BadSchema, OSError, struct.error) as e:
            sys.stderr.write("vprof-schema-dump: %s\n" % e)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
