/*
 * report_text.c - the loop report for a terminal (vprof-loop --format
 * text).  Colour only when the caller says so (a tty without NO_COLOR).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "vprof/loopclass.h"
#include "vprof/rank.h"
#include "vprof/redundancy.h"
#include "vprof/symbols.h"

struct style {
    const char *bold, *red, *yellow, *green, *dim, *off;
};

static void print_cmd(FILE *out, char **argv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? " " : "", argv[i]);
}

static void rank_table(FILE *out, const struct vp_loop_report *r, const struct style *s)
{
    if (!r->nrank)
        return;
    fprintf(out, "%svprof rank%s (top functions of the slow run):\n", s->bold, s->off);
    int fw = 32; /* fits C++'s qualified names, up to 64 characters (vp_func_fit) */
    char fit[256];
    const char **names = malloc(r->nrank * sizeof *names);
    for (size_t i = 0; names && i < r->nrank; i++)
        names[i] = r->rank[i].name;
    char **fits = names ? vp_func_fit_list(names, r->nrank, 64) : NULL;
    free(names);
#define SHOWN(i) (fits ? fits[i] : vp_func_fit(r->rank[i].name, 64, fit, sizeof fit))
    for (size_t i = 0; i < r->nrank; i++) {
        size_t len = strlen(SHOWN(i));
        if (len > (size_t)fw)
            fw = len > 64 ? 64 : (int)len;
    }
    fprintf(out, "  %4s  %-*s %-28s %10s %10s %8s  %s\n", "rank", fw, "function", "location",
            "calibrated", "raw", "discount", "pattern");
    for (size_t i = 0; i < r->nrank; i++) {
        const struct vp_lr_rank_row *w = &r->rank[i];
        char loc[PATH_MAX + 16], rel[PATH_MAX];
        vp_lr_shown_path(r, w->file, rel, sizeof rel);
        const char *base = strrchr(rel, '/');
        if (*rel || w->line > 0)
            snprintf(loc, sizeof loc, "%s:%d", *rel ? (base ? base + 1 : rel) : "?", w->line);
        else if (w->module) /* no source: the library it is in */
            snprintf(loc, sizeof loc, "[%s]", w->module);
        else
            snprintf(loc, sizeof loc, "-"); /* no source at all: a PLT stub, unknown */
        fprintf(out, "  %4zu%s %-*s %-28s %9.3fs %9.3fs %8.3f  %s\n", w->rank,
                w->selected ? "*" : " ", fw, SHOWN(i), loc, w->calibrated_cost, w->raw_cost,
                w->discount, w->pattern ? w->pattern : "-");
    }
#undef SHOWN
    vp_func_fit_list_free(fits, r->nrank);
    fprintf(out, "  (* = loops probed)\n");
    if (r->rank_unattributed >= VP_RANK_UNATTRIBUTED_NOTE)
        fprintf(out, "  note: %.0f%% of the slow run is in code no ranked function holds "
                     "(a library's internal functions, or code without symbols%s)\n",
                r->rank_unattributed * 100,
                r->rank_unattributed_under ? r->rank_unattributed_under : "");
    fputc('\n', out);
}

