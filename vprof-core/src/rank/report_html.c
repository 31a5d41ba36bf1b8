/*
 * report_html.c - a vprof rank result as one self-contained HTML page
 * (vprof/html.h): the ranked functions as raw vs calibrated cost bars, and
 * per function its anomalous variables as normal vs slow histograms in each
 * dimension (values, deltas, processing cost; the deciding one framed), the
 * lines where slow samples left the normal range, with quoted source.
 * Distributions come from the model the result was computed on
 * (vp_rank_var_dist); without a model the page has the tables only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/html.h"
#include "vprof/rank.h"
#include "report_common.h"

#define CHART_MAX 25         /* functions in the bar chart                   */
#define OPEN_MAX 3           /* function sections shown expanded             */
#define PLOT_VARS_MAX 6      /* variables plotted per function               */

static int func_dim(const struct vp_rank_func_result *f)
{
    return f->pattern_var >= 0 ? f->pattern_dim : f->dim;
}

static void loc(FILE *out, const char *file, int line)
{
    if (!file || !*file) {
        fputs("<span class=\"muted\">no debug info</span>", out);
        return;
    }
    fputs("<code class=\"loc\" title=\"", out);
    vp_html_escape(out, file);
    fputs("\">", out);
    vp_html_escape(out, vp_rank_base_name(file));
    fprintf(out, ":%d</code>", line);
}

static void td_num(FILE *out, const char *fmt, double v)
{
    fputs("<td class=\"num\">", out);
    fprintf(out, fmt, v);
    fputs("</td>", out);
}

static void summary(FILE *out, const struct vp_rank_result *r)
{
    size_t nn = 0, nb = 0;
    for (size_t i = 0; i < r->ninputs; i++)
        r->inputs[i].slow ? nb++ : nn++;
    vp_html_section_begin(out, "summary", "Summary", 1);
    if (r->nfuncs) {
        const struct vp_rank_func_result *f = &r->funcs[0];
        const char *pat = vp_rank_pattern_name(f->pattern);
        fprintf(out, "<p class=\"lead\">Comparing %zu normal and %zu slow profile(s), the most "
                     "likely root cause is <a href=\"#f1\"><code>",
                nn, nb);
        vp_html_escape(out, vp_rank_func_name(f));
        fputs("</code></a> (", out);
        loc(out, f->file, f->line);
        fprintf(out, "), ranked <b>%zu</b> by raw cost and <b>1</b> after calibration.",
                f->raw_rank);
        if (pat) {
            fputs(" Inferred pattern: ", out);
            vp_html_badge(out, "bad", pat);
            if (f->pattern_var >= 0) {
                fputs(" (variable <code>", out);
                vp_html_escape(out, r->vars[f->pattern_var].name);
                fputs("</code>, ", out);
                vp_html_escape(out, vp_rank_dim_name(f->pattern_dim));
                fputs(").", out);
            } else {
                /* rule 4 for a function with no sampled variable */
                fputs(" (vProf's rule 4: the most costly function, with no sampled "
                      "variable to tell the patterns apart).",
                      out);
            }
        }
        fputs("</p>\n", out);
    }
    fputs("<table><thead><tr><th>profile</th><th>role</th><th class=\"num\">period</th>"
          "<th class=\"num\">PC samples</th><th class=\"num\">value samples</th>"
          "<th class=\"num\">unreadable</th></tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < r->ninputs; i++) {
        const struct vp_rank_input *in = &r->inputs[i];
        fputs("<tr><td><code>", out);
        vp_html_escape(out, in->label);
        fputs("</code></td><td>", out);
        vp_html_badge(out, in->slow ? "warn" : "info", in->slow ? "buggy" : "normal");
        fprintf(out, "</td><td class=\"num\">%.3g ms</td><td class=\"num\">%llu</td>"
                     "<td class=\"num\">%llu</td><td class=\"num\">%llu</td></tr>\n",
                (double)in->period_ns / 1e6, (unsigned long long)in->pc_samples,
                (unsigned long long)in->value_samples, (unsigned long long)in->unreadable);
    }
    fputs("</tbody></table>\n", out);
    vp_html_section_end(out);
}

