/*
 * rates.c - edit distances and redundancy rates (LDoctor section 3.2.3).
 * Pure functions over arrays; no I/O.  docs/redundancy.md gives the rules.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/redundancy.h"

void vp_red_params_default(struct vp_red_params *p)
{
    p->ci_threshold = 2.0;
    p->cl_threshold = 0.5;
    p->pair_bound = 0.05;
    p->strides_only = 0;
}

size_t vp_red_edit_distance_max(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                size_t maxd)
{
    size_t gap = na > nb ? na - nb : nb - na, hi = na > nb ? na : nb;
    if (gap > maxd)
        return maxd + 1;
    if (na == 0 || nb == 0)
        return gap;
    if (maxd > hi) /* no distance is larger: the band is the whole table */
        maxd = hi;
    /* Only cells with |i - j| <= maxd can lie on a path of cost <= maxd;
       the others hold `inf`, and a row whose every cell is above maxd ends
       it.  row[j] is (i - 1, j) before it is overwritten with (i, j). */
    const size_t inf = maxd + 1;
    size_t *row = malloc((nb + 1) * sizeof *row);
    if (!row)
        return SIZE_MAX;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j <= maxd ? j : inf;
    for (size_t i = 1; i <= na; i++) {
        size_t jlo = i > maxd ? i - maxd : 1, jhi = i + maxd < nb ? i + maxd : nb;
        size_t diag = row[jlo - 1];
        row[jlo - 1] = jlo == 1 && i <= maxd ? i : inf;
        size_t least = row[jlo - 1];
        for (size_t j = jlo; j <= jhi; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (best > inf)
                best = inf;
            row[j] = best;
            diag = up;
            if (best < least)
                least = best;
        }
        if (least > maxd) {
            free(row);
            return inf;
        }
    }
    size_t d = row[nb];
    free(row);
    return d;
}

size_t vp_red_edit_distance(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    return vp_red_edit_distance_max(a, na, b, nb, na > nb ? na : nb);
}

/* LDoctor's normalisation split in two: the changed values dist - (long -
 * short), clamped to [0, short], and the comparable values, short.  A source
 * with values on one side only counts as one changed value out of one. */
struct vp_red_change {
    double changed, comparable;
};

static struct vp_red_change vp_red_change_of(size_t dist, size_t na, size_t nb)
{
    size_t lo = na < nb ? na : nb, hi = na < nb ? nb : na;
    if (hi == 0)
        return (struct vp_red_change){0, 0};
    if (lo == 0)
        return (struct vp_red_change){1, 1};
    double v = dist > hi - lo ? (double)(dist - (hi - lo)) : 0;
    return (struct vp_red_change){v > (double)lo ? (double)lo : v, (double)lo};
}

/* (dist - (long - short)) / short; -1 when both are empty. */
static double vp_red_normalise(size_t dist, size_t na, size_t nb)
{
    struct vp_red_change c = vp_red_change_of(dist, na, nb);
    return c.comparable > 0 ? c.changed / c.comparable : -1.0;
}

double vp_red_normalised_distance(const uint64_t *a, size_t na, const uint64_t *b,
                                  size_t nb)
{
    if (na == 0 && nb == 0)
        return -1.0;
    size_t d = vp_red_edit_distance(a, na, b, nb);
    if (d == SIZE_MAX)
        return -1.0;
    return vp_red_normalise(d, na, nb);
}

static int64_t vp_red_stride(const struct vp_instance_range *r)
{
    return r->count > 1 ? (int64_t)(r->last - r->first) / (int64_t)(r->count - 1) : 0;
}

static size_t vp_red_max(size_t a, size_t b) { return a > b ? a : b; }

/* Levenshtein distance of A = a0 + k*s (k < na) and B = b0 + k*s (k < nb),
 * distinct elements: either B's elements are matched where they fall in A
 * (the elements before and after the common run are substituted pairwise
 * and the rest inserted/deleted), or nothing matches and everything is
 * substituted: the cheaper of the two. */
