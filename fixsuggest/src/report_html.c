/*
 * report_html.c - the loop report as one self-contained HTML page, drawn
 * with vprof-core's HTML pieces (vprof/html.h; docs/reports.md): the vprof
 * rank table as raw vs calibrated cost bars, the loops by share of the slow
 * run, and per loop its verdict, root causes and fixes with the evidence,
 * counts (slow vs normal), rates and quoted source.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"
#include "vprof/html.h"
#include "vprof/loopclass.h"

/* `module`: for a function without source, the library it is in (a rank
   row), shown "[libc.so.6]"; NULL otherwise. */
static void loc(FILE *out, const struct vp_loop_report *r, const char *file, unsigned line,
                const char *module)
{
    char rel[PATH_MAX];
    vp_lr_shown_path(r, file, rel, sizeof rel);
    if (!rel[0] && !line && module) {
        fputs("<code class=\"loc\">[", out);
        vp_html_escape(out, module);
        fputs("]</code>", out);
        return;
    }
    if (!rel[0] && !line) { /* no source position: a library, a PLT stub */
        fputs("<span class=\"muted\">no debug info</span>", out);
        return;
    }
    fputs("<code class=\"loc\" title=\"", out);
    vp_html_escape(out, file);
    fputs("\">", out);
    vp_html_escape(out, rel);
    fprintf(out, ":%u</code>", line);
}

static void code(FILE *out, const char *s)
{
    fputs("<code>", out);
    vp_html_escape(out, s);
    fputs("</code>", out);
}

static void cat_badges(FILE *out, unsigned c)
{
    const char *names[VP_FIX_CAT_COUNT];
    size_t n;
    vp_lr_categories(c, names, &n);
    if (!n)
        vp_html_badge(out, "ok", "no root cause");
    for (size_t k = 0; k < n; k++) {
        fputs(k ? " " : "", out);
        vp_html_badge(out, strcmp(names[k], "1*") == 0 ? "warn" : "bad", names[k]);
    }
}

static void fix_badges(FILE *out, const struct vp_fix_result *f)
{
    if (!f->nfixes)
        fputs("&ndash;", out);
    for (size_t k = 0; k < f->nfixes; k++) {
        fputs(k ? " " : "", out);
        vp_html_badge(out, "info", vp_fix_strategy_name(f->fixes[k]));
    }
}

/* What the probes found in a probed function's loops (vp_lr_function_loops). */
static const char *const probed_note[] = {"loops diagnosed", "no loop", "no loop ran",
                                          "loops not probed"};

static int rank_section(FILE *out, const struct vp_loop_report *r)
{
    vp_html_section_begin(out, "rank", "vprof rank", 1);
    struct vp_html_bar *bars = calloc(r->nrank, sizeof *bars);
    char (*labels)[300] = calloc(r->nrank, sizeof *labels);
    if (!bars || !labels) {
        free(bars);
        free(labels);
        return -1;
    }
    for (size_t i = 0; i < r->nrank; i++) {
        snprintf(labels[i], sizeof labels[i], "%zu. %s", r->rank[i].rank, r->rank[i].name);
        bars[i].label = labels[i];
        bars[i].value[0] = r->rank[i].raw_cost;
        bars[i].value[1] = r->rank[i].calibrated_cost;
        bars[i].note = r->rank[i].selected ? probed_note[vp_lr_function_loops(r, r->rank[i].name)]
                                           : NULL;
    }
    struct vp_html_bar_chart c = {.title = "Functions most likely to cause the slowdown",
                                  .series = {"raw cost", "calibrated cost"},
                                  .unit = " s",
                                  .bars = bars,
                                  .nbars = r->nrank};
    vp_html_bar_chart(out, &c);
    free(bars);
    free(labels);
    fputs("<div class=\"tablewrap\"><table><thead><tr><th class=\"num\">rank</th>"
          "<th>function</th><th>location</th><th class=\"num\">calibrated (s)</th>"
          "<th class=\"num\">raw (s)</th><th>pattern</th><th>loops probed</th></tr></thead>"
          "<tbody>\n",
          out);
    for (size_t i = 0; i < r->nrank; i++) {
        const struct vp_lr_rank_row *w = &r->rank[i];
        fprintf(out, "<tr><td class=\"num\">%zu</td><td>", w->rank);
        code(out, w->name);
        fputs("</td><td>", out);
        loc(out, r, w->file, (unsigned)w->line, w->module);
        fprintf(out, "</td><td class=\"num\">%.3f</td><td class=\"num\">%.3f</td><td>",
                w->calibrated_cost, w->raw_cost);
        if (w->pattern)
            vp_html_badge(out, "bad", w->pattern);
        else
            fputs("&ndash;", out);
        fprintf(out, "</td><td>%s</td></tr>\n",
                w->selected ? probed_note[vp_lr_function_loops(r, w->name)] : "");
    }
    fputs("</tbody></table></div>\n", out);
    vp_html_section_end(out);
    return 0;
}

