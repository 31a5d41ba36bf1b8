/*
 * gcc12322_debuginfo -- a slice of a C compiler back end: the declarations of
 * a translation unit (most of them from system headers), a use-marking pass
 * over the function bodies, and DWARF DIE generation into a .debug_info
 * buffer.
 *
 * Modelled on GCC12322 (LDoctor Table 3: resultless 1* loop, fixed by
 * skipping).  Our reconstruction: dwarf2out_global_decls() generates a DIE for
 * every declaration of the unit, although only the used ones matter; every
 * iteration writes DIEs (1*), the output is simply useless for unused
 * declarations.  Huge headers make -g compiles slow; the fix skips unused
 * declarations (the later -feliminate-unused-debug-types behaviour).
 *
 * usage: gcc12322_debuginfo NDECLS NFUNCS STMTS_PER_FUNC SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

enum { DECL_VAR, DECL_FUNC, DECL_TYPE, DECL_TYPEDEF };
#define DW_TAG_variable 0x34
#define DW_TAG_subprogram 0x2e
#define DW_TAG_structure_type 0x13
#define DW_TAG_typedef 0x16
#define DW_TAG_member 0x0d

typedef struct decl {
    int kind;
    char name[32];
    int n_fields;
    int used;
    int line;
} decl;

typedef struct { uint8_t *buf; size_t len, cap; uint32_t n_dies; } debug_section;
static debug_section debug_info;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static void out_byte(uint8_t b)
{
    if (debug_info.len == debug_info.cap) {
        debug_info.cap = debug_info.cap ? debug_info.cap * 2 : 4096;
        debug_info.buf = realloc(debug_info.buf, debug_info.cap);
    }
    debug_info.buf[debug_info.len++] = b;
}

static void out_uleb128(uint32_t v)
{
    do { uint8_t b = v & 0x7f; v >>= 7; if (v) b |= 0x80; out_byte(b); } while (v);
}

static void out_string(const char *s) { while (*s) out_byte((uint8_t)*s++); out_byte(0); }

NOINLINE void add_die(uint32_t tag, const char *name, uint32_t line)
{
    out_uleb128(tag);
    out_string(name);
    out_uleb128(line);
    debug_info.n_dies++;
}

/* DW_AT_signature for type units: a hash over the type's name and layout */
NOINLINE uint64_t compute_type_signature(const decl *d)
{
    uint64_t h = 0x6a09e667f3bcc908ull;
    for (int round = 0; round < 24; round++)
        for (const char *p = d->name; *p; p++)
            h = (h ^ (uint8_t)*p ^ (uint64_t)d->n_fields) * 0x100000001b3ull + (uint64_t)round;
    return h;
}

NOINLINE void gen_decl_die(const decl *d)
{
    static const uint32_t tags[] = { DW_TAG_variable, DW_TAG_subprogram, DW_TAG_structure_type, DW_TAG_typedef };
    add_die(tags[d->kind], d->name, (uint32_t)d->line);
    if (d->kind == DECL_TYPE || d->kind == DECL_TYPEDEF) {
        uint64_t sig = compute_type_signature(d);
        for (int k = 0; k < 8; k++) out_byte((uint8_t)(sig >> (k * 8)));
    }
    if (d->kind == DECL_TYPE) {
        char member[40];
        for (int f = 0; f < d->n_fields; f++) {
            snprintf(member, sizeof member, "%s_f%d", d->name, f);
            add_die(DW_TAG_member, member, (uint32_t)(d->line + f + 1));
        }
    }
}

/* dwarf2out.c */
NOINLINE void dwarf2out_global_decls(const decl *decls, int ndecls)
{
    for (int i = 0; i < ndecls; i++) { /* ROOT-CAUSE LOOP */
        const decl *d = &decls[i];
        gen_decl_die(d);
    }
}

/* the compiler proper: "compile" the function bodies, marking used decls */
NOINLINE uint64_t compile_functions(decl *decls, int ndecls, int nfuncs, int nstmts, int nused)
{
    uint64_t code = 0;
    for (int f = 0; f < nfuncs; f++) {
        uint32_t regs[16] = {0};
        for (int s = 0; s < nstmts; s++) { /* HOT LOOP */
            uint32_t r = rnd();
            decl *d = &decls[(r >> 4) % (uint32_t)nused];     /* user code touches few decls */
            d->used = 1;
            uint32_t a = regs[r & 15], b = regs[(r >> 20) & 15];
            regs[(r >> 8) & 15] = (a * 33u) ^ (b + (uint32_t)d->line);
            code += regs[(r >> 8) & 15] & 0xff;
        }
    }
    (void)ndecls;
    return code;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NDECLS NFUNCS STMTS_PER_FUNC SEED\n", argv[0]);
        return 2;
    }
    int ndecls = atoi(argv[1]), nfuncs = atoi(argv[2]), nstmts = atoi(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    decl *decls = calloc((size_t)ndecls, sizeof *decls);
    for (int i = 0; i < ndecls; i++) {
        decl *d = &decls[i];
        d->kind = (int)(rnd() % 4);
        snprintf(d->name, sizeof d->name, "%s_%d", d->kind == DECL_FUNC ? "__libc_fn" : "qt_sym", i);
        d->n_fields = d->kind == DECL_TYPE ? 2 + (int)(rnd() % 12) : 0;
        d->line = i * 3 + 1;
    }
    int nused = ndecls < 2000 ? ndecls : 2000;
    uint64_t code = compile_functions(decls, ndecls, nfuncs, nstmts, nused);
    dwarf2out_global_decls(decls, ndecls);
    uint32_t h = 0;
    for (size_t i = 0; i < debug_info.len; i++) h = h * 31 + debug_info.buf[i];
    printf("code=%llu dies=%u debug_info_bytes=%zu hash=%08x\n", (unsigned long long)code,
           debug_info.n_dies, debug_info.len, h);
    return 0;
}
