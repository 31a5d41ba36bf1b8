/*
 * cmd_report.c - `vprof report FILE`: the flat profile of one run.
 *
 * Like gprof's flat profile: one row per function with its self samples,
 * percentage and cumulative percentage, sorted hottest first.  Self samples
 * are weighted: a PC sample record stands for VP_PC_SAMPLE_WEIGHT(flags)
 * timer periods (more than one when the timer_create fallback overran), so
 * "self" and the percentages are CPU time; "PC samples" counts records.  Under each
 * function, the variables the schema pass chose to watch there, with their
 * value-sample counts and min / median / max read according to their type.
 * PCs are attributed with the symbol resolver; value samples go to the
 * function the variable belongs to (the variable table's function/file), so
 * a variable read in a caller frame counts for its own function.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "vprof/json.h"
#include "vprof/oneline.h"
#include "vprof/profile.h"
#include "vprof/symbols.h"

/* Statistics of one variable's value samples. */
struct var_stats {
    uint32_t var_id;
    uint64_t samples;    /* status OK                                        */
    uint64_t unreadable; /* any other status                                 */
    uint64_t *vals;      /* OK values, decoded per kind, then sorted          */
    size_t nvals, capvals;
};

/* One report row: a function (or an unresolved module / address range). */
struct row {
    const struct vp_func *func;       /* NULL if not resolved              */
    const struct vp_prof_module *mod; /* unresolved rows, and functions
                                         without source: their module    */
    char *name;
    const char *file;
    int line;
    /* a row of variables whose samples are in no function's own code (an
       inlined function): the variable table's function key and file */
    const char *var_key, *var_file;
    int inlined; /* ... and a sample's PC is in another function's code */
    uint64_t self;       /* weighted self samples: timer periods (VP_PC_SAMPLE_WEIGHT) */
    uint64_t records;    /* PC sample records (self without the weights)     */
    uint32_t *vars; /* var ids attributed here                              */
    size_t nvars;
};

struct report {
    const struct vp_profile *p;
    uint64_t total_weight; /* sum of the PC samples' weights (periods)      */
    struct vp_resolver *res;
    struct row *rows;
    size_t nrows;
    struct var_stats *vs; /* indexed by var_id                              */
    uint32_t *globals;    /* var ids of globals (function "")               */
    size_t nglobals;
};

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "vprof: out of memory\n");
        exit(1);
    }
    return q;
}

/* ---- value decoding (shared with cmd_dump.c) ---------------------------- */

uint64_t vp_cmd_decode_value(const struct vp_prof_var *v, uint64_t raw)
{
    unsigned bits = v->size >= 1 && v->size < 8 ? v->size * 8 : 64;
    if (v->type_kind == VP_TYPE_FLOAT) {
        if (v->size == 4) { /* widen the float's bit pattern to a double's */
            uint32_t b = (uint32_t)raw;
            float f;
            memcpy(&f, &b, sizeof f);
            double d = f;
            memcpy(&raw, &d, sizeof raw);
        }
        return raw;
    }
    if (bits == 64)
        return raw;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    raw &= mask;
    if (v->type_kind == VP_TYPE_SINT && (raw >> (bits - 1)) & 1)
        raw |= ~mask;
    return raw;
}

int vp_cmd_format_value(char *buf, size_t n, const struct vp_prof_var *v, uint64_t decoded)
{
    switch (v->type_kind) {
    case VP_TYPE_SINT:
        return snprintf(buf, n, "%" PRId64, (int64_t)decoded);
    case VP_TYPE_FLOAT: {
        double d;
        memcpy(&d, &decoded, sizeof d);
        return snprintf(buf, n, "%.6g", d);
    }
    case VP_TYPE_PTR_OTHER:
    case VP_TYPE_AGGREGATE:
        return snprintf(buf, n, "0x%" PRIx64, decoded);
    default:
        return snprintf(buf, n, "%" PRIu64, decoded);
    }
}

void vp_cmd_format_tags(char *buf, size_t n, unsigned tags)
{
    static const char *const names[] = {"loop", "cond", "args", "global"};
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < 4; i++)
        if (tags & (1u << i))
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s",
                                     used ? "," : "", names[i]);
    if (!used)
        snprintf(buf, n, "-");
}

