/*
 * test_stats.c - Anderson-Darling and Hellinger against scipy 1.10 reference
 * values (ad_reference.inc, produced by gen_reference.py).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vprof/stats.h"

#include "ad_reference.inc"

/* Same generator as lcg() in gen_reference.py. */
static double *lcg_fill(uint64_t seed, size_t n, uint64_t mod)
{
    double *v = malloc(n * sizeof *v);
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (double)((x >> 33) % mod);
    }
    return v;
}

static void assert_close(double got, double want, double rel, const char *what)
{
    double tol = rel * (fabs(want) > 1 ? fabs(want) : 1);
    if (fabs(got - want) > tol)
        fail_msg("%s: got %.17g, want %.17g", what, got, want);
}

static void test_ad_literals(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof ad_literals / sizeof ad_literals[0]; c++) {
        const struct ad_literal *L = &ad_literals[c];
        const double *s[3] = {L->v[0], L->v[1], L->v[2]};
        struct vp_stats_ad r;
        char err[128];
        assert_int_equal(vp_stats_anderson_ksamp(s, L->n, L->k, &r, err, sizeof err), 0);
        assert_close(r.statistic, L->stat, 1e-10, L->name);
        for (int i = 0; i < VP_STATS_AD_LEVELS; i++)
            assert_close(r.critical[i], L->crit[i], 1e-12, L->name);
        assert_close(r.pvalue, L->p, 1e-9, L->name);
    }
}

static void test_ad_generated(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof ad_generated / sizeof ad_generated[0]; c++) {
        const struct ad_generated *G = &ad_generated[c];
        double *a = lcg_fill(G->seed[0], G->n[0], G->mod[0]);
        double *b = lcg_fill(G->seed[1], G->n[1], G->mod[1]);
        const double *s[2] = {a, b};
        struct vp_stats_ad r;
        assert_int_equal(vp_stats_anderson_ksamp(s, G->n, 2, &r, NULL, 0), 0);
        assert_close(r.statistic, G->stat, 1e-9, G->name);
        assert_close(r.pvalue, G->p, 1e-9, G->name);
        free(a);
        free(b);
    }
}

/* p-value clamping at both ends, and the interpolation in between. */
static void test_ad_pvalue_clamp(void **state)
{
    (void)state;
    int cl;
    assert_true(vp_stats_ad_pvalue(-5.0, 2, &cl) == VP_STATS_AD_P_MAX);
    assert_int_equal(cl, 1);
    assert_true(vp_stats_ad_pvalue(100.0, 2, &cl) == VP_STATS_AD_P_MIN);
    assert_int_equal(cl, -1);
    double p = vp_stats_ad_pvalue(1.961, 2, &cl); /* the 5% critical value */
    assert_int_equal(cl, 0);
    assert_true(fabs(p - 0.05) < 0.005);
    /* reference: tiny_1_3 was interpolated by scipy */
    p = vp_stats_ad_pvalue(1.3636363636363114, 2, &cl);
    assert_close(p, 0.08902970028514394, 1e-12, "interp");
}

/* Inputs scipy rejects (or turns into NaN) are errors here. */
static void test_ad_errors(void **state)
{
    (void)state;
    struct vp_stats_ad r;
    char err[128];
    double one[] = {1.0}, two[] = {3.0, 4.0}, same[] = {1.0, 1.0};
    const double *s3[2] = {one, two};
    size_t n3[2] = {1, 2};
    assert_int_equal(vp_stats_anderson_ksamp(s3, n3, 2, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "4 observations"));
    const double *s4[2] = {same, same};
    size_t n4[2] = {2, 2};
    assert_int_equal(vp_stats_anderson_ksamp(s4, n4, 2, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "distinct"));
    size_t n0[2] = {0, 2};
    assert_int_equal(vp_stats_anderson_ksamp(s3, n0, 2, &r, err, sizeof err), -1);
    assert_int_equal(vp_stats_anderson_ksamp(s3, n3, 1, &r, err, sizeof err), -1);
    double nan_v[] = {1.0, NAN};
    const double *s5[2] = {nan_v, two};
    size_t n5[2] = {2, 2};
    assert_int_equal(vp_stats_anderson_ksamp(s5, n5, 2, &r, err, sizeof err), -1);
}