static int overview(FILE *out, const struct vp_loop_report *r)
{
    char heading[256], tot[32];
    snprintf(heading, sizeof heading, "Loops by share of the slow run's %s PC samples",
             vp_fix_commas(tot, sizeof tot, r->total_samples));
    vp_html_section_begin(out, "loops", heading, 1);
    fputs("<p>Slow run: ", out);
    fputs("<code>", out);
    for (size_t i = 0; i < r->ncommand; i++) {
        fputs(i ? " " : "", out);
        vp_html_escape(out, r->command[i]);
    }
    if (r->input) {
        fputs(" &lt; ", out);
        vp_html_escape(out, r->input);
    }
    fputs("</code>", out);
    if (r->slow_processes > 1)
        fprintf(out, " (%u processes)", r->slow_processes);
    if (!r->redundancy_measured)
        fputs(" <span class=\"muted\">(redundancy not measured)</span>", out);
    fputs("</p>\n", out);
    if (!r->nloops) {
        fputs("<p>No loop of the probed functions ran.</p>\n", out);
        vp_html_section_end(out);
        return 0;
    }
    struct vp_html_bar *bars = calloc(r->nloops, sizeof *bars);
    char (*labels)[300] = calloc(r->nloops, sizeof *labels);
    char (*hrefs)[24] = calloc(r->nloops, sizeof *hrefs);
    if (!bars || !labels || !hrefs) {
        free(bars);
        free(labels);
        free(hrefs);
        return -1;
    }
    /* Normal vs slow when the normal run was probed, else the shares. */
    int two = 0;
    for (size_t i = 0; i < r->nloops; i++)
        two |= r->normal_counts && r->loops[i].in.normal.ran;
    for (size_t i = 0; i < r->nloops; i++) {
        const struct vp_lr_loop *l = &r->loops[i];
        snprintf(labels[i], sizeof labels[i], "#%zu %s:%u", i + 1, l->function, l->line);
        snprintf(hrefs[i], sizeof hrefs[i], "#loop%zu", i + 1);
        bars[i].label = labels[i];
        bars[i].href = hrefs[i];
        bars[i].value[0] = two ? (l->in.normal.ran ? l->in.normal.avg_iterations : 0)
                               : l->share * 100.0;
        bars[i].value[1] = two ? l->in.slow.avg_iterations : 0;
    }
    struct vp_html_bar_chart c = {
        .title = two ? "Iterations per instance, normal vs slow run" : "Share of the slow run",
        .series = {two ? "normal run" : "share of samples", two ? "slow run" : NULL},
        .unit = two ? NULL : "%",
        .bars = bars,
        .nbars = r->nloops};
    vp_html_bar_chart(out, &c);
    free(bars);
    free(labels);
    free(hrefs);
    vp_html_section_end(out);
    return 0;
}

static void count_row(FILE *out, const char *what, uint64_t slow, uint64_t normal, int two,
                      int normal_ran)
{
    char a[32], b[32];
    fprintf(out, "<tr><td>%s</td><td class=\"num\">%s</td>", what,
            vp_fix_commas(a, sizeof a, slow));
    if (two)
        fprintf(out, "<td class=\"num\">%s</td>",
                normal_ran ? vp_fix_commas(b, sizeof b, normal) : "&ndash;");
    fputs("</tr>\n", out);
}