const char *vp_cmd_kind_name(unsigned kind)
{
    static const char *const names[] = {"unknown", "signed", "unsigned", "float",
                                        "ptr-basic", "ptr-other", "aggregate"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

/* ---- comparisons -------------------------------------------------------- */

static const struct vp_prof_var *g_cmp_var; /* qsort has no context argument */

static int cmp_decoded(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    switch (g_cmp_var->type_kind) {
    case VP_TYPE_SINT:
        return (int64_t)x < (int64_t)y ? -1 : (int64_t)x > (int64_t)y;
    case VP_TYPE_FLOAT: {
        double dx, dy;
        memcpy(&dx, &x, sizeof dx);
        memcpy(&dy, &y, sizeof dy);
        /* NaNs sort last, in bit order, so the order is total */
        int nx = dx != dx, ny = dy != dy;
        if (nx || ny)
            return nx != ny ? nx - ny : (x > y) - (x < y);
        return dx < dy ? -1 : dx > dy;
    }
    default:
        return x < y ? -1 : x > y;
    }
}

/* ---- building the rows -------------------------------------------------- */

/* The key a PC sample is grouped by. */
struct pc_key {
    const struct vp_func *func;
    const struct vp_prof_module *mod;
    uint64_t pc;     /* the sample's PC (in the function's module)  */
    unsigned weight; /* VP_PC_SAMPLE_WEIGHT of the sample */
};

static int cmp_keys(const void *a, const void *b)
{
    const struct pc_key *x = a, *y = b;
    if (x->func != y->func)
        return (uintptr_t)x->func < (uintptr_t)y->func ? -1 : 1;
    return (uintptr_t)x->mod < (uintptr_t)y->mod ? -1 : (uintptr_t)x->mod > (uintptr_t)y->mod;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static struct row *add_row(struct report *rep)
{
    rep->rows = xrealloc(rep->rows, (rep->nrows + 1) * sizeof *rep->rows);
    struct row *r = &rep->rows[rep->nrows++];
    memset(r, 0, sizeof *r);
    r->file = "";
    return r;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "vprof: out of memory\n");
        exit(1);
    }
    return d;
}

/// Without a declaration file (symbol-table functions), names the source
/// line of the function's entry point, if the line table knows it.
static void line_of_entry(struct report *rep, struct row *r, uint64_t sample_pc)
{
    const struct vp_prof_module *m = vp_profile_module_of(rep->p, sample_pc);
    const char *file;
    int line;
    if (m && vp_resolve_line(rep->res, m->load_bias + r->func->lo, &file, &line) == 0 && file) {
        r->file = file;
        if (!r->line)
            r->line = line;
    }
}

/// The name a report shows for f (C++: qualified, demangled), malloc'ed.
static char *shown_dup(const struct vp_func *f)
{
    char buf[512];
    return xstrdup(vp_func_display(vp_func_key(f->name, f->linkage), buf, sizeof buf));
}

/// Groups PC samples by resolved function; unresolved PCs are grouped by
/// module ("[libfoo.so]") or, outside every module, as "[unknown]".
static void build_pc_rows(struct report *rep)
{
    const struct vp_profile *p = rep->p;
    if (!p->pc_count)
        return;
    struct pc_key *keys = xrealloc(NULL, p->pc_count * sizeof *keys);
    for (size_t i = 0; i < p->pc_count; i++) {
        uint64_t pc = p->pc_samples[i]->pc;
        keys[i].func = vp_resolve_func(rep->res, pc);
        keys[i].mod = keys[i].func ? NULL : vp_profile_module_of(p, pc);
        keys[i].pc = pc;
        keys[i].weight = VP_PC_SAMPLE_WEIGHT(p->pc_samples[i]->flags);
        rep->total_weight += keys[i].weight;
    }
    qsort(keys, p->pc_count, sizeof *keys, cmp_keys);
    for (size_t i = 0; i < p->pc_count;) {
        size_t j = i;
        while (j < p->pc_count && cmp_keys(&keys[i], &keys[j]) == 0)
            j++;
        struct row *r = add_row(rep);
        r->func = keys[i].func;
        r->mod = keys[i].mod;
        r->records = j - i;
        r->self = 0;
        for (size_t k = i; k < j; k++)
            r->self += keys[k].weight;
        if (r->func) {
            r->name = r->func->name ? shown_dup(r->func) : xstrdup("??");
            r->file = r->func->file ? r->func->file : "";
            r->line = r->func->line;
            if (!*r->file)
                line_of_entry(rep, r, keys[i].pc); /* not pc_samples[i]: keys are sorted */
            /* a library's function: where it is, as perf's shared-object
               column says */
            if (!*r->file)
                r->mod = vp_profile_module_of(p, keys[i].pc);
        } else {
            char buf[512];
            snprintf(buf, sizeof buf, "[%s]",
                     r->mod ? base_name(vp_profile_str(p, r->mod->path)) : "unknown");
            r->name = xstrdup(buf);
        }
        i = j;
    }
    free(keys);
}

/// True if two source file names denote the same file: equal, or one is a
/// relative name the other ends with at a '/' boundary (the schema may keep
/// DIFile's relative name while symbols give absolute paths).
static int same_file(const char *a, const char *b)
{
    if (!*a || !*b || strcmp(a, b) == 0)
        return 1;
    size_t la = strlen(a), lb = strlen(b);
    if (la > lb && a[0] == '/' && b[0] != '/')
        return strcmp(a + la - lb, b) == 0 && a[la - lb - 1] == '/';
    if (lb > la && b[0] == '/' && a[0] != '/')
        return strcmp(b + lb - la, a) == 0 && b[lb - la - 1] == '/';
    return 0;
}

static int var_matches_func(const struct vp_profile *p, const struct vp_prof_var *v,
                            const struct vp_func *f)
{
    const char *linkage = vp_profile_var_str(p, v->linkage);
    if (*linkage && f->linkage && *f->linkage)
        return strcmp(linkage, f->linkage) == 0; /* C++: two `work` in one file */
    return f->name && strcmp(vp_profile_var_str(p, v->function), f->name) == 0 &&
           same_file(vp_profile_var_str(p, v->file), f->file ? f->file : "");
}

/// Sets the declaration of inlined row `r` from the frame of its function
/// in the inline chain at `pc`; whether the chain has that frame.
static int inlined_decl(struct report *rep, struct row *r, uint64_t pc)
{
    struct vp_line_frame fr[VP_INLINE_FRAMES_MAX];
    size_t n = pc ? vp_resolve_inline_chain(rep->res, pc, fr, VP_INLINE_FRAMES_MAX) : 0;
    for (size_t k = 0; k < n; k++)
        if (fr[k].decl_line > 0 && strcmp(vp_func_key(fr[k].function, fr[k].linkage), r->var_key) == 0) {
            r->line = fr[k].decl_line;
            if (*fr[k].decl_file && same_file(fr[k].decl_file, r->var_file))
                r->file = fr[k].decl_file;
            return 1;
        }
    return 0;
}

/// The row of the function variable `id` belongs to: an existing row of that
/// function, else the function found at one of its samples' PCs, else a new
/// row named after the variable table's function and file.
static struct row *row_for_var(struct report *rep, uint32_t id, uint64_t sample_pc)
{
    const struct vp_profile *p = rep->p;
    const struct vp_prof_var *v = &p->vars[id];
    const char *key = vp_func_key(vp_profile_var_str(p, v->function),
                                  vp_profile_var_str(p, v->linkage));
    const char *vfile = vp_profile_var_str(p, v->file);
    for (size_t i = 0; i < rep->nrows; i++) {
        struct row *r = &rep->rows[i];
        if (r->func ? var_matches_func(p, v, r->func)
                    : r->var_key && strcmp(r->var_key, key) == 0 && same_file(r->var_file, vfile))
            return r;
    }
    const struct vp_func *f = sample_pc ? vp_resolve_func(rep->res, sample_pc) : NULL;
    struct row *r = add_row(rep);
    if (f && var_matches_func(p, v, f)) {
        r->func = f;
        r->name = shown_dup(f);
        r->file = f->file ? f->file : "";
        r->line = f->line;
        if (!*r->file)
            line_of_entry(rep, r, sample_pc);
    } else {
        /* code inlined into another function: named as reports name it,
           declared where the inline frame of a sample says */
        char buf[512];
        r->name = xstrdup(vp_func_display(key, buf, sizeof buf));
        r->file = vfile;
        r->var_key = key;
        r->var_file = vfile;
        /* no function at the PC: a binary not symbolized (changed since
           recording, say), not inlined code */
        r->inlined = f != NULL;
        inlined_decl(rep, r, sample_pc);
    }
    return r;
}

static void collect_values(struct report *rep)
{
    const struct vp_profile *p = rep->p;
    rep->vs = xrealloc(NULL, p->var_count * sizeof *rep->vs);
    memset(rep->vs, 0, p->var_count * sizeof *rep->vs);
    uint64_t *first_pc = xrealloc(NULL, p->var_count * sizeof *first_pc);
    memset(first_pc, 0, p->var_count * sizeof *first_pc);
    for (size_t i = 0; i < p->var_count; i++)
        rep->vs[i].var_id = (uint32_t)i;
    for (size_t i = 0; i < p->value_count; i++) {
        const struct vp_value_sample *s = &p->values[i];
        struct var_stats *st = &rep->vs[s->var_id];
        if (!first_pc[s->var_id]) /* a caller frame's is a return address */
            first_pc[s->var_id] = s->depth && s->pc ? s->pc - 1 : s->pc;
        if (s->status != VP_VAL_OK) {
            st->unreadable++;
            continue;
        }
        st->samples++;
        if (st->nvals == st->capvals) {
            st->capvals = st->capvals ? 2 * st->capvals : 16;
            st->vals = xrealloc(st->vals, st->capvals * sizeof *st->vals);
        }
        st->vals[st->nvals++] = vp_cmd_decode_value(&p->vars[s->var_id], s->value);
    }
    for (size_t i = 0; i < p->var_count; i++) {
        struct var_stats *st = &rep->vs[i];
        g_cmp_var = &p->vars[i];
        if (st->nvals)
            qsort(st->vals, st->nvals, sizeof *st->vals, cmp_decoded);
    }
    /* Attribute every variable that has samples, and every variable of a
       function that has PC samples, to its function's row. */
    size_t pc_rows = rep->nrows;
    for (uint32_t id = 0; id < p->var_count; id++) {
        const struct vp_prof_var *v = &p->vars[id];
        int sampled = rep->vs[id].samples || rep->vs[id].unreadable;
        if (!*vp_profile_var_str(p, v->function)) {
            rep->globals = xrealloc(rep->globals, (rep->nglobals + 1) * sizeof *rep->globals);
            rep->globals[rep->nglobals++] = id;
            continue;
        }
        struct row *r = NULL;
        if (sampled) {
            r = row_for_var(rep, id, first_pc[id]);
        } else {
            for (size_t i = 0; i < pc_rows && !r; i++)
                if (rep->rows[i].func && var_matches_func(p, v, rep->rows[i].func))
                    r = &rep->rows[i];
        }
        if (!r)
            continue;
        r->vars = xrealloc(r->vars, (r->nvars + 1) * sizeof *r->vars);
        r->vars[r->nvars++] = id;
    }
    free(first_pc);
    /* an inlined row whose first sample's PC was not in its function's
       inline frame (a return address past the inlined code): up to 64 more
       of its samples, in one pass over them */
    size_t *row_of = xrealloc(NULL, (p->var_count ? p->var_count : 1) * sizeof *row_of);
    unsigned *tries = xrealloc(NULL, (rep->nrows ? rep->nrows : 1) * sizeof *tries);
    size_t open = 0;
    for (size_t i = 0; i < p->var_count; i++)
        row_of[i] = SIZE_MAX;
    for (size_t i = 0; i < rep->nrows; i++) {
        struct row *r = &rep->rows[i];
        tries[i] = 0;
        if (!r->var_key || r->line)
            continue;
        open++;
        for (size_t q = 0; q < r->nvars; q++)
            row_of[r->vars[q]] = i;
    }
    for (size_t k = 0; open && k < p->value_count; k++) {
        const struct vp_value_sample *s = &p->values[k];
        size_t i = s->var_id < p->var_count ? row_of[s->var_id] : SIZE_MAX;
        if (i == SIZE_MAX || rep->rows[i].line || tries[i] >= 64)
            continue;
        tries[i]++;
        if (inlined_decl(rep, &rep->rows[i], s->depth && s->pc ? s->pc - 1 : s->pc) ||
            tries[i] == 64)
            open--;
    }
    free(row_of);
    free(tries);
}

/// One process's rows and variables, in no order (the merge sorts).
static void build_report(struct report *rep)
{
    build_pc_rows(rep);
    collect_values(rep);
}

static void free_report(struct report *rep)
{
    for (size_t i = 0; i < rep->nrows; i++) {
        free(rep->rows[i].name);
        free(rep->rows[i].vars);
    }
    free(rep->rows);
    if (rep->vs)
        for (size_t i = 0; i < rep->p->var_count; i++)
            free(rep->vs[i].vals);
    free(rep->vs);
    free(rep->globals);
}

/* ---- the processes of a recording, merged ------------------------------- */

/* A report is of a recording's process tree (docs/reports.md, "Forked
   processes"): each process's report is built as above, then rows of the
   same function and samples of the same variable are added up.  One
   process's report is the trivial merge. */

/* A variable of the merged report: described by the first process that has
   it, with the samples of all. */
struct mvar {
    const struct vp_profile *p; /* where v's strings are */
    const struct vp_prof_var *v;
    uint64_t samples, unreadable;
    uint64_t *vals; /* decoded, sorted */
    size_t nvals;
};

struct mrow {
    const char *name, *file, *module; /* module: the path, or NULL */
    int line, inlined, resolved;
    uint64_t self, records;
    size_t *vars; /* indices into merged.vars, sorted for printing */
    size_t nvars;
};

struct merged {
    const struct report *reps; /* [0]: the process the recording started */
    size_t nrep;
    struct mrow *rows;
    size_t nrows;
    struct mvar *vars;
    size_t nvars;
    size_t *globals;
    size_t nglobals;
    uint64_t total_weight, pc_count, value_count;
    struct vp_loss loss;
    int stale; /* some process's module table is a stale fork copy */
};

/* one (process, variable) or (process, row) of the merge, to sort */
struct mref {
    const struct report *rep;
    size_t idx;
};

static int strcmp0(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int cmp_var_same(const struct vp_profile *pa, const struct vp_prof_var *a,
                        const struct vp_profile *pb, const struct vp_prof_var *b)
{
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->type_kind != b->type_kind)
        return a->type_kind < b->type_kind ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    if (a->tags != b->tags)
        return a->tags < b->tags ? -1 : 1;
    int c;
    if ((c = strcmp(vp_profile_var_str(pa, a->name), vp_profile_var_str(pb, b->name))) ||
        (c = strcmp(vp_profile_var_str(pa, a->function), vp_profile_var_str(pb, b->function))) ||
        (c = strcmp(vp_profile_var_str(pa, a->linkage), vp_profile_var_str(pb, b->linkage))) ||
        (c = strcmp(vp_profile_var_str(pa, a->file), vp_profile_var_str(pb, b->file))))
        return c;
    return strcmp(vp_profile_var_str(pa, a->type), vp_profile_var_str(pb, b->type));
}

static int cmp_var_refs(const void *x, const void *y)
{
    const struct mref *a = x, *b = y;
    const struct vp_profile *pa = a->rep->p, *pb = b->rep->p;
    int c = cmp_var_same(pa, &pa->vars[a->idx], pb, &pb->vars[b->idx]);
    if (c)
        return c;
    /* the first process's description first */
    return a->rep != b->rep ? (a->rep > b->rep ? 1 : -1) : (a->idx > b->idx) - (a->idx < b->idx);
}

static const char *row_module(const struct report *rep, const struct row *r)
{
    return r->mod ? vp_profile_str(rep->p, r->mod->path) : NULL;
}

static int cmp_row_same(const struct report *ra, const struct row *a, const struct report *rb,
                        const struct row *b)
{
    int c;
    if ((c = strcmp(a->name, b->name)) || (c = strcmp(a->file, b->file)))
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->inlined != b->inlined)
        return a->inlined - b->inlined;
    return strcmp0(row_module(ra, a), row_module(rb, b));
}

