/*
 * test_export.c - folded stacks, the differential folded form and pprof
 * output (vprof/export.h) on synthetic profiles whose PCs point into
 * prog_stacks (a real ELF, so symbolization is real); the pprof file is
 * decoded back with protobuf-c.
 *
 * `test_export --check FILE.pb.gz` instead checks a pprof file exported
 * from a real recording: structure, symbols and build ids.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "pf_builder.h"
#include "profile.pb-c.h"
#include "vprof/export.h"
#include "vprof/profile.h"
#include "vprof/symbols.h"

#define PERIOD 2000000ull

static char dir[] = "/tmp/vp_exportXXXXXX";
static uint64_t addr_work, addr_outer, addr_main, addr_other;

static uint64_t func_addr(struct vp_symtab *st, const char *name)
{
    size_t n;
    const struct vp_func *f = vp_symtab_funcs(st, &n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].name, name))
            return f[i].lo;
    fail_msg("no function %s in %s", name, PROG_STACKS);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    struct vp_symtab *st;
    char err[256];
    if (vp_symtab_open(PROG_STACKS, NULL, 0, &st, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    addr_work = func_addr(st, "work");
    addr_outer = func_addr(st, "outer");
    addr_main = func_addr(st, "main");
    addr_other = func_addr(st, "other");
    vp_symtab_close(st);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "%s", dir);
    /* only files this test wrote */
    const char *names[] = {"buggy.vprof", "normal.vprof", "out.pb.gz", "diff.pb.gz"};
    for (size_t i = 0; i < 4; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(cmd);
    return 0;
}

/* A sample: leaf PC `pc` inside a function, callers given as function
 * starts (the return address points 5 bytes in). */
static void sample(struct pf_builder *b, uint64_t seq, uint64_t pc, size_t ncallers, ...)
{
    uint64_t callers[8];
    va_list ap;
    va_start(ap, ncallers);
    for (size_t i = 0; i < ncallers; i++)
        callers[i] = va_arg(ap, uint64_t) + 5;
    va_end(ap);
    pf_pc(b, seq, pc, 1, (uint16_t)ncallers, callers);
}

/* buggy: main;outer;work x3, main;outer x2, an address outside modules x1 */
static const char *write_buggy(void)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/buggy.vprof", dir);
    struct pf_builder b;
    pf_init(&b);
    b.hdr.period_ns = PERIOD;
    b.hdr.start_ns = 1000;
    b.hdr.end_ns = 5000;
    pf_module(&b, PROG_STACKS, 0, 0x400000, 0x800000, 0);
    uint64_t seq = 1;
    for (int i = 0; i < 3; i++)
        sample(&b, seq++, addr_work + 2 + (uint64_t)i, 2, addr_outer, addr_main);
    for (int i = 0; i < 2; i++)
        sample(&b, seq++, addr_outer + 1, 1, addr_main);
    sample(&b, seq++, 0x10, 0);
    char err[256];
    if (pf_write(&b, path, err, sizeof err))
        fail_msg("%s", err);
    pf_free(&b);
    return path;
}

/* normal: main;outer;work x1, main;other x4 */
static const char *write_normal(void)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/normal.vprof", dir);
    struct pf_builder b;
    pf_init(&b);
    b.hdr.period_ns = PERIOD;
    pf_module(&b, PROG_STACKS, 0, 0x400000, 0x800000, 0);
    sample(&b, 1, addr_work + 1, 2, addr_outer, addr_main);
    for (uint64_t i = 0; i < 4; i++)
        sample(&b, 2 + i, addr_other + 1, 1, addr_main);
    char err[256];
    if (pf_write(&b, path, err, sizeof err))
        fail_msg("%s", err);
    pf_free(&b);
    return path;
}

static struct vp_profile *open_profile(const char *path)
{
    struct vp_profile *p;
    char err[512];
    if (vp_profile_open(path, &p, err, sizeof err))
        fail_msg("%s", err);
    return p;
}

static char *folded_text(const struct vp_export_folded *f, const struct vp_export_folded *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(g ? vp_export_write_diff_folded(out, f, g) : vp_export_write_folded(out, f),
                     0);
    fclose(out);
    return buf;
}

