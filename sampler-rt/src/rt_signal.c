/*
 * rt_signal.c - the SIGPROF signal path of libvprof-rt.so.
 *
 * Everything in this file runs inside a signal handler, interrupting the
 * target at an arbitrary instruction.  The rules (docs/runtime.md):
 *   - only async-signal-safe calls: clock_gettime, process_vm_readv, write,
 *     read, syscall(gettid), raise, sigaction/pthread_sigmask, and the
 *     runtime's own stack stepper over tables recorded at start-up
 *     (rt_unwind.c);
 *   - no allocation, no locks, no stdio; buffers were mmap'd at start-up and
 *     slots are reserved with one atomic fetch_add each;
 *   - a read from a target address is a plain load only where the address is
 *     proven mapped for the whole sample (vp_rt_direct_ok: a readable segment
 *     of a pinned start-up module, or the interrupted thread's own stack
 *     between its rsp minus the red zone and its top); anything else (heap,
 *     pointees, other threads' stacks) goes through process_vm_readv or the
 *     pipe, which report "unreadable" instead of faulting;
 *   - errno is saved and restored; a nested entry on the same thread is
 *     counted (vp_loss.reentrant) and dropped;
 *   - per-thread state is initial-exec TLS, first touched outside the handler
 *     (pthread_create wrapper, init) so no __tls_get_addr / malloc here.
 * The index (rt_index.c) was validated at start-up, so offsets read from it
 * here are trusted to be in bounds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt_internal.h"

VP_RT_TLS int vp_rt_tls_slot = -1;
VP_RT_TLS int vp_rt_tls_in_handler;
VP_RT_TLS uint32_t vp_rt_tls_tid;
VP_RT_TLS uint64_t vp_rt_tls_stack_lo, vp_rt_tls_stack_hi;
VP_RT_TLS uint64_t vp_rt_tls_direct_lo;

/* Registers of one frame in DWARF x86-64 numbering (0..16, 16 = rip). */
struct vp_rt_frame {
    uint64_t regs[17];
    uint32_t valid;   /* bit i set: regs[i] is meaningful in this frame */
    uint64_t pc;      /* PC used for the lookup (caller frames: return addr) */
    uint64_t cfa;
    int cfa_ok;
};

