/*
 * test_fixsuggest.c - unit tests of the taxonomy -> fix mapping
 * (strategy.c) and of the shell-like word splitter (split.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "vprof/fixsuggest.h"
#include "vprof/format.h"
#include "vprof/loopcmd.h"
#include "vprof/loopreport.h"

static struct vp_fix_input ran(int cls, uint64_t inst, uint64_t it, uint64_t res, int ineff)
{
    struct vp_fix_input in;
    vp_fix_input_init(&in);
    in.static_class = cls;
    in.slow = (struct vp_fix_counts){1, inst, it, res, it / inst, (double)it / (double)inst, 0, 0};
    in.inefficient = ineff;
    in.resultless_rate = 1.0 - (double)(cls == VP_CLASS_ZERO_STAR_ONE ? inst : res) / (double)it;
    return in;
}

/* A cross-iteration verdict: `sampled` iterations with `distinct` signatures. */
static void alike_iterations(struct vp_fix_redundancy *red, uint64_t sampled, uint64_t distinct)
{
    red->cross_iteration = 1;
    red->sampled_iterations = sampled;
    red->distinct_iterations = distinct;
    red->cross_iteration_rate = (double)sampled / (double)distinct;
}

static void expect(const struct vp_fix_result *r, unsigned cats, const int *fixes, size_t n)
{
    assert_int_equal(r->categories, cats);
    assert_int_equal(r->nfixes, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(r->fixes[i], fixes[i]);
}

static void test_resultless(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ZERO_STAR, 10, 50000, 0, 1);
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR, (int[]){VP_FIX_DELETE_LOOP}, 1);
    assert_non_null(strstr(r.evidence, "None of its 50,000 iterations"));

    in = ran(VP_CLASS_ZERO_STAR_ONE, 20, 96240, 20, 1);
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_CHANGE_DATA_STRUCTURE}, 1);
    assert_non_null(strstr(r.evidence, "scans on average 4,812 elements"));
    /* unrolled x4: each iteration scans four elements */
    in.unroll_factor = 4;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "scans on average 19,248 elements (at most 19,248)"));

    /* a search under LDoctor's 1-in-1,000 that grew from the normal run
       (docs/vprof-loop.md, "Searches that grew") */
    in = ran(VP_CLASS_ZERO_STAR_ONE, 1000, 430000, 1000, 0);
    in.normal = (struct vp_fix_counts){1, 1000, 96000, 1000, 349, 96.0, 0, 0};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_CHANGE_DATA_STRUCTURE}, 1);
    assert_non_null(strstr(r.evidence, "scans on average 430 elements"));
    assert_non_null(strstr(r.evidence, "the normal run scanned 96 per call: the scans grew 4.5x"));
    /* not when it grew less than 2x, scans under 100 elements, or no
       normal run counted it */
    in.normal.avg_iterations = 300;
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    in = ran(VP_CLASS_ZERO_STAR_ONE, 1000, 60000, 1000, 0);
    in.normal = (struct vp_fix_counts){1, 1000, 10000, 1000, 20, 10.0, 0, 0};
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    in = ran(VP_CLASS_ZERO_STAR_ONE, 1000, 430000, 1000, 0);
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);

    in = ran(VP_CLASS_ZERO_OR_ONE, 3, 30000, 2, 1);
    in.site_line = 86;
    in.site_text = "tmp2->writer = add->writer;";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_OR_ONE, (int[]){VP_FIX_SKIP_LOOP}, 1);
    assert_non_null(strstr(r.condition, "line 86"));
    assert_non_null(strstr(r.condition, "`tmp2->writer = add->writer;`"));
    assert_non_null(strstr(r.evidence, "Only 2 of 30,000 iterations"));

    /* the calls that produce its results hold 90 % of its samples: no
       resultless category (docs/vprof-loop.md, "Results that hold the
       time"); 0.034 %, not 0.0 % */
    in = ran(VP_CLASS_ZERO_OR_ONE, 1, 300001, 101, 1);
    in.site_line = 44;
    in.slow.samples = 400;
    in.result_call_samples = 360;
    in.result_call_line = 46;
    in.result_call_callee = "count";
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    assert_string_equal(r.condition, "");
    assert_non_null(strstr(r.evidence, "Only 101 of its 300,001 iterations (0.034%) produce a "
                                       "result, but the calls that produce those results hold "
                                       "90.0% of its samples (count at line 46)"));
    assert_non_null(strstr(r.evidence, "hold at most 10.0% of them"));
    /* under 90 %, or under 20 samples: skip-loop as before */
    in.result_call_samples = 359;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_OR_ONE, (int[]){VP_FIX_SKIP_LOOP}, 1);
    in.slow.samples = 19;
    in.result_call_samples = 19;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_OR_ONE, (int[]){VP_FIX_SKIP_LOOP}, 1);
    /* a search whose found element's call holds the time: likewise */
    in = ran(VP_CLASS_ZERO_STAR_ONE, 20, 96240, 20, 1);
    in.slow.samples = in.result_call_samples = 100;
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    /* a 0* loop has no result calls to hold its time: untouched */
    in = ran(VP_CLASS_ZERO_STAR, 10, 50000, 0, 1);
    in.slow.samples = in.result_call_samples = 100;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR, (int[]){VP_FIX_DELETE_LOOP}, 1);

    /* frequent results: no category, no fix */
    in = ran(VP_CLASS_ZERO_OR_ONE, 3, 30000, 9000, 0);
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    assert_non_null(strstr(r.evidence, "not resultless"));

    /* 1*: only when nothing more informative holds */
    in = ran(VP_CLASS_ONE_STAR, 1, 1000, 1000, 0);
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);

    /* did not run */
    vp_fix_input_init(&in);
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);

    /* never went round (a goto-retry dispatch): whatever the counts and
       the redundancy say, no category */
    in = ran(VP_CLASS_ZERO_STAR_ONE, 5000, 5000, 5000, 0);
    in.red.measured = in.red.cross_iteration = in.red.cross_loop = 1;
    in.red.sampled_iterations = 400;
    in.red.distinct_iterations = 2;
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    assert_non_null(strstr(r.evidence, "Each of its 5,000 instances ran a single iteration"));
    /* ... but a recursion's outermost calls and a vectorized or unrolled
       body's iterations are not single source iterations */
    in.kind = VP_LOOP_RECURSION;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP | VP_FIX_CAT_CROSS_ITERATION,
           (int[]){VP_FIX_BATCHING, VP_FIX_MEMOIZATION}, 2);
    in.kind = VP_LOOP_NATURAL;
    in.flags = VP_LOOPF_VECTOR;
    vp_fix_suggest(&in, &r);
    assert_int_not_equal(r.categories, 0);
    in.flags = VP_LOOPF_UNROLLED;
    vp_fix_suggest(&in, &r);
    assert_int_not_equal(r.categories, 0);
}