static size_t vp_red_range_edit(uint64_t a0, size_t na, uint64_t b0, size_t nb, int64_t s)
{
    int64_t diff = (int64_t)(b0 - a0);
    size_t none = vp_red_max(na, nb);
    if (s == 0 || diff % s != 0)
        return none;
    int64_t d = diff / s; /* B starts at A's index d */
    int64_t lo = d > 0 ? d : 0, hi = d + (int64_t)nb < (int64_t)na ? d + (int64_t)nb : (int64_t)na;
    if (hi <= lo)
        return none;
    size_t ov = (size_t)(hi - lo);
    size_t pa = (size_t)lo, pb = (size_t)(d < 0 ? -d : 0);
    size_t qa = na - pa - ov, qb = nb - pb - ov;
    size_t matched = vp_red_max(pa, pb) + vp_red_max(qa, qb);
    return matched < none ? matched : none;
}

static struct vp_red_change vp_red_range_change(const struct vp_instance_range *a,
                                               const struct vp_instance_range *b)
{
    size_t na = a ? a->count : 0, nb = b ? b->count : 0;
    if (na == 0 || nb == 0)
        return vp_red_change_of(vp_red_max(na, nb), na, nb);
    int64_t sa = vp_red_stride(a), sb = vp_red_stride(b);
    int64_t s = sa ? sa : sb;
    if ((sa && sb && sa != sb) || (na > 1 && sa == 0) || (nb > 1 && sb == 0))
        return vp_red_change_of(vp_red_max(na, nb), na, nb); /* not the same walk:
                                                                nothing shared */
    if (s == 0) /* two single reads: any stride; they match when equal */
        s = a->first != b->first ? (int64_t)(b->first - a->first) : 1;
    return vp_red_change_of(vp_red_range_edit(a->first, na, b->first, nb, s), na, nb);
}

double vp_red_range_distance(const struct vp_instance_range *a,
                             const struct vp_instance_range *b)
{
    struct vp_red_change c = vp_red_range_change(a, b);
    return c.comparable > 0 ? c.changed / c.comparable : -1.0;
}

static int vp_red_cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

double vp_red_ci_rate(uint64_t *sigs, size_t n, uint64_t *distinct)
{
    if (n == 0) {
        if (distinct)
            *distinct = 0;
        return 0.0;
    }
    qsort(sigs, n, sizeof *sigs, vp_red_cmp_u64);
    uint64_t k = 1;
    for (size_t i = 1; i < n; i++)
        k += sigs[i] != sigs[i - 1];
    if (distinct)
        *distinct = k;
    return (double)n / (double)k;
}

static const struct vp_instance_value *vp_red_values(const struct vp_instance *in)
{
    return (const struct vp_instance_value *)(const void *)(in + 1);
}

static const struct vp_instance_range *vp_red_ranges(const struct vp_instance *in)
{
    return (const struct vp_instance_range *)(const void *)(vp_red_values(in) +
                                                              in->value_count);
}

uint64_t vp_red_instance_values(const struct vp_instance *in)
{
    uint64_t n = in->value_count;
    const struct vp_instance_range *r = vp_red_ranges(in);
    for (uint32_t i = 0; i < in->range_count; i++)
        if (!(r[i].src & VP_RED_SRC_STRIDE_BIT)) /* a stride is no input */
            n += r[i].count;
    return n;
}

int vp_red_instance_stride(const struct vp_instance *in, uint32_t src, int64_t *bytes)
{
    const struct vp_instance_range *r = vp_red_ranges(in);
    for (uint32_t i = 0; i < in->range_count; i++)
        if (r[i].src == src && r[i].count > 1) {
            *bytes = vp_red_stride(&r[i]);
            return 1;
        }
    return 0;
}

