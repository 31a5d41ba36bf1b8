/*
 * mkindex.c - test-only generator of a PC index file (format.h part 3) for
 * t_values, so the runtime can be tested without the DWARF index builder.
 *
 *   mkindex OUT MODULE_PATH name=hexvaddr...
 * needs the ELF addresses (from `nm`) of: g_counter g_int_ptr g_bad_ptr g_neg
 * vp_loop_rbx_body vp_loop_rbx_end vp_caller_call vp_caller_ret.
 *
 * Variables (var_id: what the test expects):
 *   0 g_counter  global, [ADDR][MEMORY 8]                      -> 424242
 *   1 g_int_ptr  global, pointer to int, DEREF_BASIC          -> 99
 *   2 g_bad_ptr  global, pointer into an unmapped page         -> POINTEE_UNREADABLE
 *   3 bad_abs    global, [CONST 8][MEMORY 8]                   -> UNREADABLE
 *   4 g_neg      global, [ADDR][DEREF 4][VALUE], signed 4 bytes -> -5 sign-extended
 *   5 i          rbx in vp_loop_rbx's loop                      -> 1..n, depth 0
 *   6 r12        r12 in vp_caller_r12 at its call, CALLER_OK    -> 0x1234, depth 1
 *   7 local      CFA-24 in vp_caller_r12, CALLER_OK|NEEDS_CFA   -> 777, depth 1
 *   8 g_dead_stack_ptr global, pointer into an exited thread's unmapped
 *                stack, DEREF_BASIC                            -> POINTEE_UNREADABLE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vprof/format.h>

static uint8_t out[1 << 16];
static size_t used;

static size_t put(const void *p, size_t n)
{
    used = (used + 7) & ~(size_t)7;
    size_t off = used;
    memcpy(out + off, p, n);
    used += n;
    return off;
}

static uint64_t sym(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 3; i < argc; i++)
        if (!strncmp(argv[i], name, n) && argv[i][n] == '=')
            return strtoull(argv[i] + n + 1, NULL, 16);
    fprintf(stderr, "mkindex: missing %s=ADDR\n", name);
    exit(2);
}

static char strtab[1024];
static uint32_t strused = 1;

static uint32_t str(const char *s)
{
    uint32_t off = strused;
    strcpy(strtab + off, s);
    strused += (uint32_t)strlen(s) + 1;
    return off;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mkindex OUT MODULE name=hexaddr...\n");
        return 2;
    }
    uint64_t a_counter = sym(argc, argv, "g_counter"), a_ptr = sym(argc, argv, "g_int_ptr"),
             a_bad = sym(argc, argv, "g_bad_ptr"), a_neg = sym(argc, argv, "g_neg"),
             a_dead = sym(argc, argv, "g_dead_stack_ptr"),
             a_body = sym(argc, argv, "vp_loop_rbx_body"), a_end = sym(argc, argv, "vp_loop_rbx_end"),
             a_call = sym(argc, argv, "vp_caller_call"), a_ret = sym(argc, argv, "vp_caller_ret");

    struct vp_op ops[] = {
        /* 0 */ {VP_OP_ADDR, 0, 0, {0}, (int64_t)a_counter}, {VP_OP_MEMORY, 0, 8, {0}, 0},
        /* 2 */ {VP_OP_ADDR, 0, 0, {0}, (int64_t)a_ptr}, {VP_OP_MEMORY, 0, 8, {0}, 0},
        /* 4 */ {VP_OP_ADDR, 0, 0, {0}, (int64_t)a_bad}, {VP_OP_MEMORY, 0, 8, {0}, 0},
        /* 6 */ {VP_OP_CONST, 0, 0, {0}, 8}, {VP_OP_MEMORY, 0, 8, {0}, 0},
        /* 8 */ {VP_OP_ADDR, 0, 0, {0}, (int64_t)a_neg}, {VP_OP_DEREF, 0, 4, {0}, 0},
        {VP_OP_VALUE, 0, 0, {0}, 0},
        /* 11 */ {VP_OP_REG, 3, 0, {0}, 0}, {VP_OP_VALUE, 0, 0, {0}, 0},
        /* 13 */ {VP_OP_REG, 12, 0, {0}, 0}, {VP_OP_VALUE, 0, 0, {0}, 0},
        /* 15 */ {VP_OP_CFA, 0, 0, {0}, -24}, {VP_OP_MEMORY, 0, 8, {0}, 0},
        /* 17 */ {VP_OP_ADDR, 0, 0, {0}, (int64_t)a_dead}, {VP_OP_MEMORY, 0, 8, {0}, 0},
    };
    struct vp_recipe recipes[] = {
        {0, 0, 8, 0, 0, 2},
        {1, VP_RECIPE_DEREF_BASIC, 8, 4, 2, 2},
        {2, VP_RECIPE_DEREF_BASIC, 8, 4, 4, 2},
        {3, 0, 8, 0, 6, 2},
        {4, 0, 4, 0, 8, 3},
        {5, 0, 8, 0, 11, 2},
        {6, VP_RECIPE_CALLER_OK, 8, 0, 13, 2},
        {7, VP_RECIPE_CALLER_OK | VP_RECIPE_NEEDS_CFA, 8, 0, 15, 2},
        {8, VP_RECIPE_DEREF_BASIC, 8, 4, 17, 2},
    };
    uint32_t refs[] = {0, 1, 2, 3, 4, 8, 5, 6, 7};
    struct vp_index_range ranges[3] = {
        {0, 0, 0, 6},          /* always-live globals */
        {a_body, a_end, 6, 1}, /* the rbx loop */
        {a_call, a_ret, 7, 2}, /* the call site in vp_caller_r12 (ret - 1) */
    };
    if (ranges[1].lo > ranges[2].lo) { /* keep sorted */
        struct vp_index_range t = ranges[1];
        ranges[1] = ranges[2];
        ranges[2] = t;
    }
    uint32_t mod_path = str(argv[2]);

    /* variable table: header, vars, own strings */
    struct {
        const char *name, *fn;
        uint16_t tags, kind;
        uint32_t size;
    } vdef[] = {
        {"g_counter", "", VP_TAG_GLOBAL, VP_TYPE_SINT, 8},
        {"g_int_ptr", "", VP_TAG_GLOBAL, VP_TYPE_PTR_BASIC, 8},
        {"g_bad_ptr", "", VP_TAG_GLOBAL, VP_TYPE_PTR_BASIC, 8},
        {"bad_abs", "", VP_TAG_GLOBAL, VP_TYPE_UINT, 8},
        {"g_neg", "", VP_TAG_GLOBAL, VP_TYPE_SINT, 4},
        {"i", "vp_loop_rbx", VP_TAG_LOOP, VP_TYPE_UINT, 8},
        {"r12", "vp_caller_r12", VP_TAG_ARGS, VP_TYPE_UINT, 8},
        {"local", "vp_caller_r12", VP_TAG_COND, VP_TYPE_SINT, 8},
        {"g_dead_stack_ptr", "", VP_TAG_GLOBAL, VP_TYPE_PTR_BASIC, 8},
    };
    enum { NV = sizeof vdef / sizeof vdef[0] };
    char vstr[512] = {0};
    uint32_t vused = 1;
