/*
 * rt_unwind.c - the runtime's own x86-64 stack stepper (signal path).
 *
 * The handler unwinds a few caller frames per sample to record return
 * addresses and to read callers' variables (virtual unwinding,
 * docs/runtime.md "Unwinding").  It used libunwind until 2026-11-24, which
 * validates stack addresses by writing them into a pipe it opened once and
 * whose descriptor numbers it keeps: a program that closes its descriptors
 * and opens files got bytes of stack written into them, its read offsets
 * moved and a descriptor closed under it (libunwind re-creates a pipe it
 * finds broken by closing the old numbers), two syscalls per sample
 * besides.  This file replaces it with a plain interpreter of the modules'
 * .eh_frame call-frame information:
 *
 *   - start-up (vp_rt_unwind_prepare, before any timer is armed): every
 *     module loaded then whose PT_GNU_EH_FRAME holds the usual binary search
 *     table is recorded with its executable range and the readable segment
 *     that holds .eh_frame_hdr.  Start-up modules are never unloaded, so the
 *     tables stay mapped.  Code dlopened later
 *     or generated at run time is not covered: a step from there fails.
 *   - signal path (vp_rt_unwind_step): find the FDE by binary search, run
 *     its CIE's and its own CFA program up to the PC, compute the CFA and
 *     the caller's registers.  Table bytes are read only inside the
 *     recorded segment, every stack word through vp_rt_safe_read (a plain
 *     load on the interrupted thread's stack, process_vm_readv elsewhere),
 *     so a corrupt table or a wild frame gives a failed step, never a fault.
 *     No locks, no allocation, no descriptors; the CFA rows live in a
 *     workspace the caller passes (the handler's per-thread scratch), so
 *     the step needs under 1 KiB of the interrupted stack.
 *
 * What it does not do: .debug_frame (modules without .eh_frame_hdr), the
 * DWARF expression operators that no x86-64 compiler or glibc emits in CFI
 * (see vp_rt_cfi_expr), and registers above rip (vector registers).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "rt_internal.h"

/* Pointer encodings (.eh_frame_hdr, CIE augmentation 'R', 'P', 'L'). */
enum {
    VP_PE_ABSPTR = 0x00, VP_PE_ULEB = 0x01, VP_PE_UDATA2 = 0x02, VP_PE_UDATA4 = 0x03,
    VP_PE_UDATA8 = 0x04, VP_PE_SLEB = 0x09, VP_PE_SDATA2 = 0x0a, VP_PE_SDATA4 = 0x0b,
    VP_PE_SDATA8 = 0x0c, VP_PE_PCREL = 0x10, VP_PE_DATAREL = 0x30, VP_PE_INDIRECT = 0x80,
    VP_PE_OMIT = 0xff,
};

#define VP_UNW_NREGS 17   /* DWARF x86-64 0..15 and 16 = return address (rip) */
#define VP_UNW_RA 16
#define VP_UNW_SP 7
#define VP_UNW_STATES 4   /* remember_state nesting kept (glibc, libstdc++: 1) */
#define VP_UNW_EXPR_STEPS 64
/* Callee-saved registers (rbx, rbp, r12-r15): their values carry into the
   caller when the frame did not save them.  rsp and rip are computed. */
#define VP_UNW_CALLEE ((1u << 3) | (1u << 6) | (0xfu << 12))

struct vp_rt_ehmod {
    uint64_t lo, hi;          /* executable text */
    uint64_t seg_lo, seg_hi;  /* readable segment holding .eh_frame_hdr and .eh_frame */
    uint64_t hdr;             /* .eh_frame_hdr: base of its datarel values */
    uint64_t table;           /* fde_count pairs of sdata4 (initial location, FDE) */
    uint64_t count;
};

static struct vp_rt_ehmod vp_rt_ehmods[VP_RT_MAX_MODULES];
static uint32_t vp_rt_ehmod_count;

/* A bounded reader over one module's table bytes: any read past `end` sets
   `bad` and yields 0. */
struct vp_cur {
    uint64_t p, end, lo;
    uint64_t datarel;
    int bad;
};

