/*
 * loopclass.h - resultless-loop analysis (LDoctor section 3.1): reads the
 * static loop table a vprof-cc binary carries (".vprof.loops") and the loop
 * counters of a profile (VP_SEC_LOOP_COUNTS), and computes each loop's
 * resultless rate and verdict.  Layouts: vprof/format.h; rules:
 * docs/loopclass.md.
 *
 * Usage:
 *     struct vp_loop_table *t;
 *     struct vp_loop_counts *c;
 *     char err[512];
 *     if (vp_loop_table_read("./app", &t, err, sizeof err) != 0 ||
 *         vp_loop_counts_from_profile(prof, &c, err, sizeof err) != 0) ...
 *     struct vp_loop_result *r; size_t n;
 *     vp_loop_analyze(t, c, NULL, &r, &n, err, sizeof err);
 *     for (size_t i = 0; i < n; i++) if (r[i].inefficient) ...
 *     free(r); vp_loop_counts_free(c); vp_loop_table_free(t);
 *
 * Every reader bounds-checks its input: bad input returns -1 with `err` set
 * to "<name>: offset <n>: <what is wrong>", never crashes.
 */
#ifndef VPROF_LOOPCLASS_H
#define VPROF_LOOPCLASS_H

#include <stddef.h>
#include <stdint.h>

#include "vprof/format.h"
#include "vprof/looptable.h"
#include "vprof/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The static loop table (.vprof.loops) and the loop locator are read by
   vprof-core (vprof/looptable.h), since `vprof rank` needs them too. */

/* ---- dynamic counters (VP_SEC_LOOP_COUNTS) ------------------------------- */

struct vp_loop_counts {
    uint32_t thread_count;
    const struct vp_loop_count *records; /* validated, owned copy             */
    size_t record_count;
    const char **module_paths;           /* per module index; "" if unknown  */
    size_t module_count;
    /* private */
    struct vp_loop_count *records_;
    char *strings_;
};

/* Parses a VP_SEC_LOOP_COUNTS payload.  Returns 0 or -1 with `err` set. */
int vp_loop_counts_parse(const char *name, const void *data, uint64_t size,
                         struct vp_loop_counts **out, char *err, size_t errlen);

/* The counters of profile `p`; a profile without the section gives empty
 * counters (the probes were off).  Returns 0 or -1 with `err` set. */
int vp_loop_counts_from_profile(const struct vp_profile *p, struct vp_loop_counts **out,
                                char *err, size_t errlen);

/* The counters of the `n` profiles of one recording's processes (a forked
 * worker counts its own loops): their records one after another, module
 * indexes kept apart, thread counts summed.  0, or -1 with `err` set. */
int vp_loop_counts_from_profiles(const struct vp_profile *const *p, size_t n,
                                 struct vp_loop_counts **out, char *err, size_t errlen);

void vp_loop_counts_free(struct vp_loop_counts *c);

/* ---- resultless rates ---------------------------------------------------- */

/* A 0*1? loop is inefficient when its results are rarer than `zero_star_one`
 * per iteration, a [0|1]* loop when rarer than `zero_or_one`. */
struct vp_loop_thresholds {
    double zero_star_one; /* default 1e-3: 1 in 1,000 iterations              */
    double zero_or_one;   /* default 1e-2: 1 in 100 iterations                */
};

#define VP_LOOP_THRESHOLDS_DEFAULT {1e-3, 1e-2}

enum vp_loop_verdict {
    VP_LOOP_NOT_RUN = 0,     /* no counters: not selected, or never entered   */
    VP_LOOP_EFFICIENT = 1,
    VP_LOOP_INEFFICIENT = 2, /* resultless: results rarer than the threshold */
};

struct vp_loop_result {
    const struct vp_loop_info *loop;
    uint64_t instances;
    uint64_t iterations;
    uint64_t result_iterations; /* for 0*1?: one per instance (its last
                                   iteration), LDoctor's counting            */
    uint64_t max_iterations;
    double avg_iterations;      /* iterations / instances                     */
    double resultless_rate;     /* share of iterations that produced nothing  */
    int verdict;                /* enum vp_loop_verdict                       */
    int cls;                    /* enum vp_loop_class the rate used: the static
                                   class, or for VP_LOOPF_INDIRECT the one the
                                   counts choose (docs/loopclass.md, "Calls
                                   through pointers")                        */
};

/* One result per loop of `t`, in table order; counters of the same loop id
 * in several records (several modules, threads) are summed.  `th` NULL means
 * the defaults.  Returns 0 with *out malloc'd (free() it), or -1 with `err`
 * set (out of memory). */
int vp_loop_analyze(const struct vp_loop_table *t, const struct vp_loop_counts *c,
                    const struct vp_loop_thresholds *th, struct vp_loop_result **out,
                    size_t *count, char *err, size_t errlen);

/* "not-run", "efficient", "inefficient". */
const char *vp_loop_verdict_name(int verdict);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_LOOPCLASS_H */
