/* Unit tests of the edit distances and rates (redundancy/src/rates.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vprof/redundancy.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void edit_distance_basics(void **state)
{
    (void)state;
    uint64_t kitten[] = {'k', 'i', 't', 't', 'e', 'n'};
    uint64_t sitting[] = {'s', 'i', 't', 't', 'i', 'n', 'g'};
    assert_int_equal(vp_red_edit_distance(kitten, 6, sitting, 7), 3);
    assert_int_equal(vp_red_edit_distance(sitting, 7, kitten, 6), 3);
    assert_int_equal(vp_red_edit_distance(kitten, 6, kitten, 6), 0);
    assert_int_equal(vp_red_edit_distance(NULL, 0, NULL, 0), 0);
    assert_int_equal(vp_red_edit_distance(kitten, 6, NULL, 0), 6);
    assert_int_equal(vp_red_edit_distance(NULL, 0, sitting, 7), 7);
    uint64_t one = 5, other = 6;
    assert_int_equal(vp_red_edit_distance(&one, 1, &one, 1), 0);
    assert_int_equal(vp_red_edit_distance(&one, 1, &other, 1), 1);
}

static void normalised_distance(void **state)
{
    (void)state;
    /* The indexOf case: the next instance reads one more character. */
    uint64_t a[] = {1, 2, 3, 4}, b[] = {1, 2, 3, 4, 5};
    assert_true(vp_red_normalised_distance(a, 4, b, 5) == 0.0);
    /* Distinct inputs: nothing shared. */
    uint64_t c[] = {10, 11, 12, 13};
    assert_true(vp_red_normalised_distance(a, 4, c, 4) == 1.0);
    /* Half of the shorter one changed. */
    uint64_t d[] = {1, 2, 9, 9};
    assert_true(vp_red_normalised_distance(a, 4, d, 4) == 0.5);
    /* Empty and length-1 sequences. */
    assert_true(vp_red_normalised_distance(NULL, 0, NULL, 0) == -1.0);
    assert_true(vp_red_normalised_distance(a, 4, NULL, 0) == 1.0);
    assert_true(vp_red_normalised_distance(NULL, 0, a, 1) == 1.0);
    assert_true(vp_red_normalised_distance(a, 1, a, 1) == 0.0);
    assert_true(vp_red_normalised_distance(a, 1, c, 1) == 1.0);
    assert_true(vp_red_normalised_distance(a, 1, b, 5) == 0.0);
}

/* The closed form for address ranges agrees with the DP on the expanded
   sequences. */
static void range_distance_matches_dp(void **state)
{
    (void)state;
    uint64_t xa[64], xb[64];
    for (uint64_t a0 = 0; a0 < 12; a0++)
        for (uint32_t na = 1; na <= 9; na++)
            for (uint64_t b0 = 0; b0 < 12; b0++)
                for (uint32_t nb = 1; nb <= 9; nb++) {
                    struct vp_instance_range ra = {1, na, 1000 + 4 * a0,
                                                   1000 + 4 * (a0 + na - 1)};
                    struct vp_instance_range rb = {1, nb, 1000 + 4 * b0,
                                                   1000 + 4 * (b0 + nb - 1)};
                    for (uint32_t k = 0; k < na; k++)
                        xa[k] = ra.first + 4 * k;
                    for (uint32_t k = 0; k < nb; k++)
                        xb[k] = rb.first + 4 * k;
                    double want = vp_red_normalised_distance(xa, na, xb, nb);
                    double got = vp_red_range_distance(&ra, &rb);
                    if (want != got)
                        fail_msg("a0=%llu na=%u b0=%llu nb=%u: dp %f closed %f",
                                 (unsigned long long)a0, na, (unsigned long long)b0, nb, want,
                                 got);
                }
    assert_true(vp_red_range_distance(NULL, NULL) == -1.0);
    struct vp_instance_range r = {1, 3, 0, 8};
    assert_true(vp_red_range_distance(&r, NULL) == 1.0);
}