static void test_folded(void **state)
{
    (void)state;
    struct vp_profile *p = open_profile(write_buggy());
    struct vp_export_folded f;
    char err[256];
    assert_int_equal(vp_export_fold(p, &f, err, sizeof err), 0);
    assert_int_equal(f.n, 3);
    assert_int_equal(f.total, 6);
    char *text = folded_text(&f, NULL);
    assert_string_equal(text, "0x10 1\nmain;outer 2\nmain;outer;work 3\n");
    free(text);
    vp_export_folded_free(&f);
    /* the processes of one recording (here twice the same): one line per
       stack, the counts summed */
    const struct vp_profile *two[2] = {p, p};
    assert_int_equal(vp_export_fold_many(two, 2, &f, err, sizeof err), 0);
    assert_int_equal(f.n, 3);
    assert_int_equal(f.total, 12);
    text = folded_text(&f, NULL);
    assert_string_equal(text, "0x10 2\nmain;outer 4\nmain;outer;work 6\n");
    free(text);
    vp_export_folded_free(&f);
    vp_profile_close(p);
}

static void test_diff_folded(void **state)
{
    (void)state;
    struct vp_profile *b = open_profile(write_buggy()), *n = open_profile(write_normal());
    struct vp_export_folded fb, fn;
    char err[256];
    assert_int_equal(vp_export_fold(b, &fb, err, sizeof err), 0);
    assert_int_equal(vp_export_fold(n, &fn, err, sizeof err), 0);
    char *text = folded_text(&fn, &fb);
    assert_string_equal(text, "0x10 0 1\n"
                              "main;other 4 0\n"
                              "main;outer 0 2\n"
                              "main;outer;work 1 3\n");
    free(text);
    /* an empty side gives zeros, not a crash */
    struct vp_export_folded none = {0};
    text = folded_text(&none, &fn);
    assert_string_equal(text, "main;other 0 4\nmain;outer;work 0 1\n");
    free(text);
    vp_export_folded_free(&fb);
    vp_export_folded_free(&fn);
    vp_profile_close(b);
    vp_profile_close(n);
}

/* ---- pprof ----------------------------------------------------------------- */

static Perftools__Profiles__Profile *read_pprof(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static unsigned char gz[1 << 22], raw[1 << 24];
    size_t n = fread(gz, 1, sizeof gz, f);
    fclose(f);
    assert_true(n > 18 && gz[0] == 0x1f && gz[1] == 0x8b); /* gzip magic */
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = gz;
    z.avail_in = (uInt)n;
    z.next_out = raw;
    z.avail_out = sizeof raw;
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    size_t len = z.total_out;
    inflateEnd(&z);
    Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, len, raw);
    assert_non_null(p);
    return p;
}

static const char *str(const Perftools__Profiles__Profile *p, int64_t i)
{
    assert_true(i >= 0 && (size_t)i < p->n_string_table);
    return p->string_table[i];
}

static const Perftools__Profiles__Location *loc(const Perftools__Profiles__Profile *p, uint64_t id)
{
    for (size_t i = 0; i < p->n_location; i++)
        if (p->location[i]->id == id)
            return p->location[i];
    fail_msg("no location %llu", (unsigned long long)id);
    return NULL;
}

/* "work" for a location with one line, "?" without. */
static const char *loc_func(const Perftools__Profiles__Profile *p, uint64_t id)
{
    const Perftools__Profiles__Location *l = loc(p, id);
    if (!l->n_line)
        return "?";
    for (size_t i = 0; i < p->n_function; i++)
        if (p->function[i]->id == l->line[0]->function_id)
            return str(p, p->function[i]->name);
    fail_msg("location %llu: unknown function", (unsigned long long)id);
    return NULL;
}

/* The stack of a sample as function names, leaf first, joined by ','. */
static void stack_of(const Perftools__Profiles__Profile *p, const Perftools__Profiles__Sample *s,
                     char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t k = 0; k < s->n_location_id; k++) {
        if (k)
            strncat(buf, ",", len - strlen(buf) - 1);
        strncat(buf, loc_func(p, s->location_id[k]), len - strlen(buf) - 1);
    }
}

/* Samples are per distinct address stack: sum value[0] over the samples of
 * one run (sign) whose function stack is `stack`; *first gets one of them. */
