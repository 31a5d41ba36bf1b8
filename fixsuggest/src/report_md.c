/*
 * report_md.c - the loop report as a Markdown comment for GitHub/GitLab
 * issues: a summary line, the vprof rank table (when available), a table of
 * loops, then a collapsible <details> section per loop with the evidence and
 * the quoted source.
 */
#include <limits.h>
#include <string.h>

#include "report_internal.h"
#include "vprof/loopclass.h"

/* Text for a table cell: '|' escaped (also inside code spans, as GFM
   requires), newlines flattened. */
static void cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

/* Text outside tables and code: HTML-significant characters escaped. */
static void text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s, out);
    }
}

/* A sentence in a Markdown list item (evidence, condition, growth): outside
   `code spans` as text() and with `*`, `_` and `\` backslash-escaped, so
   that a category (0*1?, [0|1]*) or a name (operator*) does not start
   emphasis; inside them as it is, since a code span shows an entity such as
   &gt; literally (a quoted `p->next` read `p-&gt;next` before 2026-11-23). */
static void prose(FILE *out, const char *s)
{
    int code = 0;
    for (; *s; s++) {
        if (*s == '`')
            code = !code;
        if (code || *s == '`') {
            fputc(*s, out);
            continue;
        }
        if (*s == '*' || *s == '_' || *s == '\\')
            fputc('\\', out);
        char one[2] = {*s, 0};
        text(out, one);
    }
}

/* Quoted source lines first.. as a fenced block, the fence longer than
   any backtick run in them; nothing when n is 0. */
static void code_block(FILE *out, const char *const *lines, size_t n, uint32_t first)
{
    if (!n)
        return;
    size_t fence = 3;
    for (size_t k = 0; k < n; k++) {
        size_t run = 0;
        for (const char *c = lines[k]; *c; c++) {
            run = *c == '`' ? run + 1 : 0;
            if (run >= fence)
                fence = run + 1;
        }
    }
    fprintf(out, "\n");
    for (size_t k = 0; k < fence; k++)
        fputc('`', out);
    fprintf(out, "c\n");
    for (size_t k = 0; k < n; k++)
        fprintf(out, "%6u  %s\n", first + (unsigned)k, lines[k]);
    for (size_t k = 0; k < fence; k++)
        fputc('`', out);
    fprintf(out, "\n");
}

/* A system-header loop's call site: `before`, file:line, `after`. */
static void called_at(FILE *out, const struct vp_loop_report *r, const struct vp_lr_loop *l,
                      const char *before, const char *after)
{
    char crel[PATH_MAX];
    vp_lr_shown_path(r, l->call_file, crel, sizeof crel);
    fputs(before, out);
    text(out, crel);
    fprintf(out, ":%u%s", l->call_line, after);
}

/* `module`: for a function without source, the library it is in (a rank
   row), shown "[libc.so.6]"; NULL otherwise. */
static void loc(FILE *out, const struct vp_loop_report *r, const char *file, unsigned line,
                const char *module)
{
    char rel[PATH_MAX];
    vp_lr_shown_path(r, file, rel, sizeof rel);
    if (!rel[0] && !line && module) {
        fputs("`[", out);
        cell(out, module);
        fputs("]`", out);
        return;
    }
    if (!rel[0] && !line) { /* no source position: a library, a PLT stub */
        fputc('-', out);
        return;
    }
    fputc('`', out);
    cell(out, rel);
    fprintf(out, ":%u`", line);
}

static void cats(FILE *out, unsigned c)
{
    const char *names[VP_FIX_CAT_COUNT];
    size_t n;
    vp_lr_categories(c, names, &n);
    if (!n)
        fputs("none", out);
    for (size_t k = 0; k < n; k++) {
        fputs(k ? ", `" : "`", out);
        cell(out, names[k]);
        fputc('`', out);
    }
}

static void fixes(FILE *out, const struct vp_fix_result *f)
{
    if (!f->nfixes)
        fputs("-", out);
    for (size_t k = 0; k < f->nfixes; k++)
        fprintf(out, "%s%s", k ? ", " : "", vp_fix_strategy_name(f->fixes[k]));
}

/* The rank table's "probed" cell: ✓, or why the function has no loop in
   the report (blank: not among the probed). */
static const char *probed_cell(const struct vp_loop_report *r, const struct vp_lr_rank_row *w)
{
    static const char *const cell[] = {"✓", "no loop", "no loop ran", "not probed"};
    return w->selected ? cell[vp_lr_function_loops(r, w->name)] : "";
}