/* vprof rank's missing constraint on the loop (docs/vprof-loop.md, "A
   constraint the loop is missing"): skip-loop in place of none, the check
   at the anomalous line, when the variable takes its normal values and its
   iterations went from under a sample interval to several; a more specific
   condition stays. */
/* A search over one hash bucket's chain (docs/vprof-loop.md, "Hash bucket
   chains"): the evidence says the keys collide, and a chain grown from the
   normal run is a finding from VP_FIX_CHAIN_LONG entries. */
static void test_bucket_chain(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ZERO_STAR_ONE, 30000, 204252928, 30000, 1);
    in.normal = (struct vp_fix_counts){1, 595988, 2154118, 595988, 14, 3.6, 0, 0};
    in.bucket_line = 30;
    in.bucket_text = "for (struct entry *e = table[b]; e; e = e->next)";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_CHANGE_DATA_STRUCTURE}, 1);
    assert_non_null(strstr(r.evidence, "is the chain of one hash-table bucket (line 30: "
                                       "`for (struct entry *e = table[b]; e; e = e->next)`), "
                                       "6,808 entries long on average (normal run: 3.6): the "
                                       "keys crowd into few buckets. Fix the hash function"));
    /* not a bucket's chain: the generic search */
    in.bucket_line = 0;
    vp_fix_suggest(&in, &r);
    assert_null(strstr(r.evidence, "bucket"));
    /* 40 entries per walk, 4 in the normal run: under LDoctor's threshold
       and under the 100 of other searches, a finding for a chain */
    in = ran(VP_CLASS_ZERO_STAR_ONE, 1000, 40000, 1000, 0);
    in.normal = (struct vp_fix_counts){1, 1000, 4000, 1000, 9, 4.0, 0, 0};
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    in.bucket_line = 17;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_CHANGE_DATA_STRUCTURE}, 1);
    assert_non_null(strstr(r.evidence, "(line 17), 40 entries long on average (normal run: 4)"));
    /* a walk that keeps the node before its key (libstdc++'s
       _M_find_before_node) is 1*: no category, the sentence all the same */
    in = ran(VP_CLASS_ONE_STAR, 19995, 163570790, 163570790, 0);
    in.bucket_line = 1930;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "produces a result"));
    assert_non_null(strstr(r.evidence, "(line 1930), 8,181 entries long on average"));
    /* a healthy chain: 3 entries per walk, no sentence */
    in = ran(VP_CLASS_ZERO_STAR_ONE, 1000, 3000, 1000, 1);
    in.bucket_line = 17;
    vp_fix_suggest(&in, &r);
    assert_null(strstr(r.evidence, "bucket"));
}

/* A spin loop (docs/vprof-loop.md, "Spin loops"): contended, 0*1? with no
   LDoctor fix and the sentence on waiting, whatever its static class or
   redundancy said; seldom waiting, no category. */
static void test_spin(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 2000000, 120139468, 120139468, 0);
    in.normal = (struct vp_fix_counts){1, 2000000, 2000000, 2000000, 1, 1.0, 0, 0};
    in.spin_line = 14;
    in.spin_text = "while (atomic_exchange_explicit(&lock, 1, memory_order_acquire))";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "It spins on the atomic access at line 14 (`while "
                                       "(atomic_exchange_explicit(&lock, 1, "
                                       "memory_order_acquire))`): its instances went round "
                                       "60.1 times on average (normal run: 1), and every try "
                                       "but the last changed nothing"));
    assert_null(strstr(r.evidence, "produces a result"));
    /* a lock-free update (a CAS of old + d) is no lock: its failed tries
       lost a race for the value, and the advice is about the value */
    in.flags |= VP_LOOPF_SPIN | VP_LOOPF_SPIN_UPDATE;
    in.spin_text = "while (!atomic_compare_exchange_weak(&counter, &old, old + d))";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "It retries the compare-and-swap at line 14"));
    assert_non_null(strstr(r.evidence, "every try but the last failed: another thread changed "
                                       "the value between this one's read and its "
                                       "compare-and-swap"));
    assert_null(strstr(r.evidence, "lock"));
    /* a volatile flag's wait is 0* statically: not delete-loop; alike
       iterations (the same flag read again) are no memoization */
    in = ran(VP_CLASS_ZERO_STAR, 10, 50000, 0, 1);
    in.spin_line = 43;
    alike_iterations(&in.red, 50, 1);
    in.red.measured = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "line 43: its instances went round 5,000 times"));
    /* uncontended: 1.2 tries per instance */
    in = ran(VP_CLASS_ONE_STAR, 1000, 1200, 1200, 0);
    in.slow.max_iterations = 3;
    in.spin_line = 14;
    vp_fix_suggest(&in, &r);
    expect(&r, 0, NULL, 0);
    assert_non_null(strstr(r.evidence, "1.2 times on average: it seldom had to wait."));
    in.flags |= VP_LOOPF_SPIN | VP_LOOPF_SPIN_UPDATE;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "1.2 times on average: it seldom had to retry."));
    in.flags = 0;
    /* not a spin loop: the usual verdict */
    in.spin_line = 0;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_null(strstr(r.evidence, "spins"));
}