__attribute__((no_sanitize("address", "undefined"))) static uint64_t vp_cur_fixed(struct vp_cur *c,
                                                                                 unsigned n)
{
    if (c->bad || c->p < c->lo || c->p > c->end || c->end - c->p < n) {
        c->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    memcpy(&v, (const void *)(uintptr_t)c->p, n); /* little-endian */
    c->p += n;
    return v;
}

static uint64_t vp_cur_uleb(struct vp_cur *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint64_t b = vp_cur_fixed(c, 1);
        if (c->bad)
            return 0;
        if (shift < 64)
            v |= (b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
        if (shift > 63) {
            c->bad = 1;
            return 0;
        }
    }
}

static int64_t vp_cur_sleb(struct vp_cur *c)
{
    uint64_t v = 0, b = 0;
    unsigned shift = 0;
    do {
        b = vp_cur_fixed(c, 1);
        if (c->bad)
            return 0;
        if (shift < 64)
            v |= (b & 0x7f) << shift;
        shift += 7;
        if (shift > 70) {
            c->bad = 1;
            return 0;
        }
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= ~0ull << shift;
    return (int64_t)v;
}

/* An encoded pointer.  `apply` 0: the value alone (an FDE's address range).
   An indirect pointer (personality routines) is returned undereferenced:
   only its size matters here. */
static uint64_t vp_cur_enc(struct vp_cur *c, uint8_t enc, int apply)
{
    uint64_t at = c->p, v;
    if (enc == VP_PE_OMIT)
        return 0;
    switch (enc & 0x0f) {
    case VP_PE_ABSPTR:
    case VP_PE_UDATA8:
    case VP_PE_SDATA8: v = vp_cur_fixed(c, 8); break;
    case VP_PE_ULEB: v = vp_cur_uleb(c); break;
    case VP_PE_UDATA2: v = vp_cur_fixed(c, 2); break;
    case VP_PE_UDATA4: v = vp_cur_fixed(c, 4); break;
    case VP_PE_SLEB: v = (uint64_t)vp_cur_sleb(c); break;
    case VP_PE_SDATA2: v = (uint64_t)(int64_t)(int16_t)vp_cur_fixed(c, 2); break;
    case VP_PE_SDATA4: v = (uint64_t)(int64_t)(int32_t)vp_cur_fixed(c, 4); break;
    default: c->bad = 1; return 0;
    }
    if (!apply)
        return v;
    switch (enc & 0x70) {
    case 0: break;
    case VP_PE_PCREL: v += at; break;
    case VP_PE_DATAREL:
        if (!c->datarel)
            c->bad = 1;
        v += c->datarel;
        break;
    default: c->bad = 1; /* textrel, funcrel, aligned: not used on x86-64 */
    }
    return v;
}

/* ---- start-up: the module table ---------------------------------------- */

static int vp_rt_ehmod_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (vp_rt_ehmod_count >= VP_RT_MAX_MODULES)
        return 1;
    const ElfW(Phdr) *eh = NULL;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_EH_FRAME)
            eh = ph;
        else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            uint64_t a = info->dlpi_addr + ph->p_vaddr;
            if (a < lo)
                lo = a;
            if (a + ph->p_memsz > hi)
                hi = a + ph->p_memsz;
        }
    }
    if (!eh || lo == UINT64_MAX)
        return 0;
    uint64_t hdr = info->dlpi_addr + eh->p_vaddr;
    /* the readable PT_LOAD holding the header; .eh_frame is beside it */
    uint64_t seg_lo = 0, seg_hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && hdr >= a && hdr + 4 <= a + ph->p_filesz) {
            seg_lo = a;
            seg_hi = a + ph->p_filesz;
        }
    }
    if (!seg_hi)
        return 0;
    struct vp_cur c = {hdr, seg_hi, seg_lo, hdr, 0};
    uint8_t version = (uint8_t)vp_cur_fixed(&c, 1);
    uint8_t ptr_enc = (uint8_t)vp_cur_fixed(&c, 1);
    uint8_t count_enc = (uint8_t)vp_cur_fixed(&c, 1);
    uint8_t table_enc = (uint8_t)vp_cur_fixed(&c, 1);
    (void)vp_cur_enc(&c, ptr_enc, 1); /* .eh_frame itself: FDEs are found through the table */
    uint64_t count = vp_cur_enc(&c, count_enc, 1);
    /* the table must be sorted sdata4 pairs, relative to the header */
    if (c.bad || version != 1 || table_enc != (VP_PE_DATAREL | VP_PE_SDATA4) || count == 0 ||
        count > (seg_hi - c.p) / 8)
        return 0;
    struct vp_rt_ehmod *m = &vp_rt_ehmods[vp_rt_ehmod_count++];
    m->lo = lo;
    m->hi = hi;
    m->seg_lo = seg_lo;
    m->seg_hi = seg_hi;
    m->hdr = hdr;
    m->table = c.p;
    m->count = count;
    return 0;
}

/* Records the unwind tables of every module loaded now.  Call once, before
   timers are armed. */
void vp_rt_unwind_prepare(void)
{
    vp_rt_ehmod_count = 0;
    dl_iterate_phdr(vp_rt_ehmod_cb, NULL);
}

