/*
 * redundancy.h - cross-iteration and cross-loop redundancy verdicts
 * (LDoctor section 3.2.3, docs/redundancy.md).
 *
 * Inputs: the `.vprof.redund` sections of the binary (static sources and
 * flags, written by the redundancy pass) and the VP_SEC_LOOP_ITER_HASHES /
 * VP_SEC_LOOP_INSTANCES sections of one profile (sampled at run time by
 * sampler-rt/src/redundancy/).  Output: per loop, the two rates, verdicts
 * and the inputs of the fix strategy (fixsuggest/).
 *
 *   struct vp_red_params prm; vp_red_params_default(&prm);
 *   struct vp_red_result *r;
 *   if (vp_red_analyze("./app", prof, &prm, &r, err, sizeof err) != 0) fail(err);
 *   for (size_t i = 0; i < r->loop_count; i++) use(&r->loops[i]);
 *   vp_red_result_free(r);
 */
#ifndef VPROF_REDUNDANCY_H
#define VPROF_REDUNDANCY_H

#include <stddef.h>
#include <stdint.h>

#include "vprof/format.h"
#include "vprof/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vp_red_params {
    double ci_threshold; /* redundant when sampled / distinct >= this (2.0)  */
    double cl_threshold; /* redundant when redundant / compared pairs >= this
                            (0.5)                                            */
    double pair_bound;   /* a pair is redundant when its pooled normalised
                            distance is < this (0.05): at most 1 in 20 of its
                            comparable values is new (docs/redundancy.md)     */
    int strides_only;    /* compare no pair: only the strided accesses' steps
                            are wanted (vprof-loop's normal run) (0)         */
};

/* Fills the defaults above.  Can't fail. */
void vp_red_params_default(struct vp_red_params *p);

enum vp_red_fix {
    VP_RED_FIX_NONE = 0,
    VP_RED_FIX_MEMOIZATION = 1,
    VP_RED_FIX_BATCHING = 2,
};

enum vp_red_writes {
    VP_RED_WRITES_UNKNOWN = 0,  /* fewer than two measured instances          */
    VP_RED_WRITES_CONSTANT = 1, /* same number per instance -> memoization    */
    VP_RED_WRITES_GROWING = 2,  /* grows with the instance's work -> batching */
};

/* A repeated-call unit needs this many sampled calls before its rate can
   flag it: two calls that happen to agree say little. */
#define VP_RED_CALL_MIN_SAMPLES 10

/* A cross-loop verdict needs this many compared pairs: the fewest for which
   all of them coming out redundant would be unlikely (0.5^5 < 0.05) if at
   most half the loop's pairs were (docs/redundancy.md, "Pair rule"). */
#define VP_RED_CL_MIN_PAIRS 5

/* A pair's second instance is compared with its partner and, when that is
   not redundant, with up to this many instances recorded before the pair
   on the same thread: a loop run over several objects in turn (a server's
   rooms, connections) repeats the work of the last instance over the same
   object, which is seldom the one just before (docs/redundancy.md, "Pair
   rule"). */
#define VP_RED_PAIR_WINDOW 8

/* ... when the second instance recorded at least this many values (values,
   plus the elements of its address ranges): a short sequence, a token from
   a small vocabulary, is often equal to one of eight earlier ones by
   chance. */
#define VP_RED_WINDOW_MIN_VALUES 32

struct vp_red_loop_result {
    uint64_t loop_id;
    const char *function;       /* from .vprof.redund (owned by the result)  */
    uint32_t line;
    uint16_t static_flags;      /* VP_REDF_* from the pass                   */
    uint16_t side_effect_sites;
    uint32_t source_count;
    /* A repeated-call unit (VP_REDF_CALLSITE): one call in the loop
       `parent_id`, of `function` (a function with a loop), at `line`; its "iterations" are the
       calls (docs/redundancy.md, "Repeated calls"). */
    int callsite;
    uint64_t parent_id;
    /* A unit whose call is made in a helper the loop calls (VP_REDF_VIA:
       pop's memmove, log_event's fopen; docs/redundancy.md, "Copies in a
       helper"): the helper, and the call's line in it; `line` is the
       loop's call of the helper.  NULL and 0 otherwise. */
    const char *via;
    uint32_t via_line;
    /* Constant work (VP_REDF_CL_CONST): the global the loop writes, the same
       values in every instance; NULL otherwise.  Its pairs have no values
       to compare and count as repeats (docs/redundancy.md, "Constant work
       done again"). */
    const char *constant_object;

