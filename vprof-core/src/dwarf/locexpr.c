/*
 * locexpr.c - translate one DWARF location expression into a bounded recipe
 * (format.h vp_op program) that the runtime evaluates in the signal handler.
 *
 * The translation is exact or it is refused: every DWARF op maps to one
 * recipe op with the same meaning, the stack depth is checked statically, and
 * anything that needs information the runtime does not have (entry values,
 * pieces, TLS, typed ops, registers other than the 16 GPRs) yields a
 * coverage reason instead of a guess.  docs/locations.md has the rules.
 */
#include <dwarf.h>
#include <string.h>

#include "dwarf/dwarf_internal.h"

/* x86-64 DWARF register numbers. */
enum { REG_RBX = 3, REG_RBP = 6, REG_RSP = 7, REG_R12 = 12, REG_R15 = 15, NUM_GPR = 16 };

/* Callee-saved registers survive a call: the unwinder restores them for a
   caller frame.  rsp is also exact in a caller frame (it is the callee's
   CFA), see docs/locations.md "caller frames". */
static int caller_ok_reg(unsigned reg)
{
    return reg == REG_RBX || reg == REG_RBP || reg == REG_RSP ||
           (reg >= REG_R12 && reg <= REG_R15);
}

struct emitter {
    struct vp_dwarf_recipe *r;
    int depth;       /* stack depth after the ops so far */
    int caller_ok;
    int addr_only;   /* no register or CFA so far: the same at every PC */
    int reason;      /* first failure, VP_COV_OK while fine */
};

static void fail(struct emitter *em, int reason)
{
    if (em->reason == VP_COV_OK)
        em->reason = reason;
}

/* Append an op that pops `pops` and pushes `pushes` entries. */
static void emit(struct emitter *em, uint8_t code, uint8_t reg, uint8_t size, int64_t arg,
                 int pops, int pushes)
{
    if (em->reason != VP_COV_OK)
        return;
    if (em->depth < pops) {
        fail(em, VP_COV_UNSUPPORTED_OP); /* malformed: stack underflow */
        return;
    }
    em->depth += pushes - pops;
    if (em->depth > VP_RECIPE_STACK) {
        fail(em, VP_COV_TOO_LONG);
        return;
    }
    /* Keep one slot for the VALUE/MEMORY terminator. */
    if (em->r->op_count + 1 >= VP_RECIPE_MAX_OPS) {
        fail(em, VP_COV_TOO_LONG);
        return;
    }
    struct vp_op *op = &em->r->ops[em->r->op_count++];
    memset(op, 0, sizeof *op);
    op->code = code;
    op->reg = reg;
    op->size = size;
    op->arg = arg;
}

static void emit_breg(struct emitter *em, uint64_t reg, int64_t off)
{
    if (reg >= NUM_GPR) {
        fail(em, VP_COV_UNSUPPORTED_OP);
        return;
    }
    em->caller_ok &= caller_ok_reg((unsigned)reg);
    em->addr_only = 0;
    emit(em, VP_OP_BREG, (uint8_t)reg, 0, off, 0, 1);
}

/* Binary DWARF arithmetic ops and their recipe equivalents. */
static int binary_op(unsigned atom)
{
    switch (atom) {
    case DW_OP_plus: return VP_OP_PLUS;
    case DW_OP_minus: return VP_OP_MINUS;
    case DW_OP_mul: return VP_OP_MUL;
    case DW_OP_and: return VP_OP_AND;
    case DW_OP_or: return VP_OP_OR;
    case DW_OP_xor: return VP_OP_XOR;
    case DW_OP_shl: return VP_OP_SHL;
    case DW_OP_shr: return VP_OP_SHR;
    case DW_OP_shra: return VP_OP_SHRA;
    case DW_OP_div: return VP_OP_DIV;
    default: return -1;
    }
}

/* The address operand of DW_OP_addrx / DW_OP_GNU_addr_index (DWARF 5 and
   split DWARF index into .debug_addr; libdw resolves it for us). */
static int addrx_value(Dwarf_Attribute *attr, const Dwarf_Op *op, Dwarf_Addr *addr)
{
    Dwarf_Attribute res;
    if (!attr || dwarf_getlocation_attr(attr, op, &res) != 0)
        return -1;
    return dwarf_formaddr(&res, addr);
}

/* Assemble a little-endian constant of up to 8 bytes. */
static int block_const(const Dwarf_Block *b, int64_t *v)
{
    if (b->length == 0 || b->length > 8)
        return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < b->length; i++)
        x |= (uint64_t)b->data[i] << (8 * i);
    *v = (int64_t)x;
    return 0;
}