static void test_missing_constraint(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 1, 256, 256, 0);
    in.constraint = (struct vp_fix_constraint){1, "i", 0, 1, 6, 256, 97, "rv = signal(pod, i);", 0};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_SKIP_LOOP}, 1);
    assert_non_null(strstr(r.evidence, " The ranking (vprof rank) finds a missing constraint here: "
                                       "`i` takes the same values as in the normal run, where it "
                                       "changed at every sample, but stays the same for 6 sample "
                                       "intervals in the slow run"));
    assert_non_null(strstr(r.condition, "skip the iterations that do not need the work at line "
                                        "97: `rv = signal(pod, i);`"));
    /* without the source line */
    in.constraint.text = NULL;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.condition, "the work at line 97"));
    assert_null(strstr(r.condition, "`"));
    /* a recursion: its calls */
    in.kind = VP_LOOP_RECURSION;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.condition, "skip the recursive calls that"));
    in.kind = VP_LOOP_NATURAL;
    /* an older ranking file without the count: as before */
    in.constraint.slow_runs = UINT64_MAX;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_SKIP_LOOP}, 1);
    in.constraint.slow_runs = VP_FIX_CONSTRAINT_MIN_RUNS; /* the fewest */
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_SKIP_LOOP}, 1);

    /* the run lengths differ more than they agree: a Hellinger distance of
       0.5 is enough */
    in.constraint = (struct vp_fix_constraint){1, "i", 0, 1, 6, 256, 97, NULL, 0.5};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_SKIP_LOOP}, 1);

    /* no skip: values of another range (scalability), iterations already
       long in the normal run (a driver loop), no longer in the slow run,
       run lengths unknown (an older ranking file), a weak processing-cost
       anomaly (mdev23399's page checksum in a CI run: discount 0.77), too
       few runs in the slow run */
    static const struct vp_fix_constraint no[] = {
        {1, "i", 1, 1, 6, 256, 97, NULL, 0},  {1, "r", 0, 5, 18, 256, 97, NULL, 0},
        {1, "g", 0, 3, 1489, 256, 97, NULL, 0}, {1, "i", 0, 1, 1, 256, 97, NULL, 0},
        {1, "i", 0, 0, 0, 256, 97, NULL, 0},    {1, "i", 0, 1, 6, 256, 97, NULL, 0.77},
        /* one run of 2 intervals against six of 1 (apache34464's session_log
           in one bench recording: A-D p 0.001, Hellinger 1) */
        {1, "n", 0, 1, 2, 1, 123, NULL, 0},     {1, "i", 0, 1, 6, 4, 97, NULL, 0},
    };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        in.constraint = no[i];
        vp_fix_suggest(&in, &r);
        expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
        assert_null(strstr(r.evidence, "missing constraint"));
    }

    /* a [0|1]* loop keeps its own condition, the side effect that rarely runs */
    in = ran(VP_CLASS_ZERO_OR_ONE, 3, 30000, 2, 1);
    in.site_line = 86;
    in.site_text = "tmp2->writer = add->writer;";
    in.constraint = (struct vp_fix_constraint){1, "k", 0, 1, 40, 256, 90, "x = f(k);", 0};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_OR_ONE, (int[]){VP_FIX_SKIP_LOOP}, 1);
    assert_non_null(strstr(r.condition, "line 86"));
    assert_non_null(strstr(r.evidence, "`k` takes the same values"));

    /* a redundant loop: the redundancy fix first, then skip-loop */
    in = ran(VP_CLASS_ONE_STAR, 400, 40000, 40000, 0);
    in.red.measured = in.red.cross_loop = 1;
    in.red.constant_writes = 1;
    in.red.cross_loop_rate = in.red.repeated_per_instance = 0.9;
    in.red.sampled_instances = 40;
    in.constraint = (struct vp_fix_constraint){1, "n", 0, 1, 3, 256, 0, NULL, 0};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_MEMOIZATION, VP_FIX_SKIP_LOOP}, 2);
    assert_string_equal(r.condition, "");
}

static void test_redundancy(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 100, 10000, 10000, 0);
    in.red = (struct vp_fix_redundancy){.measured = 1, .cross_iteration = 1,
                                        .cross_iteration_rate = 4.0, .sampled_iterations = 400,
                                        .distinct_iterations = 100};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_non_null(strstr(r.evidence, "400 sampled iterations repeat the values of earlier "
                                       "ones (100 distinct, 4.0x"));
    in.red.distinct_estimated = 1; /* the whole run's sketch estimate */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "(about 100 distinct, 4.0x"));
    in.red.distinct_estimated = 0;
    in.red.io_every_iteration = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_BATCHING}, 1);

    /* a repeated call (docs/redundancy.md, "Repeated calls"): the loop's own
       iterations ruled out or not repeated, its call of shape_word repeats */
    in.red = (struct vp_fix_redundancy){.measured = 1, .call_callee = "shape_word",
                                        .call_line = 113, .call_sampled = 2800,
                                        .call_distinct = 420, .call_rate = 6.67,
                                        .call_redundant = 1};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_non_null(strstr(r.evidence, "calls of shape_word (line 113) repeat earlier calls"));
    assert_non_null(strstr(r.evidence, "2,800 sampled calls, 420 distinct (6.7x"));
    /* the call does I/O on every call: batching, a cache would drop the
       output (docs/vprof-loop.md, "Repeated calls that do I/O") */
    in.red.call_io = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_BATCHING}, 1);
    assert_non_null(strstr(r.evidence, "each call does I/O: caching the call would drop"));
    in.red.call_io = 0;
    /* its callee's loop waits in every iteration: the calls repeat a wait
       (docs/vprof-loop.md, "Loops that wait"): no category, no cache */
    in.red.call_wait_line = 105;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "but shape_word waits in every iteration of its loop at "
                                       "line 105: what repeats is a wait"));
    assert_null(strstr(r.evidence, "no repeated work was found"));
    in.red.call_wait_line = 0;
    in.red.call_redundant = 0; /* sampled but not repeated: nothing */
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);

    /* a string scanned again (docs/redundancy.md, "Strings scanned again"):
       strcat's consecutive calls rescan the string the previous one read:
       cross-loop, keep the length */
    in.red = (struct vp_fix_redundancy){.measured = 1, .call_callee = "strcat",
                                        .call_line = 12, .call_sampled = 400,
                                        .call_distinct = 397, .call_rate = 1.01,
                                        .call_rescan = 1, .call_pairs = 121,
                                        .call_rescan_rate = 0.98,
                                        .call_rescan_repeated = 0.993};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_non_null(strstr(r.evidence, "call of strcat (line 12) reads again the string the "
                                       "previous call read (98.0% of 121 compared pairs"));
    assert_non_null(strstr(r.evidence, "keep its length (or a pointer to its end)"));
    in.red.call_callee = "strstr"; /* a search: resume it */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "start each search where the previous one stopped"));
    in.red.call_callee = "__isoc99_sscanf"; /* glibc measures its input */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "glibc's sscanf measures its whole input on every call"));
    /* a copy of a buffer that grew (redundancy flag VP_REDF_COPY,
       docs/redundancy.md, "Copies made again"): the copy's wording, by the
       flag and not by the callee's name */
    in.red.call_callee = "std::string::_M_replace";
    in.red.call_copies = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_non_null(strstr(r.evidence, "call of std::string::_M_replace (line 12) copies again "
                                       "the string the previous call copied (98.0% of 121"));
    assert_non_null(strstr(r.evidence, "append to the string in place (s += x"));
    in.red.call_callee = "memcpy";
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "copies again the bytes the previous call copied"));
    assert_non_null(strstr(r.evidence, "growing its capacity geometrically"));
    in.red.call_copies = 0; /* a user's own function named memcpy scans */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "reads again the string the previous call read"));
    /* calls that also repeat earlier ones whole: that is what is said */
    in.red.call_redundant = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_null(strstr(r.evidence, "reads again the string"));
    in.red.call_redundant = 0;
    in.red.call_rescan = 0; /* pairs compared, none rescanned */
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);

    /* cross-loop: memoization with constant writes, else batching */
    in.red = (struct vp_fix_redundancy){.measured = 1, .cross_loop = 1, .cross_loop_rate = 0.9,
                                        .constant_writes = 1, .repeated_per_instance = 0.8};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_null(strstr(r.evidence, "several objects"));
    /* redundant pairs that repeat an earlier instance, not the partner */
    in.red.pairs_by_earlier = 14;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_non_null(strstr(r.evidence, "In 14 of the redundant pairs the instance repeats not "
                                       "the one just before it but one of the 8 before that"));
    in.red.pairs_by_earlier = 0;
    in.red.constant_writes = 0;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_BATCHING}, 1);

    /* 0*1? + cross-loop: both, the resultless fix first (MySQL27287) */
    in = ran(VP_CLASS_ZERO_STAR_ONE, 20, 96240, 20, 1);
    in.red = (struct vp_fix_redundancy){.measured = 1, .cross_loop = 1, .constant_writes = 1};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE | VP_FIX_CAT_CROSS_LOOP,
           (int[]){VP_FIX_CHANGE_DATA_STRUCTURE, VP_FIX_MEMOIZATION}, 2);

    /* a 0* loop is deleted: its redundancy is not reported */
    in = ran(VP_CLASS_ZERO_STAR, 10, 50000, 0, 1);
    in.red = (struct vp_fix_redundancy){.measured = 1, .cross_loop = 1, .cross_iteration = 1};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR, (int[]){VP_FIX_DELETE_LOOP}, 1);
}