    /* cross-iteration */
    uint64_t sampled_iterations;
    uint64_t distinct_signatures;
    double ci_rate;             /* sampled / distinct; 0 when nothing sampled */
    int ci_estimated;           /* distinct estimated over the whole run from
                                   the loop's sketch (more sampled than kept) */
    int ci_redundant;
    int ci_impossible;          /* VP_REDF_CI_IV: an IV source, said statically */
    enum vp_red_fix ci_fix;     /* batching for I/O in every iteration        */

    /* cross-loop */
    uint64_t sampled_instances;
    uint64_t pairs_compared;
    uint64_t pairs_redundant;
    uint64_t pairs_redundant_earlier; /* of those, redundant only against an
                                         instance recorded before the pair */
    uint64_t pairs_redundant_shifted; /* of those, a copy unit's that match
                                         cut from the end (vp_red_copy_distance) */
    double mean_pair_distance;  /* pooled, over compared pairs (each at its
                                   closest match), -1 if none                */
    double cl_rate;             /* redundant / compared pairs                 */
    int cl_redundant;
    enum vp_red_writes cl_writes;
    uint64_t side_effects_min, side_effects_max; /* per sampled instance      */
    /* over the sampled instances: their iterations and side effects */
    uint64_t instance_iterations, instance_side_effects;
    enum vp_red_fix cl_fix;

    /* Strided accesses (VP_SRC_STRIDE; docs/vprof-loop.md, "Strided
       walks"): where each is in the source, and the step between
       consecutive iterations of the loop as compiled (an unrolled body's),
       in bytes: a constant step from the table (`constant`), else the
       median over the recorded instances that made two accesses or more
       (`instances`; 0 and bytes 0 when none did). */
    struct vp_red_stride {
        uint32_t id;
        uint32_t line, column;
        uint32_t instances;
        int constant;
        int64_t bytes;
    } strides[VP_RED_STRIDES_PER_LOOP];
    size_t nstrides;
};

struct vp_red_result {
    struct vp_red_loop_result *loops;
    size_t loop_count;
    /* loss reported by the runtime */
    uint64_t iterations_dropped, iterations_truncated;
    uint64_t iterations_unsketched; /* sampled iterations no sketch saw */
    uint64_t instances_dropped, values_dropped;
    char *strings_;             /* private */
};

/* Reads the static sections of `binary` and the sampled sections of `prof`
 * and computes the verdicts of every loop of the binary.  Returns 0, or -1
 * with `err` set ("<file>: <what>"); a binary without `.vprof.redund` is an
 * error, a profile without the sampled sections gives zero counts. */
int vp_red_analyze(const char *binary, const struct vp_profile *prof,
                   const struct vp_red_params *prm, struct vp_red_result **out,
                   char *err, size_t errlen);

/* The same over the `nprof` profiles of one recording's processes (a
 * forked worker's loops are its own): a loop's iteration signatures are
 * pooled over the processes (one process repeating another's iteration is
 * repeated work), its sketches merged, its instance pairs made within a
 * process and thread only; the loss counts are summed. */
int vp_red_analyze_many(const char *binary, const struct vp_profile *const *profs, size_t nprof,
                        const struct vp_red_params *prm, struct vp_red_result **out, char *err,
                        size_t errlen);

void vp_red_result_free(struct vp_red_result *r);

/* ---- the computations, exposed for tests ---- */