int vp_dwarf_translate(Dwarf_Attribute *attr, const Dwarf_Op *ops, size_t nops,
                       const struct vp_dwarf_frame_base *fb, unsigned size,
                       struct vp_dwarf_recipe *out)
{
    memset(out, 0, sizeof *out);
    if (nops == 0)
        return VP_COV_NO_LOCATION;
    struct emitter em = { .r = out, .caller_ok = 1, .addr_only = 1, .reason = VP_COV_OK };
    /* A lone piece that covers the whole value is just a location: clang
       emits "DW_OP_reg3 DW_OP_piece 8" for some 8-byte values. */
    if (nops >= 2 && ops[nops - 1].atom == DW_OP_piece && ops[nops - 1].number >= size) {
        int other_piece = 0;
        for (size_t i = 0; i + 1 < nops; i++)
            other_piece |= ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece;
        if (!other_piece)
            nops--;
    }
    int is_value = 0; /* 1: the stack top is the value, not its address */
    for (size_t i = 0; i < nops && em.reason == VP_COV_OK; i++) {
        const Dwarf_Op *op = &ops[i];
        unsigned a = op->atom;
        int last = i + 1 == nops;
        if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
            /* A register location: must stand alone. */
            unsigned reg = a - DW_OP_reg0;
            if (!last || i != 0 || reg >= NUM_GPR) {
                fail(&em, VP_COV_UNSUPPORTED_OP);
                break;
            }
            em.caller_ok &= caller_ok_reg(reg) && reg != REG_RSP;
            em.addr_only = 0;
            emit(&em, VP_OP_REG, (uint8_t)reg, 0, 0, 0, 1);
            is_value = 1;
        } else if (a == DW_OP_regx) {
            if (!last || i != 0 || op->number >= NUM_GPR) {
                fail(&em, VP_COV_UNSUPPORTED_OP);
                break;
            }
            em.caller_ok &= caller_ok_reg((unsigned)op->number) && op->number != REG_RSP;
            em.addr_only = 0;
            emit(&em, VP_OP_REG, (uint8_t)op->number, 0, 0, 0, 1);
            is_value = 1;
        } else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
            emit_breg(&em, a - DW_OP_breg0, (int64_t)op->number);
        } else if (a == DW_OP_bregx) {
            emit_breg(&em, op->number, (int64_t)op->number2);
        } else if (a == DW_OP_fbreg) {
            /* DW_AT_frame_base was reduced by vp_dwarf_frame_base: clang's
               DW_OP_reg6/reg7 becomes breg(rbp/rsp), GCC's
               DW_OP_call_frame_cfa becomes CFA. */
            if (!fb || fb->kind == VP_FB_NONE) {
                fail(&em, VP_COV_UNSUPPORTED_OP);
            } else if (fb->kind == VP_FB_BREG) {
                emit_breg(&em, fb->reg, fb->off + (int64_t)op->number);
            } else {
                em.addr_only = 0;
                out->flags |= VP_RECIPE_NEEDS_CFA;
                emit(&em, VP_OP_CFA, 0, 0, fb->off + (int64_t)op->number, 0, 1);
            }
        } else if (a == DW_OP_call_frame_cfa) {
            em.addr_only = 0;
            out->flags |= VP_RECIPE_NEEDS_CFA;
            emit(&em, VP_OP_CFA, 0, 0, 0, 0, 1);
        } else if (a == DW_OP_addr) {
            emit(&em, VP_OP_ADDR, 0, 0, (int64_t)op->number, 0, 1);
        } else if (a == DW_OP_addrx || a == DW_OP_GNU_addr_index) {
            Dwarf_Addr addr;
            if (addrx_value(attr, op, &addr) != 0)
                fail(&em, VP_COV_UNSUPPORTED_OP);
            else
                emit(&em, VP_OP_ADDR, 0, 0, (int64_t)addr, 0, 1);
        } else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
            emit(&em, VP_OP_CONST, 0, 0, a - DW_OP_lit0, 0, 1);
        } else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u ||
                   a == DW_OP_const8u || a == DW_OP_constu) {
            emit(&em, VP_OP_CONST, 0, 0, (int64_t)op->number, 0, 1);
        } else if (a == DW_OP_const1s || a == DW_OP_const2s || a == DW_OP_const4s ||
                   a == DW_OP_const8s || a == DW_OP_consts) {
            /* libdw stores the sign-extended value in number. */
            emit(&em, VP_OP_CONST, 0, 0, (int64_t)op->number, 0, 1);
        } else if (a == DW_OP_deref) {
            emit(&em, VP_OP_DEREF, 0, 8, 0, 1, 1);
        } else if (a == DW_OP_deref_size) {
            if (op->number == 0 || op->number > 8)
                fail(&em, VP_COV_UNSUPPORTED_OP);
            emit(&em, VP_OP_DEREF, 0, (uint8_t)op->number, 0, 1, 1);
        } else if (binary_op(a) >= 0) {
            emit(&em, (uint8_t)binary_op(a), 0, 0, 0, 2, 1);
        } else if (a == DW_OP_plus_uconst) {
            emit(&em, VP_OP_PLUS_CONST, 0, 0, (int64_t)op->number, 1, 1);
        } else if (a == DW_OP_neg) {
            emit(&em, VP_OP_NEG, 0, 0, 0, 1, 1);
        } else if (a == DW_OP_not) {
            emit(&em, VP_OP_NOT, 0, 0, 0, 1, 1);
        } else if (a == DW_OP_dup) {
            emit(&em, VP_OP_DUP, 0, 0, 0, 1, 2);
        } else if (a == DW_OP_nop) {
            continue;
        } else if (a == DW_OP_stack_value) {
            if (!last)
                fail(&em, VP_COV_PIECES); /* only a following piece is legal */
            is_value = 1;
        } else if (a == DW_OP_implicit_value) {
            Dwarf_Block b;
            int64_t v;
            if (i != 0 || !last || !attr || dwarf_getlocation_implicit_value(attr, op, &b) != 0 ||
                block_const(&b, &v) != 0) {
                fail(&em, VP_COV_UNSUPPORTED_OP);
                break;
            }
            emit(&em, VP_OP_CONST, 0, 0, v, 0, 1);
            is_value = 1;
        } else if (a == DW_OP_entry_value || a == DW_OP_GNU_entry_value) {
            fail(&em, VP_COV_ENTRY_VALUE);
        } else if (a == DW_OP_piece || a == DW_OP_bit_piece) {
            fail(&em, VP_COV_PIECES);
        } else if (a == DW_OP_form_tls_address || a == DW_OP_GNU_push_tls_address) {
            fail(&em, VP_COV_TLS);
        } else {
            fail(&em, VP_COV_UNSUPPORTED_OP);
        }
    }
    if (em.reason != VP_COV_OK)
        return em.reason;
    if (em.depth < 1) {
        return VP_COV_UNSUPPORTED_OP;
    }
    struct vp_op *t = &out->ops[out->op_count++];
    memset(t, 0, sizeof *t);
    t->code = is_value ? VP_OP_VALUE : VP_OP_MEMORY;
    t->size = (uint8_t)size;
    out->is_addr_only = em.addr_only;
    if (em.caller_ok)
        out->flags |= VP_RECIPE_CALLER_OK;
    return VP_COV_OK;
}