static void ci_rate(void **state)
{
    (void)state;
    uint64_t distinct;
    uint64_t s1[] = {7, 7, 7, 7};
    assert_true(vp_red_ci_rate(s1, N(s1), &distinct) == 4.0);
    assert_int_equal(distinct, 1);
    uint64_t s2[] = {1, 2, 3, 4};
    assert_true(vp_red_ci_rate(s2, N(s2), &distinct) == 1.0);
    uint64_t s3[] = {3, 1, 3, 1, 2, 2};
    assert_true(vp_red_ci_rate(s3, N(s3), &distinct) == 2.0);
    assert_int_equal(distinct, 3);
    assert_true(vp_red_ci_rate(NULL, 0, &distinct) == 0.0);
    assert_int_equal(distinct, 0);
    uint64_t s4[] = {9};
    assert_true(vp_red_ci_rate(s4, 1, &distinct) == 1.0);
}

/* Builds an instance record with `n` values of source 0 and `m` of source 1. */
static struct vp_instance *instance(const uint64_t *v0, uint32_t n, const uint64_t *v1,
                                    uint32_t m)
{
    struct vp_instance *in = calloc(1, sizeof *in + (n + m) * sizeof(struct vp_instance_value));
    struct vp_instance_value *v = (struct vp_instance_value *)(in + 1);
    in->value_count = n + m;
    for (uint32_t i = 0; i < n; i++)
        v[i] = (struct vp_instance_value){0, 0, v0[i]};
    for (uint32_t i = 0; i < m; i++)
        v[n + i] = (struct vp_instance_value){1, 0, v1[i]};
    return in;
}

static void pair_distance(void **state)
{
    (void)state;
    uint64_t p[] = {1, 2, 3}, q[] = {1, 2, 3, 4}, z[] = {8, 9, 10}, k = 42;
    struct vp_instance *a = instance(p, 3, &k, 1), *b = instance(q, 4, &k, 1);
    struct vp_instance *c = instance(z, 3, &k, 1), *e = instance(NULL, 0, NULL, 0);
    assert_true(vp_red_pair_distance(a, b) == 0.0);
    /* pooled: source 0 changes 3 of 3 values, source 1 keeps its 1 */
    assert_true(vp_red_pair_distance(a, c) == 0.75);
    assert_true(vp_red_pair_distance(e, e) == -1.0);
    /* one side empty: 1 changed of 1 per source */
    assert_true(vp_red_pair_distance(a, e) == 1.0);
    /* a long repeated source outweighs a changed scalar (indexOf: the
       scanned text repeats, the length argument differs): 1 of 21 */
    uint64_t t20[20], u20[21], k2 = 43;
    for (int i = 0; i < 20; i++)
        t20[i] = u20[i] = (uint64_t)i * 7;
    u20[20] = 99;
    struct vp_instance *f = instance(t20, 20, &k, 1), *g = instance(u20, 21, &k2, 1);
    assert_true(vp_red_pair_distance(f, g) == 1.0 / 21.0);
    /* similar but distinct text: 4 of 20 values substituted -> 0.2, above
       the default pair bound */
    for (int i = 0; i < 20; i += 5)
        u20[i] = 1000 + (uint64_t)i;
    struct vp_instance *h = instance(t20, 20, NULL, 0), *j = instance(u20, 20, NULL, 0);
    assert_true(vp_red_pair_distance(h, j) == 0.2);
    struct vp_red_params prm;
    vp_red_params_default(&prm);
    assert_true(vp_red_pair_distance(f, g) < prm.pair_bound);
    assert_false(vp_red_pair_distance(h, j) < prm.pair_bound);
    /* length-1 sequences of the same source */
    struct vp_instance *o1 = instance(&k, 1, NULL, 0), *o2 = instance(&k2, 1, NULL, 0);
    assert_true(vp_red_pair_distance(o1, o1) == 0.0);
    assert_true(vp_red_pair_distance(o1, o2) == 1.0);
    /* the same values (a copy unit's identical copies are not compared):
       equal only with the same count, sources and values, and some */
    struct vp_instance *a2 = instance(p, 3, &k, 1);
    assert_true(vp_red_pair_same(a, a2));
    assert_false(vp_red_pair_same(a, b)); /* grew: the pair a copy unit keeps */
    assert_false(vp_red_pair_same(a, c));
    assert_false(vp_red_pair_same(h, j));
    assert_false(vp_red_pair_same(e, e));
    assert_false(vp_red_pair_same(o1, o2));
    free(a2);
    free(a), free(b), free(c), free(e), free(f), free(g), free(h), free(j), free(o1), free(o2);
}

