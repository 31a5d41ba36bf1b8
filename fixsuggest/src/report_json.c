/*
 * report_json.c - the loop report as JSON, "schema": "vprof-loop/1"
 * (fields in docs/vprof-loop.md; add fields freely, never rename one).
 */
#include <limits.h>
#include <string.h>

#include "report_internal.h"
#include "vprof/json.h"
#include "vprof/loopclass.h"

/* "root_cause": [...]: the category names of `categories`, in report order. */
static void root_cause(struct vp_json *j, unsigned categories)
{
    const char *names[VP_FIX_CAT_COUNT];
    size_t nn;
    vp_lr_categories(categories, names, &nn);
    vp_json_key(j, "root_cause");
    vp_json_begin_array(j);
    for (size_t k = 0; k < nn; k++)
        vp_json_str(j, names[k]);
    vp_json_end_array(j);
}

/* "root_cause": [...], "fix": [...] of a loop. */
static void causes(struct vp_json *j, const struct vp_lr_loop *l)
{
    root_cause(j, l->fix.categories);
    vp_json_key(j, "fix");
    vp_json_begin_array(j);
    for (size_t k = 0; k < l->fix.nfixes; k++)
        vp_json_str(j, vp_fix_strategy_name(l->fix.fixes[k]));
    vp_json_end_array(j);
}

/* "in_callees": the loops of called functions that hold most of its time
   (vp_fix_input.callees), or null. */
