/*
 * test_index.c - static checks of vp_index_build output on vars.c variants
 * (what each location became), bad input (corrupt schema, random mutations,
 * truncated index), several modules, and the build time for 1,000
 * variables (logged, not asserted).  Live value checks are in gdb_check.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dwarf/dwarf_internal.h"
#include "vprof/index.h"

struct idx {
    unsigned char *buf;
    size_t len;
    struct vp_index_header h;
    const struct vp_index_module *mods;
    const struct vp_index_range *ranges;
    const uint32_t *refs;
    const struct vp_recipe *recipes;
    const struct vp_op *ops;
    const struct vp_vartab_header *vt;
    const struct vp_prof_var *vars;
    const char *vs;
    const struct vp_coverage *cov;
};

static void load(struct idx *x, const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    x->len = (size_t)ftell(f);
    rewind(f);
    x->buf = malloc(x->len);
    assert_int_equal(fread(x->buf, 1, x->len, f), x->len);
    fclose(f);
    memcpy(&x->h, x->buf, sizeof x->h);
    assert_int_equal(x->h.magic, VP_INDEX_MAGIC);
    assert_int_equal(x->h.file_size, x->len);
    x->mods = (const void *)(x->buf + x->h.modules_off);
    x->ranges = (const void *)(x->buf + x->h.ranges_off);
    x->refs = (const void *)(x->buf + x->h.refs_off);
    x->recipes = (const void *)(x->buf + x->h.recipes_off);
    x->ops = (const void *)(x->buf + x->h.ops_off);
    x->vt = (const void *)(x->buf + x->h.vartab_off);
    x->vars = (const void *)(x->vt + 1);
    x->vs = (const char *)(x->vars + x->vt->var_count);
    x->cov = (const void *)(x->buf + x->h.coverage_off);
}

/* Build the index of one test binary into DW_OUT/<name>.test.idx. */
static void build(struct idx *x, const char *name, struct vp_index_stats *st)
{
    char bin[1024], out[1024], err[1024];
    snprintf(bin, sizeof bin, "%s/%s", DW_OUT, name);
    snprintf(out, sizeof out, "%s/%s.test.idx", DW_OUT, name);
    const char *paths[1] = { bin };
    int rc = vp_index_build(paths, 1, out, st, err, sizeof err);
    if (rc != 0)
        fail_msg("vp_index_build(%s) = %d: %s", name, rc, err);
    load(x, out);
}

static uint32_t var_id(const struct idx *x, const char *name)
{
    for (uint32_t i = 0; i < x->vt->var_count; i++)
        if (strcmp(x->vs + x->vars[i].name, name) == 0)
            return i;
    fail_msg("no variable %s", name);
    return 0;
}

/* Every distinct recipe of a variable (over all ranges). */
static size_t recipes_of(const struct idx *x, uint32_t var, const struct vp_recipe **out,
                         size_t max)
{
    size_t n = 0;
    for (uint32_t i = 0; i < x->h.recipe_count && n < max; i++)
        if (x->recipes[i].var_id == var)
            out[n++] = &x->recipes[i];
    return n;
}

static const struct vp_op *op(const struct idx *x, const struct vp_recipe *r, uint32_t k)
{
    assert_true(k < r->op_count);
    return &x->ops[r->first_op + k];
}

/* Ranges of each module sorted, disjoint, refs in bounds; the optional
   "always" range [0, 0) comes first. */
static void check_shape(const struct idx *x)
{
    for (uint32_t m = 0; m < x->h.module_count; m++) {
        uint64_t prev_hi = 0;
        for (uint32_t i = 0; i < x->mods[m].range_count; i++) {
            const struct vp_index_range *r = &x->ranges[x->mods[m].first_range + i];
            if (r->lo == 0 && r->hi == 0) {
                assert_int_equal(i, 0);
            } else {
                assert_true(r->lo < r->hi);
                assert_true(r->lo >= prev_hi);
                prev_hi = r->hi;
            }
            assert_true(r->recipe_count > 0);
            assert_true(r->first_recipe + r->recipe_count <= x->h.refs_count);
            for (uint32_t k = 0; k < r->recipe_count; k++) {
                const struct vp_recipe *rc = &x->recipes[x->refs[r->first_recipe + k]];
                assert_true(rc->op_count >= 2 && rc->op_count <= VP_RECIPE_MAX_OPS);
                uint8_t last = x->ops[rc->first_op + rc->op_count - 1].code;
                assert_true(last == VP_OP_VALUE || last == VP_OP_MEMORY);
                assert_int_equal(x->vars[rc->var_id].module, m);
            }
        }
    }
}

