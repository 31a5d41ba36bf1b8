/*
 * report_rank.c - print a vprof rank result as a terminal table, as JSON
 * ("schema": "vprof-rank/1") or as a Markdown comment for a bug tracker
 * (HTML: report_html.c).
 * Numbers use fixed formats so output is byte-for-byte reproducible.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/json.h"
#include "vprof/rank.h"
#include "vprof/symbols.h"
#include "report_common.h"

static void tags_str(uint16_t tags, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s", tags & VP_TAG_LOOP ? "loop," : "",
             tags & VP_TAG_COND ? "cond," : "", tags & VP_TAG_ARGS ? "args," : "",
             tags & VP_TAG_GLOBAL ? "global," : "");
    size_t n = strlen(buf);
    if (n)
        buf[n - 1] = 0;
}

/* ---- text ------------------------------------------------------------- */

static void write_text(FILE *out, const struct vp_rank_result *r, size_t top)
{
    size_t nn = 0, nb = 0, procs = 0;
    for (size_t i = 0; i < r->ninputs; i++) {
        r->inputs[i].slow ? nb++ : nn++;
        procs += r->inputs[i].processes > 1 ? r->inputs[i].processes : 1;
    }
    fprintf(out, "vprof rank: %zu normal, %zu buggy profile(s)", nn, nb);
    if (procs > r->ninputs) /* forked processes joined their recordings */
        fprintf(out, " (%zu processes)", procs);
    fprintf(out, "; DefaultDiscount %.2f, ValidDiscount %.2f, alpha %.3f\n",
            r->params.default_discount, r->params.valid_discount, r->params.alpha);
    /* the function column fits the names shown (C++'s qualified ones are
       long), up to 64 characters; a longer one is fitted into it with its
       template arguments elided (vp_func_fit) */
    int fw = 28;
    char fit[256];
    size_t nshown = vp_rank_shown(r, top);
    const char **names = malloc((nshown ? nshown : 1) * sizeof *names);
    for (size_t i = 0; names && i < nshown; i++)
        names[i] = vp_rank_func_name(&r->funcs[i]);
    char **fits = names ? vp_func_fit_list(names, nshown, 64) : NULL;
    free(names);
#define SHOWN(i) (fits ? fits[i] : vp_func_fit(vp_rank_func_name(&r->funcs[i]), 64, fit, sizeof fit))
    for (size_t i = 0; i < nshown; i++) {
        size_t len = strlen(SHOWN(i));
        if (len > (size_t)fw)
            fw = len > 64 ? 64 : (int)len;
    }
    fprintf(out, "%4s  %-*s %-24s %12s %12s %8s %8s %-15s %-18s %s\n", "rank", fw, "function",
            "location", "calibrated", "raw", "discount", "by", "dimension", "pattern",
            "variable");
    for (size_t i = 0; i < nshown; i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        const struct vp_rank_var_result *v = vp_rank_decider(r, f);
        char lb[512], var[256]; /* lb: a base name (<= 255 bytes) and ":line" */
        const char *loc = vp_rank_func_loc(lb, sizeof lb, f);
        if (v) {
            snprintf(var, sizeof var, "%s (%s:%d%s)", v->name, vp_rank_base_name(v->file), v->line,
                     v->new_in_build ? ", new in this build" : "");
            vp_oneline(var);
        } else
            snprintf(var, sizeof var, "-");
        const char *pat = vp_rank_pattern_name(f->pattern);
        fprintf(out, "%4zu  %-*s %-24s %10.4f s %10.4f s %8.3f %8s %-15s %-18s %s\n", f->rank,
                fw, SHOWN(i), loc, f->calibrated_cost_ns / 1e9, f->raw_cost_ns / 1e9, f->discount,
                vp_rank_discounter_name(f->discounter),
                vp_rank_dim_name(f->pattern_var >= 0 ? f->pattern_dim : f->dim),
                pat ? pat : "-", var);
        if (f->nlines) {
            fputs("      anomalous samples", out);
            if (f->loc_share && f->loc_stray)
                fprintf(out, " (%llu outside the normal range, under %g%% of the slow samples;"
                             " values at least %gx as frequent in the slow run)",
                        (unsigned long long)f->loc_stray, VP_RANK_FEW_OUTSIDE * 100,
                        VP_RANK_OVERREP_FACTOR);
            else if (f->loc_share)
                fprintf(out, " (none outside the normal range; values at least %gx as frequent in"
                             " the slow run)", VP_RANK_OVERREP_FACTOR);
            fputc(':', out);
            for (size_t l = 0; l < f->nlines; l++) {
                fprintf(out, "%s %s (%llu", l ? "," : "",
                        vp_rank_loc(lb, sizeof lb, f->lines[l].file, f->lines[l].line),
                        (unsigned long long)f->lines[l].count);
                if (f->lines[l].loop_line)
                    fprintf(out, "; loop at line %d", f->lines[l].loop_line);
                fputc(')', out);
            }
            fputc('\n', out);
        }
    }
#undef SHOWN
    vp_func_fit_list_free(fits, nshown);
    char note[2048];
    if (vp_rank_unattributed_note(r, note, sizeof note))
        fprintf(out, "note: %s; vprof report shows where it is\n", note);
}