/* An instance with n values of source s0 and m of source s1. */
static struct vp_instance *instance_of(uint32_t s0, const uint64_t *v0, uint32_t n, uint32_t s1,
                                       const uint64_t *v1, uint32_t m)
{
    struct vp_instance *in = instance(v0, n, v1, m);
    struct vp_instance_value *v = (struct vp_instance_value *)(in + 1);
    for (uint32_t i = 0; i < n + m; i++)
        v[i].src = i < n ? s0 : s1;
    return in;
}

/* `base` with one address range appended (the runtime writes ranges after
   the values). */
static struct vp_instance *with_range(struct vp_instance *base, struct vp_instance_range r)
{
    size_t size = sizeof *base + base->value_count * sizeof(struct vp_instance_value);
    struct vp_instance *in = realloc(base, size + sizeof r);
    memcpy((char *)in + size, &r, sizeof r);
    in->range_count = 1;
    return in;
}

/* A strided access's range (VP_SRC_STRIDE) measures the step between
   iterations and is left out of the pair distances and of the values an
   instance counts; vp_red_instance_stride reads the step (docs/vprof-loop.md,
   "Strided walks"). */
static void stride_ranges(void **state)
{
    (void)state;
    uint64_t t20[20];
    for (int i = 0; i < 20; i++)
        t20[i] = (uint64_t)i * 7;
    const uint32_t S = VP_RED_SRC_STRIDE_BIT | 0;
    /* the same values, the strided access over other addresses: repeated */
    struct vp_instance *a = with_range(instance(t20, 20, NULL, 0),
                                       (struct vp_instance_range){S, 20, 4096, 4096 + 19 * 32768});
    struct vp_instance *b = with_range(instance(t20, 20, NULL, 0),
                                       (struct vp_instance_range){S, 20, 8, 8 + 19 * 32768});
    assert_true(vp_red_pair_distance(a, b) == 0.0);
    assert_true(vp_red_pair_distance_below(a, b, 0.05) == 0.0);
    assert_int_equal(vp_red_instance_values(a), 20);
    int64_t step = 0;
    assert_int_equal(vp_red_instance_stride(a, S, &step), 1);
    assert_true(step == 32768);
    assert_int_equal(vp_red_instance_stride(a, S | 1, &step), 0); /* no such range */
    /* backwards */
    struct vp_instance *c = with_range(instance(NULL, 0, NULL, 0),
                                       (struct vp_instance_range){S, 3, 1000, 1000 - 2 * 256});
    assert_int_equal(vp_red_instance_stride(c, S, &step), 1);
    assert_true(step == -256);
    /* only the stride recorded: nothing to compare */
    assert_true(vp_red_pair_distance(c, c) == -1.0);
    /* one access: no step */
    struct vp_instance *d = with_range(instance(NULL, 0, NULL, 0),
                                       (struct vp_instance_range){S, 1, 64, 64});
    assert_int_equal(vp_red_instance_stride(d, S, &step), 0);
    /* a range of an input (not a stride) still counts */
    struct vp_instance *e = with_range(instance(t20, 20, NULL, 0),
                                       (struct vp_instance_range){2, 20, 8, 8 + 19 * 8});
    assert_int_equal(vp_red_instance_values(e), 40);
    free(a), free(b), free(c), free(d), free(e);
}

/* A copy unit's pair: the closer of its cut from the start and its cut
   from the end (docs/redundancy.md, "Copies of shifted bytes"). */