static int cmp_row_refs(const void *x, const void *y)
{
    const struct mref *a = x, *b = y;
    int c = cmp_row_same(a->rep, &a->rep->rows[a->idx], b->rep, &b->rep->rows[b->idx]);
    if (c)
        return c;
    return a->rep != b->rep ? (a->rep > b->rep ? 1 : -1) : (a->idx > b->idx) - (a->idx < b->idx);
}

static int cmp_mrows(const void *a, const void *b)
{
    const struct mrow *x = a, *y = b;
    if (x->self != y->self)
        return x->self > y->self ? -1 : 1;
    int c;
    if ((c = strcmp(x->name, y->name)) || (c = strcmp(x->file, y->file)))
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return strcmp0(x->module, y->module);
}

static const struct merged *g_cmp_merged;

static int cmp_mvar_ids(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const struct mvar *vx = &g_cmp_merged->vars[x], *vy = &g_cmp_merged->vars[y];
    if (vx->v->line != vy->v->line)
        return vx->v->line < vy->v->line ? -1 : 1;
    int c = strcmp(vp_profile_var_str(vx->p, vx->v->name), vp_profile_var_str(vy->p, vy->v->name));
    if (c)
        return c;
    c = strcmp(vp_profile_var_str(vx->p, vx->v->file), vp_profile_var_str(vy->p, vy->v->file));
    return c ? c : (x > y) - (x < y);
}