static const struct vp_rt_ehmod *vp_rt_ehmod_of(uint64_t pc)
{
    for (uint32_t i = 0; i < vp_rt_ehmod_count; i++)
        if (pc >= vp_rt_ehmods[i].lo && pc < vp_rt_ehmods[i].hi)
            return &vp_rt_ehmods[i];
    return NULL;
}

/* ---- signal path: the CFA program -------------------------------------- */

enum vp_rule_kind {
    VP_RULE_SAME = 0,  /* unmentioned: callee-saved keep their value */
    VP_RULE_UNDEF,
    VP_RULE_OFFSET,     /* saved at CFA + v */
    VP_RULE_VAL_OFFSET, /* is CFA + v */
    VP_RULE_REG,        /* in register v */
    VP_RULE_EXPR,       /* saved at the address the expression gives */
    VP_RULE_VAL_EXPR,   /* is the expression's value */
};

struct vp_rule {
    int64_t v;         /* offset, register, or an expression's table address */
    uint32_t expr_len; /* an expression's length */
    uint8_t kind;
};

struct vp_cfa_state {
    struct vp_rule reg[VP_UNW_NREGS];
    struct vp_rule cfa; /* kind OFFSET: register cfa_reg + v; EXPR: expression */
    uint32_t cfa_reg;
};

/* vp_rt_unwind_step's large state, in the caller's workspace (the handler's
   per-thread scratch) rather than on the stack the signal interrupted. */
struct vp_unw_work {
    struct vp_cfa_state init, st;
    struct vp_cfa_state saved[VP_UNW_STATES];
};
_Static_assert(sizeof(struct vp_unw_work) <= VP_RT_UNWIND_WORK, "VP_RT_UNWIND_WORK");

struct vp_cie {
    uint64_t code_align;
    int64_t data_align;
    uint32_t ra_reg;
    uint8_t fde_enc;
    int signal_frame;
    int has_aug_data;
    uint64_t insns, insns_end;
};

/* Opens the CIE or FDE at `at`: `c` spans its body (after the length,
   32-bit or extended), which must hold `min` bytes and end in the segment. */
static int vp_rt_entry_open(const struct vp_rt_ehmod *m, uint64_t at, uint64_t min, struct vp_cur *c)
{
    *c = (struct vp_cur){at, m->seg_hi, m->seg_lo, 0, 0};
    uint64_t len = vp_cur_fixed(c, 4);
    if (len == 0xffffffffu)
        len = vp_cur_fixed(c, 8);
    if (c->bad || len < min || len > m->seg_hi - c->p)
        return -1;
    c->end = c->p + len;
    return 0;
}

/* Parses the CIE at `at`. */
static int vp_rt_cie_parse(const struct vp_rt_ehmod *m, uint64_t at, struct vp_cie *cie)
{
    struct vp_cur c;
    if (vp_rt_entry_open(m, at, 4, &c) != 0 || vp_cur_fixed(&c, 4) != 0) /* CIE id in .eh_frame */
        return -1;
    uint8_t version = (uint8_t)vp_cur_fixed(&c, 1);
    if (version != 1 && version != 3)
        return -1;
    char aug[8];
    unsigned n = 0;
    for (;;) {
        char ch = (char)vp_cur_fixed(&c, 1);
        if (c.bad || n >= sizeof aug)
            return -1;
        aug[n++] = ch;
        if (!ch)
            break;
    }
    cie->code_align = vp_cur_uleb(&c);
    cie->data_align = vp_cur_sleb(&c);
    cie->ra_reg = version == 1 ? (uint32_t)vp_cur_fixed(&c, 1) : (uint32_t)vp_cur_uleb(&c);
    cie->fde_enc = VP_PE_ABSPTR;
    cie->signal_frame = 0;
    cie->has_aug_data = aug[0] == 'z';
    if (cie->has_aug_data) {
        uint64_t alen = vp_cur_uleb(&c);
        uint64_t aend = c.p + alen;
        if (c.bad || alen > c.end - c.p)
            return -1;
        int known = 1; /* an unknown letter: the rest is skipped by length */
        for (unsigned i = 1; aug[i] && known && !c.bad; i++) {
            switch (aug[i]) {
            case 'R': cie->fde_enc = (uint8_t)vp_cur_fixed(&c, 1); break;
            case 'P': {
                uint8_t penc = (uint8_t)vp_cur_fixed(&c, 1);
                (void)vp_cur_enc(&c, penc, 0);
                break;
            }
            case 'L': (void)vp_cur_fixed(&c, 1); break;
            case 'S': cie->signal_frame = 1; break;
            default: known = 0; break;
            }
        }
        c.p = aend;
    } else if (aug[0]) {
        return -1; /* "eh" and other pre-'z' augmentations */
    }
    if (c.bad || cie->ra_reg != VP_UNW_RA || cie->code_align == 0)
        return -1;
    cie->insns = c.p;
    cie->insns_end = c.end;
    return 0;
}

