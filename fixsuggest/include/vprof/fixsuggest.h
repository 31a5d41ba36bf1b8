/*
 * fixsuggest.h - LDoctor's root-cause taxonomy -> fix strategy, with the
 * evidence that backs it (LDoctor sections 2.1, 2.2.2, 3.1.1, 3.2.6;
 * docs/vprof-loop.md).
 *
 * Input: one loop's static class and flags (loopclass), its dynamic counts in
 * the slow run (and optionally in a normal run), its resultless verdict, and,
 * when the redundancy analysis measured it, its redundancy rates.  Output:
 * the root-cause categories that hold, the fix strategies (most specific
 * first) and one evidence sentence built from the numbers.  Pure functions:
 * no I/O, no allocation.
 *
 * Usage:
 *     struct vp_fix_input in;
 *     vp_fix_input_init(&in);
 *     in.static_class = VP_CLASS_ZERO_STAR_ONE; in.slow = counts; ...
 *     struct vp_fix_result res;
 *     vp_fix_suggest(&in, &res);
 *     for (size_t i = 0; i < res.nfixes; i++) puts(vp_fix_strategy_name(res.fixes[i]));
 */
#ifndef VPROF_FIXSUGGEST_H
#define VPROF_FIXSUGGEST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Root-cause categories, a bit set.  The vocabulary of every output. */
enum vp_fix_category {
    VP_FIX_CAT_ZERO_STAR = 1u << 0,       /* "0*"              */
    VP_FIX_CAT_ZERO_STAR_ONE = 1u << 1,   /* "0*1?"            */
    VP_FIX_CAT_ZERO_OR_ONE = 1u << 2,     /* "[0|1]*"          */
    VP_FIX_CAT_ONE_STAR = 1u << 3,        /* "1*"              */
    VP_FIX_CAT_CROSS_ITERATION = 1u << 4, /* "cross-iteration" */
    VP_FIX_CAT_CROSS_LOOP = 1u << 5,      /* "cross-loop"      */
};
#define VP_FIX_CAT_COUNT 6

enum vp_fix_strategy {
    VP_FIX_DELETE_LOOP = 0,
    VP_FIX_CHANGE_DATA_STRUCTURE = 1,
    VP_FIX_SKIP_LOOP = 2,
    VP_FIX_MEMOIZATION = 3,
    VP_FIX_BATCHING = 4,
    VP_FIX_NONE = 5,
};
#define VP_FIX_STRATEGY_COUNT 6

/* Dynamic counts of one loop in one run (loopclass's vp_loop_result). */
struct vp_fix_counts {
    int ran;                    /* 0: no counters (not selected / never run)  */
    uint64_t instances, iterations, result_iterations, max_iterations;
    double avg_iterations;      /* iterations / instances                     */
    uint64_t samples;           /* PC samples inside the loop (callees too) in
                                   the run that counted it; 0 unknown          */
    double seconds;             /* their time (samples x period)              */
};