/// Adds merged variable `m` to a sorted-later list, once.
static void add_mvar_ref(size_t **list, size_t *n, size_t m)
{
    for (size_t i = 0; i < *n; i++)
        if ((*list)[i] == m)
            return;
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = m;
}

/// Merges the reports of a recording's processes (reps[0] is its root).
static void merge_reports(struct merged *m, struct report *reps, size_t nrep)
{
    memset(m, 0, sizeof *m);
    m->reps = reps;
    m->nrep = nrep;
    /* variables: sorted by identity, one merged variable per run of equals */
    size_t nref = 0;
    for (size_t k = 0; k < nrep; k++)
        nref += reps[k].p->var_count;
    struct mref *refs = xrealloc(NULL, (nref ? nref : 1) * sizeof *refs);
    size_t **map = xrealloc(NULL, nrep * sizeof *map); /* (process, var id) -> merged */
    nref = 0;
    for (size_t k = 0; k < nrep; k++) {
        map[k] = xrealloc(NULL, (reps[k].p->var_count ? reps[k].p->var_count : 1) * sizeof **map);
        for (size_t i = 0; i < reps[k].p->var_count; i++)
            refs[nref++] = (struct mref){&reps[k], i};
    }
    qsort(refs, nref, sizeof *refs, cmp_var_refs);
    m->vars = xrealloc(NULL, (nref ? nref : 1) * sizeof *m->vars);
    for (size_t i = 0; i < nref;) {
        const struct vp_profile *p = refs[i].rep->p;
        struct mvar *mv = &m->vars[m->nvars];
        memset(mv, 0, sizeof *mv);
        mv->p = p;
        mv->v = &p->vars[refs[i].idx];
        size_t j = i;
        for (; j < nref && cmp_var_same(p, mv->v, refs[j].rep->p,
                                        &refs[j].rep->p->vars[refs[j].idx]) == 0; j++) {
            struct var_stats *st = &refs[j].rep->vs[refs[j].idx];
            map[refs[j].rep - reps][refs[j].idx] = m->nvars;
            mv->samples += st->samples;
            mv->unreadable += st->unreadable;
            if (!st->nvals)
                continue;
            if (!mv->vals) { /* the first process with values: its array */
                mv->vals = st->vals;
                mv->nvals = st->nvals;
                st->vals = NULL;
                st->nvals = 0;
                continue;
            }
            mv->vals = xrealloc(mv->vals, (mv->nvals + st->nvals) * sizeof *mv->vals);
            memcpy(mv->vals + mv->nvals, st->vals, st->nvals * sizeof *mv->vals);
            mv->nvals += st->nvals;
        }
        if (j - i > 1 && mv->nvals) {
            g_cmp_var = mv->v;
            qsort(mv->vals, mv->nvals, sizeof *mv->vals, cmp_decoded);
        }
        m->nvars++;
        i = j;
    }
    free(refs);
    /* rows: the same way */
    nref = 0;
    for (size_t k = 0; k < nrep; k++)
        nref += reps[k].nrows;
    refs = xrealloc(NULL, (nref ? nref : 1) * sizeof *refs);
    nref = 0;
    for (size_t k = 0; k < nrep; k++)
        for (size_t i = 0; i < reps[k].nrows; i++)
            refs[nref++] = (struct mref){&reps[k], i};
    qsort(refs, nref, sizeof *refs, cmp_row_refs);
    m->rows = xrealloc(NULL, (nref ? nref : 1) * sizeof *m->rows);
    for (size_t i = 0; i < nref;) {
        const struct report *rep = refs[i].rep;
        const struct row *first = &rep->rows[refs[i].idx];
        struct mrow *mr = &m->rows[m->nrows++];
        memset(mr, 0, sizeof *mr);
        mr->name = first->name;
        mr->file = first->file;
        mr->module = row_module(rep, first);
        mr->line = first->line;
        mr->inlined = first->inlined;
        size_t j = i;
        for (; j < nref && cmp_row_same(rep, first, refs[j].rep,
                                        &refs[j].rep->rows[refs[j].idx]) == 0; j++) {
            const struct row *r = &refs[j].rep->rows[refs[j].idx];
            size_t k = (size_t)(refs[j].rep - reps);
            mr->self += r->self;
            mr->records += r->records;
            mr->resolved |= r->func != NULL;
            for (size_t q = 0; q < r->nvars; q++)
                add_mvar_ref(&mr->vars, &mr->nvars, map[k][r->vars[q]]);
        }
        i = j;
    }
    free(refs);
    for (size_t k = 0; k < nrep; k++) {
        for (size_t q = 0; q < reps[k].nglobals; q++)
            add_mvar_ref(&m->globals, &m->nglobals, map[k][reps[k].globals[q]]);
        m->total_weight += reps[k].total_weight;
        m->pc_count += reps[k].p->pc_count;
        m->value_count += reps[k].p->value_count;
        m->loss.pc_dropped += reps[k].p->loss.pc_dropped;
        m->loss.values_dropped += reps[k].p->loss.values_dropped;
        m->loss.unwind_errors += reps[k].p->loss.unwind_errors;
        m->stale |= !!(reps[k].p->hdr.flags & VP_PROFF_MODULES_STALE);
        free(map[k]);
    }
    free(map);
    g_cmp_merged = m;
    if (m->nrows)
        qsort(m->rows, m->nrows, sizeof *m->rows, cmp_mrows);
    for (size_t i = 0; i < m->nrows; i++)
        if (m->rows[i].nvars)
            qsort(m->rows[i].vars, m->rows[i].nvars, sizeof(size_t), cmp_mvar_ids);
    if (m->nglobals)
        qsort(m->globals, m->nglobals, sizeof(size_t), cmp_mvar_ids);
}