/* ---- JSON ------------------------------------------------------------- */

static void json_dim(struct vp_json *j, const struct vp_rank_dim_result *d, int dim)
{
    vp_json_begin_object(j);
    vp_json_kv_uint(j, "normal_n", d->n_normal);
    vp_json_kv_uint(j, "slow_n", d->n_slow);
    /* run lengths in sample intervals: the run the median sample is in
       (what rule 1 compares, docs/rank.md); values and deltas are order
       keys, not shown */
    if (dim == VP_RANK_DIM_PROC) {
        vp_json_kv_uint(j, "normal_median_run", d->normal_median);
        vp_json_kv_uint(j, "slow_median_run", d->slow_median);
    }
    /* values and deltas: the share of slow observations outside the normal
       run's range (a run length outside it is what rule 1 measures anyway) */
    if (dim != VP_RANK_DIM_PROC)
        vp_json_kv_double(j, "slow_outside", d->slow_outside);
    vp_json_kv_bool(j, "tested", d->tested);
    if (d->tested) {
        vp_json_kv_double(j, "statistic", d->statistic);
        vp_json_kv_double(j, "pvalue", d->pvalue);
    }
    vp_json_kv_bool(j, "rejected", d->rejected);
    if (d->rejected)
        vp_json_kv_double(j, "hellinger", d->hellinger);
    vp_json_kv_double(j, "discount", d->discount);
    vp_json_end_object(j);
}

static void json_var(struct vp_json *j, const struct vp_rank_var_result *v)
{
    char tags[64];
    vp_json_begin_object(j);
    vp_json_kv_str(j, "name", v->name);
    char fbuf[512];
    vp_json_kv_str(j, "function", vp_func_display(v->function, fbuf, sizeof fbuf));
    vp_json_kv_str(j, "file", v->file);
    vp_json_kv_int(j, "line", v->line);
    vp_json_kv_str(j, "type", v->type);
    vp_json_kv_str(j, "kind", vp_rank_kind_name(v->type_kind));
    tags_str(v->tags, tags, sizeof tags);
    vp_json_key(j, "tags");
    vp_json_begin_array(j);
    for (char *t = tags; *t;) {
        char *c = strchr(t, ',');
        if (c)
            *c = 0;
        vp_json_str(j, t);
        if (!c)
            break;
        t = c + 1;
    }
    vp_json_end_array(j);
    vp_json_kv_bool(j, "global", v->global);
    vp_json_kv_double(j, "discount", v->discount);
    vp_json_kv_str(j, "dimension", vp_rank_dim_name(v->dim));
    vp_json_kv_bool(j, "anomalous", v->anomalous);
    vp_json_kv_uint(j, "normal_samples", v->normal_samples);
    vp_json_kv_uint(j, "slow_samples", v->slow_samples);
    vp_json_kv_uint(j, "normal_unreadable", v->normal_unreadable);
    vp_json_kv_uint(j, "slow_unreadable", v->slow_unreadable);
    if (v->new_in_build)
        vp_json_kv_bool(j, "new_in_build", 1);
    vp_json_key(j, "dimensions");
    vp_json_begin_object(j);
    for (int d = v->basic ? 0 : VP_RANK_DIM_PROC; d < VP_RANK_DIM_COUNT; d++)
        if (v->dims[d].available) {
            vp_json_key(j, vp_rank_dim_name(d));
            json_dim(j, &v->dims[d], d);
        }
    vp_json_end_object(j);
    vp_json_end_object(j);
}