/* Redundancy measurements (redundancy/); measured = 0 when not available. */
struct vp_fix_redundancy {
    int measured;
    int over_budget;            /* not probed: vprof-cc's code-size budget for
                                   the recording copies (VP_REDF_OVER_BUDGET) */
    int cross_iteration;        /* verdicts, decided by the redundancy analysis:
                                   the loop's own iteration signatures repeat */
    int cross_loop;
    double cross_iteration_rate;/* sampled iterations / distinct iterations   */
    double cross_loop_rate;     /* share of an instance's values repeated from
                                   the previous instance (0..1)               */
    double repeated_per_instance; /* share of an instance's values repeated from
                                   the previous instance, or the earlier one
                                   it repeats (1 - mean distance)            */
    uint64_t sampled_iterations, distinct_iterations, sampled_instances;
    int distinct_estimated;     /* distinct_iterations is the whole run's
                                   sketch estimate (docs/redundancy.md)      */
    uint64_t pairs_compared;    /* consecutive sampled instances compared     */
    uint64_t pairs_by_earlier;  /* of the redundant pairs, those whose second
                                   instance repeats not its partner but one
                                   recorded before it (docs/redundancy.md)  */
    int ci_ruled_out;           /* an induction variable among the sources:
                                   no cross-iteration redundancy, nothing recorded */
    const char *constant_object;/* constant work (redundancy flag
                                   VP_REDF_CL_CONST): the loop reads no input
                                   and writes this global, which nothing else
                                   writes, so every instance writes what the
                                   one before it wrote; NULL otherwise      */
    /* The loop's most repeated call of a function with a loop
       (a repeated-call unit); call_sampled = 0 when none was sampled.  A
       redundant one (call_redundant) makes the loop cross-iteration
       redundant even when its whole-iteration signatures never repeat. */
    const char *call_callee;    /* as reports show it (C++: qualified)      */
    uint32_t call_line;
    /* The call is made in a helper the loop calls at call_line (a copy or
       a setup call lifted from it: pop's memmove; docs/redundancy.md,
       "Copies in a helper"): the helper (as shown) and the call's line in
       it; NULL and 0 otherwise. */
    const char *call_via;
    uint32_t call_via_line;
    uint64_t call_sampled, call_distinct;
    double call_rate;
    int call_redundant;
    /* The unit is a C library string scan (strlen, strcat, strstr, ...)
       and consecutive calls scan again the string the previous call
       scanned, from its start: the unit's own cross-loop verdict over the
       chunk hashes of that string (docs/redundancy.md, "Strings scanned
       again").  call_pairs = 0 when no pair of calls was compared. */
    int call_rescan;
    uint64_t call_pairs;        /* consecutive calls compared                */
    double call_rescan_rate;    /* of them, the share that rescanned         */
    double call_rescan_repeated;/* share of a call's string the previous
                                   call had scanned (1 - mean distance)      */
    int call_copies;            /* the unit is a copy (redundancy flag
                                   VP_REDF_COPY): its pairs are copies of a
                                   buffer that grew, not scans              */
    int call_shifted;           /* ... and most of its redundant pairs match
                                   cut from the end: each copy moves again
                                   what the previous one moved, shifted (an
                                   element removed from or put in before
                                   the rest of an array)                    */
    int call_sorts;             /* the copy unit is a sort (qsort; redundancy
                                   flag VP_REDF_SORT): its rescans are inputs
                                   sorted again, fix change-data-structure */
    int call_setup;             /* the unit is a setup call (fopen, open,
                                   regcomp, dlopen, ...; redundancy flag
                                   VP_REDF_SETUP): a redundant one opens or
                                   compiles again what an earlier call did,
                                   fix memoization (keep the handle), not
                                   batching though opening is I/O          */
    int call_pure;              /* the unit is a math call (pow, exp, sin, ...;
                                   redundancy flag VP_REDF_PURE): a redundant
                                   one computes again a value from the same
                                   arguments, fix memoization (hoist it)    */
    int call_io;                /* the call does I/O on every call and runs in
                                   every iteration (its site's
                                   VP_SITEF_IO_EVERY_ITER): batching, not
                                   memoization, which would drop the output */
    uint32_t call_wait_line;    /* the callee has a loop at this line that
                                   waits in every iteration (the loop table's
                                   VP_SITEF_WAIT_EVERY_ITER, vp_fix_input.
                                   wait_line's rule): its repeated calls are
                                   waits that got the same answer, not work;
                                   0 otherwise                               */
    int io_every_iteration;     /* only I/O side effects, one on every iteration */
    int constant_writes;        /* each instance updates a constant number of
                                   locations (no side effect in an inner loop) */
};

/* Whether each variant has a rate: cross-iteration needs sampled
   iterations, cross-loop a compared pair of consecutive sampled instances.
   A loop can be measured (its probes ran) with neither: an induction
   variable ruled cross-iteration out and too few instances ran. */
