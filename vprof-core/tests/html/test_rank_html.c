/*
 * test_rank_html.c - what the rank library adds for the HTML report: the
 * per-variable distributions (vp_rank_var_dist) in each dimension, pooled
 * over runs, and the page vp_rank_write(VP_RANK_HTML) builds from them.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vprof/format.h"
#include "vprof/rank.h"

#define P 1000000ull

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* normal: work.n = i % 50 (runs of 1), slow: work.n = 1000 + i % 50 and a
 * second thread; apply has the same cost in both and a variable whose
 * processing cost (runs of equal values) grows in the slow run. */
static struct vp_rank_model *model(void)
{
    struct vp_rank_model *m = vp_rank_model_new();
    for (int slow = 0; slow < 2; slow++) {
        struct vp_rank_run *r = vp_rank_add_run(m, slow ? "slow.vprof" : "normal.vprof", slow, P);
        assert_non_null(r);
        vp_rank_add_func(r, "work", "/src/w.c", 10, slow ? 50 : 100, 0);
        vp_rank_add_func(r, "apply", "/src/w.c", 40, slow ? 400 : 100, 0);
        struct vp_rank_var *n =
            vp_rank_add_var(r, "work", "/src/w.c", "n", "long", 11, VP_TAG_LOOP, VP_TYPE_SINT, 8);
        struct vp_rank_var *k = vp_rank_add_var(r, "apply", "/src/w.c", "key", "unsigned", 41,
                                                VP_TAG_COND, VP_TYPE_UINT, 4);
        for (uint64_t i = 0; i < 200; i++)
            assert_int_equal(vp_rank_var_sample(n, 1, (slow ? 1000 : 0) + i % 50, 0x1000, 1, 1), 0);
        if (slow) /* a second segment (other thread): deltas never cross it */
            for (uint64_t i = 0; i < 10; i++)
                assert_int_equal(vp_rank_var_sample(n, 2, (uint64_t)-5 - i, 0x1000, 1, 1), 0);
        for (uint64_t i = 0; i < 200; i++)
            assert_int_equal(vp_rank_var_sample(k, 1, slow ? i / 20 : i % 7, 0x2000, 1, 1), 0);
    }
    return m;
}

static struct vp_rank_result *rank(struct vp_rank_model *m)
{
    struct vp_rank_params p;
    vp_rank_params_default(&p);
    struct vp_rank_result *r;
    char err[256];
    if (vp_rank_run(m, &p, &r, err, sizeof err))
        fail_msg("%s", err);
    assert_ptr_equal(r->model, m);
    return r;
}

static const struct vp_rank_var_result *var(const struct vp_rank_result *r, const char *name)
{
    for (size_t i = 0; i < r->nvars; i++)
        if (!strcmp(r->vars[i].name, name))
            return &r->vars[i];
    fail_msg("no variable %s", name);
    return NULL;
}