int vp_lr_write_md(FILE *out, const struct vp_loop_report *r)
{
    size_t flagged = 0;
    for (size_t i = 0; i < r->nloops; i++)
        if (r->loops[i].fix.categories & ~(unsigned)VP_FIX_CAT_ONE_STAR)
            flagged++;
    fprintf(out, "### vprof-loop: %zu of %zu loop%s with an inefficiency root cause", flagged,
            r->nloops, r->nloops == 1 ? "" : "s");
    if (flagged) {
        const struct vp_lr_loop *l = NULL;
        for (size_t i = 0; i < r->nloops && !l; i++)
            if (r->loops[i].fix.categories & ~(unsigned)VP_FIX_CAT_ONE_STAR)
                l = &r->loops[i];
        fprintf(out, "; top: `%s` ", l->function);
        loc(out, r, l->file, l->line, NULL);
        fprintf(out, " (");
        cats(out, l->fix.categories);
        fprintf(out, " → ");
        fixes(out, &l->fix);
        /* its share: the one flagged loop may be one the run hardly spent
           time in, below the hot loops without a root cause */
        fprintf(out, "; %.1f%% of the slow run)", l->share * 100.0);
    }
    fprintf(out, "\n\n");

    if (r->nrank) {
        fprintf(out, "**vprof rank** (functions most likely to cause the slowdown; the loops "
                     "of the top %zu were probed: ✓ where a loop was diagnosed)\n\n",
                r->top);
        fprintf(out, "| rank | function | location | calibrated cost | raw cost | pattern | probed |\n");
        fprintf(out, "|---:|---|---|---:|---:|---|:---:|\n");
        for (size_t i = 0; i < r->nrank; i++) {
            const struct vp_lr_rank_row *w = &r->rank[i];
            fprintf(out, "| %zu | `", w->rank);
            cell(out, w->name);
            fprintf(out, "` | ");
            loc(out, r, w->file, (unsigned)w->line, w->module);
            fprintf(out, " | %.3f s | %.3f s | %s | %s |\n", w->calibrated_cost, w->raw_cost,
                    w->pattern ? w->pattern : "-", probed_cell(r, w));
        }
        fprintf(out, "\n");
    }

    fprintf(out, "**Loops** of the slow run `");
    for (size_t i = 0; i < r->ncommand; i++) {
        fputs(i ? " " : "", out);
        cell(out, r->command[i]);
    }
    if (r->input) {
        fputs(" < ", out);
        cell(out, r->input);
    }
    char tot[32];
    if (r->slow_processes > 1)
        fprintf(out, "` (%u processes", r->slow_processes);
    fprintf(out, "%s, by share of its %s PC samples%s\n\n", r->slow_processes > 1 ? ")" : "`",
            vp_fix_commas(tot, sizeof tot, r->total_samples),
            r->redundancy_measured ? "" : " (redundancy not measured)");
    if (!r->nloops) {
        fprintf(out, "No loop of the probed functions ran.\n");
    } else {
        fprintf(out, "| # | function | loop | kind | share | root cause | fix | static class | "
                     "iterations per instance (slow%s) |\n",
                r->normal_counts ? " / normal" : "");
        fprintf(out, "|---:|---|---|---|---:|---|---|---|---:|\n");
    }
    for (size_t i = 0; i < r->nloops; i++) {
        const struct vp_lr_loop *l = &r->loops[i];
        char avg[32], navg[32];
        fprintf(out, "| %zu | `", i + 1);
        cell(out, l->function);
        fprintf(out, "` | ");
        loc(out, r, l->file, l->line, NULL);
        char label[32];
        fprintf(out, " | %s | %.1f%% | ", vp_lr_loop_label(l, label, sizeof label),
                l->share * 100.0);
        cats(out, l->fix.categories);
        fprintf(out, " | ");
        fixes(out, &l->fix);
        fprintf(out, " | `");
        cell(out, vp_loop_class_name(l->static_class));
        fprintf(out, "` | %s", vp_lr_avg(avg, sizeof avg, l->in.slow.avg_iterations));
        if (r->normal_counts)
            fprintf(out, " / %s",
                    l->in.normal.ran ? vp_lr_avg(navg, sizeof navg, l->in.normal.avg_iterations)
                                     : "-");
        fprintf(out, " |\n");
    }
    for (size_t i = 0; i < r->nloops; i++) {
        const struct vp_lr_loop *l = &r->loops[i];
        char rel[PATH_MAX];
        vp_lr_shown_path(r, l->file, rel, sizeof rel);
        fprintf(out, "\n<details>\n<summary>#%zu <code>", i + 1);
        text(out, l->function);
        fprintf(out, "</code> ");
        if (l->inlined_into || l->call_file) {
            fputc('(', out);
            if (l->inlined_into) {
                fprintf(out, "inlined into <code>");
                text(out, l->inlined_into);
                fprintf(out, "</code>%s", l->call_file ? ", " : "");
            }
            if (l->call_file)
                called_at(out, r, l, "called at ", "");
            fprintf(out, ") ");
        }
        text(out, rel);
        fprintf(out, ":%u: ", l->line);
        const char *names[VP_FIX_CAT_COUNT];
        size_t nn;
        vp_lr_categories(l->fix.categories, names, &nn);
        if (!nn)
            fprintf(out, "no root cause");
        for (size_t k = 0; k < nn; k++) {
            fputs(k ? ", " : "", out);
            text(out, names[k]);
        }
        fprintf(out, "</summary>\n\n");
        if (l->rank_samples) {
            char t[512];
            fprintf(out, "- **vprof rank:** ");
            prose(out, vp_lr_anomaly_text(t, sizeof t, l, "`"));
            fprintf(out, "\n");
        }
        fprintf(out, "- **Evidence:** ");
        prose(out, l->fix.evidence);
        fprintf(out, "\n- **Fix:** ");
        if (!l->fix.nfixes)
            fprintf(out, "-");
        for (size_t k = 0; k < l->fix.nfixes; k++)
            fprintf(out, "%s%s (%s)", k ? "; " : "", vp_fix_strategy_name(l->fix.fixes[k]),
                    vp_fix_strategy_description(l->fix.fixes[k]));
        fprintf(out, "\n");
        if (l->fix.condition[0]) {
            fprintf(out, "- **Condition:** ");
            prose(out, l->fix.condition);
            fprintf(out, "\n");
        }
        if (l->fix.growth[0]) {
            fprintf(out, "- **Growth:** ");
            prose(out, l->fix.growth);
            fprintf(out, "\n");
        }
        char inst[32], it[32], mx[32];
        int rec = l->kind == VP_LOOP_RECURSION;
        fprintf(out, "- **Counts (slow run):** %s %s%s, %s %s, max %s per %s; "
                     "resultless rate %.4f; static class `%s`; nesting depth %d\n",
                vp_fix_commas(inst, sizeof inst, l->in.slow.instances),
                rec ? "outermost call" : "instance", l->in.slow.instances == 1 ? "" : "s",
                vp_fix_commas(it, sizeof it, l->in.slow.iterations),
                rec ? "recursive calls" : "iterations",
                vp_fix_commas(mx, sizeof mx, l->in.slow.max_iterations),
                rec ? "outermost call" : "instance", l->resultless_rate,
                vp_loop_class_name(l->static_class), l->depth);
        for (size_t k = 0; k < l->ncopies; k++) {
            char sum[256];
            fprintf(out, "- **Compiler copy %zu of %zu** (%s): ", k + 2, l->ncopies + 1,
                    vp_lr_copy_kind(l, &l->copies[k]));
            prose(out, vp_lr_copy_summary(sum, sizeof sum, &l->copies[k]));
            fprintf(out, "\n");
        }
        code_block(out, (const char *const *)l->source, l->nsource, l->line);
        if (l->call_text) {
            called_at(out, r, l, "\nCalled at ", ":\n");
            code_block(out, (const char *const *)&l->call_text, 1, l->call_line);
        }
        fprintf(out, "\n</details>\n");
    }
    for (int unprobed = 0; unprobed < 2; unprobed++) {
        size_t n = 0;
        for (size_t i = 0; i < r->nidle; i++) {
            if (r->idle[i].unprobed != unprobed)
                continue;
            if (!n++)
                fprintf(out, "\n%s:", unprobed ? "Not probed (vprof-cc could not copy their "
                                                 "function for the probes)"
                                               : "Never ran in the slow run");
            fprintf(out, "%s `", n > 1 ? "," : "");
            cell(out, r->idle[i].function);
            fprintf(out, "` ");
            loc(out, r, r->idle[i].file, r->idle[i].line, NULL);
        }
        if (n)
            fprintf(out, "\n");
    }
    return 0;
}
