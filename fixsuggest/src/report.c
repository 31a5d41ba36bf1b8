/*
 * report.c - the loop report's shared parts: format names, freeing, and
 * the source-relative file names every writer uses (report_internal.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_internal.h"
#include "vprof/oneline.h"

int vp_lr_format_parse(const char *s)
{
    static const char *const names[] = {"text", "json", "md", "sarif", "html"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static void free_strv(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void vp_lr_free_loops(struct vp_lr_loop *loops, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(loops[i].function);
        free(loops[i].inlined_into);
        free(loops[i].call_file);
        free(loops[i].call_text);
        free(loops[i].file);
        free((char *)loops[i].in.site_text);
        free((char *)loops[i].in.bucket_text);
        free((char *)loops[i].in.spin_text);
        free((char *)loops[i].in.constraint.text);
        free((char *)loops[i].in.red.call_callee);
        free((char *)loops[i].in.red.call_via);
        free((char *)loops[i].in.red.constant_object);
        free((char *)loops[i].in.io_callee);
        free((char *)loops[i].in.wait_callee);
        free((char *)loops[i].in.result_call_callee);
        for (size_t k = 0; k < loops[i].in.nsyscalls; k++)
            free((char *)loops[i].in.syscalls[k].callee);
        for (size_t k = 0; k < VP_FIX_HOT_LINES; k++) {
            free((char *)loops[i].in.hot[k].text);
            free((char *)loops[i].in.hot[k].callee);
            free((char *)loops[i].in.hot[k].leaf);
        }
        free(loops[i].rank_variable);
        free_strv(loops[i].source, loops[i].nsource);
        vp_lr_free_loops(loops[i].copies, loops[i].ncopies);
    }
    free(loops);
}

void vp_lr_free(struct vp_loop_report *r)
{
    free_strv(r->command, r->ncommand);
    free_strv(r->normal_command, r->nnormal_command);
    free(r->input);
    free(r->normal_input);
    free_strv(r->functions, r->nfunctions);
    for (size_t i = 0; i < r->nrank; i++) {
        free(r->rank[i].name);
        free(r->rank[i].file);
        free(r->rank[i].module);
        free(r->rank[i].pattern);
    }
    free(r->rank);
    free(r->rank_unattributed_under);
    vp_lr_free_loops(r->loops, r->nloops);
    for (size_t i = 0; i < r->nidle; i++) {
        free(r->idle[i].function);
        free(r->idle[i].inlined_into);
        free(r->idle[i].file);
    }
    free(r->idle);
    free(r->samples_from);
    free(r->source_root);
    memset(r, 0, sizeof *r);
}

/* The directory holding a ".git" entry at or above the directory of
   `file`, written to `root`; 0 if found. */
static int git_toplevel(const char *file, char *root, size_t n)
{
    char dir[PATH_MAX];
    if (strlen(file) >= sizeof dir || file[0] != '/')
        return -1;
    strcpy(dir, file);
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            return -1;
        *slash = '\0';
        char probe[PATH_MAX + 8];
        snprintf(probe, sizeof probe, "%s/.git", dir[0] ? dir : "");
        struct stat st;
        if (stat(probe, &st) == 0) {
            snprintf(root, n, "%s", dir[0] ? dir : "/");
            return 0;
        }
        if (!dir[0])
            return -1;
    }
}

int vp_lr_relpath(const struct vp_loop_report *r, const char *file, char *buf, size_t n)
{
    char root[PATH_MAX];
    int have = 0;
    if (r->source_root && r->source_root[0]) {
        snprintf(root, sizeof root, "%s", r->source_root);
        have = 1;
    } else {
        have = git_toplevel(file, root, sizeof root) == 0;
    }
    size_t rl = have ? strlen(root) : 0;
    while (rl > 1 && root[rl - 1] == '/')
        root[--rl] = '\0';
    if (have && rl && strncmp(file, root, rl) == 0 && (file[rl] == '/' || rl == 1)) {
        snprintf(buf, n, "%s", file + rl + (rl == 1 ? 0 : 1));
        return 1;
    }
    snprintf(buf, n, "%s", file);
    return 0;
}

int vp_lr_shown_path(const struct vp_loop_report *r, const char *file, char *buf, size_t n)
{
    int rel = vp_lr_relpath(r, file, buf, n);
    vp_oneline(buf);
    return rel;
}

void vp_lr_categories(unsigned cats, const char **names, size_t *n)
{
    *n = 0;
    for (int i = 0; i < VP_FIX_CAT_COUNT; i++)
        if (cats & vp_fix_category_order[i])
            names[(*n)++] = vp_fix_category_name(vp_fix_category_order[i]);
}

const char *vp_lr_kind_name(int kind)
{
    return kind == VP_LOOP_RECURSION ? "recursion" : "loop";
}

/* `function` is `selected`, or a qualified C++ name whose last component
   is `selected` (the user chose "ParseDeep": every class's one). */
static int names_function(const char *function, const char *selected)
{
    size_t n = strlen(function), k = strlen(selected);
    return strcmp(function, selected) == 0 ||
           (n > k + 2 && strcmp(function + n - k, selected) == 0 &&
            function[n - k - 1] == ':' && function[n - k - 2] == ':');
}