static inline int vp_fix_ci_measured(const struct vp_fix_redundancy *d)
{
    return d->measured && d->sampled_iterations > 0;
}
static inline int vp_fix_cl_measured(const struct vp_fix_redundancy *d)
{
    return d->measured && d->pairs_compared > 0;
}

/* A loop of another function that runs inside a loop's iterations and has
   a root cause of its own (docs/vprof-loop.md, "Time in the loops it
   calls"). */
#define VP_FIX_CALLEES_MAX 3
struct vp_fix_callee {
    const char *function;       /* as reports show it                       */
    uint32_t line;
    unsigned categories;        /* its enum vp_fix_category bits            */
    uint64_t samples;           /* of the calling loop's samples, those in it */
    uint64_t instances;         /* its instances in the slow run (0 unknown) */
    int waits;                  /* it waits on the world in every iteration
                                   (its wait_line): alike instances are
                                   waits that got the same answer, not
                                   repeated work                             */
    /* A loop in a system header: the header's file name and the program's
       line that called it (NULL, 0 for the program's own loops). */
    const char *header;
    const char *call_file;
    uint32_t call_line;
};

/* A loop with at least this many samples, this share of them in such
   loops, says so. */
#define VP_FIX_CALLEE_MIN_SHARE 0.5
#define VP_FIX_CALLEE_MIN_SAMPLES 10
/* A resultless loop's iterations that produce a result hold at least this
   share of its samples in their result calls (and it has at least
   VP_FIX_RESULT_CALL_MIN_SAMPLES): its resultless iterations are not the
   waste. */
#define VP_FIX_RESULT_CALL_SHARE 0.9
#define VP_FIX_RESULT_CALL_MIN_SAMPLES 20

/* A system call for a few bytes in every iteration (loop table
   VP_SITEF_SYSCALL_BYTES): read(fd, &c, 1). */
#define VP_FIX_SYSCALLS_MAX 4
struct vp_fix_syscall {
    uint32_t line;
    const char *callee;         /* as called: "read", "write", ...           */
    unsigned bytes;             /* its constant byte count                   */
};
/* Such calls holding at least this share of a loop's samples (and it at
   least VP_FIX_RESULT_CALL_MIN_SAMPLES) make batching its fix. */
#define VP_FIX_SYSCALL_SHARE 0.5

/* A 0*1? loop whose instances scan this many elements on average in the
   slow run, and this many times as many as in the normal run, is
   inefficient even under loopclass's threshold (docs/vprof-loop.md,
   "Searches that grew"). */
/* Entries per walk of a hash bucket's chain from which the chain is
   called long: a table sized to its keys holds one or two per bucket. */
#define VP_FIX_CHAIN_LONG 8.0
#define VP_FIX_SEARCH_MIN_AVG 100.0
#define VP_FIX_SEARCH_GROWTH 2.0

/* The highest processing-cost discount of a missing constraint that gives
   a loop skip-loop (vp_fix_constraint.discount); a values discount this
   low is a scalability sign (vp_fix_constraint.values_anomalous). */
#define VP_FIX_CONSTRAINT_MAX_DISCOUNT 0.5
/* The share of the variable's slow samples at values outside the normal
   run's range from which its told-apart values are a scalability sign
   (vp_fix_constraint.values_anomalous). */
#define VP_FIX_CONSTRAINT_MIN_OUTSIDE 0.05
/* The fewest runs of the variable's value (processing-cost observations)
   in the slow run for the constraint to give skip-loop: one run of 2
   sample intervals against six of 1 is rejected by the A-D test (p 0.001)
   and is no evidence at all (vp_fix_constraint.slow_runs). */
#define VP_FIX_CONSTRAINT_MIN_RUNS 5

