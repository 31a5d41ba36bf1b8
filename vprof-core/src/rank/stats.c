/*
 * stats.c - k-sample Anderson-Darling test (scipy-compatible) and Hellinger
 * distance, on sorted arrays of order keys.  See vprof/stats.h.
 */
#include "vprof/stats.h"
#include "util/err.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double vp_stats_ad_sig[VP_STATS_AD_LEVELS] = {0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.001};


uint64_t vp_stats_key_double(double v)
{
    if (v == 0.0)
        v = 0.0; /* -0.0 and +0.0 compare equal: give them one key */
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return (bits >> 63) ? ~bits : bits | (1ull << 63);
}

uint64_t vp_stats_key_int64(int64_t v)
{
    return (uint64_t)v ^ (1ull << 63);
}

void vp_stats_sort_keys(uint64_t *keys, uint64_t *tmp, size_t n)
{
    if (n < 2)
        return;
    /* All eight byte histograms in one read of the data. */
    static __thread size_t count[8][257];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = keys[i];
        for (int b = 0; b < 8; b++)
            count[b][((k >> (8 * b)) & 0xff) + 1]++;
    }
    uint64_t *src = keys, *dst = tmp;
    for (int b = 0; b < 8; b++) {
        unsigned shift = 8u * (unsigned)b;
        size_t *c = count[b];
        /* A pass where every key has the same byte changes nothing: skip it. */
        if (c[((src[0] >> shift) & 0xff) + 1] == n)
            continue;
        for (int v = 0; v < 256; v++)
            c[v + 1] += c[v];
        for (size_t i = 0; i < n; i++)
            dst[c[(src[i] >> shift) & 0xff]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

void vp_stats_ad_critical(size_t k, double critical[VP_STATS_AD_LEVELS])
{
    static const double b0[] = {0.675, 1.281, 1.645, 1.96, 2.326, 2.573, 3.085};
    static const double b1[] = {-0.245, 0.25, 0.678, 1.149, 1.822, 2.364, 3.615};
    static const double b2[] = {-0.105, -0.305, -0.362, -0.391, -0.396, -0.345, -0.154};
    double m = (double)k - 1.0;
    for (int i = 0; i < VP_STATS_AD_LEVELS; i++)
        critical[i] = b0[i] + b1[i] / sqrt(m) + b2[i] / m;
}

/* Least-squares quadratic through (x_i, y_i), as numpy.polyfit(x, y, 2).
 * Normal equations solved in long double: the 7 critical values are well
 * spread, so this agrees with numpy's lstsq to ~1e-14. */
static void polyfit2(const double *x, const double *y, int n, double c[3])
{
    long double a[3][4] = {{0}};
    for (int i = 0; i < n; i++) {
        long double p[3] = {(long double)x[i] * x[i], x[i], 1.0L};
        for (int r = 0; r < 3; r++) {
            for (int s = 0; s < 3; s++)
                a[r][s] += p[r] * p[s];
            a[r][3] += p[r] * y[i];
        }
    }
    for (int col = 0; col < 3; col++) { /* Gaussian elimination, partial pivot */
        int piv = col;
        for (int r = col + 1; r < 3; r++)
            if (fabsl(a[r][col]) > fabsl(a[piv][col]))
                piv = r;
        for (int s = 0; s < 4; s++) {
            long double t = a[col][s];
            a[col][s] = a[piv][s];
            a[piv][s] = t;
        }
        for (int r = 0; r < 3; r++) {
            if (r == col)
                continue;
            long double f = a[r][col] / a[col][col];
            for (int s = col; s < 4; s++)
                a[r][s] -= f * a[col][s];
        }
    }
    for (int r = 0; r < 3; r++)
        c[r] = (double)(a[r][3] / a[r][r]);
}

double vp_stats_ad_pvalue(double statistic, size_t k, int *clamped)
{
    double crit[VP_STATS_AD_LEVELS];
    vp_stats_ad_critical(k, crit);
    double lo = crit[0], hi = crit[0];
    for (int i = 1; i < VP_STATS_AD_LEVELS; i++) {
        lo = crit[i] < lo ? crit[i] : lo;
        hi = crit[i] > hi ? crit[i] : hi;
    }
    if (statistic < lo) {
        *clamped = 1;
        return VP_STATS_AD_P_MAX;
    }
    if (statistic > hi) {
        *clamped = -1;
        return VP_STATS_AD_P_MIN;
    }
    double logsig[VP_STATS_AD_LEVELS], c[3];
    for (int i = 0; i < VP_STATS_AD_LEVELS; i++)
        logsig[i] = log(vp_stats_ad_sig[i]);
    polyfit2(crit, logsig, VP_STATS_AD_LEVELS, c);
    *clamped = 0;
    return exp((c[0] * statistic + c[1]) * statistic + c[2]);
}

int vp_stats_anderson_ksamp_keys(const uint64_t *const *sorted, const size_t *n, size_t k,
                                 struct vp_stats_ad *out, char *err, size_t errlen)
{
    if (k < 2) {
        vp_set_err(err, errlen, "anderson_ksamp needs at least two samples");
        return -1;
    }
    double N = 0;
    for (size_t i = 0; i < k; i++) {
        if (n[i] == 0) {
            vp_set_err(err, errlen, "anderson_ksamp: sample %zu has no observations", i);
            return -1;
        }
        N += (double)n[i];
    }
    if (N < 4) {
        /* scipy: N=2 raises, N=3 divides by zero and returns NaN */
        vp_set_err(err, errlen, "anderson_ksamp needs at least 4 observations, got %.0f", N);
        return -1;
    }
    size_t *pos = calloc(k, sizeof *pos);
    double *inner = calloc(k, sizeof *inner);
    if (!pos || !inner) {
        free(pos);
        free(inner);
        vp_set_err(err, errlen, "out of memory");
        return -1;
    }

    /* Walk the distinct values of the pooled sample in ascending order.
     * For each z_j: l_j = pooled count of z_j, B_j = #(Z < z_j) + l_j/2,
     * M_ij = #(s_i <= z_j) - f_ij/2 with f_ij = #(s_i == z_j). */
    double left = 0;
    size_t distinct = 0;
    for (;;) {
        int any = 0;
        uint64_t z = 0;
        for (size_t i = 0; i < k; i++)
            if (pos[i] < n[i] && (!any || sorted[i][pos[i]] < z)) {
                z = sorted[i][pos[i]];
                any = 1;
            }
        if (!any)
            break;
        distinct++;
        double lj = 0;
        for (size_t i = 0; i < k; i++) {
            size_t p = pos[i];
            while (pos[i] < n[i] && sorted[i][pos[i]] == z)
                pos[i]++;
            lj += (double)(pos[i] - p);
        }
        double bj = left + lj / 2.0;
        double denom = bj * (N - bj) - N * lj / 4.0;
        for (size_t i = 0; i < k; i++) {
            size_t p = pos[i];
            /* f_ij: how many of sample i equal z (those just skipped) */
            size_t f = 0;
            while (f < p && sorted[i][p - 1 - f] == z)
                f++;
            double mij = (double)p - (double)f / 2.0;
            double d = N * mij - bj * (double)n[i];
            if (denom != 0.0)
                inner[i] += lj / N * d * d / denom;
        }
        left += lj;
    }
    if (distinct < 2) {
        free(pos);
        free(inner);
        vp_set_err(err, errlen, "anderson_ksamp needs more than one distinct observation");
        return -1;
    }
    double a2akn = 0, H = 0;
    for (size_t i = 0; i < k; i++) {
        a2akn += inner[i] / (double)n[i];
        H += 1.0 / (double)n[i];
    }
    a2akn *= (N - 1.0) / N;
    free(pos);
    free(inner);

    /* Normalisation (Scholz & Stephens eq. 4), written as scipy does:
     * hs_cs = cumsum(1/(N-1), ..., 1/2); h = hs_cs[-1] + 1;
     * g = sum_j hs_cs[j] / (j + 2). */
    double cs = 0, g = 0;
    size_t NN = (size_t)N;
    for (size_t j = 0; j + 2 < NN; j++) {
        cs += 1.0 / (double)(NN - 1 - j);
        g += cs / (double)(j + 2);
    }
    double h = cs + 1.0;
    double kk = (double)k;
    double a = (4 * g - 6) * (kk - 1) + (10 - 6 * g) * H;
    double b = (2 * g - 4) * kk * kk + 8 * h * kk + (2 * g - 14 * h - 4) * H - 8 * h + 4 * g - 6;
    double c = (6 * h + 2 * g - 2) * kk * kk + (4 * h - 4 * g + 6) * kk + (2 * h - 6) * H + 4 * h;
    double d = (2 * h + 6) * kk * kk - 4 * h * kk;
    double sigmasq = (a * N * N * N + b * N * N + c * N + d) / ((N - 1.0) * (N - 2.0) * (N - 3.0));
    if (!(sigmasq > 0)) {
        vp_set_err(err, errlen, "anderson_ksamp: variance is not positive");
        return -1;
    }
    out->statistic = (a2akn - (kk - 1)) / sqrt(sigmasq);
    vp_stats_ad_critical(k, out->critical);
    out->pvalue = vp_stats_ad_pvalue(out->statistic, k, &out->clamped);
    return 0;
}

int vp_stats_anderson_ksamp(const double *const *samples, const size_t *n, size_t k,
                            struct vp_stats_ad *out, char *err, size_t errlen)
{
    if (k < 2) {
        vp_set_err(err, errlen, "anderson_ksamp needs at least two samples");
        return -1;
    }
    size_t total = 0;
    for (size_t i = 0; i < k; i++)
        total += n[i];
    uint64_t *keys = malloc((total ? total : 1) * 2 * sizeof *keys);
    const uint64_t **ptrs = malloc(k * sizeof *ptrs);
    if (!keys || !ptrs) {
        free(keys);
        free(ptrs);
        vp_set_err(err, errlen, "out of memory");
        return -1;
    }
    uint64_t *tmp = keys + total;
    size_t off = 0;
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < n[i]; j++) {
            if (isnan(samples[i][j])) {
                free(keys);
                free(ptrs);
                vp_set_err(err, errlen, "anderson_ksamp: sample %zu contains NaN", i);
                return -1;
            }
            keys[off + j] = vp_stats_key_double(samples[i][j]);
        }
        vp_stats_sort_keys(keys + off, tmp, n[i]);
        ptrs[i] = keys + off;
        off += n[i];
    }
    int rc = vp_stats_anderson_ksamp_keys(ptrs, n, k, out, err, errlen);
    free(keys);
    free(ptrs);
    return rc;
}