static void free_merged(struct merged *m)
{
    for (size_t i = 0; i < m->nrows; i++)
        free(m->rows[i].vars);
    free(m->rows);
    for (size_t i = 0; i < m->nvars; i++)
        free(m->vars[i].vals);
    free(m->vars);
    free(m->globals);
}

/* ---- coverage line (shared with cmd_record.c) --------------------------- */

static const char *const reason_names[VP_COV_REASONS] = {
    "located", "no DWARF variable", "optimised out", "entry_value",
    "unsupported", "split in pieces", "too long", "thread-local",
};

const char *vp_cmd_coverage_reason(unsigned reason)
{
    return reason < VP_COV_REASONS ? reason_names[reason] : "?";
}

void vp_cmd_format_coverage(char *buf, size_t n, const struct vp_coverage *c)
{
    /* by_reason counts each variable under the first reason it lost all or
       part of its PC range (docs/locations.md), so it explains both the
       unlocated variables and the partly located ones. */
    size_t used = (size_t)snprintf(buf, n,
                                   "location coverage: %u of %u schema variables have a "
                                   "usable location",
                                   c->located, c->schema_vars);
    if (c->pc_bytes_total && used < n)
        used += (size_t)snprintf(buf + used, n - used, " (%.0f%% of their code)",
                                 100.0 * (double)c->pc_bytes_located / (double)c->pc_bytes_total);
    int first = 1;
    for (unsigned r = 1; r < VP_COV_REASONS && used < n; r++) {
        if (!c->by_reason[r])
            continue;
        used += (size_t)snprintf(buf + used, n - used, "%s %u %s",
                                 first ? "; range lost to:" : ",", c->by_reason[r],
                                 reason_names[r]);
        first = 0;
    }
}