/* Is recipe r listed in the module's always range? */
static int in_always(const struct idx *x, const struct vp_recipe *r)
{
    const struct vp_index_range *a = &x->ranges[x->mods[0].first_range];
    if (a->lo != 0 || a->hi != 0)
        return 0;
    for (uint32_t k = 0; k < a->recipe_count; k++)
        if (&x->recipes[x->refs[a->first_recipe + k]] == r)
            return 1;
    return 0;
}

static void check_globals(const struct idx *x)
{
    const struct vp_recipe *r[8];
    assert_int_equal(recipes_of(x, var_id(x, "g_total"), r, 8), 1);
    assert_int_equal(r[0]->op_count, 2);
    assert_int_equal(op(x, r[0], 0)->code, VP_OP_ADDR);
    assert_int_equal(op(x, r[0], 1)->code, VP_OP_MEMORY);
    assert_int_equal(op(x, r[0], 1)->size, 8);
    assert_true(r[0]->flags & VP_RECIPE_CALLER_OK);
    assert_true(in_always(x, r[0]));
    assert_int_equal(recipes_of(x, var_id(x, "g_calls"), r, 8), 1);
    assert_int_equal(op(x, r[0], 1)->size, 4);
}

/* -O0: stack slots through the frame base; fb_reg 6 (rbp), 7 (rsp), or -1
   for GCC's DW_OP_call_frame_cfa. */
static void check_o0(const char *name, int fb_reg)
{
    struct idx x;
    struct vp_index_stats st;
    build(&x, name, &st);
    check_shape(&x);
    check_globals(&x);
    const char *locals[] = { "s", "i", "acc", "n", "arr", "p", "k", "x" };
    for (size_t i = 0; i < sizeof locals / sizeof *locals; i++) {
        const struct vp_recipe *r[8];
        assert_int_equal(recipes_of(&x, var_id(&x, locals[i]), r, 8), 1);
        const struct vp_op *o0 = op(&x, r[0], 0);
        if (fb_reg >= 0) {
            assert_int_equal(o0->code, VP_OP_BREG);
            assert_int_equal(o0->reg, fb_reg);
            assert_int_equal(!!(r[0]->flags & VP_RECIPE_NEEDS_CFA), 0);
        } else {
            assert_int_equal(o0->code, VP_OP_CFA);
            assert_true(r[0]->flags & VP_RECIPE_NEEDS_CFA);
        }
        assert_true(o0->arg < 0 || fb_reg == 7);
        assert_int_equal(op(&x, r[0], 1)->code, VP_OP_MEMORY);
        assert_true(r[0]->flags & VP_RECIPE_CALLER_OK); /* rbp/rsp/CFA based */
    }
    const struct vp_recipe *r[8];
    assert_int_equal(recipes_of(&x, var_id(&x, "p"), r, 8), 1);
    assert_true(r[0]->flags & VP_RECIPE_DEREF_BASIC);
    assert_int_equal(r[0]->pointee_size, 4);
    assert_int_equal(recipes_of(&x, var_id(&x, "s"), r, 8), 1);
    assert_false(r[0]->flags & VP_RECIPE_DEREF_BASIC);
    assert_int_equal(op(&x, r[0], 1)->size, 8);

    /* Everything but "missing" (no such variable) is located at -O0. */
    assert_int_equal(x.cov->schema_vars, 12);
    assert_int_equal(x.cov->located, 11);
    assert_int_equal(x.cov->by_reason[VP_COV_NO_DIE], 1);
    assert_int_equal(x.cov->pc_bytes_located, x.cov->pc_bytes_total);
    assert_true(x.cov->pc_bytes_total > 0);
    assert_memory_equal(x.cov, &st.coverage, sizeof *x.cov);
    print_message("%s: %u/%u located, %u ranges, %u recipes, %.3f ms\n", name, st.coverage.located,
                  st.coverage.schema_vars, st.ranges, st.recipes, st.build_ms);
    free(x.buf);
}