static void loop_section(FILE *out, const struct vp_loop_report *r, size_t i)
{
    const struct vp_lr_loop *l = &r->loops[i];
    char id[32], heading[512], rel[PATH_MAX];
    const char *names[VP_FIX_CAT_COUNT];
    size_t nn;
    vp_lr_shown_path(r, l->file, rel, sizeof rel);
    vp_lr_categories(l->fix.categories, names, &nn);
    snprintf(id, sizeof id, "loop%zu", i + 1);
    char fn[600], at[PATH_MAX + 32] = "";
    if (l->call_file) {
        char crel[PATH_MAX];
        vp_lr_shown_path(r, l->call_file, crel, sizeof crel);
        snprintf(at, sizeof at, "%scalled at %s:%u", l->inlined_into ? ", " : "", crel, l->call_line);
    }
    snprintf(fn, sizeof fn, "%s%s%s%s%s", l->function,
             l->inlined_into ? " (inlined into " : at[0] ? " (" : "",
             l->inlined_into ? l->inlined_into : "", at, l->inlined_into || at[0] ? ")" : "");
    snprintf(heading, sizeof heading, "#%zu %s  %s:%u \xe2\x80\x94 %s%s", i + 1, fn, rel,
             l->line, nn ? names[0] : "no root cause", nn > 1 ? ", ..." : "");
    vp_html_section_begin(out, id, heading, i < 3);

    fputs("<p>Root cause ", out);
    cat_badges(out, l->fix.categories);
    fputs(" &middot; fix ", out);
    fix_badges(out, &l->fix);
    fprintf(out, " &middot; verdict ");
    vp_html_badge(out, NULL, vp_loop_verdict_name(l->verdict));
    fputs(" &middot; ", out);
    char label[32];
    vp_html_escape(out, vp_lr_loop_label(l, label, sizeof label));
    fputs(" at ", out);
    loc(out, r, l->file, l->line, NULL);
    fprintf(out, ", %.1f%% of the slow run</p>\n", l->share * 100.0);

    if (l->rank_samples) {
        char t[512];
        fputs("<p><b>vprof rank.</b> ", out);
        vp_html_escape(out, vp_lr_anomaly_text(t, sizeof t, l, ""));
        fputs(".</p>\n", out);
    }
    fputs("<p><b>Evidence.</b> ", out);
    vp_html_escape(out, l->fix.evidence);
    fputs("</p>\n", out);
    if (l->fix.nfixes) {
        fputs("<ul>", out);
        for (size_t k = 0; k < l->fix.nfixes; k++) {
            fputs("<li><b>", out);
            vp_html_escape(out, vp_fix_strategy_name(l->fix.fixes[k]));
            fputs("</b>: ", out);
            vp_html_escape(out, vp_fix_strategy_description(l->fix.fixes[k]));
            fputs("</li>", out);
        }
        fputs("</ul>\n", out);
    }
    if (l->fix.condition[0]) {
        fputs("<p><b>Condition.</b> ", out);
        vp_html_escape(out, l->fix.condition);
        fputs("</p>\n", out);
    }
    if (l->fix.growth[0]) {
        fputs("<p><b>Growth.</b> ", out);
        vp_html_escape(out, l->fix.growth);
        fputs("</p>\n", out);
    }
    for (size_t k = 0; k < l->ncopies; k++) {
        char sum[256];
        fprintf(out, "<p><b>Compiler copy %zu of %zu</b> (%s): ", k + 2, l->ncopies + 1,
                vp_lr_copy_kind(l, &l->copies[k]));
        vp_html_escape(out, vp_lr_copy_summary(sum, sizeof sum, &l->copies[k]));
        fputs("</p>\n", out);
    }

    int two = r->normal_counts && l->in.normal.ran;
    char avg[32], navg[32];
    fputs("<div class=\"tablewrap\"><table><thead><tr><th>count</th><th class=\"num\">slow run"
          "</th>",
          out);
    if (two)
        fputs("<th class=\"num\">normal run</th>", out);
    fputs("</tr></thead><tbody>\n", out);
    count_row(out, "instances", l->in.slow.instances, l->in.normal.instances, two,
              l->in.normal.ran);
    count_row(out, "iterations", l->in.slow.iterations, l->in.normal.iterations, two,
              l->in.normal.ran);
    count_row(out, "iterations with a result", l->in.slow.result_iterations,
              l->in.normal.result_iterations, two, l->in.normal.ran);
    count_row(out, "most iterations of one instance", l->in.slow.max_iterations,
              l->in.normal.max_iterations, two, l->in.normal.ran);
    fprintf(out, "<tr><td>iterations per instance</td><td class=\"num\">%s</td>",
            vp_lr_avg(avg, sizeof avg, l->in.slow.avg_iterations));
    if (two)
        fprintf(out, "<td class=\"num\">%s</td>",
                l->in.normal.ran ? vp_lr_avg(navg, sizeof navg, l->in.normal.avg_iterations)
                                 : "&ndash;");
    fputs("</tr>\n</tbody></table></div>\n", out);

    fprintf(out, "<table><thead><tr><th>rate</th><th class=\"num\">value</th></tr></thead>"
                 "<tbody>\n<tr><td>resultless rate</td><td class=\"num\">%.4f</td></tr>\n"
                 "<tr><td>static class</td><td class=\"num\"><code>",
            l->resultless_rate);
    vp_html_escape(out, vp_loop_class_name(l->static_class));
    fprintf(out, "</code></td></tr>\n<tr><td>nesting depth</td><td class=\"num\">%d</td></tr>\n",
            l->depth);
    if (vp_fix_ci_measured(&l->in.red))
        fprintf(out, "<tr><td>cross-iteration rate (sampled / distinct iterations)</td>"
                     "<td class=\"num\">%.3f</td></tr>\n", l->in.red.cross_iteration_rate);
    else if (l->in.red.measured && l->in.red.ci_ruled_out)
        fputs("<tr><td>cross-iteration rate</td><td class=\"num\">ruled out (induction "
              "variable)</td></tr>\n", out);
    if (vp_fix_cl_measured(&l->in.red))
        fprintf(out, "<tr><td>cross-loop rate (values repeated from the previous instance)</td>"
                     "<td class=\"num\">%.3f</td></tr>\n", l->in.red.cross_loop_rate);
    fputs("</tbody></table>\n", out);
    vp_html_code(out, (const char *const *)l->source, l->nsource, (int)l->line, (int)l->line);
    if (l->call_text) {
        char crel[PATH_MAX];
        vp_lr_shown_path(r, l->call_file, crel, sizeof crel);
        fputs("<p>Called at ", out);
        vp_html_escape(out, crel);
        fprintf(out, ":%u:</p>\n", l->call_line);
        vp_html_code(out, (const char *const *)&l->call_text, 1, (int)l->call_line,
                     (int)l->call_line);
    }
    vp_html_section_end(out);
}