/* A loop that waits in every iteration (docs/vprof-loop.md, "Loops that
   wait"): its repetition keeps its category, gets no cache or batch, and
   says why; a resultless fix stays. */
static void test_wait(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 256, 5120000, 5120000, 0);
    in.red = (struct vp_fix_redundancy){.measured = 1, .cross_loop = 1, .cross_loop_rate = 1,
                                        .constant_writes = 1, .repeated_per_instance = 1};
    in.wait_line = 75;
    in.wait_callee = "poll";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "Its call of poll at line 75 waits in every iteration: "
                                       "what repeats is a wait that got the same answer"));
    in.red.cross_loop = 0; /* alike iterations instead */
    alike_iterations(&in.red, 10, 1);
    in.red.io_every_iteration = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_NONE}, 1);

    /* nothing repeats, but its instances went round: the time is waiting
       (HTTPD-54852's dummy_connection when too few of its pairs were
       sampled for a verdict) */
    in.red.cross_iteration = 0;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "no repeated work was found. Its call of poll at line 75 "
                                       "waits in every iteration, and its instances went round "
                                       "20,000 times on average: most waits got no answer; the "
                                       "time goes to waiting"));
    /* a parent reaping its workers got an answer from every wait: the
       time is the children's (found dogfooding a pre-forking pool, whose
       `while (wait(NULL) > 0)` "got no answer" from most waits) */
    in.wait_callee = "wait";
    in.slow = (struct vp_fix_counts){1, 1, 3, 3, 3, 3.0, 0, 0};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "Its call of wait at line 75 waits in every iteration "
                                       "for a process to end, and its instances went round 3 "
                                       "times on average: the time goes to the processes it "
                                       "waits for -- look at their work, not at this loop."));
    assert_null(strstr(r.evidence, "no answer"));
    in.wait_callee = "pthread_join";
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "for a thread to end"));
    in.wait_callee = "poll";
    /* a wait that is answered at once (one iteration per instance, a
       condition variable signalled before each wait): no sentence */
    in.slow = (struct vp_fix_counts){1, 256, 300, 300, 2, 300.0 / 256, 0, 0};
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_null(strstr(r.evidence, "waits in every"));

    /* [0|1]*: its skip-loop stays, and no "none" is added */
    in = ran(VP_CLASS_ZERO_OR_ONE, 100, 10000, 100, 1);
    in.red = (struct vp_fix_redundancy){.measured = 1, .cross_loop = 1, .constant_writes = 1};
    in.wait_line = 12;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_OR_ONE | VP_FIX_CAT_CROSS_LOOP, (int[]){VP_FIX_SKIP_LOOP}, 1);
    assert_non_null(strstr(r.evidence, "Its call of a function at line 12 waits"));
}

/* Growth factors read as a person writes them, never in %g's exponent form
   ("1.76e+03x" was printed for the bundled example). */
/* A loop whose time is in loops of called functions with root causes of
   their own says so in its evidence, and takes no category from them. */
static void test_callees(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 20, 60000, 60000, 0);
    in.red.measured = 1;
    in.callees[0] = (struct vp_fix_callee){"page_checksum", 72, VP_FIX_CAT_CROSS_LOOP, 1419, 60000, 0, NULL, NULL, 0};
    in.callees[1] = (struct vp_fix_callee){"db_serialize_header", 94,
                                           VP_FIX_CAT_CROSS_LOOP | VP_FIX_CAT_ZERO_STAR_ONE, 188,
                                           60000, 0, NULL, NULL, 0};
    in.ncallees = 2;
    in.callee_samples = 1607;
    in.loop_samples = 1729;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_non_null(strstr(r.evidence, "no repeated work was found in its own code. 92.9% of its "
                                       "samples are in loops of the functions it calls that have "
                                       "a root cause of their own: page_checksum's loop at line "
                                       "72 (cross-loop; 82.1%) and db_serialize_header's loop at "
                                       "line 94 (0*1?, cross-loop; 10.9%)."));

    /* three, after a redundancy verdict of its own */
    alike_iterations(&in.red, 100, 10);
    in.callees[2] = (struct vp_fix_callee){"crc", 9, VP_FIX_CAT_ZERO_OR_ONE, 1, 60000, 0, NULL, NULL, 0};
    in.ncallees = 3;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_non_null(strstr(r.evidence, "10.0x redundancy). 92.9% of its samples"));
    assert_non_null(strstr(r.evidence, "page_checksum's loop at line 72 (cross-loop; 82.1%), "
                                       "db_serialize_header's loop at line 94 (0*1?, cross-loop; "
                                       "10.9%) and crc's loop at line 9 ([0|1]*; 0.058%)."));

    /* none: the sentence of old */
    in = ran(VP_CLASS_ONE_STAR, 20, 60000, 60000, 0);
    in.red.measured = 1;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "no repeated work was found."));
    assert_null(strstr(r.evidence, "of its samples are in loops"));
}

/* A loop in a system header (std::find's, inlined into the program): a
   verdict on it says the change belongs at the program's call, and a
   calling loop names it by its header and that call (docs/vprof-loop.md,
   "Loops in system headers"). */