static void test_o0_dwarf4(void **s) { check_o0("vars-O0-dwarf4", 6); }
static void test_o0_dwarf5(void **s) { check_o0("vars-O0-dwarf5", 6); }
static void test_o0_nofp(void **s) { check_o0("vars-O0-nofp-dwarf5", 7); }
static void test_gcc_cfa(void **s)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/vars-gcc-O0", DW_OUT);
    if (access(p, R_OK) != 0)
        skip();
    check_o0("vars-gcc-O0", -1);
}

/* -O2: registers, location lists, expressions, entry values. */
static void check_o2(const char *name)
{
    struct idx x;
    struct vp_index_stats st;
    build(&x, name, &st);
    check_shape(&x);
    check_globals(&x);
    const struct vp_recipe *r[16];

    /* n moves between registers: a location list with several recipes. */
    size_t n = recipes_of(&x, var_id(&x, "n"), r, 16);
    assert_true(n >= 2);
    /* arr is a pointer to int in a register: DEREF_BASIC on each recipe. */
    n = recipes_of(&x, var_id(&x, "arr"), r, 16);
    assert_true(n >= 1);
    for (size_t i = 0; i < n; i++) {
        assert_true(r[i]->flags & VP_RECIPE_DEREF_BASIC);
        assert_int_equal(op(&x, r[i], r[i]->op_count - 1)->code, VP_OP_VALUE);
    }
    /* The loop counter lives in a register somewhere. */
    n = recipes_of(&x, var_id(&x, "i"), r, 16);
    int reg = 0;
    for (size_t i = 0; i < n; i++)
        reg |= op(&x, r[i], 0)->code == VP_OP_REG;
    assert_true(reg);
    /* Some variable needed a real expression (strength-reduced induction
       variable): more than "register, value". */
    int expr = 0;
    for (uint32_t i = 0; i < x.h.recipe_count; i++)
        expr |= x.recipes[i].op_count > 2 &&
                x.ops[x.recipes[i].first_op + x.recipes[i].op_count - 1].code == VP_OP_VALUE;
    assert_true(expr);
    /* Caller-frame flag follows the registers: rdi/rsi/rdx... are not. */
    for (uint32_t i = 0; i < x.h.recipe_count; i++) {
        const struct vp_recipe *q = &x.recipes[i];
        const struct vp_op *o = &x.ops[q->first_op];
        if (o->code == VP_OP_REG && q->op_count == 2) {
            int saved = o->reg == 3 || o->reg == 6 || (o->reg >= 12 && o->reg <= 15);
            assert_int_equal(!!(q->flags & VP_RECIPE_CALLER_OK), saved);
        }
    }
    /* x and acc end their lives as DW_OP_entry_value: counted, never
       translated.  x is still located at the entry (in rdi). */
    assert_true(x.cov->located >= 8);
    assert_true(x.cov->pc_bytes_located < x.cov->pc_bytes_total);
    n = recipes_of(&x, var_id(&x, "x"), r, 16);
    assert_int_equal(n, 1);
    assert_int_equal(op(&x, r[0], 0)->code, VP_OP_REG);
    assert_true(x.cov->by_reason[VP_COV_ENTRY_VALUE] >= 1);
    /* ...and no range of x reaches past the call to opaque(): the entry
       value part of its location list has no recipe. */
    uint32_t xid = var_id(&x, "x");
    uint64_t xhi = 0, xlo = UINT64_MAX;
    for (uint32_t i = 0; i < x.h.range_count; i++)
        for (uint32_t k = 0; k < x.ranges[i].recipe_count; k++)
            if (x.recipes[x.refs[x.ranges[i].first_recipe + k]].var_id == xid) {
                xlo = x.ranges[i].lo < xlo ? x.ranges[i].lo : xlo;
                xhi = x.ranges[i].hi > xhi ? x.ranges[i].hi : xhi;
            }
    assert_true(xhi > xlo && xhi - xlo < 0x20);
    uint32_t sum_bytes = 0;
    for (int k = 0; k < VP_COV_REASONS; k++)
        sum_bytes += x.cov->by_reason[k];
    assert_int_equal(sum_bytes, x.cov->schema_vars);
    print_message("%s: %u/%u located, no-die %u, no-location %u, entry-value %u, "
                  "pc bytes %llu/%llu, %u ranges, %u recipes, %.3f ms\n",
                  name, st.coverage.located, st.coverage.schema_vars,
                  st.coverage.by_reason[VP_COV_NO_DIE], st.coverage.by_reason[VP_COV_NO_LOCATION],
                  st.coverage.by_reason[VP_COV_ENTRY_VALUE],
                  (unsigned long long)st.coverage.pc_bytes_located,
                  (unsigned long long)st.coverage.pc_bytes_total, st.ranges, st.recipes,
                  st.build_ms);
    free(x.buf);
}