int vp_red_pair_same(const struct vp_instance *a, const struct vp_instance *b)
{
    const struct vp_instance_value *va = vp_red_values(a), *vb = vp_red_values(b);
    if (!a->value_count || a->value_count != b->value_count || a->range_count ||
        b->range_count)
        return 0;
    for (uint32_t i = 0; i < a->value_count; i++)
        if (va[i].src != vb[i].src || va[i].value != vb[i].value)
            return 0;
    return 1;
}

/* The values of source `src` in instance `in`, in order; returns the count. */
static size_t vp_red_seq(const struct vp_instance *in, uint32_t src, uint64_t *out)
{
    const struct vp_instance_value *v = vp_red_values(in);
    size_t n = 0;
    for (uint32_t i = 0; i < in->value_count; i++)
        if (v[i].src == src)
            out[n++] = v[i].value;
    return n;
}

static const struct vp_instance_range *vp_red_range_of(const struct vp_instance *in,
                                                       uint32_t src)
{
    const struct vp_instance_range *r = vp_red_ranges(in);
    for (uint32_t i = 0; i < in->range_count; i++)
        if (r[i].src == src)
            return &r[i];
    return NULL;
}

/* Which sources a distance pools: all of them, or a copy's one cut
   (VP_RED_SRC_SUFFIX_END's family, or every other source). */
enum vp_red_cut { VP_RED_CUT_ALL, VP_RED_CUT_START, VP_RED_CUT_END };

static int vp_red_is_end_cut(uint32_t src)
{
    return src >= VP_RED_SRC_SUFFIX_END && src < VP_RED_SRC_SUFFIX_END + 16;
}

static int vp_red_in_cut(uint32_t src, enum vp_red_cut cut)
{
    return cut == VP_RED_CUT_ALL || (cut == VP_RED_CUT_END) == vp_red_is_end_cut(src);
}

/* Collects the distinct source ids of both instances in `cut` into `ids`. */
static size_t vp_red_union_ids(const struct vp_instance *a, const struct vp_instance *b,
                               uint32_t *ids, enum vp_red_cut cut)
{
    size_t n = 0;
    const struct vp_instance *both[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const struct vp_instance_value *v = vp_red_values(both[k]);
        for (uint32_t i = 0; i < both[k]->value_count; i++) {
            if (!vp_red_in_cut(v[i].src, cut))
                continue;
            size_t j;
            for (j = 0; j < n && ids[j] != v[i].src; j++)
                ;
            if (j == n)
                ids[n++] = v[i].src;
        }
    }
    return n;
}

/* The pooled distance of `a` and `b`.  With bound > 0 it may stop early:
 * once the changed values reach bound x the comparable ones, it returns a
 * value >= bound without finishing (each sequence's edit distance is then
 * computed in a band, vp_red_edit_distance_max).  Ranges are cheap (closed
 * form) and counted first, so that the budget is known before any DP. */