/* Runs the CFA program [p, end) into `st` up to location `target` (the
   program starts at `loc`).  `init` holds the CIE's rules for
   DW_CFA_restore (NULL while running the CIE's own program). */
static int vp_rt_cfa_run(const struct vp_rt_ehmod *m, const struct vp_cie *cie, uint64_t p,
                         uint64_t end, uint64_t loc, uint64_t target, struct vp_cfa_state *st,
                         const struct vp_cfa_state *init, struct vp_cfa_state *saved)
{
    unsigned nsaved = 0;
    struct vp_cur c = {p, end, m->seg_lo, 0, 0};
    while (c.p < c.end && !c.bad) {
        uint8_t op = (uint8_t)vp_cur_fixed(&c, 1);
        uint64_t reg = op & 0x3f, delta = 0;
        int64_t off;
        int advance = 0;
        switch (op & 0xc0) {
        case 0x40: /* DW_CFA_advance_loc */
            delta = reg * cie->code_align;
            advance = 1;
            break;
        case 0x80: /* DW_CFA_offset */
            off = (int64_t)vp_cur_uleb(&c) * cie->data_align;
            if (reg < VP_UNW_NREGS)
                st->reg[reg] = (struct vp_rule){off, 0, VP_RULE_OFFSET};
            continue;
        case 0xc0: /* DW_CFA_restore */
            if (!init)
                return -1;
            if (reg < VP_UNW_NREGS)
                st->reg[reg] = init->reg[reg];
            continue;
        }
        if (!advance) {
            uint64_t r2, len;
            switch (op) {
            case 0x00: /* nop */
                break;
            case 0x01: { /* set_loc */
                uint64_t nl = vp_cur_enc(&c, cie->fde_enc, 1);
                if (nl > target)
                    return c.bad ? -1 : 0;
                loc = nl;
                break;
            }
            case 0x02: delta = vp_cur_fixed(&c, 1) * cie->code_align; advance = 1; break;
            case 0x03: delta = vp_cur_fixed(&c, 2) * cie->code_align; advance = 1; break;
            case 0x04: delta = vp_cur_fixed(&c, 4) * cie->code_align; advance = 1; break;
            case 0x05: /* offset_extended */
                reg = vp_cur_uleb(&c);
                off = (int64_t)vp_cur_uleb(&c) * cie->data_align;
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){off, 0, VP_RULE_OFFSET};
                break;
            case 0x06: /* restore_extended */
                reg = vp_cur_uleb(&c);
                if (!init)
                    return -1;
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = init->reg[reg];
                break;
            case 0x07: /* undefined */
            case 0x08: /* same_value */
                reg = vp_cur_uleb(&c);
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){0, 0, op == 0x07 ? VP_RULE_UNDEF : VP_RULE_SAME};
                break;
            case 0x09: /* register */
                reg = vp_cur_uleb(&c);
                r2 = vp_cur_uleb(&c);
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){(int64_t)r2, 0, VP_RULE_REG};
                break;
            case 0x0a: /* remember_state */
                if (nsaved >= VP_UNW_STATES)
                    return -1;
                saved[nsaved++] = *st;
                break;
            case 0x0b: /* restore_state: the whole row, CFA rule included (an
                          epilogue's remember/restore pair brings rbp + 16 back) */
                if (nsaved == 0)
                    return -1;
                *st = saved[--nsaved];
                break;
            case 0x0c: /* def_cfa */
                st->cfa_reg = (uint32_t)vp_cur_uleb(&c);
                st->cfa = (struct vp_rule){(int64_t)vp_cur_uleb(&c), 0, VP_RULE_OFFSET};
                break;
            case 0x12: /* def_cfa_sf */
                st->cfa_reg = (uint32_t)vp_cur_uleb(&c);
                st->cfa = (struct vp_rule){vp_cur_sleb(&c) * cie->data_align, 0, VP_RULE_OFFSET};
                break;
            case 0x0d: /* def_cfa_register */
                st->cfa_reg = (uint32_t)vp_cur_uleb(&c);
                st->cfa.kind = VP_RULE_OFFSET;
                break;
            case 0x0e: /* def_cfa_offset */
                st->cfa.v = (int64_t)vp_cur_uleb(&c);
                break;
            case 0x13: /* def_cfa_offset_sf */
                st->cfa.v = vp_cur_sleb(&c) * cie->data_align;
                break;
            case 0x0f: /* def_cfa_expression */
                len = vp_cur_uleb(&c);
                if (c.bad || len > c.end - c.p)
                    return -1;
                st->cfa = (struct vp_rule){(int64_t)c.p, (uint32_t)len, VP_RULE_EXPR};
                c.p += len;
                break;
            case 0x10: /* expression */
            case 0x16: /* val_expression */
                reg = vp_cur_uleb(&c);
                len = vp_cur_uleb(&c);
                if (c.bad || len > c.end - c.p)
                    return -1;
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){(int64_t)c.p, (uint32_t)len,
                                                    op == 0x10 ? VP_RULE_EXPR : VP_RULE_VAL_EXPR};
                c.p += len;
                break;
            case 0x11: /* offset_extended_sf */
                reg = vp_cur_uleb(&c);
                off = vp_cur_sleb(&c) * cie->data_align;
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){off, 0, VP_RULE_OFFSET};
                break;
            case 0x14: /* val_offset */
            case 0x15: /* val_offset_sf */
                reg = vp_cur_uleb(&c);
                off = op == 0x14 ? (int64_t)vp_cur_uleb(&c) * cie->data_align
                                 : vp_cur_sleb(&c) * cie->data_align;
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){off, 0, VP_RULE_VAL_OFFSET};
                break;
            case 0x2e: /* GNU_args_size */
                (void)vp_cur_uleb(&c);
                break;
            case 0x2f: /* GNU_negative_offset_extended */
                reg = vp_cur_uleb(&c);
                off = -(int64_t)vp_cur_uleb(&c) * cie->data_align;
                if (reg < VP_UNW_NREGS)
                    st->reg[reg] = (struct vp_rule){off, 0, VP_RULE_OFFSET};
                break;
            default:
                return -1;
            }
        }
        if (advance) {
            if (c.bad)
                return -1;
            if (delta > target - loc || loc > target)
                return 0; /* the next row starts past the PC */
            loc += delta;
        }
    }
    return c.bad ? -1 : 0;
}