static void test_o2_dwarf4(void **s) { check_o2("vars-O2-dwarf4"); }
static void test_o2_dwarf5(void **s) { check_o2("vars-O2-dwarf5"); }

static void test_corrupt(void **s)
{
    char bin[1024], out[1024], err[1024] = "";
    snprintf(bin, sizeof bin, "%s/corrupt", DW_OUT);
    snprintf(out, sizeof out, "%s/corrupt.idx", DW_OUT);
    unlink(out);
    const char *paths[1] = { bin };
    assert_int_equal(vp_index_build(paths, 1, out, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, bin));
    assert_non_null(strstr(err, ".vprof.schema offset 0: 1000 entries do not fit"));
    assert_int_not_equal(access(out, F_OK), 0);
}

static void test_no_schema(void **s)
{
    char out[1024], err[1024];
    snprintf(out, sizeof out, "%s/none.idx", DW_OUT);
    unlink(out);
    const char *paths[1] = { "/proc/self/exe" };
    assert_int_equal(vp_index_build(paths, 1, out, NULL, err, sizeof err), 1);
    assert_int_not_equal(access(out, F_OK), 0);
    paths[0] = "/nonexistent/prog";
    assert_int_equal(vp_index_build(paths, 1, out, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/prog: "));
}

/* The valid section of a test binary, for the parser tests. */
static unsigned char *schema_bytes(const char *name, size_t *len)
{
    char bin[1024];
    snprintf(bin, sizeof bin, "%s/%s", DW_OUT, name);
    FILE *f = fopen(bin, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size_t n = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(n);
    assert_int_equal(fread(b, 1, n, f), n);
    fclose(f);
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)b, n);
    size_t shstr;
    assert_int_equal(elf_getshdrstrndx(e, &shstr), 0);
    unsigned char *out = NULL;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        if (strcmp(elf_strptr(e, shstr, sh.sh_name), VP_SCHEMA_SECTION) == 0) {
            Elf_Data *d = elf_getdata(scn, NULL);
            out = malloc(d->d_size);
            memcpy(out, d->d_buf, d->d_size);
            *len = d->d_size;
        }
    }
    elf_end(e);
    free(b);
    assert_non_null(out);
    return out;
}

/* Truncations and random byte flips: the parser returns 0 or -1 with a
   message, never crashes (run under ASan in the sanitizer build). */
static void test_schema_mutations(void **s)
{
    size_t len;
    unsigned char *good = schema_bytes("vars-O0-dwarf5", &len);
    struct vp_dwarf_var *v;
    size_t n;
    char err[512];
    assert_int_equal(vp_dwarf_schema_parse(good, len, "t", &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 12);
    assert_string_equal(v[0].name, "g_total");
    assert_string_equal(v[0].file, DW_SRC "/vars.c");
    vp_dwarf_schema_free(v, n);
    for (size_t cut = 8; cut < len; cut += 8) {
        unsigned char *t = malloc(cut);
        memcpy(t, good, cut);
        int rc = vp_dwarf_schema_parse(t, cut, "t", &v, &n, err, sizeof err);
        if (rc == 0)
            vp_dwarf_schema_free(v, n); /* a cut at a blob boundary is valid */
        else
            assert_non_null(strstr(err, "t: .vprof.schema"));
        free(t);
    }
    unsigned char *m = malloc(len);
    srand(1234);
    int failed = 0;
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(m, good, len);
        for (int k = 0; k < 1 + iter % 4; k++)
            m[(size_t)rand() % len] = (unsigned char)rand();
        if (vp_dwarf_schema_parse(m, len, "t", &v, &n, err, sizeof err) == 0)
            vp_dwarf_schema_free(v, n);
        else
            failed++;
    }
    assert_true(failed > 0);
    free(m);
    free(good);
}