static double vp_red_pooled(const struct vp_instance *a, const struct vp_instance *b,
                            double bound, enum vp_red_cut cut)
{
    struct vp_red_change sum = {0, 0};
    uint32_t *ids = malloc((a->value_count + b->value_count + 1) * sizeof *ids);
    uint64_t *sa = malloc((a->value_count + 1) * sizeof *sa);
    uint64_t *sb = malloc((b->value_count + 1) * sizeof *sb);
    double out = -1.0;
    if (!ids || !sa || !sb)
        goto done;
    size_t n = vp_red_union_ids(a, b, ids, cut);
    /* Range sources: every range of either instance (none is a copy's) */
    const struct vp_instance *both[2] = {a, b};
    for (int k = 0; cut != VP_RED_CUT_END && k < 2; k++) {
        const struct vp_instance_range *r = vp_red_ranges(both[k]);
        for (uint32_t i = 0; i < both[k]->range_count; i++) {
            if (r[i].src & VP_RED_SRC_STRIDE_BIT)
                continue; /* where a strided access went, not what it read */
            if (k == 1 && vp_red_range_of(a, r[i].src))
                continue; /* already compared from a's side */
            struct vp_red_change c =
                vp_red_range_change(vp_red_range_of(a, r[i].src), vp_red_range_of(b, r[i].src));
            sum.changed += c.changed;
            sum.comparable += c.comparable;
        }
    }
    /* With a cut-off, the budget needs every value source's comparable
       count first; they come from the lengths alone. */
    double comparable = sum.comparable;
    for (size_t i = 0; bound > 0 && i < n; i++)
        comparable += vp_red_change_of(0, vp_red_seq(a, ids[i], sa), vp_red_seq(b, ids[i], sb))
                          .comparable;
    for (size_t i = 0; i < n; i++) {
        size_t na = vp_red_seq(a, ids[i], sa), nb = vp_red_seq(b, ids[i], sb);
        size_t gap = na > nb ? na - nb : nb - na, d;
        if (bound > 0) {
            double room = bound * comparable - sum.changed; /* changes still allowed */
            if (room <= 0)
                break;
            d = vp_red_edit_distance_max(sa, na, sb, nb, gap + (size_t)room);
        } else {
            d = vp_red_edit_distance(sa, na, sb, nb);
        }
        if (d == SIZE_MAX) /* out of memory: not compared */
            goto done;
        struct vp_red_change c = vp_red_change_of(d, na, nb);
        sum.changed += c.changed;
        sum.comparable += c.comparable;
    }
    if (bound <= 0)
        comparable = sum.comparable;
    if (comparable > 0)
        out = sum.changed / comparable;
done:
    free(ids);
    free(sa);
    free(sb);
    return out;
}

double vp_red_pair_distance(const struct vp_instance *a, const struct vp_instance *b)
{
    return vp_red_pooled(a, b, 0, VP_RED_CUT_ALL);
}

double vp_red_pair_distance_below(const struct vp_instance *a, const struct vp_instance *b,
                                  double bound)
{
    return vp_red_pooled(a, b, bound > 0 ? bound : 0, VP_RED_CUT_ALL);
}

double vp_red_copy_distance(const struct vp_instance *a, const struct vp_instance *b,
                            double bound, int *shifted)
{
    bound = bound > 0 ? bound : 0;
    double ds = vp_red_pooled(a, b, bound, VP_RED_CUT_START);
    double de = vp_red_pooled(a, b, bound, VP_RED_CUT_END);
    *shifted = de >= 0 && (ds < 0 || de < ds);
    return *shifted ? de : ds;
}

/* Ertl's sigma and tau (HyperLogLog estimation, 2017, Algorithm 6). */
static double hll_sigma(double x)
{
    if (x == 1.0)
        return INFINITY;
    double y = 1, z = x, prev;
    do {
        x *= x;
        prev = z;
        z += x * y;
        y += y;
    } while (z != prev);
    return z;
}

static double hll_tau(double x)
{
    if (x == 0.0 || x == 1.0)
        return 0;
    double y = 1, z = 1 - x, prev;
    do {
        x = sqrt(x);
        prev = z;
        y *= 0.5;
        z -= (1 - x) * (1 - x) * y;
    } while (z != prev);
    return z / 3;
}

double vp_red_hll_estimate(const uint8_t *reg, uint32_t m)
{
    /* registers hold 0 .. q + 1, q = 64 - log2(m) (vp_iter_sketch_rank) */
    uint32_t p = 0;
    while ((1u << p) < m)
        p++;
    uint32_t q = 64 - p, count[66] = {0};
    for (uint32_t j = 0; j < m; j++)
        count[reg[j] <= q + 1 ? reg[j] : q + 1]++;
    double z = (double)m * hll_tau(1.0 - (double)count[q + 1] / (double)m);
    for (uint32_t k = q; k >= 1; k--)
        z = 0.5 * (z + (double)count[k]);
    z += (double)m * hll_sigma((double)count[0] / (double)m);
    return 1.0 / (2.0 * log(2.0)) * (double)m * (double)m / z;
}
