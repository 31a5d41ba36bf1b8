#!/usr/bin/env bash
# seeds.sh BUILD SRC OUT: seed corpora for the fuzz targets, from real
# files: seedprog.c built with vprof-cc, its .vprof.schema / .vprof.loops /
# .vprof.redund sections, two recorded profiles (loop and redundancy probes
# on) and their `vprof rank --format json`.  Composite inputs are a 4-byte
# little-endian length, the section, then the profile part (see the
# targets' comments).
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) out=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vprof-fuzz-seeds.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
rm -rf "$out"; mkdir -p "$out"/{schema,looptable,redund,rankjson,rankmodel}
cd "$tmp"
"$build/bin/vprof-cc" -O1 "$src/tests/fuzz/seedprog.c" -o prog
dump() { llvm-objcopy-14 --dump-section="$1=$2" prog /dev/null 2>/dev/null || objcopy --dump-section "$1=$2" prog "$tmp/junk"; }
dump .vprof.schema schema.bin
dump .vprof.loops loops.bin
dump .vprof.redund redund.bin
for s in schema.bin loops.bin redund.bin; do
    [ -s "$s" ] || { echo "seeds: prog has no ${s%.bin} section"; exit 1; }
done
VPROF_LOOP_FUNCTIONS='*' "$build/bin/vprof" record -F 10000 -o normal.vprof -- ./prog 300 >/dev/null
VPROF_LOOP_FUNCTIONS='*' "$build/bin/vprof" record -F 10000 -o buggy.vprof -- ./prog 1000 >/dev/null
VPROF_RED_ITER_RATE=2 VPROF_LOOP_FUNCTIONS='*' "$build/bin/vprof" record -o small.vprof -- ./prog 100 >/dev/null
"$build/bin/vprof" rank --normal normal.vprof --buggy buggy.vprof --format json -o rank.json
# A payload of one section of a profile (type $2), for the counts seeds.
section() {
    python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(); want = int(sys.argv[2])
off = struct.unpack_from('<I', d, 12)[0]
while off + 16 <= len(d):
    t, f, size = struct.unpack_from('<IIQ', d, off)
    if t == want:
        sys.stdout.buffer.write(d[off + 16:off + 16 + size]); break
    if t == 0: break
    off += 16 + ((size + 7) & ~7)
PY
}
section buggy.vprof 16 > counts.bin
[ -s counts.bin ] || { echo "seeds: the recorded profile has no loop counts"; exit 1; }
lenpfx() { python3 -c 'import os,struct,sys; sys.stdout.buffer.write(struct.pack("<I", os.path.getsize(sys.argv[1])))' "$1"; }

cp schema.bin "$out/schema/prog"
head -c 40 schema.bin > "$out/schema/header-only"
cp loops.bin "$out/looptable/section-only"
{ lenpfx loops.bin; cat loops.bin counts.bin; } > "$out/looptable/section+counts"
cp redund.bin "$out/redund/section-only"
# The redundancy seeds keep only the sections that reader needs (header,
# strings, modules, iteration hashes, instances, end): small inputs fuzz fast.
slim() {
    python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off = struct.unpack_from('<I', d, 12)[0]
out = bytearray(d[:off])
while off + 16 <= len(d):
    t, f, size = struct.unpack_from('<IIQ', d, off)
    n = 16 + ((size + 7) & ~7)
    if t in (0, 1, 2, 17, 18):
        out += d[off:off + n]
    if t == 0: break
    off += n
sys.stdout.buffer.write(out)
PY
}
{ lenpfx redund.bin; cat redund.bin; slim small.vprof; } > "$out/redund/section+small"
cp rank.json "$out/rankjson/rank.json"
printf '{"schema":"vprof-rank/1","functions":[{"name":"f","rank":1e300,"line":-7}]}' \
    > "$out/rankjson/numbers.json"
# rankmodel reads a script, not a file (fuzz_rankmodel.c): a few fixed
# byte strings that build two and three runs with variables and samples
python3 - "$out/rankmodel" <<'PY'
import random, sys
for k in range(4):
    rnd = random.Random(k)
    head = bytes([k, 1, 3, 5, 2, 3]) + bytes(rnd.randrange(256) for _ in range(24))
    body = bytes(rnd.randrange(256) for _ in range(600 * (k + 1)))
    open(f"{sys.argv[1]}/script{k}", "wb").write(head + body)
PY
for d in "$out"/*; do echo "seeds: $(basename "$d"): $(ls "$d" | wc -l) files, $(cat "$d"/* | wc -c) bytes"; done