static void copy_distance(void **state)
{
    (void)state;
    const uint32_t S = VP_RED_SRC_PREFIX_START + 1, E = VP_RED_SRC_SUFFIX_END + 1;
    uint64_t s1[21], s2[21], e1[21], e2[21];
    for (int i = 0; i < 21; i++) {
        s1[i] = s2[i] = (uint64_t)i;         /* the same from the start */
        e1[i] = 100 + (uint64_t)i;           /* ... nothing from the end */
        e2[i] = 200 + (uint64_t)i;
    }
    int shifted = -1;
    /* a buffer that grew by a chunk: the start's cut matches */
    struct vp_instance *g1 = instance_of(S, s1, 20, E, e1, 20),
                       *g2 = instance_of(S, s2, 21, E, e2, 21);
    assert_true(vp_red_copy_distance(g1, g2, 0, &shifted) == 0.0);
    assert_int_equal(shifted, 0);
    /* the same bytes one element along: every chunk from the start
       changed, the end's share all but the first */
    for (int i = 0; i < 20; i++) {
        s2[i] = 50 + (uint64_t)i;
        e2[i] = e1[i];
    }
    e2[0] = 999;
    struct vp_instance *h1 = instance_of(S, s1, 20, E, e1, 20),
                       *h2 = instance_of(S, s2, 20, E, e2, 20);
    assert_true(vp_red_copy_distance(h1, h2, 0, &shifted) == 1.0 / 20.0);
    assert_int_equal(shifted, 1);
    /* pooled over both cuts it would be neither: (20 + 1) / 40 */
    assert_true(vp_red_pair_distance(h1, h2) == 21.0 / 40.0);
    /* with a bound: below it, the distance itself */
    assert_true(vp_red_copy_distance(h1, h2, 0.06, &shifted) == 1.0 / 20.0);
    assert_int_equal(shifted, 1);
    /* a runtime without the end's cut: the start's distance alone */
    struct vp_instance *o1 = instance_of(S, s1, 20, E, NULL, 0),
                       *o2 = instance_of(S, s2, 20, E, NULL, 0);
    assert_true(vp_red_copy_distance(o1, o2, 0, &shifted) == 1.0);
    assert_int_equal(shifted, 0);
    /* nothing recorded: not compared */
    struct vp_instance *z = instance_of(S, NULL, 0, E, NULL, 0);
    assert_true(vp_red_copy_distance(z, z, 0, &shifted) == -1.0);
    free(g1), free(g2), free(h1), free(h2), free(o1), free(o2), free(z);
}

static uint64_t splitmix(uint64_t *x);

/* The textbook table, as the reference (the library's full distance is the
 * banded one with the whole table as its band). */