static void callees(struct vp_json *j, const struct vp_fix_input *in)
{
    vp_json_key(j, "in_callees");
    if (!in->ncallees) {
        vp_json_null(j);
        return;
    }
    vp_json_begin_object(j);
    vp_json_kv_uint(j, "samples", in->callee_samples);
    vp_json_kv_uint(j, "loop_samples", in->loop_samples);
    vp_json_key(j, "loops");
    vp_json_begin_array(j);
    for (size_t i = 0; i < in->ncallees && i < VP_FIX_CALLEES_MAX; i++) {
        vp_json_begin_object(j);
        vp_json_kv_str(j, "function", in->callees[i].function);
        vp_json_kv_uint(j, "line", in->callees[i].line);
        root_cause(j, in->callees[i].categories);
        vp_json_kv_uint(j, "samples", in->callees[i].samples);
        vp_json_kv_bool(j, "waits", in->callees[i].waits != 0);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_end_object(j);
}

/* A call of the loop's body in every iteration: null, or its callee and line. */
static void call_json(struct vp_json *j, const char *key, const char *callee, uint32_t line)
{
    vp_json_key(j, key);
    if (!line) {
        vp_json_null(j);
        return;
    }
    vp_json_begin_object(j);
    vp_json_kv_str(j, "callee", callee ? callee : "");
    vp_json_kv_uint(j, "line", line);
    vp_json_end_object(j);
}

static void counts(struct vp_json *j, const char *key, const struct vp_fix_counts *c)
{
    vp_json_key(j, key);
    if (!c->ran) {
        vp_json_null(j);
        return;
    }
    vp_json_begin_object(j);
    vp_json_kv_uint(j, "instances", c->instances);
    vp_json_kv_uint(j, "iterations", c->iterations);
    vp_json_kv_uint(j, "result_iterations", c->result_iterations);
    vp_json_kv_double(j, "avg_iterations", c->avg_iterations);
    vp_json_kv_uint(j, "max_iterations", c->max_iterations);
    vp_json_kv_uint(j, "samples", c->samples);
    vp_json_kv_double(j, "seconds", c->seconds);
    vp_json_end_object(j);
}

static void strv(struct vp_json *j, const char *key, char **v, size_t n)
{
    vp_json_key(j, key);
    if (!v) {
        vp_json_null(j);
        return;
    }
    vp_json_begin_array(j);
    for (size_t i = 0; i < n; i++)
        vp_json_str(j, v[i]);
    vp_json_end_array(j);
}

int vp_lr_write_json(FILE *out, const struct vp_loop_report *r)
{
    struct vp_json *j = vp_json_new(out, 1);
    if (!j)
        return -1;
    char rel[PATH_MAX];
    vp_json_begin_object(j);
    vp_json_kv_str(j, "schema", "vprof-loop/1");
    vp_json_kv_str(j, "tool", VP_LR_TOOL_NAME);
    vp_json_kv_str(j, "version", VPROF_VERSION);
    strv(j, "command", r->command, r->ncommand);
    strv(j, "normal_command", r->normal_command, r->nnormal_command);
    /* the commands' standard input files (`< FILE`), or null */
    vp_json_kv_str(j, "input", r->input);
    vp_json_kv_str(j, "normal_input", r->normal_input);
    vp_json_kv_int(j, "workload_status", r->workload_status);
    vp_json_kv_uint(j, "slow_processes", r->slow_processes);
    if (r->normal_command)
        vp_json_kv_uint(j, "normal_processes", r->normal_processes);
    vp_json_kv_uint(j, "top", r->top);
    strv(j, "functions", r->functions, r->nfunctions);
    vp_json_kv_uint(j, "total_samples", r->total_samples);
    vp_json_kv_uint(j, "probe_samples", r->probe_samples);
    vp_json_kv_str(j, "samples_from", r->samples_from);
    vp_json_kv_bool(j, "normal_counts", r->normal_counts);
    vp_json_kv_bool(j, "redundancy_measured", r->redundancy_measured);
    vp_json_key(j, "rank");
    vp_json_begin_array(j);
    for (size_t i = 0; i < r->nrank; i++) {
        const struct vp_lr_rank_row *w = &r->rank[i];
        vp_json_begin_object(j);
        vp_json_kv_uint(j, "rank", w->rank);
        vp_json_kv_str(j, "name", w->name);
        vp_lr_relpath(r, w->file, rel, sizeof rel);
        vp_json_kv_str(j, "file", rel);
        vp_json_kv_str(j, "module", w->module);
        vp_json_kv_int(j, "line", w->line);
        vp_json_kv_double(j, "raw_cost", w->raw_cost);
        vp_json_kv_double(j, "calibrated_cost", w->calibrated_cost);
        vp_json_kv_double(j, "discount", w->discount);
        vp_json_kv_str(j, "pattern", w->pattern);
        vp_json_kv_bool(j, "probed", w->selected);
        vp_json_kv_str(j, "loops",
                       w->selected ? vp_lr_function_loops_name(vp_lr_function_loops(r, w->name))
                                   : NULL);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_key(j, "loops");
    vp_json_begin_array(j);
    for (size_t i = 0; i < r->nloops; i++) {
        const struct vp_lr_loop *l = &r->loops[i];
        char id[32];
        vp_json_begin_object(j);
        vp_json_kv_str(j, "function", l->function);
        vp_json_kv_str(j, "inlined_into", l->inlined_into);
        vp_lr_relpath(r, l->file, rel, sizeof rel);
        vp_json_kv_str(j, "file", rel);
        vp_json_kv_str(j, "path", l->file);
        vp_json_kv_uint(j, "line", l->line);
        vp_json_kv_uint(j, "end_line", l->end_line);
        vp_json_key(j, "called_at"); /* docs/vprof-loop.md, "Loops in system headers" */
        if (l->call_file) {
            vp_json_begin_object(j);
            vp_lr_relpath(r, l->call_file, rel, sizeof rel);
            vp_json_kv_str(j, "file", rel);
            vp_json_kv_str(j, "path", l->call_file);
            vp_json_kv_uint(j, "line", l->call_line);
            vp_json_end_object(j);
        } else
            vp_json_null(j);
        vp_json_kv_str(j, "kind", vp_lr_kind_name(l->kind));
        snprintf(id, sizeof id, "%016llx", (unsigned long long)l->loop_id);
        vp_json_kv_str(j, "loop_id", id);
        vp_json_kv_int(j, "nesting", l->depth);
        if (l->parent_line)
            vp_json_kv_uint(j, "parent_line", l->parent_line);
        else {
            vp_json_key(j, "parent_line");
            vp_json_null(j);
        }
        vp_json_kv_uint(j, "function_rank", l->function_rank);
        vp_json_key(j, "rank_anomaly");
        if (l->rank_samples) {
            vp_json_begin_object(j);
            vp_json_kv_str(j, "variable", l->rank_variable && l->rank_variable[0]
                                              ? l->rank_variable : NULL);
            vp_json_kv_uint(j, "samples", l->rank_samples);
            vp_json_kv_uint(j, "function_samples", l->rank_total);
            vp_json_end_object(j);
        } else {
            vp_json_null(j);
        }
        causes(j, l);
        vp_json_kv_str(j, "static_class", vp_loop_class_name(l->static_class));
        vp_json_kv_str(j, "verdict", vp_loop_verdict_name(l->verdict));
        vp_json_kv_uint(j, "samples", l->samples);
        vp_json_kv_double(j, "share", l->share);
        vp_json_kv_double(j, "resultless_rate", l->resultless_rate);
        vp_json_key(j, "cross_iteration_rate");
        vp_fix_ci_measured(&l->in.red) ? vp_json_double(j, l->in.red.cross_iteration_rate)
                                       : vp_json_null(j);
        vp_json_key(j, "cross_loop_rate");
        vp_fix_cl_measured(&l->in.red) ? vp_json_double(j, l->in.red.cross_loop_rate)
                                       : vp_json_null(j);
        vp_json_kv_bool(j, "redundancy_measured", l->in.red.measured);
        vp_json_kv_bool(j, "redundancy_over_budget", l->in.red.over_budget);
        /* the global a loop that reads no input writes (docs/redundancy.md,
           "Constant work done again") */
        vp_json_kv_str(j, "constant_work", l->in.red.constant_object);
        vp_json_key(j, "repeated_call");
        if (l->in.red.call_sampled || l->in.red.call_pairs) {
            const struct vp_fix_redundancy *d = &l->in.red;
            vp_json_begin_object(j);
            vp_json_kv_str(j, "callee", d->call_callee);
            vp_json_kv_uint(j, "line", d->call_line);
            /* a call made in a helper the loop calls (docs/redundancy.md,
               "Copies in a helper"): the helper and the line in it */
            vp_json_kv_str(j, "via", d->call_via);
            vp_json_key(j, "via_line");
            d->call_via ? vp_json_uint(j, d->call_via_line) : vp_json_null(j);
            vp_json_kv_uint(j, "sampled_calls", d->call_sampled);
            vp_json_kv_uint(j, "distinct_calls", d->call_distinct);
            vp_json_kv_double(j, "rate", d->call_rate);
            vp_json_kv_bool(j, "redundant", d->call_redundant);
            vp_json_kv_bool(j, "does_io", d->call_io); /* on every call, every iteration */
            /* a string scan's consecutive calls (docs/redundancy.md,
               "Strings scanned again") */
            vp_json_kv_uint(j, "compared_pairs", d->call_pairs);
            vp_json_key(j, "rescan_rate");
            d->call_pairs ? vp_json_double(j, d->call_rescan_rate) : vp_json_null(j);
            vp_json_key(j, "rescanned_share");
            d->call_pairs ? vp_json_double(j, d->call_rescan_repeated) : vp_json_null(j);
            vp_json_kv_bool(j, "rescans", d->call_rescan);
            vp_json_kv_bool(j, "copies", d->call_copies); /* the unit is a copy */
            vp_json_kv_bool(j, "shifted", d->call_shifted); /* ... of shifted bytes */
            vp_json_kv_bool(j, "setup", d->call_setup); /* fopen, regcomp, ... */
            vp_json_kv_bool(j, "sorts", d->call_sorts); /* a copy unit of qsort */
            vp_json_kv_bool(j, "math", d->call_pure);   /* pow, exp, sin, ... */
            vp_json_key(j, "callee_waits_line"); /* its loop waits in every iteration */
            d->call_wait_line ? vp_json_uint(j, d->call_wait_line) : vp_json_null(j);
            vp_json_end_object(j);
        } else {
            vp_json_null(j);
        }
        callees(j, &l->in);
        counts(j, "counts", &l->in.slow);
        counts(j, "normal_counts", &l->in.normal);
        vp_json_kv_str(j, "evidence", l->fix.evidence);
        vp_json_kv_str(j, "condition", l->fix.condition[0] ? l->fix.condition : NULL);
        vp_json_kv_str(j, "growth", l->fix.growth[0] ? l->fix.growth : NULL);
        vp_json_key(j, "growth_exponent"); /* instance time ~ iterations^e, or null */
        l->fix.growth_exponent > 0 ? vp_json_double(j, l->fix.growth_exponent) : vp_json_null(j);
        vp_json_key(j, "growth_lines"); /* the lines the added time is at */
        if (l->fix.growth_lines) {
            vp_json_begin_array(j);
            for (size_t k = 0; k < l->fix.growth_lines; k++) {
                const struct vp_fix_hot_line *h = &l->in.hot[k];
                vp_json_begin_object(j);
                vp_json_kv_uint(j, "line", h->line);
                vp_json_kv_double(j, "share", l->fix.growth_line_share[k]);
                vp_json_kv_uint(j, "samples", h->slow_samples);
                vp_json_kv_uint(j, "normal_samples", h->normal_samples);
                vp_json_kv_str(j, "callee", h->callee);
                vp_json_kv_str(j, "leaf", h->leaf);
                vp_json_kv_bool(j, "unwinding", h->unwinding); /* C++ exceptions */
                /* a strided access at the line: bytes per iteration, or null */
                vp_json_key(j, "stride_bytes");
                if (h->stride_bytes)
                    vp_json_int(j, h->stride_bytes);
                else
                    vp_json_null(j);
                vp_json_key(j, "normal_stride_bytes");
                if (h->normal_stride_bytes)
                    vp_json_int(j, h->normal_stride_bytes);
                else
                    vp_json_null(j);
                vp_json_end_object(j);
            }
            vp_json_end_array(j);
        } else {
            vp_json_null(j);
        }
        if (l->in.site_line)
            vp_json_kv_uint(j, "side_effect_line", l->in.site_line);
        else {
            vp_json_key(j, "side_effect_line");
            vp_json_null(j);
        }
        vp_json_kv_bool(j, "io_only", (l->flags & VP_LOOPF_IO_ONLY) != 0);
        call_json(j, "io_call", l->in.io_callee, l->in.io_line); /* I/O in every iteration */
        call_json(j, "wait_call", l->in.wait_callee, l->in.wait_line); /* a wait, likewise */
        /* system calls for a few bytes in every iteration */
        vp_json_key(j, "syscalls");
        vp_json_begin_array(j);
        for (size_t k = 0; k < l->in.nsyscalls; k++) {
            vp_json_begin_object(j);
            vp_json_kv_str(j, "callee", l->in.syscalls[k].callee);
            vp_json_kv_uint(j, "line", l->in.syscalls[k].line);
            vp_json_kv_uint(j, "bytes", l->in.syscalls[k].bytes);
            vp_json_end_object(j);
        }
        vp_json_end_array(j);
        vp_json_kv_uint(j, "syscall_samples", l->in.syscall_samples);
        /* the samples in calls that produce its results */
        vp_json_key(j, "result_calls");
        if (l->in.result_call_samples) {
            vp_json_begin_object(j);
            vp_json_kv_str(j, "callee", l->in.result_call_callee ? l->in.result_call_callee : "");
            vp_json_kv_uint(j, "line", l->in.result_call_line);
            vp_json_kv_uint(j, "samples", l->in.result_call_samples);
            vp_json_end_object(j);
        } else {
            vp_json_null(j);
        }
        vp_json_kv_bool(j, "tail_calls", (l->flags & VP_LOOPF_TAIL_CALLS) != 0);
        vp_json_kv_bool(j, "vectorized", (l->flags & VP_LOOPF_VECTOR) != 0);
        vp_json_kv_bool(j, "unrolled", (l->flags & VP_LOOPF_UNROLLED) != 0);
        vp_json_kv_uint(j, "unroll_factor", l->in.unroll_factor);
        if (l->in.bucket_line)
            vp_json_kv_uint(j, "bucket_line", l->in.bucket_line);
        else {
            vp_json_key(j, "bucket_line");
            vp_json_null(j);
        }
        if (l->in.spin_line) /* a spin loop: the atomic access it spins on */
            vp_json_kv_uint(j, "spin_line", l->in.spin_line);
        else {
            vp_json_key(j, "spin_line");
            vp_json_null(j);
        }
        vp_json_key(j, "copies");
        vp_json_begin_array(j);
        for (size_t k = 0; k < l->ncopies; k++) {
            const struct vp_lr_loop *cp = &l->copies[k];
            vp_json_begin_object(j);
            snprintf(id, sizeof id, "%016llx", (unsigned long long)cp->loop_id);
            vp_json_kv_str(j, "loop_id", id);
            causes(j, cp);
            vp_json_kv_str(j, "verdict", vp_loop_verdict_name(cp->verdict));
            vp_json_kv_double(j, "resultless_rate", cp->resultless_rate);
            vp_json_key(j, "cross_iteration_rate");
            vp_fix_ci_measured(&cp->in.red) ? vp_json_double(j, cp->in.red.cross_iteration_rate)
                                            : vp_json_null(j);
            vp_json_key(j, "cross_loop_rate");
            vp_fix_cl_measured(&cp->in.red) ? vp_json_double(j, cp->in.red.cross_loop_rate)
                                            : vp_json_null(j);
            counts(j, "counts", &cp->in.slow);
            counts(j, "normal_counts", &cp->in.normal);
            vp_json_kv_str(j, "evidence", cp->fix.evidence);
            vp_json_end_object(j);
        }
        vp_json_end_array(j);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_key(j, "not_run");
    vp_json_begin_array(j);
    for (size_t i = 0; i < r->nidle; i++) {
        vp_json_begin_object(j);
        vp_json_kv_str(j, "function", r->idle[i].function);
        vp_json_kv_str(j, "inlined_into", r->idle[i].inlined_into);
        vp_lr_relpath(r, r->idle[i].file, rel, sizeof rel);
        vp_json_kv_str(j, "file", rel);
        vp_json_kv_uint(j, "line", r->idle[i].line);
        vp_json_kv_str(j, "kind", vp_lr_kind_name(r->idle[i].kind));
        vp_json_kv_bool(j, "probed", !r->idle[i].unprobed);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_end_object(j);
    return vp_json_finish(j);
}