int vp_lr_write_text(FILE *out, const struct vp_loop_report *r, int color)
{
    static const struct style plain = {"", "", "", "", "", ""};
    static const struct style ansi = {"\033[1m", "\033[31m", "\033[33m", "\033[32m", "\033[2m",
                                      "\033[0m"};
    const struct style *s = color ? &ansi : &plain;

    rank_table(out, r, s);
    fprintf(out, "%svprof-loop%s: %zu loop%s diagnosed in ", s->bold, s->off, r->nloops,
            r->nloops == 1 ? "" : "s");
    /* the selected functions with a diagnosed loop, then those without a
       loop, those whose loops never ran and those whose loops have no
       probes */
    static const char *const group[] = {"", "no loop in ", "no loop ran in ",
                                        "loops not probed in "};
    size_t shown = 0, apart = 0;
    char **fits = vp_func_fit_list((const char *const *)r->functions, r->nfunctions, 64);
    for (int pass = 0; pass < 4; pass++) {
        size_t in_group = 0;
        for (size_t i = 0; i < r->nfunctions; i++) {
            int here = vp_lr_function_loops(r, r->functions[i]) == pass;
            if (!here)
                continue;
            char fit[256];
            const char *name = fits ? fits[i] : vp_func_fit(r->functions[i], 64, fit, sizeof fit);
            if (pass == 0)
                fprintf(out, "%s%s", shown++ ? ", " : "", name);
            else if (in_group++)
                fprintf(out, ", %s", name);
            else
                fprintf(out, "%s%s%s", apart++ ? "; " : shown ? " (" : "(", group[pass], name);
        }
    }
    vp_func_fit_list_free(fits, r->nfunctions);
    if (apart)
        fputc(')', out);
    fprintf(out, "\n  slow run: ");
    print_cmd(out, r->command, r->ncommand);
    if (r->input)
        fprintf(out, " < %s", r->input);
    if (r->slow_processes > 1)
        fprintf(out, " (%u processes)", r->slow_processes);
    fprintf(out, "\n");
    if (r->normal_command) {
        fprintf(out, "  normal run: ");
        print_cmd(out, r->normal_command, r->nnormal_command);
        if (r->normal_input)
            fprintf(out, " < %s", r->normal_input);
        if (r->normal_processes > 1)
            fprintf(out, " (%u processes)", r->normal_processes);
        fprintf(out, "\n");
    }
    char tot[32], probes[32];
    fprintf(out, "  shares of %s PC samples (%s)", vp_fix_commas(tot, sizeof tot, r->total_samples),
            r->samples_from);
    if (r->probe_samples)
        fprintf(out, "; %s in vprof's probes left out",
                vp_fix_commas(probes, sizeof probes, r->probe_samples));
    fprintf(out, "%s\n", r->redundancy_measured ? "" : "; redundancy not measured");

    for (size_t i = 0; i < r->nloops; i++) {
        const struct vp_lr_loop *l = &r->loops[i];
        char rel[PATH_MAX];
        vp_lr_shown_path(r, l->file, rel, sizeof rel);
        const char *names[VP_FIX_CAT_COUNT];
        size_t nn;
        vp_lr_categories(l->fix.categories, names, &nn);
        int bad = l->fix.categories & ~(unsigned)VP_FIX_CAT_ONE_STAR;
        char fit[256];
        fprintf(out, "\n%s#%zu %s%s", s->bold, i + 1,
                vp_func_fit(l->function, 64, fit, sizeof fit), s->off);
        char at[PATH_MAX + 32] = "";
        if (l->call_file) {
            char crel[PATH_MAX];
            vp_lr_shown_path(r, l->call_file, crel, sizeof crel);
            snprintf(at, sizeof at, "called at %s:%u", crel, l->call_line);
        }
        if (l->inlined_into)
            fprintf(out, " (inlined into %s%s%s)", vp_func_fit(l->inlined_into, 64, fit, sizeof fit),
                    at[0] ? ", " : "", at);
        else if (at[0])
            fprintf(out, " (%s)", at);
        char label[32];
        fprintf(out, "  %s:%u  %s", rel, l->line, vp_lr_loop_label(l, label, sizeof label));
        if (l->kind == VP_LOOP_NATURAL) {
            fprintf(out, ", depth %d", l->depth);
            if (l->parent_line == l->line && l->parent_column == l->column)
                fprintf(out, " (the inner of two loops the compiler split this source loop into)");
            else if (l->parent_line)
                fprintf(out, " (inside the loop at line %u)", l->parent_line);
        }
        fprintf(out, "  %.1f%% of the slow run\n", l->share * 100.0);
        fprintf(out, "   root cause: %s", bad ? s->red : s->dim);
        if (!nn)
            fprintf(out, "none found");
        for (size_t k = 0; k < nn; k++)
            fprintf(out, "%s%s", k ? ", " : "", names[k]);
        fprintf(out, "%s   fix: %s", s->off, bad ? s->green : "");
        if (!l->fix.nfixes)
            fprintf(out, "-");
        for (size_t k = 0; k < l->fix.nfixes; k++)
            fprintf(out, "%s%s", k ? ", " : "", vp_fix_strategy_name(l->fix.fixes[k]));
        fprintf(out, "%s   static class: %s\n", bad ? s->off : "",
                vp_loop_class_name(l->static_class));
        if (l->rank_samples) {
            char t[512];
            fprintf(out, "   vprof rank: %s\n", vp_lr_anomaly_text(t, sizeof t, l, ""));
        }
        char inst[32], it[32], mx[32], avg[32];
        const struct vp_fix_counts *c = &l->in.slow;
        const char *unit = l->kind == VP_LOOP_RECURSION ? "outermost call" : "instance";
        const char *iters = l->kind == VP_LOOP_RECURSION ? "recursive calls" : "iterations";
        /* an unrolled body's iterations are `unroll_factor` source
           iterations each (docs/loopclass.md, "Unrolled loops") */
        char src[64] = "";
        if (l->flags & VP_LOOPF_UNROLLED) { /* the table reader keeps it with a factor >= 2 */
            char n[32];
            snprintf(src, sizeof src, " (%s source iterations)",
                     vp_fix_commas(n, sizeof n, vp_fix_source_iterations(&l->in)));
        }
        fprintf(out, "   slow run: %s %s%s, %s %s%s, %s per %s (max %s); resultless %.2f%%\n",
                vp_fix_commas(inst, sizeof inst, c->instances), unit, c->instances == 1 ? "" : "s",
                vp_fix_commas(it, sizeof it, c->iterations), iters, src,
                vp_lr_avg(avg, sizeof avg, c->avg_iterations), unit,
                vp_fix_commas(mx, sizeof mx, c->max_iterations), l->resultless_rate * 100.0);
        if (l->in.normal.ran) {
            c = &l->in.normal;
            fprintf(out, "   normal run: %s %s%s, %s %s, %s per %s (max %s)\n",
                    vp_fix_commas(inst, sizeof inst, c->instances), unit,
                    c->instances == 1 ? "" : "s", vp_fix_commas(it, sizeof it, c->iterations),
                    iters, vp_lr_avg(avg, sizeof avg, c->avg_iterations), unit,
                    vp_fix_commas(mx, sizeof mx, c->max_iterations));
        } else if (l->normal_recorded) {
            fprintf(out, "   normal run: did not run\n");
        }
        if (l->in.red.measured) {
            const struct vp_fix_redundancy *d = &l->in.red;
            char at[160];
            fputs("   redundancy: cross-iteration ", out);
            if (vp_fix_ci_measured(d))
                fprintf(out, "%.2fx", d->cross_iteration_rate);
            else
                fputs(d->ci_ruled_out ? "ruled out for whole iterations (an induction variable "
                                        "among its sources)"
                                      : "not sampled", out);
            if ((d->call_sampled || d->call_pairs) && d->call_copies) {
                /* a copy's unit has its pairs only */
                fprintf(out, ", calls of %s %s: %.0f%% of %llu pairs of consecutive "
                             "calls %s again%s",
                        d->call_callee, vp_fix_call_where(at, sizeof at, d),
                        d->call_rescan_rate * 100.0,
                        (unsigned long long)d->call_pairs,
                        d->call_sorts ? "sort the same elements" : "copy the same bytes",
                        d->call_shifted && !d->call_sorts ? ", shifted" : "");
            } else if (d->call_sampled || d->call_pairs) {
                fprintf(out, ", repeated %scalls of %s %s %.2fx",
                        d->call_setup  ? "setup "
                        : d->call_pure ? "math "
                                       : "",
                        d->call_callee ? d->call_callee : "?",
                        vp_fix_call_where(at, sizeof at, d), d->call_rate);
                if (d->call_rescan)
                    fprintf(out, " (%.0f%% of %llu pairs of consecutive calls scan the string "
                                 "again)",
                            d->call_rescan_rate * 100.0, (unsigned long long)d->call_pairs);
                if (d->call_wait_line)
                    fprintf(out, " (waits: its loop at line %u)", d->call_wait_line);
            }
            if ((l->fix.categories & VP_FIX_CAT_CROSS_ITERATION) && !d->cross_iteration &&
                !d->call_redundant) /* the I/O rule: the evidence says why */
                fputs(", repeated work around its I/O in the loops it calls", out);
            if (l->kind != VP_LOOP_RECURSION) {
                if (d->over_budget)
                    fputs(", cross-loop not measured (its recording copy would take its "
                          "function past vprof-cc's code-size budget)", out);
                else if (vp_fix_cl_measured(d) && d->pairs_compared < VP_RED_CL_MIN_PAIRS)
                    fprintf(out, ", cross-loop %.0f%% of %llu compared pair%s, too few for a "
                                 "verdict (%d needed)",
                            d->cross_loop_rate * 100.0, (unsigned long long)d->pairs_compared,
                            d->pairs_compared == 1 ? "" : "s", VP_RED_CL_MIN_PAIRS);
                else if (vp_fix_cl_measured(d))
                    fprintf(out, ", cross-loop %.0f%%%s", d->cross_loop_rate * 100.0,
                            d->constant_object ? " (constant work: it reads no input)" : "");
                else if (d->sampled_instances < 2)
                    fputs(", cross-loop not sampled (fewer than two instances recorded)", out);
                else /* e.g. every source unsupported: no values to compare */
                    fprintf(out, ", cross-loop not measured (%llu instances recorded, no pair "
                                 "with values to compare)",
                            (unsigned long long)d->sampled_instances);
            }
            fputc('\n', out);
        } else if (l->in.red.over_budget) {
            fputs("   redundancy: not measured: its recording copy would take its function past "
                  "vprof-cc's code-size budget (docs/redundancy.md, \"Code-size budget\")\n",
                  out);
        }
        fprintf(out, "   %sevidence:%s %s\n", s->yellow, s->off, l->fix.evidence);
        if (l->fix.condition[0])
            fprintf(out, "   condition: %s\n", l->fix.condition);
        if (l->fix.growth[0])
            fprintf(out, "   growth: %s\n", l->fix.growth);
        for (size_t k = 0; k < l->ncopies; k++) {
            char sum[256];
            fprintf(out, "   compiler copy %zu of %zu (%s): %s\n", k + 2, l->ncopies + 1,
                    vp_lr_copy_kind(l, &l->copies[k]),
                    vp_lr_copy_summary(sum, sizeof sum, &l->copies[k]));
        }
        for (size_t k = 0; k < l->nsource; k++)
            fprintf(out, "   %s%6u |%s %s\n", s->dim, l->line + (unsigned)k, s->off, l->source[k]);
        if (l->call_text) {
            char crel[PATH_MAX];
            vp_lr_shown_path(r, l->call_file, crel, sizeof crel);
            fprintf(out, "   called at %s:%u:\n   %s%6u |%s %s\n", crel, l->call_line, s->dim,
                    l->call_line, s->off, l->call_text);
        }
    }
    for (size_t i = 0; i < r->nidle; i++) {
        char rel[PATH_MAX];
        vp_lr_shown_path(r, r->idle[i].file, rel, sizeof rel);
        fprintf(out, "%s%s %s at %s:%u %s\n", i ? "" : "\n", vp_lr_kind_name(r->idle[i].kind),
                r->idle[i].function, rel, r->idle[i].line,
                r->idle[i].unprobed ? "was not probed: vprof-cc could not copy its function for "
                                      "the probes (docs/loopclass.md, \"Functions without "
                                      "probes\")"
                                    : "never ran in the slow run");
    }
    return 0;
}