/* The key variant sees integers beyond 2^53 exactly: doubles would tie. */
static void test_ad_keys_exact(void **state)
{
    (void)state;
    uint64_t big = 1ull << 60;
    uint64_t a[] = {vp_stats_key_int64((int64_t)big), vp_stats_key_int64((int64_t)big + 2)};
    uint64_t b[] = {vp_stats_key_int64((int64_t)big + 1), vp_stats_key_int64((int64_t)big + 3)};
    /* same ordering as {1,3} vs {2,4} */
    double da[] = {1, 3}, db[] = {2, 4};
    const uint64_t *k[2] = {a, b};
    const double *d[2] = {da, db};
    size_t n[2] = {2, 2};
    struct vp_stats_ad rk, rd;
    assert_int_equal(vp_stats_anderson_ksamp_keys(k, n, 2, &rk, NULL, 0), 0);
    assert_int_equal(vp_stats_anderson_ksamp(d, n, 2, &rd, NULL, 0), 0);
    assert_true(rk.statistic == rd.statistic);
}

static void test_keys_order(void **state)
{
    (void)state;
    double v[] = {-INFINITY, -1e300, -2.5, -0.0, 0.0, 1e-300, 3.0, INFINITY};
    for (size_t i = 0; i + 1 < sizeof v / sizeof v[0]; i++) {
        if (v[i] == v[i + 1])
            assert_true(vp_stats_key_double(v[i]) == vp_stats_key_double(v[i + 1]));
        else
            assert_true(vp_stats_key_double(v[i]) < vp_stats_key_double(v[i + 1]));
    }
    assert_true(vp_stats_key_int64(INT64_MIN) < vp_stats_key_int64(-1));
    assert_true(vp_stats_key_int64(-1) < vp_stats_key_int64(0));
    assert_true(vp_stats_key_int64(0) < vp_stats_key_int64(INT64_MAX));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void test_radix_sort(void **state)
{
    (void)state;
    size_t n = 10007;
    uint64_t *k = malloc(n * sizeof *k), *ref = malloc(n * sizeof *k), *tmp = malloc(n * sizeof *k);
    uint64_t x = 99;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        k[i] = (i % 3) ? x : (x & 0xff00); /* some passes skippable, some not */
    }
    memcpy(ref, k, n * sizeof *k);
    qsort(ref, n, sizeof *ref, cmp_u64);
    vp_stats_sort_keys(k, tmp, n);
    assert_memory_equal(k, ref, n * sizeof *k);
    free(k);
    free(ref);
    free(tmp);
}

static uint64_t *sorted_keys(const double *v, size_t n)
{
    uint64_t *k = malloc(n * sizeof *k), *t = malloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++)
        k[i] = vp_stats_key_double(v[i]);
    vp_stats_sort_keys(k, t, n);
    free(t);
    return k;
}

static void test_hellinger_reference(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof h_literals / sizeof h_literals[0]; c++) {
        const struct h_literal *L = &h_literals[c];
        uint64_t *a = sorted_keys(L->v[0], L->n[0]), *b = sorted_keys(L->v[1], L->n[1]);
        assert_close(vp_stats_hellinger_keys(a, L->n[0], b, L->n[1], L->bins), L->h, 1e-12, L->name);
        free(a);
        free(b);
    }
    for (size_t c = 0; c < sizeof h_generated / sizeof h_generated[0]; c++) {
        const struct h_generated *G = &h_generated[c];
        double *da = lcg_fill(G->seed[0], G->n[0], G->mod[0]);
        double *db = lcg_fill(G->seed[1], G->n[1], G->mod[1]);
        uint64_t *a = sorted_keys(da, G->n[0]), *b = sorted_keys(db, G->n[1]);
        assert_close(vp_stats_hellinger_keys(a, G->n[0], b, G->n[1], G->bins), G->h, 1e-12, G->name);
        free(a);
        free(b);
        free(da);
        free(db);
    }
}

static void test_hellinger_bins(void **state)
{
    (void)state;
    double p[] = {1, 1, 0}, q[] = {0, 0, 5};
    assert_close(vp_stats_hellinger(p, q, 3), 1.0, 1e-15, "disjoint");
    double r[] = {2, 2, 0};
    assert_close(vp_stats_hellinger(p, r, 3), 0.0, 1e-15, "same");
    double s[] = {1, 0, 0};
    /* BC = sqrt(0.5) -> H = sqrt(1 - 0.70710678) */
    assert_close(vp_stats_hellinger(p, s, 3), sqrt(1 - sqrt(0.5)), 1e-15, "half");
    double z[] = {0, 0, 0};
    assert_true(vp_stats_hellinger(p, z, 3) < 0);
    uint64_t a[] = {1};
    assert_true(vp_stats_hellinger_keys(a, 1, a, 0, 64) < 0);
    assert_true(vp_stats_hellinger_keys(a, 1, a, 1, 0) < 0);
}