static size_t ref_edit(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t t[41][41];
    for (size_t i = 0; i <= na; i++)
        for (size_t j = 0; j <= nb; j++) {
            if (i == 0 || j == 0) {
                t[i][j] = i + j;
                continue;
            }
            size_t best = t[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (t[i - 1][j] + 1 < best)
                best = t[i - 1][j] + 1;
            if (t[i][j - 1] + 1 < best)
                best = t[i][j - 1] + 1;
            t[i][j] = best;
        }
    return t[na][nb];
}

/* The banded distance agrees with the full table wherever it answers, and
 * says "more than maxd" exactly when the distance is more than maxd: random
 * sequences over a small alphabet (many near matches), every band width. */
static void edit_distance_max_matches_dp(void **state)
{
    (void)state;
    uint64_t x = 7, a[40], b[40];
    for (int t = 0; t < 400; t++) {
        size_t na = splitmix(&x) % 41, nb = splitmix(&x) % 41;
        uint64_t alpha = 2 + splitmix(&x) % 3;
        for (size_t i = 0; i < na; i++)
            a[i] = splitmix(&x) % alpha;
        for (size_t i = 0; i < nb; i++) /* b: a with a few edits, or fresh */
            b[i] = (t & 1) && i < na && splitmix(&x) % 8 ? a[i] : splitmix(&x) % alpha;
        size_t full = ref_edit(a, na, b, nb);
        assert_int_equal(vp_red_edit_distance(a, na, b, nb), full);
        for (size_t maxd = 0; maxd <= 42; maxd++) {
            size_t d = vp_red_edit_distance_max(a, na, b, nb, maxd);
            assert_int_equal(d, full <= maxd ? full : maxd + 1);
        }
    }
}

/* Below the bound the cut-off pair distance is the distance; at or above
 * it, some value at or above the bound. */
static void pair_distance_below(void **state)
{
    (void)state;
    uint64_t x = 11, v0[60], v1[60], w0[60], w1[60];
    int below = 0, above = 0;
    for (int t = 0; t < 300; t++) {
        uint32_t n = 1 + splitmix(&x) % 60, m = splitmix(&x) % 4, n2 = n + splitmix(&x) % 5;
        if (n2 > 60)
            n2 = 60;
        for (uint32_t i = 0; i < 60; i++) {
            v0[i] = splitmix(&x) % 50;
            v1[i] = splitmix(&x) % 50;
        }
        memcpy(w0, v0, sizeof w0);
        memcpy(w1, v1, sizeof w1);
        uint32_t edits = splitmix(&x) % 6;
        for (uint32_t e = 0; e < edits; e++)
            w0[splitmix(&x) % n2] = 100 + e;
        struct vp_instance *a = instance(v0, n, v1, m), *b = instance(w0, n2, w1, m);
        double exact = vp_red_pair_distance(a, b);
        for (double bound = 0.01; bound < 0.5; bound *= 2) {
            double d = vp_red_pair_distance_below(a, b, bound);
            if (exact < bound) {
                assert_true(d == exact);
                below++;
            } else {
                assert_true(d >= bound);
                above++;
            }
        }
        assert_true(vp_red_pair_distance_below(a, b, 0) == exact);
        free(a), free(b);
    }
    assert_true(below > 100 && above > 100); /* both branches were taken */
}

/* The HyperLogLog estimate of the whole-run rate (docs/redundancy.md,
 * "Whole-run rate"): registers filled as the runtime fills them, from
 * n distinct signatures each seen `rep` times, estimate n within 5 %
 * (3 standard errors at 4096 registers); 0, 1 and a few are exact enough
 * for the rate to be right. */
static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void hll_estimate(void **state)
{
    (void)state;
    static uint8_t reg[VP_ITER_SKETCH_REGS];
    static const uint64_t ns[] = {1, 3, 50, 1000, 6000, 10000, 15000, 20000, 300000, 2000000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        memset(reg, 0, sizeof reg);
        for (int rep = 0; rep < 3; rep++) {
            uint64_t x = 12345 + t; /* the same n signatures each time */
            for (uint64_t i = 0; i < ns[t]; i++) {
                uint64_t sig = splitmix(&x);
                uint32_t j = vp_iter_sketch_index(sig);
                uint8_t r = vp_iter_sketch_rank(sig);
                if (reg[j] < r)
                    reg[j] = r;
            }
        }
        double e = vp_red_hll_estimate(reg, VP_ITER_SKETCH_REGS);
        if (ns[t] <= 50)
            assert_true(llround(e) == (long long)ns[t]);
        else
            assert_true(fabs(e - (double)ns[t]) <= 0.05 * (double)ns[t]);
    }
    memset(reg, 0, sizeof reg);
    assert_true(vp_red_hll_estimate(reg, VP_ITER_SKETCH_REGS) == 0.0);
    /* a rank-0 word (the bits below the index all zero) takes the largest rank */
    assert_int_equal(vp_iter_sketch_rank(0x0010000000000000ull), 64 - VP_ITER_SKETCH_BITS + 1);
    assert_int_equal(vp_iter_sketch_rank(0x0008000000000000ull), 1);
    assert_int_equal(vp_iter_sketch_index(0xFFF0000000000000ull), VP_ITER_SKETCH_REGS - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edit_distance_basics), cmocka_unit_test(normalised_distance),
        cmocka_unit_test(range_distance_matches_dp), cmocka_unit_test(ci_rate),
        cmocka_unit_test(pair_distance), cmocka_unit_test(copy_distance),
        cmocka_unit_test(stride_ranges),
        cmocka_unit_test(hll_estimate),
        cmocka_unit_test(edit_distance_max_matches_dp), cmocka_unit_test(pair_distance_below),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