double vp_stats_hellinger(const double *p, const double *q, size_t nbins)
{
    double sp = 0, sq = 0;
    for (size_t i = 0; i < nbins; i++) {
        sp += p[i];
        sq += q[i];
    }
    if (!(sp > 0) || !(sq > 0))
        return -1.0;
    double bc = 0; /* Bhattacharyya coefficient */
    for (size_t i = 0; i < nbins; i++)
        if (p[i] > 0 && q[i] > 0)
            bc += sqrt(p[i] / sp * (q[i] / sq));
    double h2 = 1.0 - bc;
    return h2 > 0 ? sqrt(h2) : 0.0; /* bc may exceed 1 by rounding */
}

/* The binning of vp_stats_hellinger_keys: fn(ctx, lo, hi, ca, cb) for each
 * bin, in ascending order, with its first and last distinct key and how many
 * keys of a and of b it holds. */
static void bin_keys(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, size_t max_bins,
                     void (*fn)(void *, uint64_t, uint64_t, size_t, size_t), void *ctx)
{
    /* Pass 1: number of distinct values in the union. */
    size_t distinct = 0;
    for (size_t i = 0, j = 0; i < na || j < nb;) {
        uint64_t z = (j >= nb || (i < na && a[i] <= b[j])) ? a[i] : b[j];
        while (i < na && a[i] == z)
            i++;
        while (j < nb && b[j] == z)
            j++;
        distinct++;
    }
    int per_value = distinct <= max_bins;
    double wa = 0.5 / (double)na, wb = 0.5 / (double)nb;
    double quota = 1.0 / (double)max_bins;
    /* Pass 2: fill bins in ascending order. */
    size_t ca = 0, cb = 0;
    uint64_t lo = 0;
    for (size_t i = 0, j = 0; i < na || j < nb;) {
        uint64_t z = (j >= nb || (i < na && a[i] <= b[j])) ? a[i] : b[j];
        if (ca == 0 && cb == 0)
            lo = z;
        size_t i0 = i, j0 = j;
        while (i < na && a[i] == z)
            i++;
        while (j < nb && b[j] == z)
            j++;
        ca += i - i0;
        cb += j - j0;
        int last = i >= na && j >= nb;
        /* 1e-12 slack so a bin of exactly 1/max_bins closes despite rounding */
        if (per_value || last || (double)ca * wa + (double)cb * wb >= quota * (1.0 - 1e-12)) {
            fn(ctx, lo, z, ca, cb);
            ca = cb = 0;
        }
    }
}