#define VSTR(s) (strcpy(vstr + vused, (s)), vused += (uint32_t)strlen(s) + 1, vused - (uint32_t)strlen(s) - 1)
    struct vp_prof_var vars[NV];
    memset(vars, 0, sizeof vars);
    uint32_t vfile = VSTR("t_values.c");
    for (int i = 0; i < NV; i++) {
        vars[i].file = vfile;
        vars[i].function = vdef[i].fn[0] ? VSTR(vdef[i].fn) : 0;
        vars[i].name = VSTR(vdef[i].name);
        vars[i].type = 0;
        vars[i].line = 10 + i;
        vars[i].tags = vdef[i].tags;
        vars[i].type_kind = vdef[i].kind;
        vars[i].size = vdef[i].size;
        vars[i].module = 0;
    }
    uint8_t vartab[sizeof(struct vp_vartab_header) + sizeof vars + sizeof vstr];
    struct vp_vartab_header vh = {NV, vused};
    memcpy(vartab, &vh, sizeof vh);
    memcpy(vartab + sizeof vh, vars, sizeof vars);
    memcpy(vartab + sizeof vh + sizeof vars, vstr, vused);
    uint32_t vartab_size = (uint32_t)(sizeof vh + sizeof vars + vused);

    struct vp_coverage cov;
    memset(&cov, 0, sizeof cov);
    cov.schema_vars = NV;
    cov.located = NV;
    cov.by_reason[VP_COV_OK] = NV;

    struct vp_index_module mod;
    memset(&mod, 0, sizeof mod);
    mod.path = mod_path;
    mod.first_range = 0;
    mod.range_count = 3;

    struct vp_index_header h;
    memset(&h, 0, sizeof h);
    put(&h, sizeof h);
    h.magic = VP_INDEX_MAGIC;
    h.version = VP_INDEX_VERSION;
    h.header_size = sizeof h;
    h.module_count = 1;
    h.modules_off = (uint32_t)put(&mod, sizeof mod);
    h.range_count = 3;
    h.ranges_off = (uint32_t)put(ranges, sizeof ranges);
    h.refs_count = sizeof refs / sizeof refs[0];
    h.refs_off = (uint32_t)put(refs, sizeof refs);
    h.recipe_count = NV;
    h.recipes_off = (uint32_t)put(recipes, sizeof recipes);
    h.op_count = sizeof ops / sizeof ops[0];
    h.ops_off = (uint32_t)put(ops, sizeof ops);
    h.strings_size = strused;
    h.strings_off = (uint32_t)put(strtab, strused);
    h.vartab_size = vartab_size;
    h.vartab_off = (uint32_t)put(vartab, vartab_size);
    h.coverage_size = sizeof cov;
    h.coverage_off = (uint32_t)put(&cov, sizeof cov);
    used = (used + 7) & ~(size_t)7;
    h.file_size = used;
    memcpy(out, &h, sizeof h);

    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(out, 1, used, f) != used || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
