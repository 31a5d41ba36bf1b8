# gdb_check.py - run a test program under gdb, stop once at the start of
# every PC range of its index plan (index_plan.c), evaluate each recipe live
# there with an evaluator written here (independent of the runtime's), and
# compare with the value gdb reads for the same variable in the same frame.
#
#   VP_PLAN=plan VP_REQUIRE=fn:var,... gdb -batch -nx -x gdb_check.py --args ./prog
#
# Exit status 0 when nothing mismatched and every VP_REQUIRE variable was
# compared at least once.  gdb reports "<optimized out>" where the index has
# nothing, so those stops are counted as skipped, never as passes.
import os
import gdb

REGS = ['rax', 'rdx', 'rcx', 'rbx', 'rsi', 'rdi', 'rbp', 'rsp',
        'r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15']
M64 = (1 << 64) - 1

main_vaddr = None
recs = []
for line in open(os.environ['VP_PLAN']):
    f = line.split()
    if f[0] == 'main':
        main_vaddr = int(f[1])
    elif f[0] == 'r':
        ops = [tuple(int(x) for x in o.split(':')) for o in f[8:]]
        recs.append(dict(lo=int(f[1]), hi=int(f[2]), fn=f[3], name=f[4], size=int(f[5]),
                         flags=int(f[6]), psize=int(f[7]), ops=ops))
require = [r for r in os.environ.get('VP_REQUIRE', '').split(',') if r]

gdb.execute('set pagination off')
gdb.execute('set confirm off')
gdb.execute('starti', to_string=True)
bias = int(gdb.parse_and_eval('(long)&main')) - main_vaddr
los = sorted(set(r['lo'] for r in recs if r['hi'] > r['lo']))
for lo in los[:2000]:
    gdb.execute('tbreak *0x%x' % (bias + lo), to_string=True)


class Unreadable(Exception):
    pass


def mem(addr, size):
    try:
        b = bytes(gdb.selected_inferior().read_memory(addr & M64, size))
    except gdb.MemoryError:
        raise Unreadable()
    return int.from_bytes(b, 'little')


def sext(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def evaluate(r, frame0):
    st = []
    for code, reg, size, arg in r['ops']:
        if code == 1:
            st.append(int(frame0.read_register(REGS[reg])) & M64)
        elif code == 2:
            st.append((int(frame0.read_register(REGS[reg])) + arg) & M64)
        elif code == 3:
            st.append((int(frame0.older().read_register('rsp')) + arg) & M64)
        elif code == 4:
            st.append((bias + arg) & M64)
        elif code == 5:
            st.append(arg & M64)
        elif code == 6:
            st.append(mem(st.pop(), size))
        elif code in (7, 8, 9, 11, 12, 13, 14, 15, 17, 18):
            b = st.pop()
            a = st.pop()
            if code == 7: v = a + b
            elif code == 8: v = a - b
            elif code == 9: v = a * b
            elif code == 11: v = a & b
            elif code == 12: v = a | b
            elif code == 13: v = a << (b & 63)
            elif code == 14: v = a >> (b & 63)
            elif code == 15: v = sext(a) >> (b & 63)
            elif code == 17:
                if b == 0:
                    raise Unreadable()
                v = int(sext(a) / sext(b))
            else: v = a ^ b
            st.append(v & M64)
        elif code == 10:
            st.append((st.pop() + arg) & M64)
        elif code == 16:
            st.append(-st.pop() & M64)
        elif code == 19:
            st.append(~st.pop() & M64)
        elif code == 20:
            st.append(st[-1])
        elif code == 30:
            return st[-1]
        elif code == 31:
            return mem(st[-1], size)
        else:
            raise Exception('bad op %d' % code)
    raise Exception('recipe without terminator')


def gdb_value(r):
    """gdb's value of the variable in the frame of its function, or None."""
    if r['fn'] == '-':
        try:
            return gdb.parse_and_eval(r['name'])
        except gdb.error:
            return None
    f = gdb.newest_frame()
    while f is not None and f.name() != r['fn']:
        f = f.older()
    if f is None:
        return None
    try:
        return f.read_var(r['name'])
    except (gdb.error, ValueError):
        return None


def as_int(v):
    if v.type.strip_typedefs().code == gdb.TYPE_CODE_PTR:
        return int(v.cast(gdb.lookup_type('long')))
    return int(v)


checked = {}
bad = []
stops = skipped = 0
while True:
    try:
        gdb.execute('continue', to_string=True)
    except gdb.error:
        break
    if not gdb.selected_inferior().threads():
        break
    stops += 1
    frame0 = gdb.newest_frame()
    while frame0.type() == gdb.INLINE_FRAME:
        frame0 = frame0.older()
    pc = int(gdb.parse_and_eval('$pc')) - bias
    for r in recs:
        if not (r['lo'] <= pc < r['hi'] or (r['lo'] == r['hi'] == 0)):
            continue
        key = '%s:%s' % (r['fn'], r['name'])
        v = gdb_value(r)
        try:
            if v is None or v.is_optimized_out:
                skipped += 1
                continue
            want = as_int(v)
        except gdb.error:
            skipped += 1
            continue
        mask = (1 << (8 * r['size'])) - 1
        try:
            got = evaluate(r, frame0)
        except Unreadable:
            bad.append('%s at 0x%x: recipe unreadable, gdb says %d' % (key, pc, want))
            continue
        if (got & mask) != (want & mask):
            bad.append('%s at 0x%x: recipe %d, gdb %d (ops %s)' % (key, pc, got & mask,
                                                                  want & mask, r['ops']))
            continue
        if r['flags'] & 1:  # VP_RECIPE_DEREF_BASIC: the pointee too
            try:
                pv = int(v.dereference())
                pg = mem(got, r['psize'])
                pm = (1 << (8 * r['psize'])) - 1
                if (pv & pm) != (pg & pm):
                    bad.append('%s at 0x%x: pointee %d, gdb %d' % (key, pc, pg, pv))
                    continue
            except (gdb.error, gdb.MemoryError, Unreadable):
                pass  # a pointer not yet set up: nothing to compare
        checked[key] = checked.get(key, 0) + 1

print('gdb_check: %d stops, %d comparisons, %d skipped (gdb: optimized out)'
      % (stops, sum(checked.values()), skipped))
for k in sorted(checked):
    print('  compared %-20s %d' % (k, checked[k]))
for b in bad:
    print('MISMATCH ' + b)
missing = [k for k in require if k not in checked]
for k in missing:
    print('NEVER COMPARED ' + k)
gdb.execute('quit %d' % (1 if bad or missing or stops == 0 else 0))