/* Signal path: CLOCK_* time in nanoseconds (vDSO, async-signal-safe). */
uint64_t vp_rt_now_ns(int clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Signal path: may the `size` bytes at `addr` (addr + size does not
   overflow) be read with plain loads?  Yes inside the interrupted thread's
   own stack above rsp minus the red zone (vp_rt_tls_direct_lo, set per
   sample by vp_rt_direct_stack), or inside one readable PT_LOAD range of a
   pinned start-up module (vp_rt.direct, sorted and disjoint). */
static int vp_rt_direct_ok(uint64_t addr, uint32_t size)
{
    uint64_t end = addr + size;
    if (vp_rt_tls_direct_lo && addr >= vp_rt_tls_direct_lo && end <= vp_rt_tls_stack_hi)
        return 1;
    uint32_t lo = 0, hi = vp_rt.direct_count;
    while (lo < hi) { /* the last range starting at or below addr */
        uint32_t mid = lo + (hi - lo) / 2;
        if (vp_rt.direct[mid].lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && end <= vp_rt.direct[lo - 1].hi;
}

/* Signal path: copy `size` (<= 64) bytes at a vp_rt_direct_ok address with
   plain loads.  Not instrumented: the target's memory is not ours to check. */
__attribute__((no_sanitize("address", "undefined"))) static void
vp_rt_direct_read(void *dst, uint64_t addr, uint32_t size)
{
    const volatile uint8_t *src = (const volatile uint8_t *)(uintptr_t)addr;
    uint8_t *d = dst;
    switch (size) {
    case 8: { uint64_t v; __builtin_memcpy(&v, (const void *)src, 8); __builtin_memcpy(d, &v, 8); return; }
    case 4: { uint32_t v; __builtin_memcpy(&v, (const void *)src, 4); __builtin_memcpy(d, &v, 4); return; }
    case 2: { uint16_t v; __builtin_memcpy(&v, (const void *)src, 2); __builtin_memcpy(d, &v, 2); return; }
    default:
        for (uint32_t i = 0; i < size; i++)
            d[i] = src[i];
    }
}

/* Signal path: sets vp_rt_tls_direct_lo for the sample of interrupted `rsp`:
   the thread's stack is mapped from rsp - 128 (red zone) to its top if rsp
   lies in the stack recorded at thread start and this handler runs on that
   same stack below the red zone (the kernel wrote the signal frame there,
   so the pages between are mapped).  On a sigaltstack, a coroutine or an
   unknown thread: 0, stack reads use the syscall. */
static void vp_rt_direct_stack(uint64_t rsp)
{
    uint64_t here = (uint64_t)(uintptr_t)__builtin_frame_address(0);
    uint64_t lo = vp_rt_tls_stack_lo, hi = vp_rt_tls_stack_hi;
    vp_rt_tls_direct_lo = 0;
    if (vp_rt.no_direct || !hi || rsp < lo + VP_RT_RED_ZONE || rsp >= hi)
        return;
    if (here >= lo && here < rsp - VP_RT_RED_ZONE)
        vp_rt_tls_direct_lo = rsp - VP_RT_RED_ZONE;
}

/* Signal path: copy `size` bytes from target address `addr`; returns 0, or -1
   if any byte is unreadable.  Never faults. */
int vp_rt_safe_read(uint64_t addr, void *dst, uint32_t size)
{
    if (size == 0 || size > 64 || addr == 0 || addr > UINT64_MAX - 64)
        return -1;
    if (vp_rt_direct_ok(addr, size)) {
        vp_rt_direct_read(dst, addr, size);
        if (vp_rt.debug)
            atomic_fetch_add_explicit(&vp_rt.reads_direct, 1, memory_order_relaxed);
        return 0;
    }
    if (vp_rt.debug)
        atomic_fetch_add_explicit(&vp_rt.reads_syscall, 1, memory_order_relaxed);
    if (vp_rt.read_mode == VP_RT_READ_VM) {
        struct iovec local = {dst, size};
        struct iovec remote = {(void *)(uintptr_t)addr, size};
        ssize_t n = syscall(SYS_process_vm_readv, vp_rt.pid, &local, 1UL, &remote, 1UL, 0UL);
        return n == (ssize_t)size ? 0 : -1;
    }
    /* Pipe fallback: the kernel copies from `addr` (EFAULT if bad) into the
       pipe; one reader at a time, a busy pipe means "unreadable" (no waiting). */
    if (atomic_exchange_explicit(&vp_rt.pipe_busy, 1, memory_order_acquire))
        return -1;
    int rc = -1;
    if (vp_rt_pipe_ours(vp_rt.pipe_fds[1]) && vp_rt_pipe_ours(vp_rt.pipe_fds[0]) &&
        write(vp_rt.pipe_fds[1], (const void *)(uintptr_t)addr, size) == (ssize_t)size)
        rc = read(vp_rt.pipe_fds[0], dst, size) == (ssize_t)size ? 0 : -1;
    atomic_store_explicit(&vp_rt.pipe_busy, 0, memory_order_release);
    return rc;
}

/* Signal path: little-endian `size`-byte read, zero-extended. */
static int vp_rt_read_uint(uint64_t addr, uint32_t size, uint64_t *out)
{
    uint64_t v = 0;
    if (size == 0 || size > 8)
        size = 8;
    if (vp_rt_safe_read(addr, &v, size) != 0)
        return -1;
    *out = v;
    return 0;
}

/* One pending read of a batch: `size` (1..8) bytes at `addr`, zero-extended
   into `out`; `ok` says whether it could be read. */
struct vp_rt_read {
    uint64_t addr;
    uint64_t out;
    uint32_t size;
    uint32_t ok;
};

#define VP_RT_BATCH 64      /* reads per batch                             */
#define VP_RT_SPAN 256      /* reads closer than this share one transfer   */
#define VP_RT_SCRATCH 2048  /* bytes for the shared transfers              */

/* The handler's buffers (~9 KiB: value reads, unwinding), per thread
   rather than on the stack the signal interrupted: a target's small
   sigaltstack or coroutine stack must hold the kernel's signal frame
   (~3.4 KiB with AVX-512 state) and the handler.  They are the thread table
   row's slice of vp_rt.scratch (not TLS: that much initial-exec TLS makes
   the library impossible to dlopen); a thread past the table borrows the shared last slice, or reads
   no values when another thread has it.  Only the outermost handler entry
   of a thread uses them (a nested one is dropped), one range at a time. */
struct vp_rt_scratch {
    /* vp_rt_sample_range */
    const struct vp_recipe *rs[VP_RT_BATCH];
    uint64_t val[VP_RT_BATCH];
    struct vp_rt_read rd[VP_RT_BATCH];
    uint8_t status[VP_RT_BATCH];
    uint8_t rd_of[VP_RT_BATCH];
    /* vp_rt_read_batch */
    uint8_t ord[VP_RT_BATCH];
    uint8_t bytes[VP_RT_SCRATCH];
    struct iovec loc[VP_RT_BATCH], rem[VP_RT_BATCH];
    uint32_t first[VP_RT_BATCH + 1];
    /* vp_rt_unwind_step */
    _Alignas(16) uint8_t unwind[VP_RT_UNWIND_WORK];
};
_Static_assert(sizeof(struct vp_rt_scratch) <= VP_RT_SCRATCH_SLOT, "VP_RT_SCRATCH_SLOT");

/* Signal path: performs the `n` (<= VP_RT_BATCH) reads of `rd` with as few
   process_vm_readv calls and iovec elements as possible.  The kernel pins
   the remote pages of every element, so reads lying close together (a
   module's globals) are merged into one element spanning them, read into a
   scratch buffer and copied out.  The kernel never splits an element: after
   a short transfer the elements fully transferred are good, the next one
   failed (its reads are retried one by one: a span may cover an unmapped
   gap) and the rest are tried again.  The pipe reader goes one by one. */
static void vp_rt_read_batch(struct vp_rt_scratch *sc, struct vp_rt_read *rd, uint32_t n)
{
    uint8_t *ord = sc->ord;
    uint32_t m = 0, direct = 0;
    for (uint32_t i = 0; i < n; i++) {
        rd[i].out = 0;
        rd[i].ok = 0;
        if (rd[i].size == 0 || rd[i].size > 8)
            rd[i].size = 8;
        if (rd[i].addr == 0 || rd[i].addr > UINT64_MAX - 8)
            continue; /* never readable */
        if (vp_rt_direct_ok(rd[i].addr, rd[i].size)) {
            vp_rt_direct_read(&rd[i].out, rd[i].addr, rd[i].size);
            rd[i].ok = 1;
            direct++;
            continue;
        }
        if (vp_rt.read_mode != VP_RT_READ_VM) {
            rd[i].ok = vp_rt_safe_read(rd[i].addr, &rd[i].out, rd[i].size) == 0;
            continue;
        }
        uint32_t j = m++; /* insertion sort by address */
        while (j > 0 && rd[ord[j - 1]].addr > rd[i].addr) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = (uint8_t)i;
    }
    if (vp_rt.debug) {
        atomic_fetch_add_explicit(&vp_rt.reads_direct, direct, memory_order_relaxed);
        atomic_fetch_add_explicit(&vp_rt.reads_syscall, m, memory_order_relaxed);
    }
    uint32_t i = 0;
    while (i < m) {
        uint8_t *scratch = sc->bytes;
        struct iovec *loc = sc->loc, *rem = sc->rem;
        uint32_t *first = sc->first, g = 0, used = 0, j = i;
        while (j < m) { /* group ord[j..] into spans */
            uint64_t lo = rd[ord[j]].addr, hi = lo + rd[ord[j]].size;
            uint32_t e = j + 1;
            while (e < m && rd[ord[e]].addr + rd[ord[e]].size - lo <= VP_RT_SPAN) {
                if (rd[ord[e]].addr + rd[ord[e]].size > hi)
                    hi = rd[ord[e]].addr + rd[ord[e]].size;
                e++;
            }
            if (used + (hi - lo) > VP_RT_SCRATCH)
                break;
            first[g] = j;
            loc[g].iov_base = scratch + used;
            loc[g].iov_len = hi - lo;
            rem[g].iov_base = (void *)(uintptr_t)lo;
            rem[g].iov_len = hi - lo;
            used += (uint32_t)(hi - lo);
            g++;
            j = e;
        }
        first[g] = j;
        ssize_t got = syscall(SYS_process_vm_readv, vp_rt.pid, loc, (unsigned long)g, rem,
                              (unsigned long)g, 0UL);
        uint64_t left = got > 0 ? (uint64_t)got : 0;
        uint32_t k = 0;
        for (; k < g && left >= loc[k].iov_len; k++) {
            left -= loc[k].iov_len;
            for (uint32_t e = first[k]; e < first[k + 1]; e++) {
                struct vp_rt_read *r = &rd[ord[e]];
                memcpy(&r->out, (uint8_t *)loc[k].iov_base + (r->addr - (uint64_t)(uintptr_t)rem[k].iov_base),
                       r->size);
                r->ok = 1;
            }
        }
        if (k < g) /* this span failed somewhere: its reads one by one */
            for (uint32_t e = first[k]; e < first[k + 1]; e++) {
                struct vp_rt_read *r = &rd[ord[e]];
                r->ok = vp_rt_safe_read(r->addr, &r->out, r->size) == 0;
                if (!r->ok)
                    r->out = 0;
            }
        i = k < g ? first[k + 1] : first[g];
    }
}

/* Signal path: evaluate one recipe in `fr`; returns 0 with *out set, or -1
   (unreadable / unavailable in this frame).  With `addr_only`, a recipe
   that ends in a memory read (VP_OP_MEMORY) is not read: *out is the
   address and *is_addr is set, so the caller can batch the reads. */
static int vp_rt_eval(const struct vp_recipe *r, const struct vp_rt_frame *fr, uint64_t bias,
                      uint64_t *out, int *is_addr)
{
    uint64_t st[VP_RECIPE_STACK];
    int sp = 0;
    int memory = 0;
    const struct vp_op *op = vp_rt.index.ops + r->first_op;
    for (uint32_t i = 0; i < r->op_count && i < VP_RECIPE_MAX_OPS; i++, op++) {
        uint64_t a, b;
        switch (op->code) {
        case VP_OP_END:
            goto done;
        case VP_OP_REG:
        case VP_OP_BREG:
            if (op->reg > 16 || !(fr->valid & (1u << op->reg)) || sp >= VP_RECIPE_STACK)
                return -1;
            st[sp++] = fr->regs[op->reg] + (op->code == VP_OP_BREG ? (uint64_t)op->arg : 0);
            break;
        case VP_OP_CFA:
            if (!fr->cfa_ok || sp >= VP_RECIPE_STACK)
                return -1;
            st[sp++] = fr->cfa + (uint64_t)op->arg;
            break;
        case VP_OP_ADDR:
            if (sp >= VP_RECIPE_STACK)
                return -1;
            st[sp++] = bias + (uint64_t)op->arg;
            break;
        case VP_OP_CONST:
            if (sp >= VP_RECIPE_STACK)
                return -1;
            st[sp++] = (uint64_t)op->arg;
            break;
        case VP_OP_DUP:
            if (sp < 1 || sp >= VP_RECIPE_STACK)
                return -1;
            st[sp] = st[sp - 1];
            sp++;
            break;
        case VP_OP_DEREF:
            if (sp < 1 || vp_rt_read_uint(st[sp - 1], op->size, &st[sp - 1]) != 0)
                return -1;
            break;
        case VP_OP_PLUS_CONST:
            if (sp < 1)
                return -1;
            st[sp - 1] += (uint64_t)op->arg;
            break;
        case VP_OP_NEG:
            if (sp < 1)
                return -1;
            st[sp - 1] = -st[sp - 1];
            break;
        case VP_OP_NOT:
            if (sp < 1)
                return -1;
            st[sp - 1] = ~st[sp - 1];
            break;
        case VP_OP_PLUS: case VP_OP_MINUS: case VP_OP_MUL: case VP_OP_AND:
        case VP_OP_OR: case VP_OP_SHL: case VP_OP_SHR: case VP_OP_SHRA:
        case VP_OP_DIV: case VP_OP_XOR:
            if (sp < 2)
                return -1;
            b = st[--sp];
            a = st[sp - 1];
            switch (op->code) {
            case VP_OP_PLUS: a += b; break;
            case VP_OP_MINUS: a -= b; break;
            case VP_OP_MUL: a *= b; break;
            case VP_OP_AND: a &= b; break;
            case VP_OP_OR: a |= b; break;
            case VP_OP_XOR: a ^= b; break;
            case VP_OP_SHL: a = b >= 64 ? 0 : a << b; break;
            case VP_OP_SHR: a = b >= 64 ? 0 : a >> b; break;
            case VP_OP_SHRA: a = (uint64_t)((int64_t)a >> (b >= 64 ? 63 : b)); break;
            case VP_OP_DIV:
                if (b == 0 || ((int64_t)b == -1 && (int64_t)a == INT64_MIN))
                    return -1;
                a = (uint64_t)((int64_t)a / (int64_t)b);
                break;
            }
            st[sp - 1] = a;
            break;
        case VP_OP_VALUE:
            goto done;
        case VP_OP_MEMORY:
            memory = 1;
            goto done;
        default: /* VP_OP_TLS and unknown codes: unavailable */
            return -1;
        }
    }
done:
    if (sp < 1)
        return -1;
    *is_addr = memory;
    *out = st[sp - 1];
    return 0;
}

/* Signal path: truncate `v` to `size` bytes, sign-extending signed kinds. */
static uint64_t vp_rt_extend(uint64_t v, uint32_t size, uint32_t var_id)
{
    if (size == 0 || size >= 8)
        return v;
    unsigned bits = size * 8;
    v &= (1ull << bits) - 1;
    if (var_id < vp_rt.index.var_count && vp_rt.index.var_kind[var_id] == VP_TYPE_SINT &&
        (v >> (bits - 1)) & 1)
        v |= ~0ull << bits;
    return v;
}

/* Per sample: the PC slot and, per depth, the frame entry its values refer
   to (0 = none reserved yet). */
struct vp_rt_sample_ctx {
    struct vp_rt_scratch *sc;
    uint32_t slot;
    uint32_t frame_ref[VP_RT_MAX_DEPTH + 1];
};

/* Signal path: store the `n` value samples of one chunk (recipes `rs`,
   values `val`, statuses `status`) read at `depth` of the sample `cx`: one
   reservation for all of them (and one frame entry per frame), then each
   record committed by the release store of its ref; what does not fit is
   dropped and counted.  The counters are updated once per chunk. */
static void vp_rt_put_values(struct vp_rt_sample_ctx *cx, unsigned depth, uint32_t n,
                             const struct vp_recipe *const *rs, const uint64_t *val,
                             const uint8_t *status)
{
    if (n == 0)
        return;
    if (cx->frame_ref[depth] == 0) {
        uint64_t f = atomic_fetch_add_explicit(&vp_rt.vframe_next, 1, memory_order_relaxed);
        if (f >= vp_rt.max_vframes) {
            atomic_fetch_add_explicit(&vp_rt.values_dropped, n, memory_order_relaxed);
            return;
        }
        vp_rt.vframes[f].slot = cx->slot;
        vp_rt.vframes[f].depth = depth;
        cx->frame_ref[depth] = (uint32_t)f + 1;
    }
    uint32_t ref = cx->frame_ref[depth];
    uint64_t i = atomic_fetch_add_explicit(&vp_rt.val_next, n, memory_order_relaxed);
    uint64_t room = i >= vp_rt.max_values ? 0 : vp_rt.max_values - i;
    uint32_t fit = room < n ? (uint32_t)room : n;
    if (fit < n)
        atomic_fetch_add_explicit(&vp_rt.values_dropped, n - fit, memory_order_relaxed);
    uint32_t bad = 0;
    for (uint32_t k = 0; k < fit; k++) {
        struct vp_rt_value *v = &vp_rt.val_buf[i + k];
        v->value = val[k];
        v->var_id = rs[k]->var_id;
        __atomic_store_n(&v->ref, ref | (uint32_t)status[k] << VP_RT_REF_STATUS_SHIFT,
                         __ATOMIC_RELEASE); /* commit */
        bad += status[k] != VP_VAL_OK;
    }
    if (fit)
        atomic_fetch_add_explicit(&vp_rt.value_samples, fit, memory_order_relaxed);
    if (bad)
        atomic_fetch_add_explicit(&vp_rt.values_unreadable, bad, memory_order_relaxed);
}

/* Signal path: evaluate and store the recipes of one index range, in
   chunks of VP_RT_BATCH: evaluate every recipe up to its final memory read,
   do those reads in one batch, then the pointee reads in a second batch.
   (An always-live globals range is mostly final reads: ~160 globals cost
   one process_vm_readv instead of 160.) */
static void vp_rt_sample_range(const struct vp_index_range *rg, const struct vp_rt_frame *fr,
                               uint64_t bias, unsigned depth, struct vp_rt_sample_ctx *cx)
{
    const struct vp_rt_index *ix = &vp_rt.index;
    uint32_t k = 0;
    while (k < rg->recipe_count) {
        struct vp_rt_scratch *sc = cx->sc;
        const struct vp_recipe **rs = sc->rs;
        uint64_t *val = sc->val;
        uint8_t *status = sc->status;
        struct vp_rt_read *rd = sc->rd;
        uint8_t *rd_of = sc->rd_of;
        uint32_t n = 0, nr = 0;
        for (; k < rg->recipe_count && n < VP_RT_BATCH; k++) {
            const struct vp_recipe *r = &ix->recipes[ix->refs[rg->first_recipe + k]];
            if (depth > 0 && !(r->flags & VP_RECIPE_CALLER_OK))
                continue;
            int is_addr = 0;
            rs[n] = r;
            status[n] = VP_VAL_OK;
            if (vp_rt_eval(r, fr, bias, &val[n], &is_addr) != 0) {
                status[n] = VP_VAL_UNREADABLE;
                val[n] = 0;
            } else if (is_addr) {
                rd[nr] = (struct vp_rt_read){.addr = val[n], .size = r->size};
                rd_of[nr++] = (uint8_t)n;
            }
            n++;
        }
        vp_rt_read_batch(sc, rd, nr);
        for (uint32_t i = 0; i < nr; i++) {
            val[rd_of[i]] = rd[i].out;
            if (!rd[i].ok)
                status[rd_of[i]] = VP_VAL_UNREADABLE;
        }
        nr = 0; /* second batch: pointees of pointer-to-basic variables */
        for (uint32_t i = 0; i < n; i++)
            if (status[i] == VP_VAL_OK && (rs[i]->flags & VP_RECIPE_DEREF_BASIC)) {
                rd[nr] = (struct vp_rt_read){.addr = val[i], .size = rs[i]->pointee_size};
                rd_of[nr++] = (uint8_t)i;
            }
        vp_rt_read_batch(sc, rd, nr);
        for (uint32_t i = 0; i < nr; i++) {
            if (rd[i].ok)
                val[rd_of[i]] = rd[i].out;
            else
                status[rd_of[i]] = VP_VAL_POINTEE_UNREADABLE; /* value keeps the pointer */
        }
        for (uint32_t i = 0; i < n; i++)
            if (status[i] == VP_VAL_OK && !(rs[i]->flags & VP_RECIPE_DEREF_BASIC))
                val[i] = vp_rt_extend(val[i], rs[i]->size, rs[i]->var_id);
        vp_rt_put_values(cx, depth, n, rs, val, status);
    }
}

/* Signal path: the index range containing absolute `pc`, or NULL; *own
   (when given) says whether `pc` is in a module of the PC index at all (the
   program's own code, built with vprof-cc) rather than in a library. */
static const struct vp_index_range *vp_rt_lookup(uint64_t pc, uint64_t *bias, int *own)
{
    const struct vp_rt_index *ix = &vp_rt.index;
    if (own)
        *own = 0;
    for (uint32_t m = 0; m < ix->imod_count; m++) {
        const struct vp_rt_imod *im = &ix->imods[m];
        if (pc < im->lo || pc >= im->hi)
            continue;
        if (own)
            *own = 1;
        uint64_t rel = pc - im->bias;
        uint32_t lo = 0, hi = im->range_count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            const struct vp_index_range *rg = &im->ranges[mid];
            if (rel < rg->lo)
                hi = mid;
            else if (rel >= rg->hi)
                lo = mid + 1;
            else {
                *bias = im->bias;
                return rg;
            }
        }
        return NULL;
    }
    return NULL;
}

/* Signal path: the start-up summary of `rg` (rt_index.c), or NULL. */
static const struct vp_rt_range_info *vp_rt_info(const struct vp_index_range *rg)
{
    const struct vp_rt_index *ix = &vp_rt.index;
    return ix->range_info ? &ix->range_info[rg - ix->ranges] : NULL;
}

/* Signal path: does any recipe valid at `depth` in `rg` need the CFA? */
static int vp_rt_range_needs_cfa(const struct vp_index_range *rg, unsigned depth)
{
    const struct vp_rt_index *ix = &vp_rt.index;
    const struct vp_rt_range_info *info = vp_rt_info(rg);
    if (info)
        return depth == 0 ? info->cfa0 : info->cfa_caller;
    for (uint32_t k = 0; k < rg->recipe_count; k++) {
        const struct vp_recipe *r = &ix->recipes[ix->refs[rg->first_recipe + k]];
        if ((r->flags & VP_RECIPE_NEEDS_CFA) && (depth == 0 || (r->flags & VP_RECIPE_CALLER_OK)))
            return 1;
    }
    return 0;
}

/* Signal path: registers of the interrupted frame from its ucontext. */
static void vp_rt_frame0(struct vp_rt_frame *fr, const ucontext_t *uc)
{
    static const int map[17] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                                REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    for (int i = 0; i < 17; i++)
        fr->regs[i] = (uint64_t)uc->uc_mcontext.gregs[map[i]];
    fr->valid = 0x1ffff;
    fr->pc = fr->regs[16];
    fr->cfa_ok = 0;
}

/* Signal path: the thread table row of the calling thread (registering an
   unknown thread lock-free), or -1 when the table is full. */
static int vp_rt_slot(uint32_t tid)
{
    int s = vp_rt_tls_slot;
    if (s >= 0)
        return s;
    uint32_t i = atomic_fetch_add_explicit(&vp_rt.thread_next, 1, memory_order_relaxed);
    if (i >= vp_rt.max_threads)
        return -1;
    atomic_store_explicit(&vp_rt.threads[i].tid, tid, memory_order_release);
    vp_rt_tls_slot = (int)i;
    return (int)i;
}

/* Signal path: take one PC sample (+ values, + callers) of `uc`, standing
   for `overrun` extra sampling periods (saturated into the flags). */
static void vp_rt_record(ucontext_t *uc, uint64_t overrun)
{
    uint32_t tid = vp_rt_tls_tid;
    if (tid == 0) {
        tid = (uint32_t)syscall(SYS_gettid);
        vp_rt_tls_tid = tid;
    }
    uint64_t i = atomic_fetch_add_explicit(&vp_rt.pc_next, 1, memory_order_relaxed);
    if (i >= vp_rt.max_samples) {
        atomic_fetch_add_explicit(&vp_rt.pc_dropped, 1, memory_order_relaxed);
        return;
    }
    struct vp_pc_sample *rec = (struct vp_pc_sample *)(vp_rt.pc_buf + i * vp_rt.pc_slot_size);
    uint64_t *callers = (uint64_t *)(rec + 1);
    uint64_t seq = atomic_fetch_add_explicit(&vp_rt.seq, 1, memory_order_relaxed);
    struct vp_rt_sample_ctx cx;
    cx.slot = (uint32_t)i; /* i < max_samples <= 2^32 */
    memset(cx.frame_ref, 0, sizeof cx.frame_ref);
    struct vp_rt_frame fr;
    vp_rt_frame0(&fr, uc);
    vp_rt_direct_stack(fr.regs[7]);
    rec->seq = seq;
    rec->time_ns = vp_rt_now_ns(CLOCK_MONOTONIC);
    rec->pc = fr.pc;
    rec->flags = (uint16_t)((overrun > VP_PCF_OVERRUN_MAX ? VP_PCF_OVERRUN_MAX : overrun)
                            << VP_PCF_OVERRUN_SHIFT);

    int slot = vp_rt_slot(tid), shared = 0;
    cx.sc = NULL;
    if (slot >= 0) {
        cx.sc = (struct vp_rt_scratch *)(vp_rt.scratch + (size_t)slot * VP_RT_SCRATCH_SLOT);
    } else if (!atomic_exchange_explicit(&vp_rt.scratch_busy, 1, memory_order_acquire)) {
        shared = 1;
        cx.sc = (struct vp_rt_scratch *)(vp_rt.scratch + (size_t)vp_rt.max_threads * VP_RT_SCRATCH_SLOT);
    }
    int use_index = vp_rt.have_index && !vp_rt.no_values && cx.sc;
    /* Always-live globals: once per sample, in the interrupted frame. */
    if (use_index)
        for (uint32_t m = 0; m < vp_rt.index.imod_count; m++)
            if (vp_rt.index.imods[m].globals)
                vp_rt_sample_range(vp_rt.index.imods[m].globals, &fr, vp_rt.index.imods[m].bias,
                                   0, &cx);

    unsigned got = 0; /* callers recorded */
    /* callers in the program's own code so far: --depth bounds these, not
       the library frames between them (a sample in write(2) under fputs is
       six frames below the loop that called fputs; docs/runtime.md,
       "Library frames") */
    unsigned own = 0;
    int exact = 1;    /* the interrupted PC is exact; a caller's is a return address */
    uint64_t bias = 0;
    const struct vp_index_range *rg = use_index ? vp_rt_lookup(fr.pc, &bias, NULL) : NULL;
    for (unsigned d = 0;; d++) {
        uint64_t next_bias = 0;
        const struct vp_index_range *next_rg = NULL;
        int want_step = d < vp_rt.stack_depth || (rg && vp_rt_range_needs_cfa(rg, d));
        struct vp_rt_frame next;
        int stepped = 0;
        if (want_step) {
            int next_exact = exact;
            uint64_t cfa = 0;
            int s = cx.sc ? vp_rt_unwind_step(fr.regs, fr.valid, &next_exact, next.regs,
                                              &next.valid, &cfa, cx.sc->unwind)
                          : -1;
            if (s > 0) {
                stepped = 1;
                fr.cfa = cfa;
                fr.cfa_ok = 1;
                next.pc = next.regs[16];
                next.cfa_ok = 0;
                exact = next_exact;
                if (use_index && own < vp_rt.depth) {
                    int in_program;
                    next_rg = vp_rt_lookup(exact ? next.pc : next.pc - 1, &next_bias, &in_program);
                    own += (unsigned)in_program;
                }
            } else if (s < 0) {
                /* no table (code dlopened later, JIT), a malformed one, or an
                   unreadable saved register */
                rec->flags |= VP_PCF_UNWIND_FAILED;
                atomic_fetch_add_explicit(&vp_rt.unwind_errors, 1, memory_order_relaxed);
            }
        }
        if (rg && (d == 0 || !vp_rt_info(rg) || vp_rt_info(rg)->caller_count))
            vp_rt_sample_range(rg, &fr, bias, d, &cx);
        if (!stepped || d >= vp_rt.stack_depth)
            break;
        callers[got++] = next.pc;
        fr = next;
        rg = next_rg;
        bias = next_bias;
    }
    rec->depth = (uint16_t)got;
    if (shared)
        atomic_store_explicit(&vp_rt.scratch_busy, 0, memory_order_release);
    if (slot >= 0)
        atomic_fetch_add_explicit(&vp_rt.threads[slot].pc_samples, 1, memory_order_relaxed);
    __atomic_store_n(&rec->tid, tid, __ATOMIC_RELEASE); /* commit */
    atomic_fetch_add_explicit(&vp_rt.pc_samples, 1, memory_order_relaxed);
}

#ifndef TRAP_PERF
#define TRAP_PERF 6 /* Linux 5.13; glibc 2.36 does not name it */
#endif

/* Signal path: si_perf_data of a TRAP_PERF siginfo (glibc 2.36 has no
   accessor): the kernel's _sigfault._perf._data, the word after si_addr. */
static uint64_t vp_rt_perf_data(const siginfo_t *si)
{
    _Static_assert(sizeof(void *) == 8, "64-bit siginfo layout");
    uint64_t v;
    memcpy(&v, (const char *)&si->si_addr + sizeof(void *), sizeof v);
    return v;
}

/* Signal path: was this SIGPROF or SIGTRAP sent by one of our timers?  A
   perf event in sigtrap mode sends SIGTRAP with si_code TRAP_PERF and our
   sig_data; in fasync mode SIGPROF (si_code POLL_IN from the ring,
   POLL_HUP when a REFRESH limit was reached) naming its fd, which must be
   this thread's event (or the one it just closed); a POSIX timer carries
   our cookie.  In perf mode a thread may have fallen back to a POSIX
   timer. */
static int vp_rt_is_ours(int sig, const siginfo_t *si)
{
    if (sig == SIGTRAP)
        return si->si_code == TRAP_PERF && vp_rt_perf_data(si) == VP_RT_SIGTRAP_DATA;
    switch (vp_rt.timer_mode) {
    case VP_RT_TIMER_PERF:
        if (si->si_code == POLL_IN || si->si_code == POLL_HUP)
            return si->si_fd >= 0 &&
                   (si->si_fd == vp_rt_tls_perf_fd || si->si_fd == vp_rt_tls_perf_retired);
        /* fall through */
    case VP_RT_TIMER_THREAD:
        return si->si_code == SI_TIMER && si->si_value.sival_int == VP_RT_TIMER_COOKIE;
    default:
        return si->si_code == SI_KERNEL;
    }
}

VP_RT_TLS uint64_t vp_rt_tls_jitter_state;
static VP_RT_TLS uint32_t vp_rt_tls_jitter_count;
#define VP_RT_JITTER_EVERY 4

/* Signal path: at every VP_RT_JITTER_EVERY-th sample of the calling
   thread, draws its next perf period, uniform in [P/2, 3P/2) for the
   nominal period P, and gives it to its event `fd` (docs/runtime.md,
   "Jittered periods").  A fixed period samples a program
   that repeats itself with a period near a multiple of P at the same phase
   every time: the samples of a loop counter then bunch at a few values.
   PERF_EVENT_IOC_PERIOD restarts the event's hrtimer with the new period
   (the overflow that signalled is consumed).  The generator is splitmix64
   on a per-thread state seeded from the thread id and the clock.  With
   `check` (fasync), the fd must still name our event first: a ring mapping
   keeps the event, and its signals naming the old number, alive after the
   target closed the fd, and the number may now be one of the target's. */
static void vp_rt_timer_jitter(int fd, int check)
{
    uint64_t id = 0;
    /* not at every sample: the ioctl costs ~4 us here; a draw moves the
       phase by up to 4 P, so no phase lasts all the same */
    if (!vp_rt.jitter || fd < 0 || vp_rt_tls_jitter_count++ % VP_RT_JITTER_EVERY != 0 ||
        (check && (ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0 || id != vp_rt_tls_perf_id)))
        return;
    uint64_t p = vp_rt.period_ns;
    if (p < 2)
        return;
    uint64_t z = vp_rt_tls_jitter_state;
    if (z == 0)
        z = ((uint64_t)vp_rt_tls_tid << 32) ^ vp_rt_now_ns(CLOCK_MONOTONIC) ^ 0x6a09e667f3bcc909ull;
    z += 0x9e3779b97f4a7c15ull;
    vp_rt_tls_jitter_state = z ? z : 1;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    uint64_t next = p / 2 + z % p;
    ioctl(fd, PERF_EVENT_IOC_PERIOD, &next);
}

/* Signal path: re-arms a refresh-mode perf event, draws the next period of
   a perf event, and returns how many extra sampling periods elapsed since
   the previous sample of this thread. */
static uint64_t vp_rt_timer_overrun(int sig, const siginfo_t *si)
{
    if (sig == SIGTRAP) { /* TRAP_PERF is 6 = POLL_HUP: not a fasync siginfo */
        vp_rt_timer_jitter(vp_rt_tls_perf_fd, 0); /* closing it ends the event */
        return 0; /* one signal per overflow; none coalesce here */
    }
    if (si->si_code == SI_TIMER)
        return si->si_overrun > 0 ? (uint64_t)si->si_overrun : 0;
    if (si->si_code == POLL_HUP && si->si_fd == vp_rt_tls_perf_fd) {
        vp_rt_timer_jitter(si->si_fd, 1);            /* while disabled */
        ioctl(si->si_fd, PERF_EVENT_IOC_REFRESH, 1); /* disabled until re-armed */
        return 0;
    }
    if (si->si_code == POLL_IN && si->si_fd == vp_rt_tls_perf_fd)
        vp_rt_timer_jitter(si->si_fd, 1);
    const struct perf_event_mmap_page *ring = vp_rt_tls_perf_ring;
    if (si->si_code != POLL_IN || !ring || si->si_fd != vp_rt_tls_perf_fd)
        return 0;
    /* one 8-byte record (sample_type 0) per overflow since the last signal */
    uint64_t head = __atomic_load_n(&ring->data_head, __ATOMIC_ACQUIRE);
    uint64_t n = (head - vp_rt_tls_perf_head) / sizeof(struct perf_event_header);
    vp_rt_tls_perf_head = head;
    return n > 1 ? n - 1 : 0;
}

/* Signal path: terminate by `sig` with its default action, after writing. */
static void vp_rt_die_by(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    vp_rt.exit_status = 128 + sig;
    vp_rt.flags |= VP_PROFF_SIGNALLED;
    vp_rt_write_profile(VP_RT_WRITE_SIGNAL);
    vp_rt.real_sigaction(sig, &dfl, NULL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    raise(sig);
    vp_rt_sigmask_real(SIG_UNBLOCK, &s, NULL); /* delivered here: the default action */
}

/* Signal path: hand a signal we do not own to the target's own disposition. */
static void vp_rt_chain(const struct sigaction *t, int sig, siginfo_t *si, void *ucv)
{
    if (t->sa_handler == SIG_IGN)
        return;
    if (t->sa_handler == SIG_DFL) {
        if (sig == SIGPROF || sig == SIGTRAP || vp_rt_fatal_index(sig) >= 0)
            vp_rt_die_by(sig);
        return;
    }
    /* The mask the kernel would have given the target's handler: the
       interrupted code's, its own sa_mask, and the signal unless
       SA_NODEFER.  Ours blocks every asynchronous signal (vp_rt_hook): a
       target handler that waits for one, or leaves by longjmp (which keeps
       the handler's mask), would otherwise keep them blocked.  The kernel
       restores the interrupted mask when our handler returns.  Our
       sampling signals stay out of it (rt_mask.c). */
    if (ucv) {
        sigset_t m = ((const ucontext_t *)ucv)->uc_sigmask, copy;
        sigorset(&m, &m, &t->sa_mask);
        if (!(t->sa_flags & SA_NODEFER))
            sigaddset(&m, sig);
        vp_rt_sigmask_real(SIG_SETMASK, vp_rt_mask_strip(&m, &copy), NULL);
    }
    if (t->sa_flags & SA_SIGINFO)
        t->sa_sigaction(sig, si, ucv);
    else
        t->sa_handler(sig);
}

/* Signal path: the SIGPROF handler. */
void vp_rt_signal_handler(int sig, siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    if (!vp_rt_is_ours(sig, si)) {
        atomic_fetch_add_explicit(&vp_rt.foreign_signals, 1, memory_order_relaxed);
        if (!vp_rt_mask_requeue(sig, si, ucv))
            vp_rt_chain(sig == SIGTRAP ? &vp_rt.target_trap : &vp_rt.target_prof, sig, si, ucv);
        errno = saved_errno;
        return;
    }
    atomic_fetch_add_explicit(&vp_rt.signals, 1, memory_order_relaxed);
    uint64_t overrun = vp_rt_timer_overrun(sig, si);
    if (vp_rt_tls_in_handler) {
        atomic_fetch_add_explicit(&vp_rt.reentrant, 1, memory_order_relaxed);
        errno = saved_errno;
        return;
    }
    vp_rt_tls_in_handler = 1;
    atomic_fetch_add(&vp_rt.in_flight, 1); /* seq_cst: pairs with the writer's pause */
    if (atomic_load(&vp_rt.active) && !atomic_load(&vp_rt.paused)) {
        uint64_t t0 = vp_rt.debug ? vp_rt_now_ns(CLOCK_MONOTONIC) : 0;
        vp_rt_record((ucontext_t *)ucv, overrun);
        if (vp_rt.debug) {
            atomic_fetch_add_explicit(&vp_rt.handler_ns, vp_rt_now_ns(CLOCK_MONOTONIC) - t0,
                                      memory_order_relaxed);
            atomic_fetch_add_explicit(&vp_rt.handler_calls, 1, memory_order_relaxed);
        }
    } else {
        atomic_fetch_add_explicit(&vp_rt.in_flight_skipped, 1, memory_order_relaxed);
    }
    atomic_fetch_sub(&vp_rt.in_flight, 1);
    vp_rt_tls_in_handler = 0;
    errno = saved_errno;
}

/* Signal path: a fatal signal (vp_rt_fatal_signals).  If the target handles
   it, chain to its handler (it may exit, and then atexit writes); if the
   default would end the process, write first, then die by the default
   action. */
void vp_rt_terminate_handler(int sig, siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    int f = vp_rt_fatal_index(sig);
    if (f >= 0)
        vp_rt_chain(&vp_rt.target_fatal[f], sig, si, ucv);
    errno = saved_errno;
}

/* Signal path: the launcher's flush request (VPROF_FLUSH_SIGNAL). */
void vp_rt_flush_handler(int sig, siginfo_t *si, void *ucv)
{
    int saved_errno = errno;
    vp_rt_write_profile(VP_RT_WRITE_FLUSH);
    errno = saved_errno;
}