int vp_dwarf_translate_const(Dwarf_Attribute *attr, struct vp_dwarf_recipe *out)
{
    memset(out, 0, sizeof *out);
    int64_t v;
    Dwarf_Block b;
    switch (dwarf_whatform(attr)) {
    case DW_FORM_block:
    case DW_FORM_block1:
    case DW_FORM_block2:
    case DW_FORM_block4:
        if (dwarf_formblock(attr, &b) != 0 || block_const(&b, &v) != 0)
            return VP_COV_UNSUPPORTED_OP;
        break;
    case DW_FORM_sdata:
    case DW_FORM_implicit_const:
        if (dwarf_formsdata(attr, &v) != 0)
            return VP_COV_UNSUPPORTED_OP;
        break;
    default: {
        Dwarf_Word u;
        if (dwarf_formudata(attr, &u) != 0)
            return VP_COV_UNSUPPORTED_OP;
        v = (int64_t)u;
    }
    }
    out->ops[0].code = VP_OP_CONST;
    out->ops[0].arg = v;
    out->ops[1].code = VP_OP_VALUE;
    out->ops[1].size = 8;
    out->op_count = 2;
    out->flags = VP_RECIPE_CALLER_OK;
    out->is_addr_only = 1;
    return VP_COV_OK;
}

void vp_dwarf_frame_base(Dwarf_Die *subprogram, struct vp_dwarf_frame_base *fb)
{
    fb->kind = VP_FB_NONE;
    fb->reg = 0;
    fb->off = 0;
    Dwarf_Attribute attr;
    Dwarf_Op *ops;
    size_t nops;
    if (!dwarf_attr(subprogram, DW_AT_frame_base, &attr))
        return;
    /* A frame base that is itself a location list (rare; old GCC) would need
       per-range intersection: refused, fbreg variables become unsupported. */
    if (dwarf_getlocation(&attr, &ops, &nops) != 0 || nops != 1)
        return;
    unsigned a = ops[0].atom;
    if (a >= DW_OP_reg0 && a < DW_OP_reg0 + NUM_GPR) {
        /* clang: the frame base is the *contents* of rbp (or rsp without a
           frame pointer), so fbreg N is breg(reg, N). */
        fb->kind = VP_FB_BREG;
        fb->reg = (uint8_t)(a - DW_OP_reg0);
    } else if (a >= DW_OP_breg0 && a < DW_OP_breg0 + NUM_GPR) {
        fb->kind = VP_FB_BREG;
        fb->reg = (uint8_t)(a - DW_OP_breg0);
        fb->off = (int64_t)ops[0].number;
    } else if (a == DW_OP_call_frame_cfa) {
        fb->kind = VP_FB_CFA; /* GCC */
    }
}