static void test_library_loop(void **state)
{
    (void)state;
    struct vp_fix_result r;
    const char *find_if = "std::__find_if<__gnu_cxx::__normal_iterator<int*, std::vector<int, "
                          "std::allocator<int> > >, __gnu_cxx::__ops::_Iter_equals_val<int const> >";
    struct vp_fix_input in = ran(VP_CLASS_ZERO_STAR_ONE, 29996, 96359887, 29996, 1);
    in.function = find_if;
    in.lib_header = "stl_algobase.h";
    in.lib_call_file = "dedup.cpp";
    in.lib_call_line = 13;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_CHANGE_DATA_STRUCTURE}, 1);
    assert_non_null(strstr(r.evidence, " It is library code (std::__find_if<...>, stl_algobase.h) "
                                       "run by the program's call at dedup.cpp:13: the waste comes "
                                       "from what that call is given or how often it is made, so "
                                       "the change belongs there, not in the library."));
    /* no advice, no sentence; nor for the program's own loop */
    in = ran(VP_CLASS_ONE_STAR, 20, 60000, 60000, 0);
    in.function = find_if;
    in.lib_header = "stl_algobase.h";
    in.lib_call_file = "dedup.cpp";
    in.lib_call_line = 13;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_null(strstr(r.evidence, "library"));
    in = ran(VP_CLASS_ZERO_STAR_ONE, 29996, 96359887, 29996, 1);
    in.function = "find_slot";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_STAR_ONE, (int[]){VP_FIX_CHANGE_DATA_STRUCTURE}, 1);
    assert_null(strstr(r.evidence, "library"));

    /* the calling loop names the header's loop by its call */
    in = ran(VP_CLASS_ZERO_OR_ONE, 1, 30000, 27664, 0);
    in.callees[0] = (struct vp_fix_callee){find_if, 2065, VP_FIX_CAT_ZERO_STAR_ONE |
                                           VP_FIX_CAT_CROSS_LOOP, 72, 29996, 0, "stl_algobase.h",
                                           "dedup.cpp", 13};
    in.ncallees = 1;
    in.callee_samples = 72;
    in.loop_samples = 72;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.evidence, "a root cause of their own: std::__find_if<...>'s loop "
                                       "(stl_algobase.h:2065, called at dedup.cpp:13; 0*1?, "
                                       "cross-loop; 100%)."));
}

/* System calls for a few bytes in every iteration that hold half of the
   loop's samples: batching, in place of a 1* loop's none
   (docs/vprof-loop.md, "A system call per few bytes"). */
static void test_syscalls(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 1, 810527, 810527, 0);
    in.slow.samples = 600;
    in.slow.seconds = 0.6;
    in.syscalls[0] = (struct vp_fix_syscall){8, "read", 1};
    in.syscalls[1] = (struct vp_fix_syscall){9, "write", 1};
    in.nsyscalls = 2;
    in.syscall_samples = 588;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_BATCHING}, 1);
    assert_non_null(strstr(r.evidence, "Each of its 810,527 iterations calls read (line 8) for 1 "
                                       "byte and write (line 9) for 1 byte: two system calls per "
                                       "iteration, which hold 98.0% of its samples (725 ns per "
                                       "iteration)"));
    /* under half of its samples, or too few: none */
    in.syscall_samples = 299;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_null(strstr(r.evidence, "system call"));
    in.slow.samples = 19;
    in.syscall_samples = 19;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    /* after a resultless fix; one call of 4 bytes */
    in = ran(VP_CLASS_ZERO_OR_ONE, 3, 30000, 2, 1);
    in.slow.samples = 100;
    in.syscalls[0] = (struct vp_fix_syscall){12, "send", 4};
    in.nsyscalls = 1;
    in.syscall_samples = 60;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ZERO_OR_ONE, (int[]){VP_FIX_SKIP_LOOP, VP_FIX_BATCHING}, 2);
    assert_non_null(strstr(r.evidence, "calls send (line 12) for 4 bytes: one system call per "
                                       "iteration, which holds 60.0%"));
}

/* LDoctor's I/O-related cross-iteration redundancy, measured in the loops
   the iterations call (docs/vprof-loop.md, "Repeated work around I/O"):
   an I/O call in every iteration, and at least half of the samples in
   called cross-loop loops that run at most once per iteration. */
static void test_io_repeated(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 20, 60000, 60000, 0);
    in.red.measured = 1;
    in.red.ci_ruled_out = 1;
    in.callees[0] = (struct vp_fix_callee){"page_checksum", 72, VP_FIX_CAT_CROSS_LOOP, 1419, 60000, 0, NULL, NULL, 0};
    in.callees[1] = (struct vp_fix_callee){"crc", 9, VP_FIX_CAT_ZERO_OR_ONE, 200, 60000, 0, NULL, NULL, 0};
    in.ncallees = 2;
    in.callee_samples = 1619;
    in.loop_samples = 1729;
    in.io_line = 149;
    in.io_callee = "create_item_do";
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_BATCHING}, 1);
    assert_non_null(strstr(r.evidence, "Every one of its 60,000 iterations does I/O (the call of "
                                       "create_item_do at line 149), and 82.1% of its samples are "
                                       "in called loops that redo their previous instance's work "
                                       "and run at most once per iteration"));

    /* without the I/O call: a note only (the waste is the called loop's) */
    in.io_line = 0;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);

    /* the called loop runs twice per iteration: its pairs may be the two
       runs of one iteration, which batching iterations would not remove */
    in.io_line = 149;
    in.callees[0].instances = 120000;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    /* unless the loop was unrolled x2: 120,000 source iterations */
    in.unroll_factor = 2;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_BATCHING}, 1);
    assert_non_null(strstr(r.evidence, "Every one of its 120,000 iterations does I/O"));
    in.unroll_factor = 0;
    in.callees[0].instances = 60000;

    /* under half of the samples in repeating loops */
    in.callees[0].samples = 800;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    in.callees[0].samples = 1419;

    /* instances unknown (0): no claim */
    in.callees[0].instances = 0;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    in.callees[0].instances = 60000;

    /* the called loop waits (polls) in every iteration: its instances are
       alike because nothing arrived, not repeated work (HTTPD-54852's
       dummy_connection under ap_mpm_pod_killpg) */
    in.callees[0].waits = 1;
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_ONE_STAR, (int[]){VP_FIX_NONE}, 1);
    assert_null(strstr(r.evidence, "does I/O"));
    in.callees[0].waits = 0;

    /* a recursion's "iterations" are calls: not this rule */
    in.kind = VP_LOOP_RECURSION;
    vp_fix_suggest(&in, &r);
    assert_false(r.categories & VP_FIX_CAT_CROSS_ITERATION);
    in.kind = VP_LOOP_NATURAL;

    /* a cross-iteration verdict of its own keeps its fix and sentence */
    in.red.ci_ruled_out = 0;
    alike_iterations(&in.red, 100, 10);
    vp_fix_suggest(&in, &r);
    expect(&r, VP_FIX_CAT_CROSS_ITERATION, (int[]){VP_FIX_MEMOIZATION}, 1);
    assert_null(strstr(r.evidence, "does I/O"));
}