static void test_two_modules(void **s)
{
    char a[1024], b[1024], out[1024], err[1024];
    snprintf(a, sizeof a, "%s/vars-O0-dwarf5", DW_OUT);
    snprintf(b, sizeof b, "%s/vars-O2-dwarf5", DW_OUT);
    snprintf(out, sizeof out, "%s/two.idx", DW_OUT);
    const char *paths[3] = { a, "/proc/self/exe", b };
    struct vp_index_stats st;
    assert_int_equal(vp_index_build(paths, 3, out, &st, err, sizeof err), 0);
    assert_int_equal(st.modules, 2);
    struct idx x;
    load(&x, out);
    check_shape(&x);
    assert_int_equal(x.h.module_count, 2);
    assert_int_equal(x.vt->var_count, 24);
    assert_int_equal(x.vars[0].module, 0);
    assert_int_equal(x.vars[12].module, 1);
    assert_int_equal(x.mods[0].build_id_len, 20);
    assert_int_equal(x.cov->schema_vars, 24);

    /* Dump: readable, and a truncated file is an error, not a crash. */
    char *text = NULL;
    size_t tl = 0;
    FILE *mf = open_memstream(&text, &tl);
    assert_int_equal(vp_index_dump(mf, out, err, sizeof err), 0);
    fclose(mf);
    assert_non_null(strstr(text, "module 1 "));
    assert_non_null(strstr(text, ":g_total=addr0x"));
    assert_non_null(strstr(text, "coverage vars 24"));
    free(text);
    char cut[1024];
    snprintf(cut, sizeof cut, "%s/two-cut.idx", DW_OUT);
    FILE *f = fopen(cut, "wb");
    fwrite(x.buf, 1, x.len / 2, f);
    fclose(f);
    mf = open_memstream(&text, &tl);
    assert_int_equal(vp_index_dump(mf, cut, err, sizeof err), -1);
    fclose(mf);
    free(text);
    assert_non_null(strstr(err, "file_size"));
    free(x.buf);
}

/* Is recipe r in some non-empty range of module 0 overlapping [lo, hi)?
   Returns the number of such ranges; *outside is set if r is also in a
   range not inside [lo1, hi1) or [lo2, hi2). */
static int ranges_with(const struct idx *x, const struct vp_recipe *r, const uint64_t (*fn)[2],
                       size_t nfn, int *outside)
{
    int n = 0;
    *outside = 0;
    for (uint32_t i = 0; i < x->mods[0].range_count; i++) {
        const struct vp_index_range *rg = &x->ranges[x->mods[0].first_range + i];
        if (rg->lo == 0 && rg->hi == 0)
            continue;
        for (uint32_t k = 0; k < rg->recipe_count; k++) {
            if (&x->recipes[x->refs[rg->first_recipe + k]] != r)
                continue;
            n++;
            int in = 0;
            for (size_t f = 0; f < nfn; f++)
                in |= rg->lo >= fn[f][0] && rg->hi <= fn[f][1];
            if (!in)
                *outside = 1;
        }
    }
    return n;
}

/* [lo, hi) of function `name` in `bin`, from its ELF symbol. */
static void func_range(const char *bin, const char *name, uint64_t *lo, uint64_t *hi)
{
    char cmd[2048], line[512];
    snprintf(cmd, sizeof cmd, "nm -S --defined-only %s", bin);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    *lo = *hi = 0;
    while (fgets(line, sizeof line, p)) {
        unsigned long long a, sz;
        char t, nm[256];
        if (sscanf(line, "%llx %llx %c %255s", &a, &sz, &t, nm) == 4 && strcmp(nm, name) == 0) {
            *lo = a;
            *hi = a + sz;
        }
    }
    pclose(p);
    assert_true(*hi > *lo);
}