/* Levenshtein distance (unit costs).  Returns SIZE_MAX if out of memory. */
size_t vp_red_edit_distance(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

/* The same, computed only as far as `maxd`: the distance when it is <= maxd,
 * else maxd + 1 (in O(min(na, nb) x maxd) time: only the cells within maxd
 * of the diagonal are filled).  SIZE_MAX if out of memory. */
size_t vp_red_edit_distance_max(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                size_t maxd);

/* LDoctor's Redundancy(I) = (dist - (len_long - len_short)) / len_short:
 * 0 when the shorter sequence is a subsequence-with-edits-only-at-the-ends
 * of the longer (e.g. one extends the other), 1 when nothing is shared.
 * Returns -1 when both are empty (no evidence), 1 when one is empty. */
double vp_red_normalised_distance(const uint64_t *a, size_t na, const uint64_t *b,
                                  size_t nb);

/* The same for two address ranges recorded instead of values (first, last,
 * count of an affine walk): the Levenshtein distance of the two arithmetic
 * sequences, computed in closed form. */
double vp_red_range_distance(const struct vp_instance_range *a,
                             const struct vp_instance_range *b);

/* Sampled iterations over distinct signatures (0 for n == 0).  `sigs` is
 * sorted in place. */
double vp_red_ci_rate(uint64_t *sigs, size_t n, uint64_t *distinct);

/* Distinct values counted by a HyperLogLog of `m` registers (a power of two,
 * at least 16, filled as vp_iter_sketch_rank says): Ertl's estimator (2017),
 * without the bias of the original's raw estimate between 2.5 m and 5 m or
 * a switch to linear counting.  Relative standard error about
 * 1.04 / sqrt(m); 0 for empty registers. */
double vp_red_hll_estimate(const uint8_t *reg, uint32_t m);

/* Pooled normalised distance of two instances (each a vp_instance record
 * followed by its values and ranges): LDoctor's per-source numerator
 * dist - (long - short) summed over the sources, over the sum of their
 * shorter lengths (a source with values on one side only: 1 over 1), i.e.
 * the share of the comparable values that changed.  Returns -1 when no
 * source has values in either instance (the pair is not compared). */
double vp_red_pair_distance(const struct vp_instance *a, const struct vp_instance *b);

/* The same when it is below `bound`; otherwise some value >= bound (the
 * computation stops once that is certain).  -1 as above.  bound <= 0: the
 * distance itself. */
double vp_red_pair_distance_below(const struct vp_instance *a, const struct vp_instance *b,
                                  double bound);

/* A copy unit's pair (VP_REDF_COPY): the lower of the distance over the
 * chunks cut from the start of the bytes (every source but
 * VP_RED_SRC_SUFFIX_END's) and the distance over those cut from their end,
 * as vp_red_pair_distance_below with `bound`.  *shifted is 1 when the cut
 * from the end is the lower: the copy moved again what the previous one
 * moved, shifted (docs/redundancy.md, "Copies of shifted bytes"). */
double vp_red_copy_distance(const struct vp_instance *a, const struct vp_instance *b,
                            double bound, int *shifted);

/* The values an instance recorded: its values plus the elements of its
 * address ranges. */
uint64_t vp_red_instance_values(const struct vp_instance *in);

/* The step in bytes between consecutive addresses of source `src`'s range
   in instance `in` ((last - first) / (count - 1)) into *bytes: 1, or 0
   when the instance has no such range or it holds fewer than two
   addresses. */
int vp_red_instance_stride(const struct vp_instance *in, uint32_t src, int64_t *bytes);

/* Whether instances a and b recorded the same values (and some).  A copy
   unit's pair (VP_REDF_COPY) that copied the same bytes is not compared:
   copying the same bytes again (a template into many destinations) is not
   a buffer copied again as it grows (docs/redundancy.md, "Copies made
   again"). */
int vp_red_pair_same(const struct vp_instance *a, const struct vp_instance *b);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_REDUNDANCY_H */
