/*
 * stats.h - the two statistics behind vProf's variable-discounter
 * (vProf section 5.1): the k-sample Anderson-Darling test and the Hellinger
 * distance between two empirical distributions.  Pure functions on arrays:
 * no allocation except where stated, no global state.
 *
 * vp_stats_anderson_ksamp() reproduces scipy.stats.anderson_ksamp
 * (scipy 1.10, midrank=True): Scholz & Stephens (1987) equation 7, the same
 * normalisation, the same critical values and the same p-value interpolation
 * (quadratic fit of log(significance) against the critical values), clamped
 * to [0.001, 0.25] as scipy does when it warns.  docs/rank.md has details.
 *
 * Both tests only look at the ordering of observations.  Callers that hold
 * integers wider than a double's mantissa map them to order-preserving
 * 64-bit keys (vp_stats_key_*) and use the *_keys variants, so ties and
 * order are exact.
 */
#ifndef VPROF_STATS_H
#define VPROF_STATS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Significance levels of the critical values, as in scipy. */
#define VP_STATS_AD_LEVELS 7
extern const double vp_stats_ad_sig[VP_STATS_AD_LEVELS]; /* .25 .1 .05 .025 .01 .005 .001 */
#define VP_STATS_AD_P_MAX 0.25
#define VP_STATS_AD_P_MIN 0.001

struct vp_stats_ad {
    double statistic;                       /* normalised A2 (scipy .statistic) */
    double critical[VP_STATS_AD_LEVELS];    /* scipy .critical_values           */
    double pvalue;                          /* in [0.001, 0.25]                 */
    int clamped;  /* +1: capped at 0.25 (true p larger), -1: floored at 0.001
                     (true p smaller), 0: interpolated                          */
};

/* Order-preserving maps to uint64 keys: a < b  <=>  key(a) < key(b).
 * -0.0 and +0.0 map to the same key; NaN has no key (callers drop NaNs). */
uint64_t vp_stats_key_double(double v);
uint64_t vp_stats_key_int64(int64_t v);
static inline uint64_t vp_stats_key_uint64(uint64_t v) { return v; }

/* k-sample Anderson-Darling test on k arrays of doubles (any order).
 * Returns 0 and fills *out, or -1 with err set when scipy would raise or
 * return NaN: k < 2, an empty sample, fewer than 2 distinct observations,
 * fewer than 4 observations in total, a NaN, or out of memory.
 * Allocates a sorted copy of the samples. */
int vp_stats_anderson_ksamp(const double *const *samples, const size_t *n, size_t k,
                            struct vp_stats_ad *out, char *err, size_t errlen);

/* Same test on order keys, each array sorted ascending.  No allocation
 * beyond O(k).  Same errors as above (minus NaN). */
int vp_stats_anderson_ksamp_keys(const uint64_t *const *sorted, const size_t *n, size_t k,
                                 struct vp_stats_ad *out, char *err, size_t errlen);

/* Critical values for k samples (m = k-1), as scipy: b0 + b1/sqrt(m) + b2/m.
 * Can't fail for k >= 2. */
void vp_stats_ad_critical(size_t k, double critical[VP_STATS_AD_LEVELS]);

/* p-value for a normalised statistic and k samples; sets *clamped like
 * struct vp_stats_ad.  Can't fail for k >= 2. */
double vp_stats_ad_pvalue(double statistic, size_t k, int *clamped);

/* Hellinger distance between two discrete distributions given as bin
 * weights (not necessarily normalised; each is divided by its own sum):
 *   H = sqrt(1 - sum_i sqrt(p_i q_i)),  in [0, 1].
 * Returns -1.0 if either distribution has zero or negative total. */
double vp_stats_hellinger(const double *p, const double *q, size_t nbins);

/* Default bin budget for vp_stats_hellinger_keys. */
#define VP_STATS_HELLINGER_BINS 64

/* Hellinger distance between the empirical distributions of two samples of
 * order keys, each sorted ascending (na, nb > 0).  Binning:
 *   - if the union has at most `max_bins` distinct values, one bin per
 *     distinct value (exact for discrete data);
 *   - otherwise `max_bins` bins of consecutive distinct values, filled in
 *     ascending order; a bin is closed once it holds at least 1/max_bins of
 *     the combined mass in which each sample weighs 1/2 (a sample value has
 *     weight 1/(2 na) or 1/(2 nb)).  A distinct value is never split.
 * The result depends only on the ordering of the values, like the A-D test.
 * Returns the distance, or -1.0 if a sample is empty or max_bins == 0. */
double vp_stats_hellinger_keys(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                               size_t max_bins);

/* The key ranges where sample b is over-represented: with the binning of
 * vp_stats_hellinger_keys, the bins in which b's share of its keys is at
 * least `factor` times a's share (a bin without keys of a counts when it
 * has keys of b).  Adjacent bins merge.  *ranges gets 2 * *nranges keys,
 * [lo, hi] pairs in ascending order (malloc'd, NULL when none).  Returns 0,
 * or -1 out of memory. */
int vp_stats_overrep_keys(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                          size_t max_bins, double factor, uint64_t **ranges, size_t *nranges);

/* In-place ascending sort of keys (LSD radix sort, stable, O(n) extra
 * memory in `tmp`, which must hold n keys).  Can't fail. */
void vp_stats_sort_keys(uint64_t *keys, uint64_t *tmp, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_STATS_H */