/* Binning is scale-free: a monotone transform leaves the distance unchanged. */
static void test_hellinger_monotone(void **state)
{
    (void)state;
    double *da = lcg_fill(5, 1000, 5000), *db = lcg_fill(6, 800, 7000);
    double *ea = malloc(1000 * sizeof(double)), *eb = malloc(800 * sizeof(double));
    for (int i = 0; i < 1000; i++)
        ea[i] = exp(da[i] / 1000.0);
    for (int i = 0; i < 800; i++)
        eb[i] = exp(db[i] / 1000.0);
    uint64_t *a = sorted_keys(da, 1000), *b = sorted_keys(db, 800);
    uint64_t *c = sorted_keys(ea, 1000), *d = sorted_keys(eb, 800);
    double h1 = vp_stats_hellinger_keys(a, 1000, b, 800, 64);
    double h2 = vp_stats_hellinger_keys(c, 1000, d, 800, 64);
    assert_true(h1 > 0.05 && h1 == h2);
    free(da); free(db); free(ea); free(eb); free(a); free(b); free(c); free(d);
}

/* Over-represented ranges: per-value bins (few distinct keys). */
static void test_overrep_ranges(void **state)
{
    (void)state;
    /* a: 0 to 4, 4 of each; b: 1 x1, 2 x10, 3 x10, 5 x3 (b has no 4, a no
       5).  b's share over a's: 0: 0; 1: (1/24)/(4/20) = 0.21; 2 and 3:
       (10/24)/(4/20) = 2.08; 4: 0; 5: inf.  Factor 1.5: [2, 3] (adjacent
       bins merge) and [5, 5]; 4 keeps them apart. */
    uint64_t a[20], b[24];
    for (int i = 0; i < 20; i++)
        a[i] = (uint64_t)(i / 4);
    b[0] = 1;
    for (int i = 1; i < 24; i++)
        b[i] = i <= 10 ? 2 : i <= 20 ? 3 : 5;
    uint64_t *r;
    size_t n;
    assert_int_equal(vp_stats_overrep_keys(a, 20, b, 24, 64, 1.5, &r, &n), 0);
    assert_int_equal(n, 2);
    assert_true(r[0] == 2 && r[1] == 3 && r[2] == 5 && r[3] == 5);
    free(r);
    /* factor 2.5: only the key a never has */
    assert_int_equal(vp_stats_overrep_keys(a, 20, b, 24, 64, 2.5, &r, &n), 0);
    assert_int_equal(n, 1);
    assert_true(r[0] == 5 && r[1] == 5);
    free(r);
    /* the same sample: nothing is over-represented at a factor above 1 */
    assert_int_equal(vp_stats_overrep_keys(a, 20, a, 20, 64, 1.01, &r, &n), 0);
    assert_int_equal(n, 0);
    assert_null(r);
    /* an empty sample: no ranges, no error */
    assert_int_equal(vp_stats_overrep_keys(a, 0, b, 24, 64, 4, &r, &n), 0);
    assert_int_equal(n, 0);
}

/* Equal-mass bins: a's tail reaches into b's mass, b's mass is found. */
static void test_overrep_tail(void **state)
{
    (void)state;
    /* a: 1000 keys, 98 % in [700, 800), 2 % spread over [0, 160); b: 1000
       keys in [200, 260).  a's range [0, 800) holds all of b. */
    uint64_t a[1000], b[1000];
    for (int i = 0; i < 1000; i++) {
        a[i] = i < 20 ? (uint64_t)(i * 8) : 700 + (uint64_t)(i % 100);
        b[i] = 200 + (uint64_t)(i % 60);
    }
    uint64_t tmp[1000];
    vp_stats_sort_keys(a, tmp, 1000);
    vp_stats_sort_keys(b, tmp, 1000);
    uint64_t *r;
    size_t n;
    assert_int_equal(vp_stats_overrep_keys(a, 1000, b, 1000, 64, 4.0, &r, &n), 0);
    assert_int_equal(n, 1);
    /* b's first and last keys share their bins with a's keys (20 against
       16 or 17), which dilutes them below 4x */
    assert_true(r[0] <= 201 && r[1] >= 258 && r[1] < 700);
    size_t in = 0;
    for (int i = 0; i < 1000; i++)
        in += b[i] >= r[0] && b[i] <= r[1];
    assert_true(in >= 950);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ad_literals),
        cmocka_unit_test(test_ad_generated),
        cmocka_unit_test(test_ad_pvalue_clamp),
        cmocka_unit_test(test_ad_errors),
        cmocka_unit_test(test_ad_keys_exact),
        cmocka_unit_test(test_keys_order),
        cmocka_unit_test(test_radix_sort),
        cmocka_unit_test(test_hellinger_reference),
        cmocka_unit_test(test_hellinger_bins),
        cmocka_unit_test(test_hellinger_monotone),
        cmocka_unit_test(test_overrep_ranges),
        cmocka_unit_test(test_overrep_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