/* The Markdown report's sentences: a category or a name with `*` does not
   start emphasis, and quoted code keeps its `->` (a code span shows an
   entity such as &gt; as it is). */
static void test_md_prose(void **state)
{
    (void)state;
    struct vp_lr_loop l;
    memset(&l, 0, sizeof l);
    l.function = "scan";
    l.file = "/src/a.c";
    l.line = 7;
    l.end_line = 9;
    l.depth = 1;
    l.fix.categories = VP_FIX_CAT_ONE_STAR;
    snprintf(l.fix.evidence, sizeof l.fix.evidence,
             "It calls crc's loop at line 9 (0*1?, [0|1]*; 80%%) and a_b.");
    snprintf(l.fix.condition, sizeof l.fix.condition,
             "skip the loop when the side effect at line 8 cannot run: `p->n = a*b;` <now>");
    struct vp_loop_report r;
    memset(&r, 0, sizeof r);
    r.loops = &l;
    r.nloops = 1;
    r.samples_from = "probe-run";
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    assert_int_equal(vp_lr_write(f, &r, VP_LR_MD, 0), 0);
    fclose(f);
    assert_non_null(strstr(buf, "- **Evidence:** It calls crc's loop at line 9 (0\\*1?, "
                                "[0|1]\\*; 80%) and a\\_b."));
    assert_non_null(strstr(buf, "cannot run: `p->n = a*b;` &lt;now&gt;"));
    free(buf);
}

static void test_growth_ratio(void **state)
{
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 1, 8824, 8824, 0);
    in.normal = (struct vp_fix_counts){1, 1, 5, 5, 5, 5.0, 0, 0};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, ": 1,765x the iterations per instance, 1,765x the total work"));
    in.normal = (struct vp_fix_counts){1, 1, 8000, 8000, 8000, 8000.0, 0, 0};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, ": 1.1x the iterations per instance"));
    in.normal = (struct vp_fix_counts){1, 1, 400, 400, 400, 400.0, 0, 0};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, ": 22x the iterations per instance"));
    assert_null(strstr(r.growth, "time per"));
}

/* The time per iteration, from the probed runs' samples in the loop: the
   work per iteration that grows with the input (bc's base conversion, one
   division of the whole number per digit) shows only there. */
static void test_growth_time(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 1, 8000, 8000, 0);
    in.slow.samples = 3000;
    in.slow.seconds = 3.0;
    in.normal = (struct vp_fix_counts){1, 1, 1000, 1000, 1000, 1000.0, 40, 0.04};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "8x the iterations per instance"));
    assert_non_null(strstr(r.growth, "; time per iteration: 40 us normal, 375 us slow (9.4x), so "
                                     "75x the time in the loop (40 and 3,000 samples of the "
                                     "probed runs); the time per iteration grew with the "
                                     "iterations per instance (9.4x for 8x)"));
    /* a recursion's time is the recursion's, not a loop's */
    in.kind = VP_LOOP_RECURSION;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "; time per recursive call: 40 us normal, 375 us slow "
                                     "(9.4x), so 75x the time in the recursion (40"));
    in.kind = VP_LOOP_NATURAL;
    /* under a nanosecond an iteration (a vectorized search): not "0 ns" */
    in.slow.iterations = 240000000;
    in.slow.seconds = 0.074;
    in.normal.iterations = 30000000;
    in.normal.seconds = 0.01;
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "; time per iteration: 0.333 ns normal, 0.308 ns slow (0.92x)"));
    /* too few samples on one side: no time */
    in.normal.samples = 9;
    vp_fix_suggest(&in, &r);
    assert_null(strstr(r.growth, "time per"));
}

/* The lines holding the added time per iteration (in->hot), and when
   they are not named. */
/* The time per iteration against the iterations per instance
   (docs/vprof-loop.md, "Work per iteration that grows"). */
static void test_growth_scaling(void **state)
{
    (void)state;
    struct vp_fix_result r;
    /* a queue popped with a memmove of the rest: 100 -> 100,000 per
       instance, 18.7 ns -> 10.3 us per iteration */
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 1, 100000, 100000, 0);
    in.slow.samples = 1030;
    in.slow.seconds = 1.03;
    in.normal = (struct vp_fix_counts){1, 100000, 10000000, 10000000, 100, 100.0, 186, 0.187};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "; the time per iteration grew with the iterations per "
                                     "instance (551x for 1,000x): as if one iteration's work "
                                     "were proportional to how long its loop runs, which makes "
                                     "an instance's time grow about as the square of its "
                                     "length."));
    assert_true(r.growth_exponent > 1.9 && r.growth_exponent < 2.0);
    /* a strlen rescan against short strings: 404x the length, 44x the time */
    struct vp_fix_input sq = in;
    sq.slow.avg_iterations = 40400;
    sq.slow.seconds = 1.03 * 44 / 551;
    vp_fix_suggest(&sq, &r);
    assert_non_null(strstr(r.growth, "(44x for 404x): as if one iteration's work were "
                                     "proportional to how long its loop runs, which makes an "
                                     "instance's time grow as the 1.6-th power of its length."));
    /* an outer loop whose iteration runs an inner loop over the same n:
       10x the length, 100x the time per iteration */
    sq.slow.avg_iterations = 1000;
    sq.slow.seconds = 0.187 / 1e7 * 100 * 100000;
    vp_fix_suggest(&sq, &r);
    assert_non_null(strstr(r.growth, "grow about as the cube of its length."));
    /* caches outgrown: 16x the length, 3.9x the time per iteration (under
       8x); 1,000x the length, 20x the time (the 0.43th power): not said */
    sq.slow.avg_iterations = 1600;
    sq.slow.seconds = 0.187 / 1e7 * 3.9 * 100000;
    vp_fix_suggest(&sq, &r);
    assert_null(strstr(r.growth, "as if one iteration's work"));
    assert_true(r.growth_exponent == 0);
    sq.slow.avg_iterations = 100000;
    sq.slow.seconds = 0.187 / 1e7 * 20 * 100000;
    vp_fix_suggest(&sq, &r);
    assert_null(strstr(r.growth, "as if one iteration's work"));
    /* the same work per iteration in more instances: no growth in length */
    sq.slow.instances = 1000;
    sq.slow.avg_iterations = 100;
    sq.slow.seconds = 1.03;
    vp_fix_suggest(&sq, &r);
    assert_null(strstr(r.growth, "as if one iteration's work"));
    /* a recursion: its own words */
    struct vp_fix_input rec = in;
    rec.kind = VP_LOOP_RECURSION;
    vp_fix_suggest(&rec, &r);
    assert_non_null(strstr(r.growth, "the time per recursive call grew with the recursive calls "
                                     "per outermost call (551x for 1,000x): as if one recursive "
                                     "call's work were proportional to how long its recursion "
                                     "runs, which makes an outermost call's time grow"));
}