/* ---- text output -------------------------------------------------------- */

static void print_var_text(FILE *out, const struct mvar *st)
{
    const struct vp_profile *p = st->p;
    const struct vp_prof_var *v = st->v;
    char tags[64], mn[40] = "-", md[40] = "-", mx[40] = "-";
    vp_cmd_format_tags(tags, sizeof tags, v->tags);
    if (st->nvals) {
        vp_cmd_format_value(mn, sizeof mn, v, st->vals[0]);
        vp_cmd_format_value(md, sizeof md, v, st->vals[(st->nvals - 1) / 2]);
        vp_cmd_format_value(mx, sizeof mx, v, st->vals[st->nvals - 1]);
    }
    /* line 0: made by the compiler, no declaration in the source (a
       range-for's __begin/__end/__range, a lambda's captures) */
    char line[16] = "-";
    if (v->line)
        snprintf(line, sizeof line, "%u", v->line);
    fprintf(out, "      %-16s %5s  %-16s %-18s %9" PRIu64 " %9" PRIu64 "  %12s %12s %12s\n",
            vp_profile_var_str(p, v->name), line, tags, vp_profile_var_str(p, v->type),
            st->samples, st->unreadable, mn, md, mx);
}

static void print_var_header(FILE *out)
{
    fprintf(out, "      %-16s %5s  %-16s %-18s %9s %9s  %12s %12s %12s\n", "variable", "line",
            "tags", "type", "samples", "unread", "min", "median", "max");
}

static void print_text(FILE *out, const struct merged *rep, size_t top)
{
    const struct vp_profile *p = rep->reps[0].p;
    fprintf(out, "vprof report: %s", p->path);
    if (rep->nrep > 1)
        fprintf(out, " and the %zu process%s it forked (%s.<pid>)", rep->nrep - 1,
                rep->nrep == 2 ? "" : "es", p->path);
    fprintf(out, "\npid %u", p->hdr.pid);
    for (size_t k = 1; k < rep->nrep; k++)
        fprintf(out, "%s%u", k + 1 < rep->nrep ? ", " : " and ", rep->reps[k].p->hdr.pid);
    fprintf(out, ", %" PRIu64 " PC samples, %" PRIu64 " value samples, period %.3f ms\n",
            rep->pc_count, rep->value_count, (double)p->hdr.period_ns / 1e6);
    if (rep->total_weight != rep->pc_count)
        fprintf(out, "weighted: the %" PRIu64 " PC samples stand for %" PRIu64
                     " timer periods (overruns); self = periods\n",
                rep->pc_count, rep->total_weight);
    if (p->has_coverage) {
        char cov[512];
        vp_cmd_format_coverage(cov, sizeof cov, &p->coverage);
        fprintf(out, "%s\n", cov);
    }
    const struct vp_loss *loss = &rep->loss;
    if (loss->pc_dropped || loss->values_dropped || loss->unwind_errors)
        fprintf(out,
                "lost: %" PRIu64 " PC samples, %" PRIu64 " value samples (buffers full); %" PRIu64
                " unwind errors\n",
                loss->pc_dropped, loss->values_dropped, loss->unwind_errors);
    if (rep->stale)
        fprintf(out, "modules: a fork child's table, taken before its parent loaded more "
                     "code; PCs in that code are unresolved\n");
    fprintf(out, "\n%8s %8s %9s  %-32s %s\n", "self%", "cum%", "self", "function", "source");
    double cum = 0;
    size_t n = top && top < rep->nrows ? top : rep->nrows;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    for (size_t i = 0; names && i < n; i++)
        names[i] = rep->rows[i].name;
    char **fits = names ? vp_func_fit_list(names, n, 64) : NULL;
    free(names);
    for (size_t i = 0; i < n; i++) {
        const struct mrow *r = &rep->rows[i];
        double pct = rep->total_weight ? 100.0 * (double)r->self / (double)rep->total_weight : 0;
        cum += pct;
        char src[1024] = "";
        if (*r->file && r->line)
            snprintf(src, sizeof src, "%s:%d%s", r->file, r->line, r->inlined ? " (inlined)" : "");
        else if (*r->file)
            snprintf(src, sizeof src, "%s%s", r->file, r->inlined ? " (inlined)" : "");
        else if (r->module)
            snprintf(src, sizeof src, "%s", r->module);
        vp_oneline(src); /* names from debug info may hold any byte */
        char fit[256];
        fprintf(out, "%8.2f %8.2f %9" PRIu64 "  %-32s %s\n", pct, cum, r->self,
                fits ? fits[i] : vp_func_fit(r->name, 64, fit, sizeof fit), src);
        if (r->nvars) {
            print_var_header(out);
            for (size_t k = 0; k < r->nvars; k++)
                print_var_text(out, &rep->vars[r->vars[k]]);
        }
    }
    vp_func_fit_list_free(fits, n);
    if (n < rep->nrows)
        fprintf(out, "(%zu more functions; --top 0 shows all)\n", rep->nrows - n);
    if (rep->nglobals) {
        fprintf(out, "\nglobals:\n");
        print_var_header(out);
        for (size_t k = 0; k < rep->nglobals; k++)
            print_var_text(out, &rep->vars[rep->globals[k]]);
    }
}