/* A frame's registers: values and which of them are known. */
struct vp_regs {
    const uint64_t *r;
    uint32_t valid;
};

/* Signal path: evaluates the DWARF expression at [p, p + len) with `push`
   on the stack (the CFA, or nothing for the CFA itself when has_push is 0).
   The operators are those that x86-64 CFI uses (glibc's signal trampoline,
   PLT entries, stack realignment): constants, register bases, deref,
   arithmetic, comparisons and branches.  Bounded in steps and stack. */
static int vp_rt_cfi_expr(const struct vp_rt_ehmod *m, uint64_t p, uint64_t len,
                          const struct vp_regs *in, int has_push, uint64_t push, uint64_t *out)
{
    uint64_t st[16];
    unsigned sp = 0;
    if (has_push)
        st[sp++] = push;
    struct vp_cur c = {p, p + len, m->seg_lo, 0, 0};
    for (unsigned steps = 0; c.p < c.end; steps++) {
        if (steps >= VP_UNW_EXPR_STEPS || c.bad)
            return -1;
        uint8_t op = (uint8_t)vp_cur_fixed(&c, 1);
        uint64_t a, b;
        if (op >= 0x30 && op <= 0x4f) { /* lit0..31 */
            if (sp >= 16)
                return -1;
            st[sp++] = op - 0x30u;
            continue;
        }
        if ((op >= 0x70 && op <= 0x8f) || op == 0x92) { /* breg0..31, bregx */
            uint64_t r = op == 0x92 ? vp_cur_uleb(&c) : op - 0x70u;
            int64_t off = vp_cur_sleb(&c);
            if (r >= VP_UNW_NREGS || !(in->valid & (1u << r)) || sp >= 16)
                return -1;
            st[sp++] = in->r[r] + (uint64_t)off;
            continue;
        }
        switch (op) {
        case 0x03: a = vp_cur_fixed(&c, 8); goto push; /* addr */
        case 0x08: a = vp_cur_fixed(&c, 1); goto push;
        case 0x09: a = (uint64_t)(int64_t)(int8_t)vp_cur_fixed(&c, 1); goto push;
        case 0x0a: a = vp_cur_fixed(&c, 2); goto push;
        case 0x0b: a = (uint64_t)(int64_t)(int16_t)vp_cur_fixed(&c, 2); goto push;
        case 0x0c: a = vp_cur_fixed(&c, 4); goto push;
        case 0x0d: a = (uint64_t)(int64_t)(int32_t)vp_cur_fixed(&c, 4); goto push;
        case 0x0e:
        case 0x0f: a = vp_cur_fixed(&c, 8); goto push;
        case 0x10: a = vp_cur_uleb(&c); goto push;
        case 0x11: a = (uint64_t)vp_cur_sleb(&c); goto push;
        case 0x12: /* dup */
            if (sp == 0) return -1;
            a = st[sp - 1];
            goto push;
        case 0x14: /* over */
            if (sp < 2) return -1;
            a = st[sp - 2];
            goto push;
        case 0x13: /* drop */
            if (sp == 0) return -1;
            sp--;
            continue;
        case 0x16: /* swap */
            if (sp < 2) return -1;
            a = st[sp - 1], st[sp - 1] = st[sp - 2], st[sp - 2] = a;
            continue;
        case 0x06: /* deref */
        case 0x94: { /* deref_size */
            unsigned n = op == 0x06 ? 8 : (unsigned)vp_cur_fixed(&c, 1);
            uint64_t v = 0;
            if (sp == 0 || n == 0 || n > 8 || vp_rt_safe_read(st[sp - 1], &v, n) != 0)
                return -1;
            st[sp - 1] = v;
            continue;
        }
        case 0x1f: if (sp == 0) return -1; st[sp - 1] = -st[sp - 1]; continue;  /* neg */
        case 0x20: if (sp == 0) return -1; st[sp - 1] = ~st[sp - 1]; continue;  /* not */
        case 0x23: if (sp == 0) return -1; st[sp - 1] += vp_cur_uleb(&c); continue; /* plus_uconst */
        case 0x2f: /* skip */
        case 0x28: { /* bra */
            int16_t d = (int16_t)vp_cur_fixed(&c, 2);
            if (op == 0x28) {
                if (sp == 0) return -1;
                if (st[--sp] == 0) continue;
            }
            if ((d < 0 && (uint64_t)-d > c.p - p) || (d > 0 && (uint64_t)d > c.end - c.p))
                return -1;
            c.p += (uint64_t)(int64_t)d;
            continue;
        }
        case 0x96: continue; /* nop */
        default: break;
        }
        /* binary operators */
        if (sp < 2)
            return -1;
        b = st[--sp];
        a = st[sp - 1];
        switch (op) {
        case 0x1a: a &= b; break;
        case 0x1b: /* div (signed; INT64_MIN / -1 would trap) */
            if (b == 0 || (b == UINT64_MAX && a == 1ull << 63)) return -1;
            a = (uint64_t)((int64_t)a / (int64_t)b);
            break;
        case 0x1c: a -= b; break;
        case 0x1d: if (b == 0) return -1; a %= b; break;
        case 0x1e: a *= b; break;
        case 0x21: a |= b; break;
        case 0x22: a += b; break;
        case 0x24: a = b < 64 ? a << b : 0; break;
        case 0x25: a = b < 64 ? a >> b : 0; break;
        case 0x26: a = (uint64_t)((int64_t)a >> (b < 63 ? b : 63)); break;
        case 0x27: a ^= b; break;
        case 0x29: a = a == b; break;
        case 0x2a: a = (int64_t)a >= (int64_t)b; break;
        case 0x2b: a = (int64_t)a > (int64_t)b; break;
        case 0x2c: a = (int64_t)a <= (int64_t)b; break;
        case 0x2d: a = (int64_t)a < (int64_t)b; break;
        case 0x2e: a = a != b; break;
        default: return -1;
        }
        st[sp - 1] = a;
        continue;
    push:
        if (sp >= 16)
            return -1;
        st[sp++] = a;
    }
    if (c.bad || sp == 0)
        return -1;
    *out = st[sp - 1];
    return 0;
}