static int ranking(FILE *out, const struct vp_rank_result *r, size_t n)
{
    vp_html_section_begin(out, "ranking", "Ranked functions", 1);
    size_t nb = n < CHART_MAX ? n : CHART_MAX;
    struct vp_html_bar *bars = calloc(nb ? nb : 1, sizeof *bars);
    char (*labels)[300] = calloc(nb ? nb : 1, sizeof *labels);
    char (*notes)[32] = calloc(nb ? nb : 1, sizeof *notes);
    char (*hrefs)[24] = calloc(nb ? nb : 1, sizeof *hrefs);
    if (!bars || !labels || !notes || !hrefs) {
        free(bars);
        free(labels);
        free(notes);
        free(hrefs);
        return -1;
    }
    for (size_t i = 0; i < nb; i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        snprintf(labels[i], sizeof labels[i], "%zu. %s", f->rank, vp_rank_func_name(f));
        snprintf(notes[i], sizeof notes[i], "raw rank %zu", f->raw_rank);
        snprintf(hrefs[i], sizeof hrefs[i], "#f%zu", f->rank);
        bars[i].label = labels[i];
        bars[i].value[0] = f->raw_cost_ns / 1e9;
        bars[i].value[1] = f->calibrated_cost_ns / 1e9;
        bars[i].note = notes[i];
        bars[i].href = hrefs[i];
    }
    char title[128];
    snprintf(title, sizeof title,
             nb < r->nfuncs ? "Cost per function: the first %zu of %zu, by calibrated cost"
                            : "Cost per function (%zu of %zu), by calibrated cost",
             nb, r->nfuncs);
    struct vp_html_bar_chart c = {.title = title,
                                  .series = {"raw cost (what a profiler shows)",
                                             "calibrated cost (vProf)"},
                                  .unit = " s",
                                  .bars = bars,
                                  .nbars = nb};
    vp_html_bar_chart(out, &c);
    free(bars);
    free(labels);
    free(notes);
    free(hrefs);

    fputs("<div class=\"tablewrap\"><table class=\"ranking\"><thead><tr>"
          "<th class=\"num\">rank</th><th>function</th><th>location</th>"
          "<th class=\"num\">calibrated (s)</th><th class=\"num\">raw (s)</th>"
          "<th class=\"num\">raw rank</th><th class=\"num\">discount</th>"
          "<th>dimension</th><th>pattern</th><th>variable</th></tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < n; i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        const struct vp_rank_var_result *v = vp_rank_decider(r, f);
        const char *pat = vp_rank_pattern_name(f->pattern);
        fprintf(out, "<tr><td class=\"num\">%zu</td><td><a href=\"#f%zu\"><code>", f->rank,
                f->rank);
        vp_html_escape(out, vp_rank_func_name(f));
        fputs("</code></a></td><td>", out);
        loc(out, f->file, f->line);
        fputs("</td>", out);
        td_num(out, "%.4f", f->calibrated_cost_ns / 1e9);
        td_num(out, "%.4f", f->raw_cost_ns / 1e9);
        fprintf(out, "<td class=\"num\">%zu</td>", f->raw_rank);
        td_num(out, "%.3f", f->discount);
        fputs("<td>", out);
        vp_html_escape(out, vp_rank_dim_name(func_dim(f)));
        fputs("</td><td>", out);
        if (pat)
            vp_html_badge(out, "bad", pat);
        else
            fputs("&ndash;", out);
        fputs("</td><td>", out);
        if (v) {
            fputs("<code>", out);
            vp_html_escape(out, v->name);
            fputs("</code>", out);
        } else {
            fputs("&ndash;", out);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    if (r->slow_unattributed >= VP_RANK_UNATTRIBUTED_NOTE) { /* as the text's note */
        char clause[1024];
        fprintf(out, "<p class=\"note unattributed\">%.0f%% of the slow run's PC samples are "
                     "in code no ranked function holds (a library's internal functions, or "
                     "code without symbols",
                r->slow_unattributed * 100);
        vp_html_escape(out, vp_rank_lib_clause(r->lib, r->nlib, clause, sizeof clause));
        fputs("): their time counts only for the functions whose variables were sampled on "
              "their stacks.</p>\n",
              out);
    }
    vp_html_section_end(out);
    return 0;
}

/// The histograms of one variable, one per dimension that applies.  The
/// dimension that gave the variable its discount is highlighted.
static int var_plots(FILE *out, const struct vp_rank_result *r, const struct vp_rank_var_result *v)
{
    fputs("<h4 class=\"var\">", out);
    fputs("<code>", out);
    vp_html_escape(out, v->name);
    fputs("</code> <span class=\"muted\">", out);
    vp_html_escape(out, v->type);
    fputs(", declared at ", out);
    fputs("</span>", out);
    loc(out, v->file, v->line);
    fputs(" ", out);
    if (v->new_in_build)
        vp_html_badge(out, "bad", "new in this build: no normal run's build declares it");
    else if (v->dim == VP_RANK_DIM_SLOW_ONLY)
        vp_html_badge(out, "bad", "sampled only in the slow run");
    else
        vp_html_badge(out, v->anomalous ? "bad" : "ok",
                      v->anomalous ? "anomalous" : "as in the normal run");
    fprintf(out, " <span class=\"muted\">discount %.3f</span></h4>\n", v->discount);
    fputs("<div class=\"hists\">\n", out);
    for (int d = v->basic ? 0 : VP_RANK_DIM_PROC; d < VP_RANK_DIM_COUNT; d++) {
        struct vp_rank_dist dist;
        char err[128];
        if (vp_rank_var_dist(r->model, v, d, &dist, err, sizeof err))
            return -1;
        const struct vp_rank_dim_result *dr = &v->dims[d];
        char xlabel[300], note[200];
        if (d == VP_RANK_DIM_VALUES)
            snprintf(xlabel, sizeof xlabel, "value of %s", v->name);
        else if (d == VP_RANK_DIM_DELTAS)
            snprintf(xlabel, sizeof xlabel, "change of %s between samples", v->name);
        else
            snprintf(xlabel, sizeof xlabel, "samples in a row with one value");
        if (!dr->available)
            snprintf(note, sizeof note, "not compared: no observations on one side");
        else if (!dr->tested)
            snprintf(note, sizeof note, "A-D test not computable; default discount %.2f",
                     dr->discount);
        else if (dr->rejected)
            snprintf(note, sizeof note, "A-D p = %.3g (rejected), Hellinger %.3f, discount %.3f",
                     dr->pvalue, dr->hellinger, dr->discount);
        else
            snprintf(note, sizeof note, "A-D p = %.3g (same distribution), discount %.3f",
                     dr->pvalue, dr->discount);
        struct vp_html_hist h = {.title = vp_rank_dim_name(d),
                                 .xlabel = xlabel,
                                 .name = {"normal", "slow"},
                                 .x = {dist.normal, dist.slow},
                                 .n = {dist.n_normal, dist.n_slow},
                                 .highlight = d == v->dim,
                                 .note = note};
        int rc = vp_html_histogram(out, &h);
        vp_rank_dist_free(&dist);
        if (rc)
            return -1;
    }
    fputs("</div>\n", out);
    return 0;
}

static void var_table(FILE *out, const struct vp_rank_result *r,
                      const struct vp_rank_func_result *f)
{
    fputs("<table class=\"vars\"><thead><tr><th>variable</th><th>type</th><th>kind</th>"
          "<th>declared</th><th class=\"num\">discount</th><th>dimension</th><th>anomalous</th>"
          "<th class=\"num\">normal samples</th><th class=\"num\">slow samples</th></tr>"
          "</thead><tbody>\n",
          out);
    for (size_t i = 0; i < f->nvars; i++) {
        const struct vp_rank_var_result *v = &r->vars[f->var_idx[i]];
        fputs("<tr><td><code>", out);
        vp_html_escape(out, v->name);
        fputs("</code></td><td><code>", out);
        vp_html_escape(out, v->type);
        fputs("</code></td><td>", out);
        vp_html_escape(out, vp_rank_kind_name(v->type_kind));
        fputs("</td><td>", out);
        loc(out, v->file, v->line);
        fputs("</td>", out);
        td_num(out, "%.3f", v->discount);
        fputs("<td>", out);
        vp_html_escape(out, vp_rank_dim_name(v->dim));
        fprintf(out, "</td><td>%s</td><td class=\"num\">%llu</td><td class=\"num\">%llu</td>"
                     "</tr>\n",
                v->anomalous ? "yes" : "no", (unsigned long long)v->normal_samples,
                (unsigned long long)v->slow_samples);
    }
    fputs("</tbody></table>\n", out);
}

static void lines_table(FILE *out, const struct vp_rank_result *r,
                        const struct vp_rank_func_result *f)
{
    fprintf(out, "<p><code>");
    vp_html_escape(out, r->vars[f->loc_var].name);
    if (f->loc_dim == VP_RANK_DIM_SLOW_ONLY)
        fprintf(out, "</code> was sampled only in the slow run: %llu sample(s), at:</p>\n",
                (unsigned long long)f->outside);
    else if (f->loc_share)
        fprintf(out, "</code> stayed within its normal %s range%s; %llu slow sample(s) are where"
                     " the slow run is at least %gx as frequent as the normal run, at:</p>\n",
                vp_rank_dim_name(f->loc_dim), f->loc_stray ? " but for a few samples" : "",
                (unsigned long long)f->outside, VP_RANK_OVERREP_FACTOR);
    else
        fprintf(out, "</code> was outside its normal %s range in %llu slow sample(s), at:</p>\n",
                vp_rank_dim_name(f->loc_dim), (unsigned long long)f->outside);
    fputs("<table class=\"lines\"><thead><tr><th>line</th><th class=\"num\">samples</th>"
          "<th>enclosing loop</th></tr></thead><tbody>\n",
          out);
    for (size_t l = 0; l < f->nlines; l++) {
        fputs("<tr><td>", out);
        loc(out, f->lines[l].file, f->lines[l].line);
        fprintf(out, "</td><td class=\"num\">%llu</td><td>", (unsigned long long)f->lines[l].count);
        if (f->lines[l].loop_line)
            fprintf(out, "line %d", f->lines[l].loop_line);
        else
            fputs("&ndash;", out);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    /* The busiest line in context, when the source is at hand. */
    const struct vp_rank_line *top = &f->lines[0];
    int from = top->loop_line && top->loop_line < top->line ? top->loop_line : top->line - 3;
    if (top->line - from > 12)
        from = top->line - 12;
    vp_html_source(out, top->file, from, top->line + 3, top->line);
}

static int function_section(FILE *out, const struct vp_rank_result *r,
                            const struct vp_rank_func_result *f)
{
    char id[32], heading[600], lb[256];
    const char *pat = vp_rank_pattern_name(f->pattern);
    snprintf(id, sizeof id, "f%zu", f->rank);
    snprintf(heading, sizeof heading, "%zu. %s  (%s)%s%s", f->rank, vp_rank_func_name(f),
             vp_rank_func_loc(lb, sizeof lb, f), pat ? " \xe2\x80\x94 " : "",
             pat ? pat : "");
    vp_html_section_begin(out, id, heading, f->rank <= OPEN_MAX);
    fprintf(out, "<p>Calibrated cost <b>%.4f s</b> of raw %.4f s (discount %.3f by the %s "
                 "discounter); %llu PC samples, %llu value ticks; ranked %zu by raw cost.",
            f->calibrated_cost_ns / 1e9, f->raw_cost_ns / 1e9, f->discount,
            vp_rank_discounter_name(f->discounter), (unsigned long long)f->pc_samples,
            (unsigned long long)f->value_ticks, f->raw_rank);
    if (f->discounter == VP_RANK_DISC_HIST)
        fprintf(out, " No monitored variable: its raw-cost rank was higher in %llu of %llu "
                     "normal/slow comparisons.",
                (unsigned long long)f->hist_h, (unsigned long long)f->hist_c);
    fputs("</p>\n", out);
    if (f->loc_var >= 0 && f->nlines)
        lines_table(out, r, f);
    if (!f->nvars) {
        vp_html_section_end(out);
        return 0;
    }
    /* Plots: the anomalous variables, most anomalous (lowest discount) first;
       the deciding variable always. */
    if (r->model) {
        size_t plotted = 0;
        const struct vp_rank_var_result *dv = vp_rank_decider(r, f);
        if (dv && var_plots(out, r, dv))
            return -1;
        plotted += dv != NULL;
        for (size_t i = 0; i < f->nvars && plotted < PLOT_VARS_MAX; i++) {
            const struct vp_rank_var_result *v = &r->vars[f->var_idx[i]];
            if (v == dv || !v->anomalous)
                continue;
            if (var_plots(out, r, v))
                return -1;
            plotted++;
        }
    }
    var_table(out, r, f);
    vp_html_section_end(out);
    return 0;
}

int vp_rank_write_html(FILE *out, const struct vp_rank_result *r, size_t top)
{
    size_t nn = 0, nb = 0;
    for (size_t i = 0; i < r->ninputs; i++)
        r->inputs[i].slow ? nb++ : nn++;
    char sub[256];
    snprintf(sub, sizeof sub,
             "%zu normal vs %zu slow profile(s); DefaultDiscount %.2f, ValidDiscount %.2f, "
             "alpha %.3f",
             nn, nb, r->params.default_discount, r->params.valid_discount, r->params.alpha);
    vp_html_page_begin(out, "vprof rank", sub);
    summary(out, r);
    size_t n = vp_rank_shown(r, top);
    if (ranking(out, r, n))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (function_section(out, r, &r->funcs[i]))
            return -1;
    return vp_html_page_end(out);
}