static void test_growth_line(void **state)
{
    (void)state;
    struct vp_fix_result r;
    struct vp_fix_input in = ran(VP_CLASS_ONE_STAR, 1, 8000, 8000, 0);
    in.slow.samples = 3000;
    in.slow.seconds = 3.0; /* 375 us per iteration */
    in.normal = (struct vp_fix_counts){1, 1, 1000, 1000, 1000, 1000.0, 40, 0.04}; /* 40 us */
    in.hot[0] = (struct vp_fix_hot_line){64, "pop(q);", 2800, 10, 2.8, 0.01, "pop", "[libc.so.6]", 0, 0, 0};
    vp_fix_suggest(&in, &r);
    /* 350 us - 10 us added at the line, of 335 us: capped at 100% (after
       the scaling clause: 9.4x the time per iteration for 8x the length) */
    assert_non_null(strstr(r.growth, "grow about as the square of its length; line 64 holds "
                                     "100% of the added time per iteration (335 us of 335 us), "
                                     "in calls of pop, most of it in [libc.so.6]: `pop(q);`."));
    assert_int_equal(r.growth_lines, 1);
    assert_true(r.growth_line_share[0] == 1.0);
    assert_null(strstr(r.growth, "unwinding"));
    /* most of the line's samples under the C++ unwinder: exceptions */
    in.hot[0] = (struct vp_fix_hot_line){14, "sum += std::stoi(t);", 2800, 10, 2.8, 0.01,
                                         "std::__cxx11::stoi", "[libgcc_s.so.1]", 1, 0, 0};
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "in calls of std::__cxx11::stoi, most of it in "
                                     "[libgcc_s.so.1], unwinding C++ exceptions thrown there: "
                                     "a throw costs a microsecond or more"));
    assert_non_null(strstr(r.growth, "test for the failure before the call"));
    /* a strided access at the line: a cache line or more per iteration in
       iterations of a memory access's time (here 375 us: none) */
    in.hot[0] = (struct vp_fix_hot_line){10, "s += m[i * n + j];", 2800, 10, 2.8, 0.01, NULL,
                                         NULL, 0, 32768, 2048};
    vp_fix_suggest(&in, &r);
    assert_null(strstr(r.growth, "memory access steps"));
    struct vp_fix_input fast = in;
    fast.slow.iterations = 80000000; /* 37.5 ns per iteration, 4 ns normal */
    fast.slow.avg_iterations = 80000000;
    fast.normal.iterations = 10000000;
    fast.normal.avg_iterations = 10000000;
    fast.depth = 2;
    fast.parent_line = 7;
    fast.hot[0].slow_seconds = 2.8 * 0.75;
    vp_fix_suggest(&fast, &r);
    assert_non_null(strstr(r.growth, ", where a memory access steps 32 KiB from one iteration to "
                                     "the next (2 KiB in the normal run): every iteration touches "
                                     "another cache line, and once the data outgrows the caches "
                                     "each one waits for memory -- walk the memory in the order "
                                     "it is laid out: swap this loop with the loop around it at "
                                     "line 7, or work in tiles: `s += m[i * n + j];`."));
    fast.depth = 1; /* an outermost loop: the layout, not the loop order */
    fast.parent_line = 0;
    fast.hot[0].stride_bytes = -192;
    fast.hot[0].normal_stride_bytes = -192;
    vp_fix_suggest(&fast, &r);
    assert_non_null(strstr(r.growth, "steps 192 bytes backwards from one iteration to the next: "
                                     "every iteration touches another cache line"));
    assert_non_null(strstr(r.growth, "keep what the loop reads next to each other"));
    fast.hot[0].stride_bytes = 48; /* under a cache line */
    vp_fix_suggest(&fast, &r);
    assert_null(strstr(r.growth, "memory access steps"));
    fast.hot[0].stride_bytes = 32768; /* the time in a call made there */
    fast.hot[0].callee = "lookup";
    vp_fix_suggest(&fast, &r);
    assert_null(strstr(r.growth, "memory access steps"));
    fast.hot[0].callee = NULL; /* unrolled x4: 9.4 ns per source iteration */
    fast.unroll_factor = 4;
    vp_fix_suggest(&fast, &r);
    assert_non_null(strstr(r.growth, "memory access steps 32 KiB"));
    in.hot[0] = (struct vp_fix_hot_line){64, "pop(q);", 2800, 10, 2.8, 0.01, "pop", "[libc.so.6]", 0, 0, 0};
    /* the loop's own code: no callee, no leaf */
    in.hot[0].callee = in.hot[0].leaf = NULL;
    in.hot[0].slow_seconds = 1.5; /* 187.5 us - 10 us of 335 us: 53% */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "; line 64 holds 53% of the added time per iteration "
                                     "(178 us of 335 us): `pop(q);`."));
    /* under half of what was added, and no other line */
    in.hot[0].slow_seconds = 1.3;
    vp_fix_suggest(&in, &r);
    assert_null(strstr(r.growth, "line 64"));
    assert_int_equal(r.growth_lines, 0);
    /* too few samples at the line */
    in.hot[0].slow_seconds = 2.8;
    in.hot[0].slow_samples = 9;
    vp_fix_suggest(&in, &r);
    assert_null(strstr(r.growth, "line 64"));
    /* two lines that hold half of it together (two strcat calls), a third
       under 10% is not named */
    in.hot[0] = (struct vp_fix_hot_line){53, "strcat(a);", 1200, 5, 1.2, 0.005, "strcat",
                                         "__strcat_evex", 0, 0, 0};       /* 145 us: 43% */
    in.hot[1] = (struct vp_fix_hot_line){54, "strcat(b);", 1100, 5, 1.1, 0.005, "strcat",
                                         "__strcat_evex", 0, 0, 0};       /* 132.5 us: 40% */
    in.hot[2] = (struct vp_fix_hot_line){55, "n++;", 200, 0, 0.2, 0, NULL, NULL, 0, 0, 0}; /* 7% */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "; line 53 holds 43% of the added time per iteration "
                                     "(145 us of 335 us), in calls of strcat, most of it in "
                                     "__strcat_evex: `strcat(a);`, and line 54 40%: "
                                     "`strcat(b);`."));
    assert_int_equal(r.growth_lines, 2);
    /* another callee on the second line is named */
    in.hot[1].callee = "strlen";
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, ", and line 54 40%, in calls of strlen: `strcat(b);`."));
    /* the second line under 10%: the first alone is under half, none named */
    in.hot[1].slow_seconds = 0.2;
    vp_fix_suggest(&in, &r);
    assert_int_equal(r.growth_lines, 0);
    assert_null(strstr(r.growth, "line 53"));
    /* the time per iteration grew under 1.5x: nothing was added to place */
    in.hot[0] = (struct vp_fix_hot_line){64, "pop(q);", 2800, 10, 0.4, 0.01, NULL, NULL, 0, 0, 0};
    in.slow.seconds = 0.44; /* 55 us */
    vp_fix_suggest(&in, &r);
    assert_non_null(strstr(r.growth, "time per iteration"));
    assert_null(strstr(r.growth, "line 64"));
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(vp_fix_category_name(VP_FIX_CAT_ZERO_OR_ONE), "[0|1]*");
    assert_string_equal(vp_fix_category_rule_id(VP_FIX_CAT_ZERO_STAR_ONE), "VPROF-LOOP-0STAR1OPT");
    assert_null(vp_fix_category_name(3));
    assert_string_equal(vp_fix_strategy_name(VP_FIX_CHANGE_DATA_STRUCTURE),
                        "change-data-structure");
    assert_null(vp_fix_strategy_name(6));
    char b[32];
    assert_string_equal(vp_fix_commas(b, sizeof b, 1234567), "1,234,567");
    assert_string_equal(vp_fix_commas(b, sizeof b, 12), "12");
}