/* Schema v2: a global's recipe lies only in the code of its users (from
   its own TU and from the other TU's use record, which also adds `cond`);
   a global without users stays in the always range; with
   VP_INDEX_GLOBALS_EVERYWHERE all of them are in the always range. */
static void test_globals_where_used(void **s)
{
    char bin[1024], out[1024], err[1024];
    snprintf(bin, sizeof bin, "%s/users", DW_OUT);
    snprintf(out, sizeof out, "%s/users.idx", DW_OUT);
    const char *paths[1] = { bin };
    assert_int_equal(vp_index_build(paths, 1, out, NULL, err, sizeof err), 0);
    struct idx x;
    load(&x, out);
    check_shape(&x);
    uint64_t fn[2][2];
    const struct vp_recipe *r[4];
    int outside;

    func_range(bin, "check_mode", &fn[0][0], &fn[0][1]);
    uint32_t mode = var_id(&x, "mode");
    assert_true(x.vars[mode].tags & VP_TAG_COND); /* from users_b.c's use record */
    assert_int_equal(recipes_of(&x, mode, r, 4), 1);
    assert_false(in_always(&x, r[0]));
    assert_true(ranges_with(&x, r[0], (const uint64_t (*)[2])fn, 1, &outside) > 0);
    assert_false(outside);

    func_range(bin, "scaled", &fn[0][0], &fn[0][1]);
    uint32_t scale = var_id(&x, "scale");
    assert_false(x.vars[scale].tags & VP_TAG_COND);
    assert_int_equal(recipes_of(&x, scale, r, 4), 1);
    assert_false(in_always(&x, r[0]));
    assert_true(ranges_with(&x, r[0], (const uint64_t (*)[2])fn, 1, &outside) > 0);
    assert_false(outside);

    assert_int_equal(recipes_of(&x, var_id(&x, "unused_g"), r, 4), 1);
    assert_true(in_always(&x, r[0]));
    free(x.buf);

    struct vp_index_options o = { VP_INDEX_GLOBALS_EVERYWHERE };
    assert_int_equal(vp_index_build_opts(paths, 1, out, &o, NULL, err, sizeof err), 0);
    load(&x, out);
    check_shape(&x);
    assert_int_equal(recipes_of(&x, var_id(&x, "mode"), r, 4), 1);
    assert_true(in_always(&x, r[0]));
    assert_int_equal(ranges_with(&x, r[0], (const uint64_t (*)[2])fn, 1, &outside), 0);
    assert_true(x.vars[var_id(&x, "mode")].tags & VP_TAG_COND);
    free(x.buf);
}

/* 1,000 variables: the time is logged for the report (vProf: 0.3-31 ms). */
static void test_perf_1000(void **s)
{
    struct idx x;
    struct vp_index_stats st;
    build(&x, "perf", &st);
    check_shape(&x);
    assert_int_equal(st.coverage.schema_vars, 1000);
    assert_true(st.coverage.located >= 600);
    print_message("perf: 1000 vars, %u located, %u fully, no-location %u, "
                  "entry-value %u, %u ranges, %u recipes, index %zu bytes, build %.3f ms\n",
                  st.coverage.located, st.coverage.by_reason[VP_COV_OK],
                  st.coverage.by_reason[VP_COV_NO_LOCATION],
                  st.coverage.by_reason[VP_COV_ENTRY_VALUE], st.ranges, st.recipes, x.len,
                  st.build_ms);
    free(x.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_o0_dwarf4),      cmocka_unit_test(test_o0_dwarf5),
        cmocka_unit_test(test_o0_nofp),        cmocka_unit_test(test_gcc_cfa),
        cmocka_unit_test(test_o2_dwarf4),      cmocka_unit_test(test_o2_dwarf5),
        cmocka_unit_test(test_corrupt),        cmocka_unit_test(test_no_schema),
        cmocka_unit_test(test_schema_mutations), cmocka_unit_test(test_two_modules),
        cmocka_unit_test(test_perf_1000),      cmocka_unit_test(test_globals_where_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