static int write_json(FILE *out, const struct vp_rank_result *r, size_t top)
{
    struct vp_json *j = vp_json_new(out, 1);
    if (!j)
        return -1;
    vp_json_begin_object(j);
    vp_json_kv_str(j, "schema", "vprof-rank/1");
    vp_json_key(j, "parameters");
    vp_json_begin_object(j);
    vp_json_kv_double(j, "default_discount", r->params.default_discount);
    vp_json_kv_double(j, "valid_discount", r->params.valid_discount);
    vp_json_kv_double(j, "alpha", r->params.alpha);
    vp_json_kv_uint(j, "hellinger_bins", r->params.hellinger_bins);
    vp_json_kv_uint(j, "top", top);
    vp_json_kv_str(j, "cost_unit", "s");
    vp_json_end_object(j);
    vp_json_key(j, "inputs");
    vp_json_begin_array(j);
    for (size_t i = 0; i < r->ninputs; i++) {
        const struct vp_rank_input *in = &r->inputs[i];
        vp_json_begin_object(j);
        vp_json_kv_str(j, "path", in->label);
        vp_json_kv_str(j, "role", in->slow ? "buggy" : "normal");
        vp_json_kv_uint(j, "period_ns", in->period_ns);
        vp_json_kv_uint(j, "pc_samples", in->pc_samples);
        vp_json_kv_uint(j, "value_samples", in->value_samples);
        vp_json_kv_uint(j, "unreadable", in->unreadable);
        vp_json_kv_uint(j, "processes", in->processes ? in->processes : 1);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_kv_uint(j, "function_count", r->nfuncs);
    vp_json_kv_double(j, "slow_unattributed", r->slow_unattributed);
    /* where that code ran: the library functions the program called */
    vp_json_key(j, "slow_unattributed_under");
    vp_json_begin_array(j);
    for (size_t i = 0; i < r->nlib; i++) {
        char dbuf[512];
        const char *shown = vp_func_display(r->lib[i].name, dbuf, sizeof dbuf);
        vp_json_begin_object(j);
        vp_json_kv_str(j, "name", shown);
        if (shown != r->lib[i].name)
            vp_json_kv_str(j, "linkage", r->lib[i].name);
        vp_json_kv_str(j, "module", r->lib[i].module);
        vp_json_kv_double(j, "share", r->lib[i].share);
        vp_json_key(j, "called_at"); /* where the program called it most */
        if (r->lib[i].site_file) {
            vp_json_begin_object(j);
            vp_json_kv_str(j, "file", r->lib[i].site_file);
            vp_json_kv_uint(j, "line", (uint64_t)r->lib[i].site_line);
            char fbuf[512];
            if (r->lib[i].site_function)
                vp_json_kv_str(j, "function",
                               vp_func_display(r->lib[i].site_function, fbuf, sizeof fbuf));
            else {
                vp_json_key(j, "function");
                vp_json_null(j);
            }
            vp_json_end_object(j);
        } else
            vp_json_null(j);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_key(j, "functions");
    vp_json_begin_array(j);
    for (size_t i = 0; i < vp_rank_shown(r, top); i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        const char *pat = vp_rank_pattern_name(f->pattern);
        vp_json_begin_object(j);
        vp_json_kv_uint(j, "rank", f->rank);
        vp_json_kv_str(j, "name", vp_rank_func_name(f));
        if (f->display) /* C++: the mangled name, which identifies it */
            vp_json_kv_str(j, "linkage", f->name);
        vp_json_kv_str(j, "file", f->file);
        vp_json_kv_str(j, "module", f->module); /* null: one with source, or unknown */
        vp_json_kv_int(j, "line", f->line);
        vp_json_kv_double(j, "raw_cost", f->raw_cost_ns / 1e9);
        vp_json_kv_double(j, "calibrated_cost", f->calibrated_cost_ns / 1e9);
        vp_json_kv_double(j, "discount", f->discount);
        vp_json_kv_str(j, "dimension", vp_rank_dim_name(f->pattern_var >= 0 ? f->pattern_dim
                                                                            : f->dim));
        vp_json_kv_str(j, "pattern", pat);
        vp_json_key(j, "pattern_rule");
        if (f->pattern_rule)
            vp_json_int(j, f->pattern_rule);
        else
            vp_json_null(j);
        vp_json_kv_str(j, "discounter", vp_rank_discounter_name(f->discounter));
        vp_json_kv_uint(j, "raw_rank", f->raw_rank);
        vp_json_kv_uint(j, "pc_samples", f->pc_samples);
        vp_json_kv_uint(j, "value_ticks", f->value_ticks);
        vp_json_kv_double(j, "pc_cost", f->pc_cost_ns / 1e9);
        vp_json_kv_double(j, "var_cost", f->var_cost_ns / 1e9);
        vp_json_kv_double(j, "var_cost_excess", f->var_excess_ns / 1e9);
        vp_json_kv_double(j, "normal_share", f->normal_share);
        vp_json_kv_double(j, "slow_share", f->slow_share);
        if (f->discounter == VP_RANK_DISC_HIST) {
            vp_json_key(j, "hist");
            vp_json_begin_object(j);
            vp_json_kv_uint(j, "h", f->hist_h);
            vp_json_kv_uint(j, "c", f->hist_c);
            vp_json_end_object(j);
        }
        const struct vp_rank_var_result *pv = f->pattern_var >= 0 ? &r->vars[f->pattern_var] : NULL;
        vp_json_kv_str(j, "pattern_variable", pv ? pv->name : NULL);
        const struct vp_rank_var_result *lv = f->loc_var >= 0 ? &r->vars[f->loc_var] : NULL;
        vp_json_kv_str(j, "anomalous_variable", lv ? lv->name : NULL);
        vp_json_kv_str(j, "anomalous_dimension", lv ? vp_rank_dim_name(f->loc_dim) : NULL);
        vp_json_kv_uint(j, "outside_samples", f->outside);
        vp_json_kv_str(j, "localised_by",
                       !lv ? NULL
                       : f->loc_dim == VP_RANK_DIM_SLOW_ONLY ? "slow-only"
                       : f->loc_share                        ? "share"
                                                             : "range");
        vp_json_key(j, "anomalous_lines");
        vp_json_begin_array(j);
        for (size_t l = 0; l < f->nlines; l++) {
            vp_json_begin_object(j);
            vp_json_kv_str(j, "file", f->lines[l].file);
            vp_json_kv_int(j, "line", f->lines[l].line);
            vp_json_kv_uint(j, "samples", f->lines[l].count);
            vp_json_key(j, "loop_line");
            if (f->lines[l].loop_line)
                vp_json_int(j, f->lines[l].loop_line);
            else
                vp_json_null(j);
            vp_json_end_object(j);
        }
        vp_json_end_array(j);
        vp_json_key(j, "variables");
        vp_json_begin_array(j);
        for (size_t v = 0; v < f->nvars; v++)
            json_var(j, &r->vars[f->var_idx[v]]);
        vp_json_end_array(j);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_end_object(j);
    return vp_json_finish(j);
}

/* ---- Markdown ------------------------------------------------------------ */

/* Markdown table cell: '|' and newlines would break the row. */
static void md_cell(FILE *out, const char *s)
{
    fputc(' ', out);
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
    fputs(" |", out);
}

static void write_md(FILE *out, const struct vp_rank_result *r, size_t top)
{
    size_t nn = 0, nb = 0;
    for (size_t i = 0; i < r->ninputs; i++)
        r->inputs[i].slow ? nb++ : nn++;
    fputs("### vprof rank\n\n", out);
    if (r->nfuncs) {
        const struct vp_rank_func_result *f = &r->funcs[0];
        const char *pat = vp_rank_pattern_name(f->pattern);
        char lb[512];
        fprintf(out, "Comparing %zu normal and %zu slow profile(s), the most likely root cause is "
                     "`%s` (%s), ranked %zu by raw cost",
                nn, nb, vp_rank_func_name(f), vp_rank_func_loc(lb, sizeof lb, f), f->raw_rank);
        if (pat && (f->pattern_rule == 4 || f->pattern_var < 0))
            fprintf(out, "; inferred pattern: **%s** (vProf's rule 4: the most costly "
                         "function, with no anomalous loop or condition variable to tell "
                         "the patterns apart)",
                    pat);
        else if (pat)
            fprintf(out, "; inferred pattern: **%s** (rule %d, variable `%s`, %s)", pat,
                    f->pattern_rule, r->vars[f->pattern_var].name,
                    vp_rank_dim_name(f->pattern_dim));
        fputs(".\n\n", out);
    }
    fputs("| rank | function | location | calibrated cost (s) | raw cost (s) | discount | "
          "dimension | pattern | variable |\n",
          out);
    fputs("|---:|---|---|---:|---:|---:|---|---|---|\n", out);
    char buf[512];
    for (size_t i = 0; i < vp_rank_shown(r, top); i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        const struct vp_rank_var_result *v = vp_rank_decider(r, f);
        const char *pat = vp_rank_pattern_name(f->pattern);
        fprintf(out, "| %zu |", f->rank);
        snprintf(buf, sizeof buf, "`%s`", vp_rank_func_name(f));
        md_cell(out, buf);
        md_cell(out, vp_rank_func_loc(buf, sizeof buf, f));
        fprintf(out, " %.4f | %.4f | %.3f |", f->calibrated_cost_ns / 1e9, f->raw_cost_ns / 1e9,
                f->discount);
        md_cell(out, vp_rank_dim_name(f->pattern_var >= 0 ? f->pattern_dim : f->dim));
        md_cell(out, pat ? pat : "-");
        if (v)
            snprintf(buf, sizeof buf, "`%s`", v->name);
        md_cell(out, v ? buf : "-");
        fputc('\n', out);
    }
    char note[2048];
    if (vp_rank_unattributed_note(r, note, sizeof note))
        fprintf(out, "\n%s.\n", note);
    fputs("\n<details><summary>Details</summary>\n\n", out);
    for (size_t i = 0; i < vp_rank_shown(r, top); i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        fprintf(out, "- **%zu. `%s`** — %s discounter, %llu PC samples, %llu value ticks",
                f->rank, vp_rank_func_name(f), vp_rank_discounter_name(f->discounter),
                (unsigned long long)f->pc_samples, (unsigned long long)f->value_ticks);
        if (f->loc_var >= 0 && f->loc_dim == VP_RANK_DIM_SLOW_ONLY)
            fprintf(out, "; `%s` sampled only in the slow run (%llu sample(s))%s",
                    r->vars[f->loc_var].name, (unsigned long long)f->outside,
                    r->vars[f->loc_var].new_in_build ? ", new in this build (no normal run's build "
                                                       "declares it)"
                                                     : "");
        else if (f->loc_var >= 0 && f->loc_share)
            fprintf(out, "; `%s` (%s) stays within its normal range%s; %llu slow sample(s) are"
                         " where the slow run is at least %gx as frequent",
                    r->vars[f->loc_var].name, vp_rank_dim_name(f->loc_dim),
                    f->loc_stray ? " but for a few samples" : "",
                    (unsigned long long)f->outside, VP_RANK_OVERREP_FACTOR);
        else if (f->loc_var >= 0)
            fprintf(out, "; `%s` outside its normal %s range in %llu slow sample(s)",
                    r->vars[f->loc_var].name, vp_rank_dim_name(f->loc_dim),
                    (unsigned long long)f->outside);
        fputs("\n", out);
        for (size_t l = 0; l < f->nlines; l++) {
            fputs("  - `", out);
            vp_oneline_fputs(f->lines[l].file, out);
            fprintf(out, ":%d` — %llu sample(s)", f->lines[l].line,
                    (unsigned long long)f->lines[l].count);
            if (f->lines[l].loop_line)
                fprintf(out, ", in the loop at line %d", f->lines[l].loop_line);
            fputc('\n', out);
        }
    }
    fputs("\n</details>\n", out);
}

int vp_rank_write(FILE *out, const struct vp_rank_result *r, int format, size_t top)
{
    switch (format) {
    case VP_RANK_JSON:
        if (write_json(out, r, top))
            return -1;
        break;
    case VP_RANK_MD: write_md(out, r, top); break;
    case VP_RANK_HTML:
        if (vp_rank_write_html(out, r, top))
            return -1;
        break;
    default: write_text(out, r, top); break;
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