static void split_ok(const char *line, const char *const *want, size_t n)
{
    char **v;
    size_t c;
    char err[128];
    assert_int_equal(vp_loopcmd_split(line, &v, &c, err, sizeof err), 0);
    assert_int_equal(c, n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(v[i], want[i]);
        free(v[i]);
    }
    assert_null(v[n]);
    free(v);
}

static void test_split(void **state)
{
    (void)state;
    split_ok("./app  big  input", (const char *[]){"./app", "big", "input"}, 3);
    split_ok("./app 'a b' \"c d\"", (const char *[]){"./app", "a b", "c d"}, 3);
    split_ok("x '' y", (const char *[]){"x", "", "y"}, 3);
    split_ok("a\\ b \"q\\\"x\" 'no\\escape'", (const char *[]){"a b", "q\"x", "no\\escape"}, 3);
    /* no expansion, no operators */
    split_ok("echo $HOME ~ *.c ; ls | wc > f",
             (const char *[]){"echo", "$HOME", "~", "*.c", ";", "ls", "|", "wc", ">", "f"}, 10);
    char **v;
    size_t c;
    char err[128];
    assert_int_equal(vp_loopcmd_split("a 'b", &v, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "unterminated '"));
    assert_int_equal(vp_loopcmd_split("a \"b", &v, &c, err, sizeof err), -1);
    assert_int_equal(vp_loopcmd_split("   ", &v, &c, err, sizeof err), -1);
    assert_int_equal(vp_loopcmd_split("a\\", &v, &c, err, sizeof err), -1);
    /* a command over several lines: the message quoting it stays one line */
    assert_int_equal(vp_loopcmd_split("./app \\\n --x 'y\nz", &v, &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "unterminated '"));
    assert_null(strchr(err, '\n'));
}

/* Splits `line` with redirections; checks the words (joined by '|') and
   the files ("-" for none). */
static void split_io_ok(const char *line, const char *words, const char *in, const char *out)
{
    char **v, err[256], got[512] = "";
    size_t c;
    struct vp_loopcmd_io io;
    if (vp_loopcmd_split_io(line, &v, &c, &io, err, sizeof err) != 0)
        fail_msg("%s: %s", line, err);
    for (size_t i = 0; i < c; i++) {
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? "|" : "", v[i]);
        free(v[i]);
    }
    free(v);
    assert_string_equal(got, words);
    assert_string_equal(io.in ? io.in : "-", in);
    assert_string_equal(io.out ? io.out : "-", out);
    vp_loopcmd_io_free(&io);
}

static void test_split_io(void **state)
{
    (void)state;
    split_io_ok("./app < big.txt", "./app", "big.txt", "-");
    split_io_ok("./app <big.txt -v >/dev/null", "./app|-v", "big.txt", "/dev/null");
    split_io_ok("./app > 'out file' < \"in file\" x", "./app|x", "in file", "out file");
    /* quoted, escaped or inside a word: an ordinary character */
    split_io_ok("./app '<' \\> a<b c>", "./app|<|>|a<b|c>", "-", "-");
    split_io_ok("<in ./app", "./app", "in", "-");
    char **v, err[256];
    size_t c;
    struct vp_loopcmd_io io;
    const char *bad[] = {"./app <", "./app < > f", "./app <a <b", "./app >a >b", "< in", NULL};
    const char *why[] = {"'<' needs a file name", "'<' needs a file name", "two '<'",
                         "two '>'", "empty command"};
    for (size_t i = 0; bad[i]; i++) {
        assert_int_equal(vp_loopcmd_split_io(bad[i], &v, &c, &io, err, sizeof err), -1);
        if (!strstr(err, why[i]))
            fail_msg("%s: '%s' lacks '%s'", bad[i], err, why[i]);
        assert_null(io.in);
        assert_null(io.out);
    }
    /* opened for a run: the input readable, the output created */
    char dir[] = "/tmp/vprof-splitio.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char in[64], out[64];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    FILE *f = fopen(in, "w");
    fputs("data", f);
    fclose(f);
    struct vp_loopcmd_io ok = {in, out}, missing = {out, NULL};
    int ifd, ofd;
    assert_int_equal(vp_loopcmd_io_open(&ok, &ifd, &ofd, err, sizeof err), 0);
    char buf[8] = "";
    assert_int_equal(read(ifd, buf, sizeof buf), 4);
    assert_int_equal(write(ofd, "x", 1), 1);
    close(ifd);
    close(ofd);
    assert_int_equal(access(out, F_OK), 0);
    unlink(out);
    assert_int_equal(vp_loopcmd_io_open(&missing, &ifd, &ofd, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot open the input '< "));
    assert_true(ifd == -1 && ofd == -1);
    assert_int_equal(vp_loopcmd_io_open(NULL, &ifd, &ofd, err, sizeof err), 0);
    assert_true(ifd == -1 && ofd == -1);
    unlink(in);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resultless),
        cmocka_unit_test(test_bucket_chain),
        cmocka_unit_test(test_spin),
        cmocka_unit_test(test_growth_ratio),
        cmocka_unit_test(test_growth_time),
        cmocka_unit_test(test_growth_scaling),
        cmocka_unit_test(test_growth_line),
        cmocka_unit_test(test_redundancy),
        cmocka_unit_test(test_missing_constraint),
        cmocka_unit_test(test_callees),
        cmocka_unit_test(test_library_loop),
        cmocka_unit_test(test_io_repeated),
        cmocka_unit_test(test_syscalls),
        cmocka_unit_test(test_wait),
        cmocka_unit_test(test_md_prose),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_split_io),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