/* The constraint `vprof rank` finds missing in this loop (docs/vprof-loop.md,
   "A constraint the loop is missing"): the ranking calls the loop's function
   a missing-constraint bug (vProf's rule 1: a loop or condition variable
   stays the same for abnormally long) on `variable`, and that variable's
   anomalous samples mark this loop. */
struct vp_fix_constraint {
    int missing;                /* 0: no such finding                         */
    const char *variable;
    int values_anomalous;       /* its values differ between the runs (the
                                   A-D test rejected, the discount is below
                                   DefaultDiscount) and either at least
                                   VP_FIX_CONSTRAINT_MIN_OUTSIDE of its slow
                                   samples lie outside the normal run's
                                   range, or the discount is at most
                                   VP_FIX_CONSTRAINT_MAX_DISCOUNT: the loop
                                   went over other values than in the
                                   normal run, a scalability sign            */
    uint64_t normal_run, slow_run; /* the median sample's run length, in sample
                                   intervals, in each run; 0 unknown          */
    uint64_t slow_runs;         /* how many runs the slow run's median is of
                                   (the dimension's slow observations); the
                                   rule needs VP_FIX_CONSTRAINT_MIN_RUNS.
                                   UINT64_MAX unknown (an older ranking)      */
    uint32_t line;              /* the anomalous line with most of its samples;
                                   0 unknown                                  */
    const char *text;           /* that line, trimmed; NULL unknown           */
    double discount;            /* its processing-cost discount (1 - Hellinger
                                   distance between the runs' run lengths):
                                   the rule needs at most
                                   VP_FIX_CONSTRAINT_MAX_DISCOUNT             */
};

/* A line of a loop that holds time its iterations added between the runs
   (docs/vprof-loop.md, "Where the added time is"): from the probed runs'
   PC samples in the loop, each charged to the loop's innermost frame on
   the sample's stack.  line 0 when none.  vp_fix_input.hot holds the
   VP_FIX_HOT_LINES lines with the most added time, most first. */
#define VP_FIX_HOT_LINES 3
struct vp_fix_hot_line {
    uint32_t line;
    const char *text;           /* that line, trimmed; NULL unknown           */
    uint64_t slow_samples, normal_samples; /* samples at the line            */
    double slow_seconds, normal_seconds;   /* their time                     */
    const char *callee;         /* the function called there that holds most
                                   of the slow samples (as shown); NULL: the
                                   loop's own code                           */
    const char *leaf;           /* the function running in most of those
                                   (as shown, or "[module]" without a symbol)
                                   when it is not the callee; NULL otherwise */
    int unwinding;              /* most of its slow samples are under the C++
                                   unwinder (_Unwind_RaiseException,
                                   __cxa_throw, ...): exceptions thrown     */
    /* A strided access at the line (redundancy's VP_SRC_STRIDE): the step
       between source iterations in bytes, median over the recorded
       instances of the slow and of the normal run; 0 unknown.  At least
       VP_FIX_STRIDE_MIN_BYTES in the slow run, each iteration touches
       another cache line (docs/vprof-loop.md, "Strided walks"). */
    int64_t stride_bytes, normal_stride_bytes;
};
#define VP_FIX_STRIDE_MIN_BYTES 64