static void test_dist(void **state)
{
    (void)state;
    struct vp_rank_model *m = model();
    struct vp_rank_result *r = rank(m);
    const struct vp_rank_var_result *n = var(r, "n");
    struct vp_rank_dist d;
    char err[128];

    assert_int_equal(vp_rank_var_dist(m, n, VP_RANK_DIM_VALUES, &d, err, sizeof err), 0);
    assert_int_equal(d.n_normal, 200);
    assert_int_equal(d.n_slow, 210);
    assert_true(d.normal[0] == 0 && d.normal[199] == 49);
    assert_true(d.slow[0] == -14 && d.slow[209] == 1049); /* signed, sorted */
    for (size_t i = 1; i < d.n_slow; i++)
        assert_true(d.slow[i - 1] <= d.slow[i]);
    vp_rank_dist_free(&d);

    assert_int_equal(vp_rank_var_dist(m, n, VP_RANK_DIM_DELTAS, &d, err, sizeof err), 0);
    assert_int_equal(d.n_normal, 199);
    assert_int_equal(d.n_slow, 199 + 9); /* per segment */
    assert_true(d.slow[0] == -49);       /* 1049 -> 1000 */
    assert_true(d.slow[d.n_slow - 1] == 1);
    vp_rank_dist_free(&d);

    const struct vp_rank_var_result *k = var(r, "key");
    assert_int_equal(vp_rank_var_dist(m, k, VP_RANK_DIM_PROC, &d, err, sizeof err), 0);
    double sum = 0;
    for (size_t i = 0; i < d.n_slow; i++)
        sum += d.slow[i];
    assert_true(sum == 200);
    assert_int_equal(d.n_slow, 10); /* runs of 20 */
    assert_true(d.slow[0] == 20 && d.normal[d.n_normal - 1] == 1);
    vp_rank_dist_free(&d);

    assert_int_equal(vp_rank_var_dist(m, k, VP_RANK_DIM_SLOW_ONLY, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "dimension"));
    assert_null(d.normal);
    vp_rank_result_free(r);
    vp_rank_model_free(m);
}

static char *render(const struct vp_rank_result *r, enum vp_rank_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(vp_rank_write(f, r, fmt, 0), 0);
    fclose(f);
    return buf;
}

static char *html(const struct vp_rank_result *r) { return render(r, VP_RANK_HTML); }

static void test_page(void **state)
{
    (void)state;
    struct vp_rank_model *m = model();
    struct vp_rank_result *r = rank(m);
    char *page = html(r);
    /* both functions, a chart of both, one section each */
    assert_non_null(strstr(page, "id=\"f1\""));
    assert_non_null(strstr(page, "id=\"f2\""));
    assert_int_equal(count(page, "class=\"barchart\""), 1);
    assert_int_equal(count(page, "<rect class=\"s0\""), 2);
    /* n: three dimensions plotted, values decided; key: processing cost decided */
    const struct vp_rank_var_result *n = var(r, "n"), *k = var(r, "key");
    assert_int_equal(n->dim, VP_RANK_DIM_VALUES);
    assert_int_equal(k->dim, VP_RANK_DIM_PROC);
    assert_true(n->anomalous && k->anomalous);
    assert_int_equal(count(page, "class=\"histogram\""), 6);
    assert_int_equal(count(page, "class=\"hist decided\""), 2);
    assert_non_null(strstr(page, "<div class=\"hist decided\"><h4>values <span class=\"badge "
                                 "bad\">decided</span>"));
    assert_non_null(strstr(page, "<div class=\"hist decided\"><h4>processing-cost <span "
                                 "class=\"badge bad\">decided</span>"));
    assert_non_null(strstr(page, "(n=210)"));
    assert_int_equal(count(page, "<details"), count(page, "</details>"));
    assert_int_equal(count(page, "<svg"), count(page, "</svg>"));
    assert_null(strstr(page, "http"));
    assert_null(strstr(page, "class=\"note unattributed\"")); /* every sample is ranked */
    /* same input, same bytes */
    char *again = html(r);
    assert_string_equal(page, again);
    free(again);
    free(page);

    /* most of the slow run in a library's code: the note under the table,
       with the library function and its call site, escaped */
    r->slow_unattributed = 0.9;
    r->lib[0] = (struct vp_rank_lib_share){"regcomp", "libc.so.6", 0.75, "/src/w.c", 15,
                                           "filter<int>"};
    r->nlib = 1;
    page = html(r);
    assert_non_null(strstr(page, "<p class=\"note unattributed\">90% of the slow run's PC "
                                 "samples are in code no ranked function holds (a library's "
                                 "internal functions, or code without symbols; 75% under regcomp "
                                 "[libc.so.6] (called at w.c:15)): their time"));
    free(page);
    r->nlib = 0;
    r->slow_unattributed = 0;

    /* a result without its model: tables, no plots */
    r->model = NULL;
    page = html(r);
    assert_int_equal(count(page, "class=\"histogram\""), 0);
    assert_non_null(strstr(page, "class=\"vars\""));
    assert_int_equal(count(page, "class=\"barchart\""), 1);
    free(page);
    vp_rank_result_free(r);
    vp_rank_model_free(m);
}

