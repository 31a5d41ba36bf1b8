/*
 * analyze.c - resultless rates and verdicts (LDoctor section 3.1.2).
 *
 * resultless rate = share of iterations that produced no result:
 *   0*      every iteration (1.0);
 *   0*1?    all but the last iteration of each instance (LDoctor counts
 *           only iterations: at most one result per instance);
 *   [0|1]*  and 1*: iterations whose HasResult flag stayed clear.
 * Verdict: a 0* loop that ran is inefficient; a 0*1? loop is inefficient when
 * results are rarer than thresholds.zero_star_one per iteration, a [0|1]*
 * loop when rarer than thresholds.zero_or_one; 1* loops are never resultless.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/loopclass.h"
#include "vprof/oneline.h"

const char *vp_loop_verdict_name(int v)
{
    switch (v) {
    case VP_LOOP_EFFICIENT: return "efficient";
    case VP_LOOP_INEFFICIENT: return "inefficient";
    default: return "not-run";
    }
}

/* The class the counts support.  A loop whose side-effect blocks include
   some holding only calls through pointers (VP_LOOPF_INDIRECT) counted a
   result there only for a callee not known to write nothing: no such
   result at all, the class without those blocks; a result in every
   iteration, the static class; some, [0|1]*, rated on the counts. */
static int effective_class(const struct vp_loop_result *r)
{
    const struct vp_loop_info *l = r->loop;
    if (!(l->flags & VP_LOOPF_INDIRECT) || r->iterations == 0)
        return l->static_class;
    if (r->result_iterations == 0)
        return l->direct_class;
    if (r->result_iterations >= r->iterations)
        return l->static_class;
    return VP_CLASS_ZERO_OR_ONE;
}

static void rate(struct vp_loop_result *r, const struct vp_loop_thresholds *th)
{
    r->cls = effective_class(r);
    if (r->iterations == 0) {
        r->verdict = VP_LOOP_NOT_RUN;
        return;
    }
    r->avg_iterations = r->instances ? (double)r->iterations / (double)r->instances : 0.0;
    double share; /* results per iteration */
    switch (r->cls) {
    case VP_CLASS_ZERO_STAR:
        r->result_iterations = 0;
        share = 0.0;
        r->verdict = VP_LOOP_INEFFICIENT;
        break;
    case VP_CLASS_ZERO_STAR_ONE:
        r->result_iterations = r->instances;
        share = (double)r->instances / (double)r->iterations;
        r->verdict = share < th->zero_star_one ? VP_LOOP_INEFFICIENT : VP_LOOP_EFFICIENT;
        break;
    case VP_CLASS_ZERO_OR_ONE:
        share = (double)r->result_iterations / (double)r->iterations;
        r->verdict = share < th->zero_or_one ? VP_LOOP_INEFFICIENT : VP_LOOP_EFFICIENT;
        break;
    default:
        share = (double)r->result_iterations / (double)r->iterations;
        r->verdict = VP_LOOP_EFFICIENT;
        break;
    }
    r->resultless_rate = 1.0 - share;
}

int vp_loop_analyze(const struct vp_loop_table *t, const struct vp_loop_counts *c,
                    const struct vp_loop_thresholds *th, struct vp_loop_result **out,
                    size_t *count, char *err, size_t errlen)
{
    static const struct vp_loop_thresholds defaults = VP_LOOP_THRESHOLDS_DEFAULT;
    if (!th)
        th = &defaults;
    struct vp_loop_result *r = calloc(t->loop_count ? t->loop_count : 1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < t->loop_count; i++) {
        r[i].loop = &t->loops[i];
        for (size_t k = 0; c && k < c->record_count; k++) {
            const struct vp_loop_count *x = &c->records[k];
            if (x->loop_id != t->loops[i].loop_id)
                continue;
            if (__builtin_add_overflow(r[i].instances, x->instances, &r[i].instances) ||
                __builtin_add_overflow(r[i].iterations, x->iterations, &r[i].iterations) ||
                __builtin_add_overflow(r[i].result_iterations, x->result_iterations,
                                       &r[i].result_iterations)) {
                snprintf(err, errlen, "loop %s:%u: its counters overflow 64 bits when summed",
                         t->loops[i].file, t->loops[i].line);
                vp_oneline(err);
                free(r);
                return -1;
            }
            if (x->max_iterations > r[i].max_iterations)
                r[i].max_iterations = x->max_iterations;
        }
        rate(&r[i], th);
    }
    *out = r;
    *count = t->loop_count;
    return 0;
}