int vp_lr_write_html(FILE *out, const struct vp_loop_report *r)
{
    size_t flagged = 0;
    for (size_t i = 0; i < r->nloops; i++)
        if (r->loops[i].fix.categories & ~(unsigned)VP_FIX_CAT_ONE_STAR)
            flagged++;
    char sub[128];
    snprintf(sub, sizeof sub, "%zu of %zu loop%s with an inefficiency root cause", flagged,
             r->nloops, r->nloops == 1 ? "" : "s");
    vp_html_page_begin(out, "vprof-loop", sub);
    if (r->nrank && rank_section(out, r))
        return -1;
    if (overview(out, r))
        return -1;
    for (size_t i = 0; i < r->nloops; i++)
        loop_section(out, r, i);
    if (r->nidle) {
        vp_html_section_begin(out, "idle", "Selected loops that never ran", 0);
        fputs("<ul>", out);
        for (size_t i = 0; i < r->nidle; i++) {
            fputs("<li>", out);
            code(out, r->idle[i].function);
            fputs(" ", out);
            loc(out, r, r->idle[i].file, r->idle[i].line, NULL);
            if (r->idle[i].unprobed)
                fputs(" (not probed: vprof-cc could not copy its function for the probes)", out);
            fputs("</li>", out);
        }
        fputs("</ul>\n", out);
        vp_html_section_end(out);
    }
    return vp_html_page_end(out);
}