static int fake_line(void *ctx, uint64_t pc, const char *want, const char **file, int *line,
                     const char **func, int *loop_line)
{
    *loop_line = 0;
    (void)ctx;
    (void)pc;
    (void)want;
    *file = "/src/s.c";
    *line = 7;
    *func = "setup";
    return 0;
}

/* A variable sampled only in the slow run is said to be so, in Markdown and
   HTML; before, "outside its normal slow-only range". */
static void test_slow_only_phrase(void **state)
{
    (void)state;
    struct vp_rank_model *m = vp_rank_model_new();
    for (int slow = 0; slow < 2; slow++) {
        struct vp_rank_run *r = vp_rank_add_run(m, slow ? "slow.vprof" : "normal.vprof", slow, P);
        assert_non_null(r);
        vp_rank_add_func(r, "setup", "/src/s.c", 5, slow ? 300 : 100, 0);
        if (!slow)
            continue;
        r->sym.line = fake_line;
        struct vp_rank_var *c = vp_rank_add_var(r, "setup", "/src/s.c", "c", "int", 6,
                                                VP_TAG_COND, VP_TYPE_SINT, 4);
        for (uint64_t i = 0; i < 6; i++)
            assert_int_equal(vp_rank_var_sample(c, 1, i, 0x3000, 1, 1), 0);
    }
    struct vp_rank_result *r = rank(m);
    assert_int_equal(r->funcs[0].loc_dim, VP_RANK_DIM_SLOW_ONLY);
    char *md = render(r, VP_RANK_MD), *page = render(r, VP_RANK_HTML);
    assert_non_null(strstr(md, "`c` sampled only in the slow run (6 sample(s))"));
    assert_non_null(strstr(page, "<code>c</code> was sampled only in the slow run: 6 sample(s)"));
    assert_null(strstr(md, "slow-only range"));
    assert_null(strstr(page, "slow-only range"));
    free(md);
    free(page);
    vp_rank_result_free(r);
    vp_rank_model_free(m);
}

/* The first function is the most costly and has no sampled variable:
 * vProf's rule 4 gives it scalability with no variable behind it.  The
 * page's summary read the deciding variable as vars[-1] (found by
 * fuzz.rankmodel); it now names the rule, as the Markdown comment does. */
static void test_rule4_without_variable(void **state)
{
    (void)state;
    struct vp_rank_model *m = vp_rank_model_new();
    for (int slow = 0; slow < 2; slow++) {
        struct vp_rank_run *r = vp_rank_add_run(m, slow ? "s.vprof" : "n.vprof", slow, P);
        assert_non_null(r);
        vp_rank_add_func(r, "hot", "/src/h.c", 5, slow ? 900 : 100, 0);
        vp_rank_add_func(r, "cold", "/src/h.c", 30, 10, 0);
    }
    struct vp_rank_result *r = rank(m);
    assert_string_equal(r->funcs[0].name, "hot");
    assert_int_equal(r->funcs[0].pattern_rule, 4);
    assert_true(r->funcs[0].pattern_var < 0);
    for (int fmt = VP_RANK_TEXT; fmt <= VP_RANK_HTML; fmt++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_int_equal(vp_rank_write(f, r, fmt, 0), 0);
        fclose(f);
        if (fmt == VP_RANK_HTML || fmt == VP_RANK_MD)
            assert_non_null(strstr(buf, "rule 4"));
        free(buf);
    }
    vp_rank_result_free(r);
    vp_rank_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dist),
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_slow_only_phrase),
        cmocka_unit_test(test_rule4_without_variable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