/* ---- JSON output -------------------------------------------------------- */

static void json_value(struct vp_json *j, const char *key, const struct vp_prof_var *v,
                       const struct mvar *st, size_t idx)
{
    vp_json_key(j, key);
    if (!st->nvals) {
        vp_json_null(j);
        return;
    }
    uint64_t x = st->vals[idx];
    if (v->type_kind == VP_TYPE_SINT) {
        vp_json_int(j, (int64_t)x);
    } else if (v->type_kind == VP_TYPE_FLOAT) {
        double d;
        memcpy(&d, &x, sizeof d);
        vp_json_double(j, d);
    } else {
        vp_json_uint(j, x);
    }
}

static void json_var(struct vp_json *j, const struct mvar *st)
{
    const struct vp_profile *p = st->p;
    const struct vp_prof_var *v = st->v;
    vp_json_begin_object(j);
    vp_json_kv_str(j, "name", vp_profile_var_str(p, v->name));
    vp_json_kv_str(j, "file", vp_profile_var_str(p, v->file));
    vp_json_kv_uint(j, "line", v->line);
    vp_json_key(j, "tags");
    vp_json_begin_array(j);
    static const char *const names[] = {"loop", "cond", "args", "global"};
    for (unsigned i = 0; i < 4; i++)
        if (v->tags & (1u << i))
            vp_json_str(j, names[i]);
    vp_json_end_array(j);
    vp_json_kv_str(j, "type", vp_profile_var_str(p, v->type));
    vp_json_kv_str(j, "type_kind", vp_cmd_kind_name(v->type_kind));
    vp_json_kv_uint(j, "samples", st->samples);
    vp_json_kv_uint(j, "unreadable", st->unreadable);
    json_value(j, "min", v, st, 0);
    json_value(j, "median", v, st, st->nvals ? (st->nvals - 1) / 2 : 0);
    json_value(j, "max", v, st, st->nvals ? st->nvals - 1 : 0);
    vp_json_end_object(j);
}

static int print_json(FILE *out, const struct merged *rep, size_t top)
{
    const struct vp_profile *p = rep->reps[0].p;
    struct vp_json *j = vp_json_new(out, 1);
    if (!j)
        return -1;
    vp_json_begin_object(j);
    vp_json_kv_str(j, "schema", "vprof-report/1");
    vp_json_kv_str(j, "profile", p->path);
    vp_json_kv_uint(j, "pid", p->hdr.pid);
    /* the recording's processes: the one it started, then those it forked */
    vp_json_key(j, "pids");
    vp_json_begin_array(j);
    for (size_t k = 0; k < rep->nrep; k++)
        vp_json_uint(j, rep->reps[k].p->hdr.pid);
    vp_json_end_array(j);
    vp_json_kv_uint(j, "period_ns", p->hdr.period_ns);
    vp_json_kv_uint(j, "pc_samples", rep->pc_count);
    vp_json_kv_uint(j, "pc_weight", rep->total_weight);
    vp_json_kv_uint(j, "value_samples", rep->value_count);
    vp_json_key(j, "coverage");
    if (p->has_coverage) {
        vp_json_begin_object(j);
        vp_json_kv_uint(j, "schema_vars", p->coverage.schema_vars);
        vp_json_kv_uint(j, "located", p->coverage.located);
        vp_json_kv_uint(j, "pc_bytes_total", p->coverage.pc_bytes_total);
        vp_json_kv_uint(j, "pc_bytes_located", p->coverage.pc_bytes_located);
        /* variables per first reason they lost all or part of their range */
        vp_json_key(j, "range_lost_by_reason");
        vp_json_begin_object(j);
        for (unsigned r = 1; r < VP_COV_REASONS; r++)
            vp_json_kv_uint(j, reason_names[r], p->coverage.by_reason[r]);
        vp_json_end_object(j);
        vp_json_end_object(j);
    } else {
        vp_json_null(j);
    }
    vp_json_key(j, "loss");
    vp_json_begin_object(j);
    vp_json_kv_uint(j, "pc_dropped", rep->loss.pc_dropped);
    vp_json_kv_uint(j, "values_dropped", rep->loss.values_dropped);
    vp_json_kv_uint(j, "unwind_errors", rep->loss.unwind_errors);
    vp_json_end_object(j);

    vp_json_key(j, "functions");
    vp_json_begin_array(j);
    double cum = 0;
    size_t n = top && top < rep->nrows ? top : rep->nrows;
    for (size_t i = 0; i < n; i++) {
        const struct mrow *r = &rep->rows[i];
        double pct = rep->total_weight ? 100.0 * (double)r->self / (double)rep->total_weight : 0;
        cum += pct;
        vp_json_begin_object(j);
        vp_json_kv_str(j, "name", r->name);
        vp_json_kv_str(j, "file", r->file);
        vp_json_kv_int(j, "line", r->line);
        vp_json_kv_str(j, "module", r->module);
        vp_json_kv_bool(j, "resolved", r->resolved);
        vp_json_kv_bool(j, "inlined", r->inlined);
        vp_json_kv_uint(j, "self_samples", r->self);     /* weighted: periods */
        vp_json_kv_uint(j, "self_records", r->records);  /* PC sample records */
        vp_json_kv_double(j, "self_percent", pct);
        vp_json_kv_double(j, "cumulative_percent", cum);
        vp_json_key(j, "variables");
        vp_json_begin_array(j);
        for (size_t k = 0; k < r->nvars; k++)
            json_var(j, &rep->vars[r->vars[k]]);
        vp_json_end_array(j);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_key(j, "globals");
    vp_json_begin_array(j);
    for (size_t k = 0; k < rep->nglobals; k++)
        json_var(j, &rep->vars[rep->globals[k]]);
    vp_json_end_array(j);
    vp_json_end_object(j);
    return vp_json_finish(j);
}

/* ---- command ------------------------------------------------------------ */

static void report_usage(FILE *out)
{
    fputs("usage: vprof report FILE [--format text|json] [--top N] [--one]\n"
          "  flat profile of one run: functions by self samples, with the values of\n"
          "  their monitored variables.  --top 0 (the default) shows every function.\n"
          "  The processes the run forked (FILE.<pid>) are added in; --one reports\n"
          "  only the process vprof record started.\n",
          out);
}

/// Parses a non-negative decimal count; returns -1 if `s` is not one.
long long vp_cmd_parse_count(const char *s)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < 0 || s[0] == '-' || s[0] == '+' || s[0] == ' ')
        return -1;
    return v;
}