#define VP_UNW_BP 6
#define VP_UNW_FP_SPAN (16u << 20) /* the farthest a frame pointer may be above rsp */

/* Whether `ra` looks like a return address: in a recorded module, and the
   bytes before it end in a call (e8 rel32, or ff /2 of 2-7 bytes). */
static int vp_rt_after_call(uint64_t ra)
{
    uint8_t b[7];
    if (ra < 8 || !vp_rt_ehmod_of(ra - 1) || vp_rt_safe_read(ra - 7, b, 7) != 0)
        return 0;
    if (b[2] == 0xe8)
        return 1;
    for (int k = 2; k <= 7; k++) /* byte at ra - k is b[7 - k] */
        if (b[7 - k] == 0xff && ((b[8 - k] >> 3) & 7) == 2)
            return 1;
    return 0;
}

/* An interrupted PC that no FDE covers, in a module that has unwind
   tables: a leaf of code assembled without CFI, caught before it pushed
   anything or just after its `push %rbp` (crtstuff's
   __do_global_dtors_aux at exit, 1 sample in about a hundred runs of
   rt.pc_only, was an unwind error).  The return address is the word at
   rsp, else the one above a pushed rbp, and is taken only when it looks
   like one (vp_rt_after_call); otherwise -1, as before. */
static int vp_rt_leaf_step(const uint64_t regs[17], uint32_t valid, int *exact, uint64_t out[17],
                           uint32_t *out_valid, uint64_t *cfa)
{
    if (!(valid & (1u << VP_UNW_SP)))
        return -1;
    uint64_t sp = regs[VP_UNW_SP], w[2];
    if ((sp & 7) || vp_rt_safe_read(sp, w, 16) != 0)
        return -1;
    for (int pushed = 0; pushed <= 1; pushed++) {
        uint64_t ra = w[pushed];
        if (!vp_rt_after_call(ra))
            continue;
        uint32_t ov = (1u << VP_UNW_SP) | (1u << VP_UNW_RA);
        if (pushed) {
            out[VP_UNW_BP] = w[0];
            ov |= 1u << VP_UNW_BP;
        } else if (valid & (1u << VP_UNW_BP)) {
            out[VP_UNW_BP] = regs[VP_UNW_BP];
            ov |= 1u << VP_UNW_BP;
        }
        out[VP_UNW_SP] = sp + 8 * (uint64_t)pushed + 8;
        out[VP_UNW_RA] = ra;
        *out_valid = ov;
        *cfa = out[VP_UNW_SP];
        *exact = 0;
        return 1;
    }
    return -1;
}