int vp_lr_in_function(const char *function, const char *inlined_into, const char *selected)
{
    return names_function(function, selected) ||
           (inlined_into && names_function(inlined_into, selected));
}

int vp_lr_function_loops(const struct vp_loop_report *r, const char *function)
{
    int ran = 0, idle = 0, unprobed = 0;
    for (size_t k = 0; k < r->nloops && !ran; k++)
        ran = vp_lr_in_function(r->loops[k].function, r->loops[k].inlined_into, function);
    if (ran)
        return VP_LR_FN_DIAGNOSED;
    for (size_t k = 0; k < r->nidle; k++)
        if (vp_lr_in_function(r->idle[k].function, r->idle[k].inlined_into, function))
            *(r->idle[k].unprobed ? &unprobed : &idle) = 1;
    return idle ? VP_LR_FN_NONE_RAN : unprobed ? VP_LR_FN_UNPROBED : VP_LR_FN_NO_LOOP;
}

const char *vp_lr_function_loops_name(int state)
{
    static const char *const names[] = {"diagnosed", "none", "none-ran", "not-probed"};
    return state >= 0 && state < 4 ? names[state] : "none";
}

const char *vp_lr_loop_label(const struct vp_lr_loop *l, char *buf, size_t n)
{
    if (l->kind == VP_LOOP_NATURAL && (l->flags & VP_LOOPF_TAIL_CALLS))
        return "tail-call loop";
    if (l->kind == VP_LOOP_NATURAL && (l->flags & VP_LOOPF_VECTOR))
        return "vectorized loop";
    if (l->kind == VP_LOOP_NATURAL && (l->flags & VP_LOOPF_UNROLLED)) {
        snprintf(buf, n, "loop unrolled x%u", l->in.unroll_factor);
        return buf;
    }
    return vp_lr_kind_name(l->kind);
}

int vp_lr_write(FILE *out, const struct vp_loop_report *r, int format, int color)
{
    int rc;
    switch (format) {
    case VP_LR_JSON:
        rc = vp_lr_write_json(out, r);
        break;
    case VP_LR_MD:
        rc = vp_lr_write_md(out, r);
        break;
    case VP_LR_SARIF:
        rc = vp_lr_write_sarif(out, r);
        break;
    case VP_LR_HTML:
        rc = vp_lr_write_html(out, r);
        break;
    default:
        rc = vp_lr_write_text(out, r, color);
        break;
    }
    if (fflush(out) != 0 || ferror(out))
        rc = -1;
    return rc;
}

char *vp_lr_avg(char *buf, size_t n, double avg)
{
    if (avg < 100)
        snprintf(buf, n, "%.1f", avg);
    else
        vp_fix_commas(buf, n, (uint64_t)(avg + 0.5));
    return buf;
}

const char *vp_lr_copy_kind(const struct vp_lr_loop *l, const struct vp_lr_loop *c)
{
    if (c->loop_id == l->parent_id)
        return "the outer of two loops the compiler split this source loop into";
    if (c->parent_id == l->loop_id)
        return "the inner of two loops the compiler split this source loop into";
    return "vectorizer remainder, unrolled outer loop, versioned or unswitched copy";
}

char *vp_lr_copy_summary(char *buf, size_t n, const struct vp_lr_loop *c)
{
    const char *names[VP_FIX_CAT_COUNT];
    size_t nn;
    vp_lr_categories(c->fix.categories, names, &nn);
    char inst[32], it[32];
    const char *unit = c->kind == VP_LOOP_RECURSION ? "outermost call" : "instance";
    int w = snprintf(buf, n, "%s %s%s, %s %s; root cause ",
                     vp_fix_commas(inst, sizeof inst, c->in.slow.instances), unit,
                     c->in.slow.instances == 1 ? "" : "s",
                     vp_fix_commas(it, sizeof it, c->in.slow.iterations),
                     c->kind == VP_LOOP_RECURSION ? "recursive calls" : "iterations");
    for (size_t k = 0; k < nn && w >= 0 && (size_t)w < n; k++)
        w += snprintf(buf + w, n - (size_t)w, "%s%s", k ? ", " : "", names[k]);
    if (!nn && w >= 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, "none found");
    return buf;
}

char *vp_lr_anomaly_text(char *buf, size_t n, const struct vp_lr_loop *l, const char *q)
{
    char in[32], all[32];
    vp_fix_commas(in, sizeof in, l->rank_samples);
    vp_fix_commas(all, sizeof all, l->rank_total > l->rank_samples ? l->rank_total
                                                                    : l->rank_samples);
    int var = l->rank_variable && l->rank_variable[0];
    snprintf(buf, n, "%s of the %s anomalous samples%s%s%s%s in the loops of %s%s%s fall in this "
                     "loop%s",
             in, all, var ? " of " : "", var ? q : "", var ? l->rank_variable : "", var ? q : "",
             q, l->inlined_into ? l->inlined_into : l->function, q,
             l->kind == VP_LOOP_RECURSION ? "" : " or the loops inside it");
    return buf;
}