int vp_cmd_warn_changed(const char *cmd, const struct vp_profile *p)
{
    int n = 0;
    for (size_t i = 0; i < p->module_count; i++) {
        const struct vp_prof_module *m = &p->modules[i];
        if (!m->indexed || m->build_id_len == 0 || m->build_id_len > sizeof m->build_id)
            continue;
        const char *path = vp_profile_str(p, m->path);
        uint8_t id[sizeof m->build_id];
        size_t len = vp_elf_build_id(path, id, sizeof id);
        if (len == m->build_id_len && memcmp(id, m->build_id, len) == 0)
            continue;
        fprintf(stderr, "vprof %s: warning: %s: %s since recording: its addresses are not "
                        "symbolized\n", cmd, path, len ? "rebuilt (another build-id)"
                                                      : "missing or unreadable");
        n++;
    }
    return n;
}

int vp_cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'},
        {"top", required_argument, NULL, 't'},
        {"one", no_argument, NULL, '1'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, one = 0;
    long long top = 0;
    optind = 1;
    opterr = 0;
    int c;
    /* GNU getopt permutes, so options may come before or after FILE. */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (strcmp(optarg, "json") == 0) {
                json = 1;
            } else if (strcmp(optarg, "text") == 0) {
                json = 0;
            } else {
                fprintf(stderr, "vprof: report: unknown format '%s' (text or json)\n", optarg);
                return 2;
            }
            break;
        case 't':
            top = vp_cmd_parse_count(optarg);
            if (top < 0) {
                fprintf(stderr, "vprof: report: --top wants a count, not '%s'\n", optarg);
                return 2;
            }
            break;
        case '1':
            one = 1;
            break;
        case 'h':
            report_usage(stdout);
            return 0;
        default:
            fprintf(stderr, "vprof: report: bad option '%s' (see vprof report --help)\n",
                    argv[optind - 1]);
            return 2;
        }
    }
    if (argc - optind > 1) {
        fprintf(stderr, "vprof: report: one profile at a time (got '%s' and '%s')\n",
                argv[optind], argv[optind + 1]);
        return 2;
    }
    const char *file = optind < argc ? argv[optind] : NULL;
    if (!file) {
        report_usage(stderr);
        return 2;
    }

    /* the recording's process tree, or with --one the process it started */
    struct vp_profile **tree = NULL;
    size_t ntree = 1;
    char err[1024];
    if (one) {
        if (!(tree = malloc(sizeof *tree))) {
            fprintf(stderr, "vprof: out of memory\n");
            return 1;
        }
        if (vp_profile_open(file, &tree[0], err, sizeof err) != 0) {
            fprintf(stderr, "vprof: %s\n", err);
            free(tree);
            return 2;
        }
    } else if (vp_profile_open_tree(file, &tree, &ntree, err, sizeof err) != 0) {
        fprintf(stderr, "vprof: %s\n", err);
        return 2;
    }
    struct report *reps = calloc(ntree, sizeof *reps);
    if (!reps) {
        fprintf(stderr, "vprof: out of memory\n");
        vp_profile_close_tree(tree, ntree);
        return 1;
    }
    int rc = 0;
    for (size_t k = 0; k < ntree && !rc; k++) {
        reps[k].p = tree[k];
        if (!(reps[k].res = vp_resolver_new(tree[k]))) {
            fprintf(stderr, "vprof: out of memory\n");
            rc = 1;
            break;
        }
        build_report(&reps[k]);
        /* the processes share a binary: a symbolizing problem is said once */
        const char *rerr = vp_resolver_error(reps[k].res);
        if (rerr && k == 0)
            fprintf(stderr, "vprof: warning: %s; its addresses are not symbolized\n", rerr);
    }
    struct merged m;
    if (!rc) {
        merge_reports(&m, reps, ntree);
        if (json ? print_json(stdout, &m, (size_t)top) != 0
                 : (print_text(stdout, &m, (size_t)top), fflush(stdout) != 0 || ferror(stdout))) {
            fprintf(stderr, "vprof: report: cannot write the report: %s\n", strerror(errno));
            rc = 1;
        } else if (!m.pc_count) {
            char other[2048];
            vp_profile_why_no_samples(tree[0], file, other, sizeof other);
            fprintf(stderr, "vprof: %s: no PC samples%s%s%s\n", file,
                    ntree > 1 ? " in it or the processes it forked" : "", *other ? "; " : "",
                    other);
            rc = 1;
        }
        free_merged(&m);
    }
    for (size_t k = 0; k < ntree; k++) {
        if (reps[k].p)
            free_report(&reps[k]);
        vp_resolver_free(reps[k].res);
    }
    free(reps);
    vp_profile_close_tree(tree, ntree);
    return rc;
}