/* A return address that no FDE covers, in a module that has unwind tables:
   code assembled without CFI (Debian's crtstuff: __do_global_dtors_aux
   runs __cxa_finalize at exit; hand-written assembly).  One step through
   the frame pointer, as libunwind falls back to: rbp points at the saved
   rbp with the return address above it.  Only from a return address (past
   the function's prologue, unlike an interrupted PC) whose rbp the step
   into the callee vouched for, and only when the result is plausible: rbp
   8-aligned and above rsp by at most VP_UNW_FP_SPAN, both words readable,
   the return address in a recorded module.  Otherwise -1 (an error, as
   before: the walk ends there). */
static int vp_rt_fp_step(const uint64_t regs[17], uint32_t valid, int *exact, uint64_t out[17],
                         uint32_t *out_valid, uint64_t *cfa)
{
    const uint32_t need = (1u << VP_UNW_BP) | (1u << VP_UNW_SP);
    if (*exact)
        return vp_rt_leaf_step(regs, valid, exact, out, out_valid, cfa);
    if ((valid & need) != need)
        return -1;
    uint64_t bp = regs[VP_UNW_BP], sp = regs[VP_UNW_SP], w[2];
    if ((bp & 7) || bp < sp || bp - sp > VP_UNW_FP_SPAN || vp_rt_safe_read(bp, w, 16) != 0 ||
        w[1] == 0 || !vp_rt_ehmod_of(w[1] - 1))
        return -1;
    out[VP_UNW_BP] = w[0];
    out[VP_UNW_SP] = bp + 16;
    out[VP_UNW_RA] = w[1];
    *out_valid = need | (1u << VP_UNW_RA);
    *cfa = bp + 16;
    return 1;
}

/* Signal path: one step from the frame `regs` (DWARF numbering, `valid`
   bits; regs[16] is its PC, exact when *exact, else a return address) to
   its caller.  On 1 the caller's registers are in out/out_valid (only
   those the step can vouch for: the callee-saved ones, rsp, rip, and what
   a signal frame restores), *cfa is the frame's CFA, and *exact says
   whether the caller's PC is exact (it was interrupted by a signal).
   `work`: VP_RT_UNWIND_WORK bytes, 16-byte aligned, for the CFA rows.
   0: the outermost frame (return address undefined).  -1: no unwind table
   covers the PC, the table is malformed or a saved register unreadable.
   A return address in a module whose table has no FDE for it steps
   through the frame pointer (vp_rt_fp_step); an interrupted PC there
   through the return address at rsp (vp_rt_leaf_step). */