struct vp_fix_input {
    const char *function;
    int kind;                   /* enum vp_loop_kind                           */
    int static_class;           /* enum vp_loop_class                          */
    unsigned flags;             /* enum vp_loop_flags                          */
    struct vp_fix_counts slow;
    struct vp_fix_counts normal;/* normal.ran = 0 when there is no normal run  */
    int inefficient;            /* loopclass verdict in the slow run          */
    double resultless_rate;
    struct vp_fix_redundancy red;
    /* The side-effect site that rarely runs (first in-body site), for the
       skip-loop condition; line 0 when unknown.  `site_text` is the quoted
       source line (trimmed), NULL if the source is not readable. */
    uint32_t site_line;
    const char *site_text;
    /* The slow samples of the loop in calls made at its in-body side-effect
       sites (a call site: samples in that callee; a store inlined at a
       line: samples in the code inlined there), which run only in
       iterations that produce a result; `result_call_line` and
       `result_call_callee` (as shown) hold most of them.  At least
       VP_FIX_RESULT_CALL_SHARE of slow.samples there means skipping the
       resultless iterations would save little: a 0*1? or [0|1]* loop then
       gets no resultless category (docs/vprof-loop.md, "Results that hold
       the time"). */
    uint64_t result_call_samples;
    uint32_t result_call_line;
    const char *result_call_callee;
    /* The system calls for a few bytes run in every iteration, and the
       loop's slow samples in calls at their lines (docs/vprof-loop.md, "A
       system call per few bytes"). */
    struct vp_fix_syscall syscalls[VP_FIX_SYSCALLS_MAX];
    size_t nsyscalls;
    uint64_t syscall_samples;
    /* The loops of other functions below this one that have a root cause
       of their own, most samples first; ncallees = 0 when they hold less
       than VP_FIX_CALLEE_MIN_SHARE of loop_samples.  Both counts come
       from the same slow-run profile(s). */
    struct vp_fix_callee callees[VP_FIX_CALLEES_MAX];
    size_t ncallees;
    uint64_t callee_samples;    /* this loop's samples in any of them       */
    uint64_t loop_samples;      /* this loop's samples                      */
    /* A call in the body that does I/O on every call and runs in every
       iteration (loop table VP_SITEF_IO_EVERY_ITER); io_line 0 when none.
       With most of the time in called loops that redo their previous
       instance's work at most once per iteration, the loop is
       cross-iteration redundant around its I/O: batching
       (docs/vprof-loop.md, "Repeated work around I/O"). */
    uint32_t io_line;
    const char *io_callee;
    /* A call in the body that waits (for input to arrive, for time, for
       another thread) on every call and runs in every iteration (loop table
       VP_SITEF_WAIT_EVERY_ITER); 0 when none. */
    uint32_t wait_line;
    const char *wait_callee;
    unsigned depth;             /* loop nesting depth (1 outermost); 0 unknown */
    uint32_t parent_line;       /* the enclosing loop's line; 0 none/unknown  */
    unsigned unroll_factor;     /* VP_LOOPF_UNROLLED: source iterations per
                                   iteration; 0 or 1 otherwise               */
    /* VP_LOOPF_BUCKET_CHAIN: the loop walks one hash bucket's chain, whose
       head this line loads (`bucket_text`, trimmed; NULL unreadable); 0
       otherwise.  A search over such a chain that runs long says the keys
       collide (docs/vprof-loop.md, "Hash bucket chains"). */
    uint32_t bucket_line;
    const char *bucket_text;
    /* VP_LOOPF_SPIN: the loop spins on an atomic access at this line
       (`spin_text`, trimmed; NULL unreadable); 0 otherwise.  Its verdict
       is its own (docs/vprof-loop.md, "Spin loops"). */
    uint32_t spin_line;
    const char *spin_text;
    struct vp_fix_constraint constraint;
    struct vp_fix_hot_line hot[VP_FIX_HOT_LINES];
    /* A loop in a system header (libstdc++'s std::__find_if inlined into
       the program): the header's file name, and the file name and line of
       the program's call that ran it; NULL, NULL, 0 for the program's own
       loops.  A verdict on such a loop adds that the change belongs at
       that call (docs/vprof-loop.md, "Loops in system headers"). */
    const char *lib_header;
    const char *lib_call_file;
    uint32_t lib_call_line;
};