static int64_t stack_total(const Perftools__Profiles__Profile *p, const char *stack, int sign,
                           const Perftools__Profiles__Sample **first)
{
    int64_t total = 0;
    *first = NULL;
    for (size_t i = 0; i < p->n_sample; i++) {
        char buf[256];
        const Perftools__Profiles__Sample *s = p->sample[i];
        stack_of(p, s, buf, sizeof buf);
        if (!strcmp(buf, stack) && s->value[0] * sign > 0) {
            total += s->value[0];
            if (!*first)
                *first = s;
        }
    }
    return total;
}

static void check_structure(const Perftools__Profiles__Profile *p)
{
    assert_true(p->n_string_table > 0);
    assert_string_equal(p->string_table[0], "");
    assert_int_equal(p->n_sample_type, 2);
    assert_string_equal(str(p, p->sample_type[0]->type), "samples");
    assert_string_equal(str(p, p->sample_type[0]->unit), "count");
    assert_string_equal(str(p, p->sample_type[1]->type), "cpu");
    assert_string_equal(str(p, p->sample_type[1]->unit), "nanoseconds");
    assert_non_null(p->period_type);
    assert_string_equal(str(p, p->period_type->type), "cpu");
    assert_true(p->period > 0);
    for (size_t i = 0; i < p->n_location; i++) {
        assert_int_equal(p->location[i]->id, i + 1);
        assert_true(p->location[i]->mapping_id <= p->n_mapping);
    }
    for (size_t i = 0; i < p->n_mapping; i++)
        assert_int_equal(p->mapping[i]->id, i + 1);
    for (size_t i = 0; i < p->n_sample; i++) {
        assert_int_equal(p->sample[i]->n_value, 2);
        assert_true(p->sample[i]->value[1] == p->sample[i]->value[0] * p->period);
        assert_true(p->sample[i]->n_location_id > 0);
    }
}

static void test_pprof(void **state)
{
    (void)state;
    struct vp_profile *b = open_profile(write_buggy());
    char out[160], err[256];
    snprintf(out, sizeof out, "%s/out.pb.gz", dir);
    assert_int_equal(vp_export_pprof(b, NULL, out, err, sizeof err), 0);
    Perftools__Profiles__Profile *p = read_pprof(out);
    check_structure(p);
    assert_int_equal(p->period, PERIOD);
    assert_int_equal(p->time_nanos, 1000);
    assert_int_equal(p->duration_nanos, 4000);
    /* one sample per distinct address stack: 3 work PCs, 1 outer PC, 0x10 */
    assert_int_equal(p->n_sample, 5);
    const Perftools__Profiles__Sample *s;
    assert_int_equal(stack_total(p, "work,outer,main", 1, &s), 3);
    assert_int_equal(s->value[1], PERIOD);
    assert_int_equal(stack_total(p, "outer,main", 1, &s), 2);
    assert_int_equal(s->value[1], 2 * PERIOD);
    assert_int_equal(stack_total(p, "?", 1, &s), 1);
    const Perftools__Profiles__Location *l = loc(p, s->location_id[0]);
    assert_int_equal(l->address, 0x10);
    assert_int_equal(l->mapping_id, 0);
    /* callers are located inside the call: return address - 1 */
    stack_total(p, "outer,main", 1, &s);
    assert_int_equal(loc(p, s->location_id[1])->address, addr_main + 4);
    /* a work location: its function has the source file, lines are real */
    stack_total(p, "work,outer,main", 1, &s);
    l = loc(p, s->location_id[0]);
    assert_int_equal(l->mapping_id, 1);
    assert_true(l->line[0]->line > 0);
    for (size_t i = 0; i < p->n_function; i++)
        assert_non_null(strstr(str(p, p->function[i]->filename), "prog_stacks.c"));
    /* the leaf PCs of work (3 distinct) and the shared caller addresses */
    assert_int_equal(p->n_function, 3);
    assert_int_equal(p->n_mapping, 1);
    assert_string_equal(str(p, p->mapping[0]->filename), PROG_STACKS);
    assert_true(p->mapping[0]->has_functions && p->mapping[0]->has_line_numbers);
    assert_int_equal(p->mapping[0]->memory_start, 0x400000);
    perftools__profiles__profile__free_unpacked(p, NULL);
    vp_profile_close(b);
}