struct bc_acc {
    double bc;
    size_t na, nb;
};

static void add_bc(void *ctx, uint64_t lo, uint64_t hi, size_t ca, size_t cb)
{
    (void)lo;
    (void)hi;
    struct bc_acc *x = ctx;
    x->bc += sqrt((double)ca / (double)x->na * ((double)cb / (double)x->nb));
}

double vp_stats_hellinger_keys(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                               size_t max_bins)
{
    if (na == 0 || nb == 0 || max_bins == 0)
        return -1.0;
    struct bc_acc x = {0, na, nb};
    bin_keys(a, na, b, nb, max_bins, add_bc, &x);
    double h2 = 1.0 - x.bc;
    return h2 > 0 ? sqrt(h2) : 0.0;
}

struct overrep_acc {
    size_t na, nb;
    double factor;
    uint64_t *r;
    size_t n, cap;
    int oom, prev;           /* prev: the bin before was over-represented  */
};

static void add_overrep(void *ctx, uint64_t lo, uint64_t hi, size_t ca, size_t cb)
{
    struct overrep_acc *x = ctx;
    /* b's share >= factor x a's share: cb / nb >= f ca / na */
    int over = cb > 0 && (double)cb * (double)x->na >= x->factor * (double)ca * (double)x->nb;
    int prev = x->prev;
    x->prev = over;
    if (x->oom || !over)
        return;
    if (prev) { /* no key lies between adjacent bins: one range */
        x->r[2 * x->n - 1] = hi;
        return;
    }
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 8;
        uint64_t *r = realloc(x->r, 2 * cap * sizeof *r);
        if (!r) {
            x->oom = 1;
            return;
        }
        x->r = r;
        x->cap = cap;
    }
    x->r[2 * x->n] = lo;
    x->r[2 * x->n + 1] = hi;
    x->n++;
}

int vp_stats_overrep_keys(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                          size_t max_bins, double factor, uint64_t **ranges, size_t *nranges)
{
    *ranges = NULL;
    *nranges = 0;
    if (na == 0 || nb == 0 || max_bins == 0)
        return 0;
    struct overrep_acc x = {.na = na, .nb = nb, .factor = factor};
    bin_keys(a, na, b, nb, max_bins, add_overrep, &x);
    if (x.oom) {
        free(x.r);
        return -1;
    }
    *ranges = x.r;
    *nranges = x.n;
    return 0;
}