struct vp_fix_result {
    unsigned categories;        /* enum vp_fix_category bits                   */
    int fixes[VP_FIX_STRATEGY_COUNT]; /* enum vp_fix_strategy, most specific first */
    size_t nfixes;
    char evidence[1024];        /* a few sentences from the numbers            */
    char condition[384];        /* skip-loop: the condition to test, or ""     */
    char growth[1536];          /* normal vs slow counts and times, or ""    */
    size_t growth_lines;        /* how many of in->hot the growth names (0-3) */
    double growth_line_share[VP_FIX_HOT_LINES]; /* their shares of the added
                                   time per iteration                        */
    double growth_exponent;     /* an instance's time as a power of its
                                   iterations, from the two runs, when the
                                   time per iteration grew with them (> 1.5);
                                   0 when not said (docs/vprof-loop.md,
                                   "Work per iteration that grows")          */
};

/* The slow run's iterations of the source loop: an unrolled body's
   (VP_LOOPF_UNROLLED) iterations times in->unroll_factor.  Can't fail. */
uint64_t vp_fix_source_iterations(const struct vp_fix_input *in);

/* Zeroes `in`.  Can't fail. */
void vp_fix_input_init(struct vp_fix_input *in);

/* Decides categories and fixes and writes the sentences.  Rules:
 *   0* ran                     -> 0*,      delete-loop
 *   0*1? resultless            -> 0*1?,    change-data-structure
 *   [0|1]* resultless          -> [0|1]*,  skip-loop (condition: site_line)
 *   cross-iteration            -> memoization, or batching when the only
 *                                 side effects are I/O run every iteration
 *   cross-loop                 -> memoization when each instance updates a
 *                                 constant number of locations, else batching
 *   1* with nothing else       -> 1*,      none
 *   system calls for a few bytes
 *   in every iteration holding
 *   VP_FIX_SYSCALL_SHARE of its
 *   samples                    -> batching (added; for a 1* loop, in place of none)
 *   I/O call in every iteration,
 *   most of the time in called
 *   loops that repeat their
 *   previous instance, at most
 *   one instance per iteration -> cross-iteration, batching
 * Redundancy is not reported for a 0* loop (deleting it removes the
 * repeated work too).
 * A 0*1? or [0|1]* loop whose results are frequent gets no category (it is
 * not inefficient), nor one whose result calls hold VP_FIX_RESULT_CALL_SHARE
 * of its samples (its resultless iterations are cheap).  Callees (in->ncallees) add a sentence to the evidence,
 * and a category only in the I/O rule above: otherwise the waste is
 * theirs.  Can't fail. */
void vp_fix_suggest(const struct vp_fix_input *in, struct vp_fix_result *out);

/* "0*", "0*1?", "[0|1]*", "1*", "cross-iteration", "cross-loop"; NULL for a
 * value that is not one category bit. */
const char *vp_fix_category_name(unsigned category);
/* Stable SARIF rule id: "VPROF-LOOP-0STAR", "VPROF-LOOP-0STAR1OPT",
 * "VPROF-LOOP-01STAR", "VPROF-LOOP-1STAR", "VPROF-LOOP-CROSS-ITERATION",
 * "VPROF-LOOP-CROSS-LOOP"; NULL if not a category bit. */
const char *vp_fix_category_rule_id(unsigned category);
/* One-line description of a category (SARIF rule text). */
const char *vp_fix_category_description(unsigned category);
/* "delete-loop", ..., "none"; NULL if out of range. */
const char *vp_fix_strategy_name(int strategy);
/* What the strategy means, one sentence. */
const char *vp_fix_strategy_description(int strategy);

/* The categories in report order (most informative first):
 * 0*, 0*1?, [0|1]*, cross-loop, cross-iteration, 1*. */
extern const unsigned vp_fix_category_order[VP_FIX_CAT_COUNT];

/* "1,234,567".  Returns buf.  Can't fail. */
char *vp_fix_commas(char *buf, size_t n, uint64_t v);
/* Where the loop's repeated call is, as the reports say it after its
   callee: "(line 17)", or for a call made in a helper the loop calls
   "(line 29, in pop, called at line 17)".  Returns buf. */
char *vp_fix_call_where(char *buf, size_t n, const struct vp_fix_redundancy *d);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_FIXSUGGEST_H */