static void test_pprof_diff(void **state)
{
    (void)state;
    struct vp_profile *b = open_profile(write_buggy()), *n = open_profile(write_normal());
    char out[160], err[256];
    snprintf(out, sizeof out, "%s/diff.pb.gz", dir);
    assert_int_equal(vp_export_pprof(b, n, out, err, sizeof err), 0);
    Perftools__Profiles__Profile *p = read_pprof(out);
    check_structure(p);
    assert_int_equal(p->n_sample, 5 + 2);
    const Perftools__Profiles__Sample *s;
    assert_int_equal(stack_total(p, "work,outer,main", -1, &s), -1);
    assert_int_equal(s->value[1], -(int64_t)PERIOD);
    assert_int_equal(s->n_label, 1);
    assert_string_equal(str(p, s->label[0]->key), "run");
    assert_string_equal(str(p, s->label[0]->str), "normal");
    assert_int_equal(stack_total(p, "other,main", -1, &s), -4);
    assert_int_equal(stack_total(p, "work,outer,main", 1, &s), 3);
    assert_string_equal(str(p, s->label[0]->str), "buggy");
    int64_t sum = 0;
    for (size_t i = 0; i < p->n_sample; i++)
        sum += p->sample[i]->value[0];
    assert_int_equal(sum, 6 - 5);
    perftools__profiles__profile__free_unpacked(p, NULL);
    vp_profile_close(b);
    vp_profile_close(n);
}

static void test_pprof_errors(void **state)
{
    (void)state;
    struct vp_profile *b = open_profile(write_buggy());
    char err[256] = "";
    assert_int_equal(vp_export_pprof(b, NULL, "/nonexistent/dir/x.pb.gz", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/dir/x.pb.gz"));
    assert_int_equal(access("/nonexistent/dir/x.pb.gz", F_OK), -1);
    vp_profile_close(b);
}

/* Locations whose first Line is function `inner` and whose last is `outer`:
   code of inner inlined into outer. */
static int inlined_locations(const Perftools__Profiles__Profile *p, const char *inner,
                             const char *outer)
{
    int n = 0;
    for (size_t i = 0; i < p->n_location; i++) {
        const Perftools__Profiles__Location *l = p->location[i];
        if (l->n_line < 2)
            continue;
        const char *names[2] = {NULL, NULL};
        for (size_t k = 0; k < p->n_function; k++) {
            if (p->function[k]->id == l->line[0]->function_id)
                names[0] = str(p, p->function[k]->name);
            if (p->function[k]->id == l->line[l->n_line - 1]->function_id)
                names[1] = str(p, p->function[k]->name);
        }
        n += names[0] && names[1] && !strcmp(names[0], inner) && !strcmp(names[1], outer);
    }
    return n;
}

/* --check FILE [INNER OUTER]: a pprof file exported from a real recording;
   with INNER and OUTER, some location must be INNER inlined into OUTER. */
static int check_real(const char *path, const char *inner, const char *outer)
{
    Perftools__Profiles__Profile *p = read_pprof(path);
    check_structure(p);
    if (inner && !inlined_locations(p, inner, outer)) {
        fprintf(stderr, "%s: no location of %s inlined into %s\n", path, inner, outer);
        perftools__profiles__profile__free_unpacked(p, NULL);
        return 1;
    }
    int named = 0, with_bid = 0;
    for (size_t i = 0; i < p->n_function; i++)
        named += !strcmp(str(p, p->function[i]->name), "main");
    for (size_t i = 0; i < p->n_mapping; i++) {
        const char *bid = str(p, p->mapping[i]->build_id);
        size_t n = strlen(bid);
        if (n >= 16 && strspn(bid, "0123456789abcdef") == n)
            with_bid++;
    }
    int64_t total = 0;
    for (size_t i = 0; i < p->n_sample; i++)
        total += p->sample[i]->value[0];
    printf("%lld\n", (long long)total);
    perftools__profiles__profile__free_unpacked(p, NULL);
    if (!named || !with_bid) {
        fprintf(stderr, "%s: %s\n", path, !named ? "no function main" : "no hex build id");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc == 3 || argc == 5) && !strcmp(argv[1], "--check"))
        return check_real(argv[2], argc == 5 ? argv[3] : NULL, argc == 5 ? argv[4] : NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folded),
        cmocka_unit_test(test_diff_folded),
        cmocka_unit_test(test_pprof),
        cmocka_unit_test(test_pprof_diff),
        cmocka_unit_test(test_pprof_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