int vp_rt_unwind_step(const uint64_t regs[17], uint32_t valid, int *exact, uint64_t out[17],
                      uint32_t *out_valid, uint64_t *cfa, void *work)
{
    struct vp_unw_work *w = work;
    if (!(valid & (1u << VP_UNW_RA)))
        return -1;
    uint64_t pc = regs[VP_UNW_RA];
    uint64_t target = *exact ? pc : pc - 1; /* inside the call instruction */
    const struct vp_rt_ehmod *m = vp_rt_ehmod_of(target);
    if (!m)
        return -1;

    /* the last table entry starting at or below target */
    uint64_t lo = 0, hi = m->count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        struct vp_cur e = {m->table + mid * 8, m->seg_hi, m->seg_lo, m->hdr, 0};
        uint64_t start = m->hdr + (uint64_t)(int64_t)(int32_t)vp_cur_fixed(&e, 4);
        if (e.bad)
            return -1;
        if (start <= target)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return vp_rt_fp_step(regs, valid, exact, out, out_valid, cfa);
    struct vp_cur e = {m->table + (lo - 1) * 8 + 4, m->seg_hi, m->seg_lo, m->hdr, 0};
    uint64_t fde = m->hdr + (uint64_t)(int64_t)(int32_t)vp_cur_fixed(&e, 4);
    if (e.bad)
        return -1;

    /* the FDE */
    struct vp_cur c;
    if (vp_rt_entry_open(m, fde, 8, &c) != 0)
        return -1;
    uint64_t body = c.p;
    uint64_t cie_off = vp_cur_fixed(&c, 4);
    if (c.bad || cie_off == 0 || cie_off > body - m->seg_lo)
        return -1;
    struct vp_cie cie;
    if (vp_rt_cie_parse(m, body - cie_off, &cie) != 0)
        return -1;
    uint64_t pc_begin = vp_cur_enc(&c, cie.fde_enc, 1);
    uint64_t pc_range = vp_cur_enc(&c, cie.fde_enc & 0x0f, 0);
    if (cie.has_aug_data) {
        uint64_t alen = vp_cur_uleb(&c);
        if (c.bad || alen > c.end - c.p)
            return -1;
        c.p += alen;
    }
    if (c.bad)
        return -1;
    if (target < pc_begin || target - pc_begin >= pc_range)
        return vp_rt_fp_step(regs, valid, exact, out, out_valid, cfa);
    if (cie.signal_frame && !*exact) {
        /* glibc's __restore_rt: the return address is the trampoline
           itself, not past a call */
        target = pc;
        if (target - pc_begin >= pc_range)
            return -1;
    }

    struct vp_cfa_state *init = &w->init, *stp = &w->st;
    memset(init, 0, sizeof *init);
    if (vp_rt_cfa_run(m, &cie, cie.insns, cie.insns_end, pc_begin, UINT64_MAX, init, NULL,
                      w->saved) != 0)
        return -1;
    *stp = *init;
    if (vp_rt_cfa_run(m, &cie, c.p, c.end, pc_begin, target, stp, init, w->saved) != 0)
        return -1;

    struct vp_regs in = {regs, valid};
    uint64_t f;
    if (stp->cfa.kind == VP_RULE_EXPR) {
        if (vp_rt_cfi_expr(m, (uint64_t)stp->cfa.v, stp->cfa.expr_len, &in, 0, 0, &f) != 0)
            return -1;
    } else if (stp->cfa.kind == VP_RULE_OFFSET && stp->cfa_reg < VP_UNW_NREGS &&
               (valid & (1u << stp->cfa_reg))) {
        f = regs[stp->cfa_reg] + (uint64_t)stp->cfa.v;
    } else {
        return -1;
    }

    uint32_t ov = 0;
    for (unsigned r = 0; r < VP_UNW_NREGS; r++) {
        const struct vp_rule *ru = &stp->reg[r];
        uint64_t v = 0, a;
        int ok = 0;
        switch (ru->kind) {
        case VP_RULE_SAME:
            if (r == VP_UNW_SP) {
                v = f, ok = 1; /* x86-64: the caller's rsp is the CFA */
            } else if (r != VP_UNW_RA && (VP_UNW_CALLEE & (1u << r)) && (valid & (1u << r))) {
                v = regs[r], ok = 1;
            }
            break;
        case VP_RULE_UNDEF:
            break;
        case VP_RULE_OFFSET:
            ok = vp_rt_safe_read(f + (uint64_t)ru->v, &v, 8) == 0;
            if (!ok)
                return -1;
            break;
        case VP_RULE_VAL_OFFSET:
            v = f + (uint64_t)ru->v, ok = 1;
            break;
        case VP_RULE_REG:
            if ((uint64_t)ru->v < VP_UNW_NREGS && (valid & (1u << ru->v)))
                v = regs[ru->v], ok = 1;
            break;
        case VP_RULE_EXPR:
            if (vp_rt_cfi_expr(m, (uint64_t)ru->v, ru->expr_len, &in, 1, f, &a) != 0 ||
                vp_rt_safe_read(a, &v, 8) != 0)
                return -1;
            ok = 1;
            break;
        case VP_RULE_VAL_EXPR:
            if (vp_rt_cfi_expr(m, (uint64_t)ru->v, ru->expr_len, &in, 1, f, &v) != 0)
                return -1;
            ok = 1;
            break;
        }
        if (ok) {
            out[r] = v;
            ov |= 1u << r;
        }
    }
    if (!(ov & (1u << VP_UNW_RA)) || out[VP_UNW_RA] == 0)
        return 0; /* outermost frame (_start, clone's child) */
    *out_valid = ov;
    *cfa = f;
    *exact = cie.signal_frame;
    return 1;
}
