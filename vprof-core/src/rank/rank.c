/*
 * rank.c - cost calibration and bug-pattern inference (vProf section 5) on
 * the address-free model of vprof/rank.h.
 *
 * Steps: match functions and variables across runs by name; compute each
 * variable's discount per dimension (values, deltas, processing cost) with
 * the A-D test and the Hellinger distance; aggregate to functions (lowest
 * discount wins); hist-discounter for functions without variables; sort by
 * calibrated cost; infer patterns; localise anomalous samples to lines.
 * Everything iterates sorted arrays, so output is byte-for-byte stable.
 */
#include "vprof/rank.h"
#include "vprof/symbols.h"
#include "report_common.h"
#include "util/err.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/stats.h"

/* qsort of possibly empty arrays: an empty array here is often NULL, and
   qsort's first argument must not be (C11 7.22.5; UBSan checks it). */

/* The program's entry function: its frames hold every sample of both runs,
   and its variables are the command line (docs/rank.md, "Raw cost"). */
static int is_main(const char *name)
{
    return name && strcmp(name, "main") == 0;
}

static void qsort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}


void vp_rank_params_default(struct vp_rank_params *p)
{
    p->default_discount = 0.8;
    p->valid_discount = 0.1;
    p->alpha = 0.05;
    p->hellinger_bins = VP_STATS_HELLINGER_BINS;
    p->max_lines = 10;
}

const char *vp_rank_dim_name(int dim)
{
    switch (dim) {
    case VP_RANK_DIM_VALUES: return "values";
    case VP_RANK_DIM_DELTAS: return "deltas";
    case VP_RANK_DIM_PROC: return "processing-cost";
    case VP_RANK_DIM_SLOW_ONLY: return "slow-only";
    default: return "none";
    }
}

const char *vp_rank_pattern_name(int pat)
{
    switch (pat) {
    case VP_RANK_PAT_MISSING_CONSTRAINT: return "missing-constraint";
    case VP_RANK_PAT_SCALABILITY: return "scalability";
    case VP_RANK_PAT_WRONG_CONSTRAINT: return "wrong-constraint";
    default: return NULL;
    }
}

const char *vp_rank_discounter_name(int d)
{
    switch (d) {
    case VP_RANK_DISC_VARIABLE: return "variable";
    case VP_RANK_DISC_HIST: return "hist";
    default: return "none";
    }
}

/* ---- name matching ------------------------------------------------------ */

/* A run's functions sorted by (name, file), for lookups in O(log n): with
 * 20,000 sampled functions the linear lookups took 8 s (2026-11-24). */
struct fref {
    const char *name, *file;  /* file rebased for slow runs (slow_file)     */
    size_t run;
    long idx;                 /* in the run's funcs                          */
};

static int cmp_fref(const void *pa, const void *pb)
{
    const struct fref *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if ((c = strcmp(a->file, b->file)))
        return c;
    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The first of `n` elements of `size` bytes, sorted by the name each one
 * starts with (struct fref, struct sfunc), that is named `name`; n if none. */
static size_t first_named(const void *base, size_t n, size_t size, const char *name)
{
    const char *p = base;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(*(const char *const *)(p + mid * size), name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && strcmp(*(const char *const *)(p + lo * size), name) == 0 ? lo : n;
}

static size_t fref_first(const struct fref *ix, size_t n, const char *name)
{
    return first_named(ix, n, sizeof *ix, name);
}

/* Function lookup in one run's index: exact (name, file); else the unique
 * function with the same name and file base name (another checkout or build
 * dir); else the unique function with that name.  Returns index or -1. */
static long find_func(const struct fref *ix, size_t n, const char *name, const char *file)
{
    long base = -1, byname = -1;
    int nbase = 0, nname = 0;
    const char *byname_file = "";
    for (size_t k = fref_first(ix, n, name); k < n && strcmp(ix[k].name, name) == 0; k++) {
        if (strcmp(ix[k].file, file) == 0)
            return ix[k].idx;
        nname++;
        byname = ix[k].idx;
        byname_file = ix[k].file;
        if (strcmp(vp_rank_base_name(ix[k].file), vp_rank_base_name(file)) == 0) {
            nbase++;
            base = ix[k].idx;
        }
    }
    if (nbase == 1)
        return base;
    if (nname == 1 && (file[0] == 0 || byname_file[0] == 0 || nbase == 0))
        return byname;
    return -1;
}

/* The variable key (function, file, name, line), with the files given apart
 * (a slow run's file rebased: slow_file). */
static int var_key_cmp_files(const struct vp_rank_var *a, const char *afile,
                             const struct vp_rank_var *b, const char *bfile)
{
    int c = strcmp(a->function, b->function);
    if (c)
        return c;
    if ((c = strcmp(afile, bfile)))
        return c;
    if ((c = strcmp(a->name, b->name)))
        return c;
    return (a->line > b->line) - (a->line < b->line);
}

static int var_key_cmp(const struct vp_rank_var *a, const struct vp_rank_var *b)
{
    return var_key_cmp_files(a, a->file, b, b->file);
}

/* A run's variables ordered by (function, name, file, line): find_var's
 * index, so that matching every slow variable is not a scan of every normal
 * one (20,000 functions with a variable each: 1.5 s, 2026-11-24). */
static int cmp_var_fn_name(const void *pa, const void *pb)
{
    const struct vp_rank_var *a = *(const struct vp_rank_var *const *)pa;
    const struct vp_rank_var *b = *(const struct vp_rank_var *const *)pb;
    int c = strcmp(a->function, b->function);
    if (c)
        return c;
    if ((c = strcmp(a->name, b->name)))
        return c;
    return var_key_cmp(a, b);
}

/* NULL when out of memory. */
static const struct vp_rank_var **index_vars(const struct vp_rank_run *r)
{
    const struct vp_rank_var **ix = malloc((r->nvars ? r->nvars : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t i = 0; i < r->nvars; i++)
        ix[i] = &r->vars[i];
    qsort_n(ix, r->nvars, sizeof *ix, cmp_var_fn_name);
    return ix;
}

/* Variable lookup in a normal run: exact (function, file, name, line); else
 * the unique variable with the same function, file base name and name (the
 * declaration moved between versions).  Through `ix` (index_vars) when
 * given, else by a scan.  Returns index or -1. */
static long find_var(const struct vp_rank_run *r, const struct vp_rank_var *const *ix,
                     const struct vp_rank_var *v)
{
    size_t k = 0;
    if (ix) { /* the first with v's (function, name) */
        size_t hi = r->nvars;
        while (k < hi) {
            size_t mid = k + (hi - k) / 2;
            int c = strcmp(ix[mid]->function, v->function);
            if (c == 0)
                c = strcmp(ix[mid]->name, v->name);
            if (c < 0)
                k = mid + 1;
            else
                hi = mid;
        }
    }
    long relaxed = -1;
    int nrelaxed = 0;
    for (; k < r->nvars; k++) {
        const struct vp_rank_var *w = ix ? ix[k] : &r->vars[k];
        int same = strcmp(w->function, v->function) == 0 && strcmp(w->name, v->name) == 0;
        if (ix && !same)
            break; /* past the range */
        if (var_key_cmp(w, v) == 0)
            return (long)(w - r->vars);
        if (same && strcmp(vp_rank_base_name(w->file), vp_rank_base_name(v->file)) == 0) {
            nrelaxed++;
            relaxed = (long)(w - r->vars);
        }
    }
    return nrelaxed == 1 ? relaxed : -1;
}

/* ---- per-variable dimensions ------------------------------------------- */

static int basic_kind(int kind)
{
    return kind == VP_TYPE_SINT || kind == VP_TYPE_UINT || kind == VP_TYPE_FLOAT ||
           kind == VP_TYPE_PTR_BASIC;
}

static double as_double(const struct vp_rank_var *v, uint64_t bits)
{
    if (v->type_kind == VP_TYPE_FLOAT) {
        if (v->size == 4) {
            float f;
            uint32_t b = (uint32_t)bits;
            memcpy(&f, &b, sizeof f);
            return f;
        }
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    return 0; /* unused for integers */
}

/* Order key of a value; 0 returned through *ok = 0 for NaN. */
static uint64_t value_key(const struct vp_rank_var *v, uint64_t bits, int *ok)
{
    *ok = 1;
    switch (v->type_kind) {
    case VP_TYPE_SINT: return vp_stats_key_int64((int64_t)bits);
    case VP_TYPE_FLOAT: {
        double d = as_double(v, bits);
        if (isnan(d)) {
            *ok = 0;
            return 0;
        }
        return vp_stats_key_double(d);
    }
    default: return bits; /* UINT, PTR_BASIC (pointee read zero-extended) */
    }
}

/* Order key of the change from a to b: exact for integers (saturated to
 * int64), IEEE difference for floats. */
static uint64_t delta_key(const struct vp_rank_var *v, uint64_t a, uint64_t b, int *ok)
{
    *ok = 1;
    if (v->type_kind == VP_TYPE_FLOAT) {
        double d = as_double(v, b) - as_double(v, a);
        if (isnan(d)) {
            *ok = 0;
            return 0;
        }
        return vp_stats_key_double(d);
    }
    __int128 d = v->type_kind == VP_TYPE_SINT ? (__int128)(int64_t)b - (__int128)(int64_t)a
                                              : (__int128)b - (__int128)a;
    if (d > INT64_MAX)
        d = INT64_MAX;
    if (d < INT64_MIN)
        d = INT64_MIN;
    return vp_stats_key_int64((int64_t)d);
}

/* Visit the observations of dimension `dim` of one variable.  The callback
 * gets the order key and the index range [first, last] of the samples that
 * produced it (a value: one sample; a delta: the pair; a run: the run). */
typedef void (*obs_fn)(void *ctx, uint64_t key, size_t first, size_t last);

static void for_each_obs(const struct vp_rank_var *v, int dim, obs_fn fn, void *ctx)
{
    for (size_t s = 0; s < v->nseg; s++) {
        size_t lo = v->seg_start[s], hi = v->seg_start[s + 1];
        int ok;
        if (dim == VP_RANK_DIM_VALUES) {
            for (size_t i = lo; i < hi; i++) {
                uint64_t k = value_key(v, v->values[i], &ok);
                if (ok)
                    fn(ctx, k, i, i);
            }
        } else if (dim == VP_RANK_DIM_DELTAS) {
            for (size_t i = lo + 1; i < hi; i++) {
                uint64_t k = delta_key(v, v->values[i - 1], v->values[i], &ok);
                if (ok)
                    fn(ctx, k, i - 1, i);
            }
        } else {
            size_t start = lo;
            for (size_t i = lo + 1; i <= hi; i++)
                if (i == hi || v->values[i] != v->values[start]) {
                    fn(ctx, (uint64_t)(i - start), start, i - 1);
                    start = i;
                }
        }
    }
}

struct key_buf {
    uint64_t *k;
    size_t n, cap;
    int oom;
};

static void push_key(void *ctx, uint64_t key, size_t first, size_t last)
{
    (void)first;
    (void)last;
    struct key_buf *b = ctx;
    if (b->oom)
        return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        uint64_t *k = realloc(b->k, cap * sizeof *k);
        if (!k) {
            b->oom = 1;
            return;
        }
        b->k = k;
        b->cap = cap;
    }
    b->k[b->n++] = key;
}

/* A slow run's source path and the first slow run's path for the same file
 * (another checkout or build directory): "Several slow runs" in
 * docs/rank.md. */
struct file_alias {
    const char *from, *to;
};
struct aliases {
    struct file_alias **a;    /* per run, sorted by `from`; NULL: none       */
    size_t *n;
};

/* The path the first slow run has for `file` of slow run `run`, or `file`. */
static const char *slow_file(const struct aliases *al, size_t run, const char *file)
{
    if (!al || !al->a || !al->a[run])
        return file;
    const struct file_alias *a = al->a[run];
    size_t lo = 0, hi = al->n[run];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(a[mid].from, file);
        if (c == 0)
            return a[mid].to;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return file;
}

/* The variables of one key across runs. */
struct var_group {
    const char *file;         /* the slow variables' file, rebased          */
    const struct aliases *al; /* the slow runs' rebased paths               */
    const struct vp_rank_var **slow, **normal;
    size_t nslow, nnormal;
    size_t *slow_run;         /* run index of each slow var, for symbolizing */
};

static int collect(const struct vp_rank_var *const *vars, size_t n, int dim, struct key_buf *b)
{
    b->n = 0;
    for (size_t i = 0; i < n; i++)
        for_each_obs(vars[i], dim, push_key, b);
    if (b->oom)
        return -1;
    uint64_t *tmp = malloc((b->n ? b->n : 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    vp_stats_sort_keys(b->k, tmp, b->n);
    free(tmp);
    return 0;
}

/* The median of sorted keys (upper); for run lengths (`by_sample`) the
 * length of the run the median *sample* is in, so that one run covering most
 * of a profile counts for what it covers, not as one observation. */
static uint64_t median_key(const uint64_t *k, size_t n, int by_sample)
{
    if (!by_sample)
        return k[n / 2];
    uint64_t total = 0, seen = 0;
    for (size_t i = 0; i < n; i++)
        total += k[i];
    for (size_t i = 0; i < n; i++) {
        seen += k[i];
        if (2 * seen >= total)
            return k[i];
    }
    return k[n - 1];
}

/* Whether the variable never changes within any segment of any of these
 * profiles: its only runs are the segments themselves. */
static int constant_segments(const struct vp_rank_var *const *vars, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct vp_rank_var *v = vars[i];
        for (size_t s = 0; s < v->nseg; s++)
            for (size_t k = v->seg_start[s] + 1; k < v->seg_start[s + 1]; k++)
                if (v->values[k] != v->values[v->seg_start[s]])
                    return 0;
    }
    return 1;
}

static int test_dim(const struct var_group *g, int dim, const struct vp_rank_params *p,
                    struct vp_rank_dim_result *d)
{
    struct key_buf nb = {0}, sb = {0};
    memset(d, 0, sizeof *d);
    if (collect(g->normal, g->nnormal, dim, &nb) || collect(g->slow, g->nslow, dim, &sb)) {
        free(nb.k);
        free(sb.k);
        return -1;
    }
    d->n_normal = nb.n;
    d->n_slow = sb.n;
    if (nb.n && sb.n) {
        d->available = 1;
        d->normal_lo = nb.k[0];
        d->normal_hi = nb.k[nb.n - 1];
        d->normal_median = median_key(nb.k, nb.n, dim == VP_RANK_DIM_PROC);
        d->slow_median = median_key(sb.k, sb.n, dim == VP_RANK_DIM_PROC);
        size_t outside = 0;
        for (size_t i = 0; i < sb.n; i++)
            outside += sb.k[i] < d->normal_lo || sb.k[i] > d->normal_hi;
        d->slow_outside = (double)outside / (double)sb.n;
        const uint64_t *s[2] = {nb.k, sb.k};
        size_t n[2] = {nb.n, sb.n};
        struct vp_stats_ad ad;
        /* Not computable (fewer than 4 observations, or one value in both
           runs): the test cannot reject, so the default applies.  Nor when
           the variable stays the same through every normal profile: its
           normal run lengths are then the profiles' lengths, which bound
           how long it stays from below and say nothing more, and a slow
           profile is longer by definition (docs/rank.md, "Runs that are
           whole profiles"). */
        int whole = dim == VP_RANK_DIM_PROC && constant_segments(g->normal, g->nnormal);
        if (!whole && vp_stats_anderson_ksamp_keys(s, n, 2, &ad, NULL, 0) == 0) {
            d->tested = 1;
            d->statistic = ad.statistic;
            d->pvalue = ad.pvalue;
            d->rejected = ad.pvalue < p->alpha;
        }
        if (d->rejected) {
            d->hellinger = vp_stats_hellinger_keys(nb.k, nb.n, sb.k, sb.n, p->hellinger_bins);
            d->discount = 1.0 - d->hellinger;
            if (d->discount < p->valid_discount)
                d->discount = 0;
        } else {
            d->discount = p->default_discount;
        }
    }
    free(nb.k);
    free(sb.k);
    return 0;
}

/* 1 when `v` (sampled only in the slow runs) is declared by no normal
 * run's build while some normal run lists what its build declares: new code
 * of another version.  0 otherwise, -1 out of memory. */
static int new_in_build(const struct vp_rank_model *m, const struct vp_rank_var *v)
{
    int known = 0;
    for (size_t r = 0; r < m->nruns; r++) {
        const struct vp_rank_run *run = &m->runs[r];
        if (run->slow || run->ndeclared == 0)
            continue;
        known = 1;
        int d = vp_rank_run_declares(run, v->function, v->name, v->file);
        if (d != 0)
            return d < 0 ? -1 : 0;
    }
    return known;
}

static int analyse_var(const struct vp_rank_model *m, const struct var_group *g,
                       const struct vp_rank_params *p, struct vp_rank_var_result *vr)
{
    const struct vp_rank_var *v = g->slow[0];
    memset(vr, 0, sizeof *vr);
    vr->function = v->function;
    vr->file = g->file;
    vr->name = v->name;
    vr->type = v->type;
    vr->line = v->line;
    vr->tags = v->tags;
    vr->type_kind = v->type_kind;
    vr->global = v->function[0] == 0;
    vr->basic = basic_kind(v->type_kind);
    for (size_t i = 0; i < g->nslow; i++) {
        vr->slow_samples += g->slow[i]->count;
        vr->slow_unreadable += g->slow[i]->unreadable;
    }
    for (size_t i = 0; i < g->nnormal; i++) {
        vr->normal_samples += g->normal[i]->count;
        vr->normal_unreadable += g->normal[i]->unreadable;
    }
    vr->dim = VP_RANK_DIM_NONE;
    vr->discount = -1;
    if (vr->normal_samples + vr->normal_unreadable == 0) {
        /* Never sampled in a normal run: anomalous by definition. */
        vr->discount = 0;
        vr->dim = VP_RANK_DIM_SLOW_ONLY;
        vr->anomalous = 1;
        int nb = new_in_build(m, v);
        if (nb < 0)
            return -1;
        vr->new_in_build = nb;
        return 0;
    }
    /* Lowest discount over the dimensions that apply; ties keep the first
       in the order values, deltas, processing cost. */
    for (int dim = vr->basic ? 0 : VP_RANK_DIM_PROC; dim < VP_RANK_DIM_COUNT; dim++) {
        if (test_dim(g, dim, p, &vr->dims[dim]))
            return -1;
        const struct vp_rank_dim_result *d = &vr->dims[dim];
        if (d->available && (vr->discount < 0 || d->discount < vr->discount)) {
            vr->discount = d->discount;
            vr->dim = dim;
            vr->anomalous = d->rejected;
        }
    }
    return 0;
}

/* ---- functions ---------------------------------------------------------- */

struct sfunc {                /* a function of the slow run(s)               */
    const char *name, *file, *module;
    int line;
    long *in_run;             /* index in each run, -1 if absent             */
};
_Static_assert(offsetof(struct sfunc, name) == 0 && offsetof(struct fref, name) == 0,
               "first_named reads the name an element starts with");

static double run_cost(const struct vp_rank_run *r, const struct vp_rank_func *f)
{
    uint64_t n = f->pc_samples > f->value_ticks ? f->pc_samples : f->value_ticks;
    return (double)n * (double)r->period_ns;
}

static int cmp_double_desc(double a, double b)
{
    return (a < b) - (a > b);
}

struct cost_at {
    double cost;
    size_t idx;
};

static int cmp_cost_at(const void *pa, const void *pb)
{
    const struct cost_at *a = pa, *b = pb;
    int c = cmp_double_desc(a->cost, b->cost);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* Competition ("1224") rank of each function of a run by raw cost: one
 * more than the number of functions that cost strictly more. */
static size_t *run_ranks(const struct vp_rank_run *r)
{
    size_t *rank = malloc((r->nfuncs ? r->nfuncs : 1) * sizeof *rank);
    struct cost_at *by = malloc((r->nfuncs ? r->nfuncs : 1) * sizeof *by);
    if (!rank || !by) {
        free(rank);
        free(by);
        return NULL;
    }
    for (size_t i = 0; i < r->nfuncs; i++)
        by[i] = (struct cost_at){run_cost(r, &r->funcs[i]), i};
    qsort_n(by, r->nfuncs, sizeof *by, cmp_cost_at);
    for (size_t p = 0, first = 0; p < r->nfuncs; p++) {
        if (p > 0 && by[p].cost != by[p - 1].cost)
            first = p;
        rank[by[p].idx] = first + 1;
    }
    free(by);
    return rank;
}

/* ---- sorting helpers (qsort with full tie-breaks = deterministic) ------- */

static const struct vp_rank_result *g_sort_result; /* qsort has no context arg */

/* The final tie-break of every function order: name, file, line. */
static int cmp_func_key(const struct vp_rank_func_result *a, const struct vp_rank_func_result *b)
{
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if ((c = strcmp(a->file, b->file)))
        return c;
    return (a->line > b->line) - (a->line < b->line);
}

static int cmp_func_result(const void *pa, const void *pb)
{
    const struct vp_rank_func_result *a = pa, *b = pb;
    int c = cmp_double_desc(a->calibrated_cost_ns, b->calibrated_cost_ns);
    if (c)
        return c;
    if ((c = cmp_double_desc(a->raw_cost_ns, b->raw_cost_ns)))
        return c;
    return cmp_func_key(a, b);
}

static int cmp_func_raw(const void *pa, const void *pb)
{
    const struct vp_rank_func_result *a = *(const struct vp_rank_func_result *const *)pa;
    const struct vp_rank_func_result *b = *(const struct vp_rank_func_result *const *)pb;
    int c = cmp_double_desc(a->raw_cost_ns, b->raw_cost_ns);
    return c ? c : cmp_func_key(a, b);
}

/* Most anomalous first: lower discount, anomalous before not, lower p-value
 * of the deciding dimension, then the key. */
static int cmp_var_anomaly(const void *pa, const void *pb)
{
    const struct vp_rank_var_result *a = &g_sort_result->vars[*(const size_t *)pa];
    const struct vp_rank_var_result *b = &g_sort_result->vars[*(const size_t *)pb];
    if (a->discount != b->discount)
        return a->discount < b->discount ? -1 : 1;
    if (a->anomalous != b->anomalous)
        return b->anomalous - a->anomalous;
    double pa_ = a->dim < VP_RANK_DIM_COUNT ? a->dims[a->dim].pvalue : 0;
    double pb_ = b->dim < VP_RANK_DIM_COUNT ? b->dims[b->dim].pvalue : 0;
    if (pa_ != pb_)
        return pa_ < pb_ ? -1 : 1;
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    return (ia > ib) - (ia < ib); /* vars[] is sorted by key */
}

static int cmp_sfunc(const void *pa, const void *pb)
{
    const struct sfunc *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if ((c = strcmp(a->file, b->file)))
        return c;
    return (a->line > b->line) - (a->line < b->line);
}

/* ---- localisation -------------------------------------------------------- */

struct outside_ctx {
    const struct vp_rank_var *v;
    const struct vp_rank_dim_result *d;
    int all;                  /* slow-only: every sample is outside          */
    int dim;
    const uint64_t *over;     /* share rule: [lo, hi] key ranges, else NULL  */
    size_t nover;
    uint64_t *pcs;
    size_t n, cap;
    int oom;
};

/* Is the key in one of the (ascending, disjoint) over-represented ranges? */
static int in_ranges(const uint64_t *r, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key > r[2 * mid + 1])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && key >= r[2 * lo];
}

static void push_outside(void *ctx, uint64_t key, size_t first, size_t last)
{
    struct outside_ctx *o = ctx;
    if (o->oom)
        return;
    if (o->over ? !in_ranges(o->over, o->nover, key)
                : !o->all && key >= o->d->normal_lo && key <= o->d->normal_hi)
        return;
    /* A delta is charged to the sample that ends it; a run to all its samples. */
    size_t from = o->dim == VP_RANK_DIM_DELTAS ? last : first;
    for (size_t i = from; i <= last; i++) {
        if (o->n == o->cap) {
            size_t cap = o->cap ? o->cap * 2 : 256;
            uint64_t *p = realloc(o->pcs, cap * sizeof *p);
            if (!p) {
                o->oom = 1;
                return;
            }
            o->pcs = p;
            o->cap = cap;
        }
        o->pcs[o->n++] = o->v->pcs[i];
    }
}

static int cmp_line(const void *pa, const void *pb)
{
    const struct vp_rank_line *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    return (a->line > b->line) - (a->line < b->line);
}

static int cmp_line_count(const void *pa, const void *pb)
{
    const struct vp_rank_line *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return cmp_line(pa, pb);
}

/* Lines of the localised samples, as they are found (not yet merged). */
struct line_acc {
    struct vp_rank_line *lines;
    size_t n, cap;
    uint64_t outside;
};

/* Adds the lines of the slow samples of `g` that are outside the normal
 * range in `dim` (all of them for slow-only), or, with `over`, those whose
 * key is in one of the nover over-represented ranges.  -1 out of memory. */
static int collect_lines(const struct vp_rank_model *m, const struct var_group *g,
                         const struct vp_rank_var_result *vr, int dim, const char *func_name,
                         const uint64_t *over, size_t nover, struct line_acc *acc)
{
    for (size_t i = 0; i < g->nslow; i++) {
        const struct vp_rank_var *v = g->slow[i];
        const struct vp_rank_run *run = &m->runs[g->slow_run[i]];
        if (!v->pcs || !run->sym.line)
            continue;
        struct outside_ctx o = {.v = v, .all = dim == VP_RANK_DIM_SLOW_ONLY, .over = over,
                                .nover = nover};
        o.dim = o.all ? VP_RANK_DIM_VALUES : dim;
        if (!o.all)
            o.d = &vr->dims[dim];
        for_each_obs(v, o.dim, push_outside, &o);
        if (o.oom) {
            free(o.pcs);
            return -1;
        }
        /* Sort PCs so each distinct PC is symbolized once. */
        uint64_t *tmp = malloc((o.n ? o.n : 1) * sizeof *tmp);
        if (!tmp) {
            free(o.pcs);
            return -1;
        }
        vp_stats_sort_keys(o.pcs, tmp, o.n);
        free(tmp);
        for (size_t a = 0; a < o.n;) {
            size_t b = a;
            while (b < o.n && o.pcs[b] == o.pcs[a])
                b++;
            const char *file = NULL, *func = NULL;
            int line = 0, loop_line = 0;
            if (run->sym.line(run->sym.ctx, o.pcs[a], func_name, &file, &line, &func,
                              &loop_line) == 0 &&
                (!vr->global || !func || strcmp(func, func_name) == 0)) {
                if (acc->n == acc->cap) {
                    size_t cap = acc->cap ? acc->cap * 2 : 16;
                    struct vp_rank_line *nl = realloc(acc->lines, cap * sizeof *nl);
                    if (!nl) {
                        free(o.pcs);
                        return -1;
                    }
                    acc->lines = nl;
                    acc->cap = cap;
                }
                struct vp_rank_line *l = &acc->lines[acc->n];
                l->file = strdup(file ? slow_file(g->al, g->slow_run[i], file) : "");
                l->line = line;
                l->loop_line = loop_line;
                l->count = b - a;
                if (!l->file) {
                    free(o.pcs);
                    return -1;
                }
                acc->n++;
                acc->outside += b - a;
            }
            a = b;
        }
        free(o.pcs);
    }
    return 0;
}

/* The key ranges of `dim` where the slow runs' share is VP_RANK_OVERREP_FACTOR
 * times the normal runs' (the keys are collected again: only a localised
 * function's deciding variable needs them). */
static int overrep_ranges(const struct var_group *g, int dim, const struct vp_rank_params *p,
                          uint64_t **over, size_t *nover)
{
    struct key_buf nb = {0}, sb = {0};
    *over = NULL;
    *nover = 0;
    int bad = collect(g->normal, g->nnormal, dim, &nb) || collect(g->slow, g->nslow, dim, &sb) ||
              vp_stats_overrep_keys(nb.k, nb.n, sb.k, sb.n, p->hellinger_bins,
                                    VP_RANK_OVERREP_FACTOR, over, nover);
    free(nb.k);
    free(sb.k);
    return bad ? -1 : 0;
}

static int localise(const struct vp_rank_model *m, const struct var_group *g,
                    const struct vp_rank_var_result *vr, int dim, const char *func_name,
                    const struct vp_rank_params *p, struct vp_rank_func_result *fr)
{
    struct line_acc acc = {0};
    fr->loc_share = 0;
    fr->loc_stray = 0;
    int rc = collect_lines(m, g, vr, dim, func_name, NULL, 0, &acc);
    /* Nothing (or next to nothing) outside the normal range of a rejected
       dimension (it spans the slow run's values, e.g. a few stray deltas of
       0): where the slow run's share is VP_RANK_OVERREP_FACTOR times the
       normal run's (docs/rank.md). */
    if (rc == 0 && dim != VP_RANK_DIM_SLOW_ONLY && vr->dims[dim].rejected &&
        (double)acc.outside < VP_RANK_FEW_OUTSIDE * (double)vr->dims[dim].n_slow) {
        uint64_t *over;
        size_t nover;
        rc = overrep_ranges(g, dim, p, &over, &nover);
        if (rc == 0 && nover) {
            fr->loc_share = 1;
            fr->loc_stray = acc.outside;
            for (size_t r = 0; r < acc.n; r++)
                free(acc.lines[r].file);
            acc.n = 0;
            acc.outside = 0;
            rc = collect_lines(m, g, vr, dim, func_name, over, nover, &acc);
        }
        free(over);
    }
    struct vp_rank_line *lines = acc.lines;
    size_t nlines = acc.n;
    if (rc) {
        for (size_t r = 0; r < nlines; r++)
            free(lines[r].file);
        free(lines);
        return -1;
    }
    fr->outside = acc.outside;
    /* Merge equal (file, line) from different PCs and runs. */
    qsort_n(lines, nlines, sizeof *lines, cmp_line);
    size_t w = 0;
    for (size_t r = 0; r < nlines; r++) {
        if (w && cmp_line(&lines[w - 1], &lines[r]) == 0) {
            lines[w - 1].count += lines[r].count;
            if (!lines[w - 1].loop_line)
                lines[w - 1].loop_line = lines[r].loop_line;
            free(lines[r].file);
        } else {
            lines[w++] = lines[r];
        }
    }
    nlines = w;
    qsort_n(lines, nlines, sizeof *lines, cmp_line_count);
    while (nlines > p->max_lines)
        free(lines[--nlines].file);
    fr->lines = lines;
    fr->nlines = nlines;
    fr->loc_dim = dim;
    return 0;
}

/* ---- pattern inference ---------------------------------------------------- */

/* The dimension an anomalous variable is anomalous "based on" (vProf 5.2:
 * the dimension used in calculating its discount): the rejected dimension
 * with the lowest discount; ValidDiscount clamps distant ones to 0, so ties
 * go to the larger Hellinger distance (the unclamped anomaly), then to the
 * order of the rules that read them: processing cost (rule 1), values,
 * deltas.  VP_RANK_DIM_SLOW_ONLY for a slow-only variable,
 * VP_RANK_DIM_NONE if nothing was rejected. */
static int pattern_dim_of(const struct vp_rank_var_result *v)
{
    static const int order[VP_RANK_DIM_COUNT] = {VP_RANK_DIM_PROC, VP_RANK_DIM_VALUES,
                                                 VP_RANK_DIM_DELTAS};
    if (v->dim == VP_RANK_DIM_SLOW_ONLY)
        return VP_RANK_DIM_SLOW_ONLY;
    int best = VP_RANK_DIM_NONE;
    for (int i = 0; i < VP_RANK_DIM_COUNT; i++) {
        int d = order[i];
        const struct vp_rank_dim_result *x = &v->dims[d];
        if (!x->available || !x->rejected)
            continue;
        if (best == VP_RANK_DIM_NONE || x->discount < v->dims[best].discount ||
            (x->discount == v->dims[best].discount && x->hellinger > v->dims[best].hellinger))
            best = d;
    }
    /* Deltas and processing cost at the same discount, the variable
       staying the same longer in the slow run: its deltas differ because
       more of them are 0, which is what processing cost measures, and rule
       1 reads that first (vProf's artifact takes processing cost whenever
       its discount is lower or equal); the Hellinger order between two
       clamped distances is noise (docs/rank.md, "Bug-pattern inference"). */
    const struct vp_rank_dim_result *proc = &v->dims[VP_RANK_DIM_PROC];
    if (best == VP_RANK_DIM_DELTAS && proc->available && proc->rejected &&
        proc->discount == v->dims[VP_RANK_DIM_DELTAS].discount &&
        proc->slow_median > proc->normal_median)
        best = VP_RANK_DIM_PROC;
    return best;
}

/* Whether an anomalous variable can decide a pattern.  A pointer to a
 * non-basic type is compared by processing cost only (vProf 4.2); when it
 * was sampled only in the slow run there is no normal processing cost to
 * compare with, only the fact that the slow run reached code holding some
 * object: it still counts as anomalous for the discount, but it carries no
 * dimension the rules could read (docs/rank.md, "Pattern evidence").  The
 * same for a variable new in the slow run's build (another version): that
 * the normal run never sampled it says only that its code did not exist. */
static int pattern_evidence(const struct vp_rank_var_result *v)
{
    return v->anomalous && (v->basic || v->dim != VP_RANK_DIM_SLOW_ONLY) && !v->new_in_build;
}

/* Evidence rules 1-3 can read: a `loop` or `cond` variable.  An untagged
 * one (a statistics counter, an argument) decides no rule (docs/rank.md,
 * "Tagged candidates").  Nor does one whose rejection is weaker than no
 * rejection at all: a discount of at least DefaultDiscount (Hellinger at
 * most 0.2 with the defaults) calibrates its function's cost as a variable
 * with the normal run's distributions does, or less (docs/rank.md, "Weak
 * rejections"). */
static int rule_evidence(const struct vp_rank_var_result *v, double default_discount)
{
    return pattern_evidence(v) && (v->tags & (VP_TAG_LOOP | VP_TAG_COND)) &&
           v->discount < default_discount;
}

/* vProf's four rules, in order, applied to the function's most anomalous
 * variables: the anomalous ones whose discount is the lowest among its
 * anomalous variables (ties at that discount are common, ValidDiscount sends
 * every clearly different variable to 0), each in the dimension it is
 * anomalous in (pattern_dim_of).  `order` lists the variables from most to
 * least anomalous.  Sets pattern, pattern_var and pattern_dim. */
static void infer_pattern(const struct vp_rank_result *res, struct vp_rank_func_result *f,
                          const size_t *order, double default_discount, int most_costly)
{
    f->pattern = VP_RANK_PAT_NONE;
    f->pattern_var = -1;
    f->pattern_dim = VP_RANK_DIM_NONE;
    f->pattern_rule = 0;
    /* The candidates: the variables rules 1-3 can read at their lowest
       discount (an untagged variable that was the most anomalous used to
       leave the function without a pattern). */
    double lowest = 2;
    for (size_t i = 0; i < f->nvars; i++) {
        const struct vp_rank_var_result *v = &res->vars[order[i]];
        if (rule_evidence(v, default_discount) && v->discount < lowest)
            lowest = v->discount;
    }
    /* Basic-type candidates first (pass 0), then the others: a pointer to a
       non-basic type or an aggregate is compared by processing cost only
       (vProf 4.2), the weaker evidence when a basic variable is as
       anomalous (docs/rank.md, "Basic values first"). */
    for (int pass = 0; pass < 2; pass++) {
        for (int rule = 1; rule <= 3; rule++)
            for (size_t i = 0; i < f->nvars; i++) {
                const struct vp_rank_var_result *v = &res->vars[order[i]];
                if (!rule_evidence(v, default_discount) || v->discount != lowest ||
                    (pass == 0) != (v->basic != 0))
                    continue;
                int d = pattern_dim_of(v);
                int pat = VP_RANK_PAT_NONE;
                /* 1. a loop/cond variable stays the same abnormally long: its
                      processing cost is anomalous, and longer in the slow run
                      (docs/rank.md, "Rule 1 reads the direction") */
                if (rule == 1 && (v->tags & (VP_TAG_LOOP | VP_TAG_COND)) && d == VP_RANK_DIM_PROC &&
                    v->dims[d].slow_median > v->dims[d].normal_median)
                    pat = VP_RANK_PAT_MISSING_CONSTRAINT;
                /* 2. a loop variable has abnormal values or deltas */
                else if (rule == 2 && (v->tags & VP_TAG_LOOP) &&
                         (d == VP_RANK_DIM_VALUES || d == VP_RANK_DIM_DELTAS))
                    pat = VP_RANK_PAT_SCALABILITY;
                /* 3. a condition variable is abnormal (any dimension, slow-only) */
                else if (rule == 3 && (v->tags & VP_TAG_COND))
                    pat = VP_RANK_PAT_WRONG_CONSTRAINT;
                if (pat != VP_RANK_PAT_NONE) {
                    f->pattern = pat;
                    f->pattern_var = (long)order[i];
                    f->pattern_dim = d;
                    f->pattern_rule = rule;
                    return;
                }
            }
    }
    /* 4. the most costly function (first in the calibrated ranking, or in
          the raw one: `most_costly`) looks normal and has only non-basic
          variables: default discount, decided by processing cost.  Also
          when its only anomalies are slow-only pointers (no evidence, see
          pattern_evidence): vProf's reason for the rule, no basic values to
          tell the other patterns apart, holds just the same.  (The
          variable-free case is in vp_rank_compute.) */
    if (most_costly && f->discounter == VP_RANK_DISC_VARIABLE && f->nvars > 0) {
        int evidence = 0, basic = 0;
        for (size_t i = 0; i < f->nvars; i++) {
            basic |= res->vars[f->var_idx[i]].basic;
            evidence |= rule_evidence(&res->vars[f->var_idx[i]], default_discount);
        }
        /* With basic-type variables, the rule also holds when none of them
           is anomalous (rules 1-3 found nothing, and nothing else is
           anomalous): their values are those of the normal run, so they
           cannot tell the other patterns apart either; the function is the
           most costly doing what it does in the normal run, more of it
           (docs/rank.md, "Rule 4"). */
        if (basic && evidence)
            return;
        int normal = f->discount == default_discount && f->dim == VP_RANK_DIM_PROC;
        if (!basic && !normal && evidence)
            return;
        f->pattern = VP_RANK_PAT_SCALABILITY;
        f->pattern_rule = 4;
        f->pattern_var = (long)order[0];
        /* here no readable evidence, or a normal function: the dimension
           its discount came from */
        f->pattern_dim = f->dim;
    }
}

/* ---- the analysis -------------------------------------------------------- */

/* The library functions the slow runs' unattributed samples ran under most
   (vp_rank_run.lib, summed over the slow runs by name and module), each at
   VP_RANK_LIB_MIN_SHARE of the slow runs or more, largest first; ties by
   name, so the same inputs name the same ones. */
static void top_libraries(const struct vp_rank_model *m, uint64_t slow_total,
                          struct vp_rank_result *res)
{
    res->nlib = 0;
    for (size_t i = 0; slow_total && i < m->nruns; i++) {
        if (!m->runs[i].slow)
            continue;
        for (size_t l = 0; l < m->runs[i].nlib; l++) {
            const struct vp_rank_lib *c = &m->runs[i].lib[l];
            int seen = 0; /* summed already, with an earlier run's entry */
            for (size_t j = 0; j < i && !seen; j++)
                for (size_t k = 0; m->runs[j].slow && k < m->runs[j].nlib && !seen; k++)
                    seen = strcmp(m->runs[j].lib[k].name, c->name) == 0 &&
                           strcmp(m->runs[j].lib[k].module, c->module) == 0;
            if (seen)
                continue;
            uint64_t n = 0;
            const struct vp_rank_lib *site = c; /* the run where it weighs most */
            for (size_t j = i; j < m->nruns; j++)
                for (size_t k = 0; m->runs[j].slow && k < m->runs[j].nlib; k++)
                    if (strcmp(m->runs[j].lib[k].name, c->name) == 0 &&
                        strcmp(m->runs[j].lib[k].module, c->module) == 0) {
                        n += m->runs[j].lib[k].samples;
                        if (m->runs[j].lib[k].site_file &&
                            (!site->site_file || m->runs[j].lib[k].samples > site->samples))
                            site = &m->runs[j].lib[k];
                    }
            double share = (double)n / (double)slow_total;
            if (share < VP_RANK_LIB_MIN_SHARE)
                continue;
            size_t at = res->nlib;
            while (at > 0 && (res->lib[at - 1].share < share ||
                              (res->lib[at - 1].share == share &&
                               strcmp(res->lib[at - 1].name, c->name) > 0)))
                at--;
            if (at == VP_RANK_LIB_MAX)
                continue;
            size_t last = res->nlib < VP_RANK_LIB_MAX ? res->nlib : VP_RANK_LIB_MAX - 1;
            memmove(&res->lib[at + 1], &res->lib[at], (last - at) * sizeof res->lib[0]);
            res->lib[at] = (struct vp_rank_lib_share){c->name, c->module, share,
                                                      site->site_file, site->site_line,
                                                      site->site_function};
            if (res->nlib < VP_RANK_LIB_MAX)
                res->nlib++;
        }
    }
}

char *vp_rank_lib_clause(const struct vp_rank_lib_share *lib, size_t n, char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; i < n && used < cap; i++) {
        char dbuf[512];
        int w = snprintf(buf + used, cap - used, "%s%.0f%% under %s [%s]", i ? ", " : "; ",
                         lib[i].share * 100, vp_func_display(lib[i].name, dbuf, sizeof dbuf),
                         lib[i].module);
        if (w < 0)
            break;
        used += (size_t)w;
        if (lib[i].site_file && used < cap) {
            char lb[512];
            w = snprintf(buf + used, cap - used, " (called at %s)",
                         vp_rank_loc(lb, sizeof lb, lib[i].site_file, lib[i].site_line));
            if (w < 0)
                break;
            used += (size_t)w;
        }
    }
    return vp_oneline(buf);
}

void vp_rank_result_free(struct vp_rank_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nfuncs; i++) {
        for (size_t l = 0; l < r->funcs[i].nlines; l++)
            free(r->funcs[i].lines[l].file);
        free(r->funcs[i].lines);
        free(r->funcs[i].var_idx);
        free(r->funcs[i].display);
    }
    free(r->funcs);
    free(r->vars);
    free(r->inputs);
    free(r);
}

struct state {
    const struct vp_rank_model *m;
    struct aliases al;
    struct sfunc *sf;
    size_t nsf;
    struct var_group *groups;
    size_t ngroups;
    long *var_func;           /* group -> sfunc index for locals, -1        */
};

static void free_state(struct state *s)
{
    if (s->al.a)
        for (size_t i = 0; i < s->m->nruns; i++)
            free(s->al.a[i]);
    free(s->al.a);
    free(s->al.n);
    for (size_t i = 0; i < s->nsf; i++)
        free(s->sf[i].in_run);
    free(s->sf);
    for (size_t i = 0; i < s->ngroups; i++) {
        free(s->groups[i].slow);
        free(s->groups[i].normal);
        free(s->groups[i].slow_run);
    }
    free(s->groups);
    free(s->var_func);
}

/* Whether two runs' sorted source lists have a name in common. */
static int share_source(const struct vp_rank_run *a, const struct vp_rank_run *b)
{
    size_t i = 0, k = 0;
    while (i < a->nsources && k < b->nsources) {
        int c = strcmp(a->sources[i], b->sources[k]);
        if (!c)
            return 1;
        if (c < 0)
            i++;
        else
            k++;
    }
    return 0;
}

static int check_inputs(const struct vp_rank_model *m, char *err, size_t errlen)
{
    size_t nslow = 0, nnormal = 0;
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *r = &m->runs[i];
        if (r->slow)
            nslow++;
        else
            nnormal++;
        uint64_t pcs = 0;
        for (size_t f = 0; f < r->nfuncs; f++)
            pcs += r->funcs[f].pc_samples + r->funcs[f].value_ticks;
        if (pcs == 0) {
            vp_set_err(err, errlen, "%s: no samples attributed to any function", r->label);
            return -1;
        }
    }
    if (!nslow || !nnormal) {
        vp_set_err(err, errlen, "need at least one normal and one buggy profile");
        return -1;
    }
    /* Each normal run must share function names with the slow runs. */
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *n = &m->runs[i];
        if (n->slow)
            continue;
        int common = 0;
        for (size_t j = 0; j < m->nruns && !common; j++) {
            const struct vp_rank_run *s = &m->runs[j];
            if (!s->slow)
                continue;
            for (size_t f = 0; f < s->nfuncs && !common; f++)
                for (size_t g = 0; g < n->nfuncs && !common; g++)
                    common = strcmp(s->funcs[f].name, n->funcs[g].name) == 0;
        }
        if (!common) {
            vp_set_err(err, errlen,
                    "%s: no function names in common with the buggy profile(s): "
                    "profiles of unrelated programs?",
                    n->label);
            return -1;
        }
        /* Names such as main or a library's are shared by any two
           programs; the source files their builds instrumented are not,
           while another version of the program keeps most of them. */
        for (size_t j = 0; j < m->nruns; j++) {
            const struct vp_rank_run *s = &m->runs[j];
            if (!s->slow || !s->nsources || !n->nsources || share_source(n, s))
                continue;
            vp_set_err(err, errlen,
                    "%s: its program's source files (%s%s) and those of %s (%s%s) have none in "
                    "common: profiles of unrelated programs?",
                    n->label, n->sources[0], n->nsources > 1 ? ", ..." : "", s->label,
                    s->sources[0], s->nsources > 1 ? ", ..." : "");
            return -1;
        }
    }
    return 0;
}

static int cmp_alias(const void *pa, const void *pb)
{
    const struct file_alias *a = pa, *b = pb;
    int c = strcmp(a->from, b->from);
    return c ? c : strcmp(a->to, b->to);
}

/* Run `run`'s functions by (name, file), the files rebased by `al` (NULL:
 * as they are).  NULL when out of memory. */
static struct fref *index_run(const struct vp_rank_model *m, size_t run, const struct aliases *al)
{
    const struct vp_rank_run *r = &m->runs[run];
    struct fref *ix = malloc((r->nfuncs ? r->nfuncs : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t f = 0; f < r->nfuncs; f++)
        ix[f] = (struct fref){r->funcs[f].name, slow_file(al, run, r->funcs[f].file), run, (long)f};
    qsort_n(ix, r->nfuncs, sizeof *ix, cmp_fref);
    return ix;
}

static int cmp_str_ptr(const void *pa, const void *pb)
{
    return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Slow runs after the first whose sources sit in another directory (built
 * in another checkout): a path of theirs that the first slow run does not
 * have becomes the first run's path for the same file when a function of
 * theirs matches exactly one function of the first run by name and file
 * base name, and every such match says the same path.  Their functions and
 * variables then pool with the first run's instead of being listed twice. */
static int build_aliases(struct state *s)
{
    const struct vp_rank_model *m = s->m;
    long ref = -1;
    struct fref *rix = NULL;
    const char **rfiles = NULL;
    s->al.a = calloc(m->nruns ? m->nruns : 1, sizeof *s->al.a);
    s->al.n = calloc(m->nruns ? m->nruns : 1, sizeof *s->al.n);
    if (!s->al.a || !s->al.n)
        return -1;
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *r = &m->runs[i];
        if (!r->slow)
            continue;
        if (ref < 0) {
            ref = (long)i;
            rix = index_run(m, i, NULL);
            rfiles = malloc((r->nfuncs ? r->nfuncs : 1) * sizeof *rfiles);
            if (!rix || !rfiles)
                goto oom;
            for (size_t f = 0; f < r->nfuncs; f++)
                rfiles[f] = r->funcs[f].file;
            qsort_n(rfiles, r->nfuncs, sizeof *rfiles, cmp_str_ptr);
            continue;
        }
        const size_t nref = m->runs[ref].nfuncs;
        struct file_alias *a = malloc((r->nfuncs ? r->nfuncs : 1) * sizeof *a);
        if (!a)
            goto oom;
        size_t n = 0;
        for (size_t f = 0; f < r->nfuncs; f++) {
            const struct vp_rank_func *fn = &r->funcs[f];
            if (bsearch(&fn->file, rfiles, nref, sizeof *rfiles, cmp_str_ptr))
                continue; /* a path the first run has: its own */
            const char *to = NULL;
            int ng = 0;
            for (size_t k = fref_first(rix, nref, fn->name);
                 k < nref && strcmp(rix[k].name, fn->name) == 0; k++)
                if (strcmp(vp_rank_base_name(rix[k].file), vp_rank_base_name(fn->file)) == 0) {
                    ng++;
                    to = rix[k].file;
                }
            if (ng == 1)
                a[n++] = (struct file_alias){fn->file, to};
        }
        qsort_n(a, n, sizeof *a, cmp_alias);
        /* one entry per path; a path matched to two paths keeps its own */
        size_t out = 0;
        for (size_t k = 0; k < n;) {
            size_t e = k + 1, agree = 1;
            while (e < n && strcmp(a[e].from, a[k].from) == 0) {
                agree &= strcmp(a[e].to, a[k].to) == 0;
                e++;
            }
            if (agree)
                a[out++] = a[k];
            k = e;
        }
        s->al.a[i] = a;
        s->al.n[i] = out;
    }
    free(rix);
    free(rfiles);
    return 0;
oom:
    free(rix);
    free(rfiles);
    return -1;
}

/* Slow functions: union of the slow runs' functions with cost, by (name, file),
 * the file as the first slow run has it (build_aliases); each one's index in
 * every run (exact key in the slow runs, find_func in the normal ones). */
static int build_sfuncs(struct state *s)
{
    const struct vp_rank_model *m = s->m;
    size_t total = 0;
    for (size_t i = 0; i < m->nruns; i++)
        if (m->runs[i].slow)
            total += m->runs[i].nfuncs;
    struct fref *all = malloc((total ? total : 1) * sizeof *all);
    struct fref **nix = calloc(m->nruns ? m->nruns : 1, sizeof *nix);
    s->sf = calloc(total ? total : 1, sizeof *s->sf);
    if (!all || !nix || !s->sf)
        goto oom;
    size_t n = 0;
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *r = &m->runs[i];
        if (r->slow)
            for (size_t f = 0; f < r->nfuncs; f++)
                all[n++] = (struct fref){r->funcs[f].name, slow_file(&s->al, i, r->funcs[f].file), i,
                                         (long)f};
    }
    qsort_n(all, n, sizeof *all, cmp_fref);
    for (size_t i = 0; i < m->nruns; i++)
        if (!m->runs[i].slow && !(nix[i] = index_run(m, i, NULL)))
            goto oom;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        long first = -1; /* the first entry with cost, in run order */
        while (b < n && strcmp(all[b].name, all[a].name) == 0 &&
               strcmp(all[b].file, all[a].file) == 0) {
            const struct vp_rank_func *fn = &m->runs[all[b].run].funcs[all[b].idx];
            if (first < 0 && fn->pc_samples + fn->value_ticks)
                first = (long)b;
            b++;
        }
        if (first >= 0) {
            struct sfunc *sf = &s->sf[s->nsf++];
            sf->name = all[a].name;
            sf->file = all[a].file;
            sf->line = m->runs[all[first].run].funcs[all[first].idx].line;
            sf->module = m->runs[all[first].run].funcs[all[first].idx].module;
            sf->in_run = malloc((m->nruns ? m->nruns : 1) * sizeof(long));
            if (!sf->in_run)
                goto oom;
            for (size_t i = 0; i < m->nruns; i++) {
                const struct vp_rank_run *r = &m->runs[i];
                sf->in_run[i] = r->slow ? -1 : find_func(nix[i], r->nfuncs, sf->name, sf->file);
            }
            for (size_t k = b; k-- > a;) /* the lowest index of each slow run */
                sf->in_run[all[k].run] = all[k].idx;
        }
        a = b;
    }
    qsort_n(s->sf, s->nsf, sizeof *s->sf, cmp_sfunc);
    for (size_t i = 0; i < m->nruns; i++)
        free(nix[i]);
    free(nix);
    free(all);
    return 0;
oom:
    if (nix)
        for (size_t i = 0; i < m->nruns; i++)
            free(nix[i]);
    free(nix);
    free(all);
    return -1;
}

/* The slow function (name, file); else the unique one of that name and file
 * base name; else the unique one of that name; -1.  s->sf is sorted. */
static long sfunc_of(const struct state *s, const char *name, const char *file)
{
    long base = -1, any = -1;
    int nbase = 0, nany = 0;
    for (size_t k = first_named(s->sf, s->nsf, sizeof *s->sf, name);
         k < s->nsf && strcmp(s->sf[k].name, name) == 0; k++) {
        if (strcmp(s->sf[k].file, file) == 0)
            return (long)k;
        nany++;
        any = (long)k;
        if (strcmp(vp_rank_base_name(s->sf[k].file), vp_rank_base_name(file)) == 0) {
            nbase++;
            base = (long)k;
        }
    }
    if (nbase == 1)
        return base;
    return nany == 1 ? any : -1;
}

/* Variable groups: one per distinct key among the slow runs' variables that
 * have at least one sample (readable or not). */
struct slow_var {
    const struct vp_rank_var *v;
    size_t run;
    const char *file;         /* the variable's file, rebased (slow_file)    */
};

static int slow_key_cmp(const struct slow_var *a, const struct slow_var *b)
{
    return var_key_cmp_files(a->v, a->file, b->v, b->file);
}

static int cmp_slow_var(const void *pa, const void *pb)
{
    const struct slow_var *a = pa, *b = pb;
    int c = slow_key_cmp(a, b);
    return c ? c : (a->run > b->run) - (a->run < b->run);
}

static int build_groups(struct state *s)
{
    const struct vp_rank_model *m = s->m;
    size_t total = 0;
    for (size_t i = 0; i < m->nruns; i++)
        if (m->runs[i].slow)
            total += m->runs[i].nvars;
    struct slow_var *all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < m->nruns; i++)
        if (m->runs[i].slow)
            for (size_t v = 0; v < m->runs[i].nvars; v++) {
                const struct vp_rank_var *var = &m->runs[i].vars[v];
                if (var->count + var->unreadable)
                    all[n++] = (struct slow_var){var, i, slow_file(&s->al, i, var->file)};
            }
    qsort_n(all, n, sizeof *all, cmp_slow_var);
    const struct vp_rank_var ***vix = calloc(m->nruns ? m->nruns : 1, sizeof *vix);
    s->groups = calloc(n ? n : 1, sizeof *s->groups);
    s->var_func = malloc((n ? n : 1) * sizeof *s->var_func);
    if (!vix || !s->groups || !s->var_func)
        goto oom;
    for (size_t i = 0; i < m->nruns; i++)
        if (!m->runs[i].slow && !(vix[i] = index_vars(&m->runs[i])))
            goto oom;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && slow_key_cmp(&all[a], &all[b]) == 0)
            b++;
        struct var_group *g = &s->groups[s->ngroups++];
        g->file = all[a].file;
        g->al = &s->al;
        g->slow = malloc((b - a) * sizeof *g->slow);
        g->slow_run = malloc((b - a) * sizeof *g->slow_run);
        g->normal = malloc((m->nruns ? m->nruns : 1) * sizeof *g->normal);
        if (!g->slow || !g->slow_run || !g->normal)
            goto oom;
        for (size_t k = a; k < b; k++) {
            g->slow_run[g->nslow] = all[k].run;
            g->slow[g->nslow++] = all[k].v;
        }
        for (size_t i = 0; i < m->nruns; i++) {
            if (m->runs[i].slow)
                continue;
            long w = find_var(&m->runs[i], vix[i], all[a].v);
            if (w >= 0)
                g->normal[g->nnormal++] = &m->runs[i].vars[w];
        }
        a = b;
    }
    for (size_t i = 0; i < m->nruns; i++)
        free(vix[i]);
    free(vix);
    free(all);
    return 0;
oom:
    if (vix)
        for (size_t i = 0; i < m->nruns; i++)
            free(vix[i]);
    free(vix);
    free(all);
    return -1;
}

int vp_rank_run(const struct vp_rank_model *m, const struct vp_rank_params *p,
                struct vp_rank_result **out, char *err, size_t errlen)
{
    *out = NULL;
    if (check_inputs(m, err, errlen))
        return -1;
    struct state s = {.m = m};
    struct vp_rank_result *res = calloc(1, sizeof *res);
    size_t *order = NULL;
    size_t **func_vars = NULL;
    size_t *func_nvars = NULL;
    long *targets = NULL; /* functions a variable is attributed to */
    uint64_t *run_ticks = NULL;
    if (!res)
        goto oom;
    res->params = *p;
    if (build_aliases(&s) || build_sfuncs(&s) || build_groups(&s))
        goto oom;
    if (s.nsf == 0) {
        vp_set_err(err, errlen, "the buggy profile(s) have no samples in any known function");
        goto fail;
    }

    /* inputs */
    res->inputs = calloc(m->nruns, sizeof *res->inputs);
    if (!res->inputs)
        goto oom;
    res->ninputs = m->nruns;
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *r = &m->runs[i];
        struct vp_rank_input *in = &res->inputs[i];
        in->label = r->label;
        in->slow = r->slow;
        in->period_ns = r->period_ns;
        in->value_samples = r->value_samples;
        in->processes = 1 + (unsigned)r->nforked;
        for (size_t f = 0; f < r->nfuncs; f++)
            in->pc_samples += r->funcs[f].pc_samples;
        for (size_t v = 0; v < r->nvars; v++)
            in->unreadable += r->vars[v].unreadable;
    }

    /* variables */
    res->vars = calloc(s.ngroups ? s.ngroups : 1, sizeof *res->vars);
    if (!res->vars)
        goto oom;
    res->nvars = s.ngroups;
    for (size_t g = 0; g < s.ngroups; g++)
        if (analyse_var(m, &s.groups[g], p, &res->vars[g]))
            goto oom;

    /* attribute variables to slow functions */
    func_vars = calloc(s.nsf, sizeof *func_vars);
    func_nvars = calloc(s.nsf, sizeof *func_nvars);
    targets = malloc(s.nsf * sizeof *targets);
    if (!func_vars || !func_nvars || !targets)
        goto oom;
    for (size_t g = 0; g < s.ngroups; g++) {
        const struct vp_rank_var_result *vr = &res->vars[g];
        if (vr->discount < 0)
            continue; /* no usable samples on one side: no discount */
        size_t nt = 0;
        if (!vr->global) {
            long k = sfunc_of(&s, vr->function, vr->file);
            if (k >= 0)
                targets[nt++] = k;
        } else {
            const struct var_group *grp = &s.groups[g];
            for (size_t i = 0; i < grp->nslow; i++) {
                const struct vp_rank_var *v = grp->slow[i];
                const struct vp_rank_run *r = &m->runs[grp->slow_run[i]];
                for (size_t t = 0; t < v->nsites; t++) {
                    const struct vp_rank_func *fn = &r->funcs[v->sites[t].func];
                    long k = sfunc_of(&s, fn->name, slow_file(&s.al, grp->slow_run[i], fn->file));
                    int dupl = 0;
                    for (size_t q = 0; q < nt; q++)
                        dupl |= targets[q] == k;
                    if (k >= 0 && !dupl)
                        targets[nt++] = k;
                }
            }
        }
        for (size_t t = 0; t < nt; t++) {
            size_t k = (size_t)targets[t];
            size_t *nv = realloc(func_vars[k], (func_nvars[k] + 1) * sizeof *nv);
            if (!nv)
                goto oom;
            func_vars[k] = nv;
            nv[func_nvars[k]++] = g;
        }
    }

    /* functions: raw cost, discount */
    res->funcs = calloc(s.nsf, sizeof *res->funcs);
    if (!res->funcs)
        goto oom;
    res->nfuncs = s.nsf;
    size_t **ranks = calloc(m->nruns, sizeof *ranks);
    if (!ranks)
        goto oom;
    for (size_t i = 0; i < m->nruns; i++)
        if (!(ranks[i] = run_ranks(&m->runs[i]))) {
            for (size_t q = 0; q < i; q++)
                free(ranks[q]);
            free(ranks);
            goto oom;
        }
    /* PC samples (timer periods) of each run, resolved or not: its length. */
    run_ticks = calloc(m->nruns, sizeof *run_ticks);
    if (!run_ticks)
        goto oom;
    uint64_t slow_total = 0, slow_resolved = 0;
    for (size_t i = 0; i < m->nruns; i++) {
        for (size_t f = 0; f < m->runs[i].nfuncs; f++)
            run_ticks[i] += m->runs[i].funcs[f].pc_samples;
        if (m->runs[i].slow) {
            slow_resolved += run_ticks[i];
            slow_total += m->runs[i].pc_total > run_ticks[i] ? m->runs[i].pc_total : run_ticks[i];
        }
        if (m->runs[i].pc_total > run_ticks[i]) /* unresolved PCs count too */
            run_ticks[i] = m->runs[i].pc_total;
    }
    res->slow_unattributed =
        slow_total ? (double)(slow_total - slow_resolved) / (double)slow_total : 0;
    top_libraries(m, slow_total, res);
    for (size_t k = 0; k < s.nsf; k++) {
        struct vp_rank_func_result *f = &res->funcs[k];
        f->name = s.sf[k].name;
        char dbuf[512];
        const char *shown = vp_func_display(f->name, dbuf, sizeof dbuf);
        if (shown != f->name && !(f->display = strdup(shown)))
            goto oom;
        f->file = s.sf[k].file;
        f->module = s.sf[k].module;
        f->line = s.sf[k].line;
        f->pattern_var = f->top_var = f->loc_var = -1;
        f->dim = f->pattern_dim = f->loc_dim = VP_RANK_DIM_NONE;
        /* Share of the normal runs spent with a value sample in one of the
           function's frames (its inclusive share as unwinding sees it). */
        uint64_t nvt = 0, nticks = 0, sticks = 0;
        for (size_t i = 0; i < m->nruns; i++) {
            long idx = s.sf[k].in_run[i];
            if (m->runs[i].slow) {
                sticks += run_ticks[i];
                continue;
            }
            nticks += run_ticks[i];
            if (idx >= 0)
                nvt += m->runs[i].funcs[idx].value_ticks;
        }
        f->normal_share = nticks ? (double)nvt / (double)nticks : 0;
        for (size_t i = 0; i < m->nruns; i++) {
            const struct vp_rank_run *r = &m->runs[i];
            long idx = s.sf[k].in_run[i];
            if (!r->slow || idx < 0)
                continue;
            const struct vp_rank_func *fn = &r->funcs[idx];
            f->pc_samples += fn->pc_samples;
            f->value_ticks += fn->value_ticks;
            f->pc_cost_ns += (double)fn->pc_samples * (double)r->period_ns;
            f->var_cost_ns += (double)fn->value_ticks * (double)r->period_ns;
            /* The ticks beyond the function's normal share of this run.
               They are main's variable-based cost (docs/rank.md, "Raw
               cost"): the program's driver is on the stack of the same
               share of both runs and gains nothing from unwinding.  Every
               other function has vProf's. */
            double excess = (double)fn->value_ticks - f->normal_share * (double)run_ticks[i];
            if (excess < 0)
                excess = 0;
            f->var_excess_ns += excess * (double)r->period_ns;
            double pc = (double)fn->pc_samples;
            double var = is_main(f->name) ? excess : (double)fn->value_ticks;
            f->raw_cost_ns += (pc > var ? pc : var) * (double)r->period_ns;
            if (!f->line)
                f->line = fn->line;
        }
        f->slow_share = sticks ? (double)f->value_ticks / (double)sticks : 0;
        f->var_idx = func_vars[k];
        f->nvars = func_nvars[k];
        func_vars[k] = NULL;
        if (f->nvars) {
            f->discounter = VP_RANK_DISC_VARIABLE;
            f->discount = 2;
            for (size_t i = 0; i < f->nvars; i++) {
                const struct vp_rank_var_result *v = &res->vars[f->var_idx[i]];
                if (v->discount < f->discount) {
                    f->discount = v->discount;
                    f->dim = v->dim;
                }
            }
        } else {
            /* hist-discounter: n slow x m normal comparisons of raw-cost rank */
            for (size_t i = 0; i < m->nruns; i++) {
                long si = s.sf[k].in_run[i];
                if (!m->runs[i].slow || si < 0)
                    continue;
                const struct vp_rank_func *sfn = &m->runs[i].funcs[si];
                if (sfn->pc_samples + sfn->value_ticks == 0)
                    continue;
                for (size_t j = 0; j < m->nruns; j++) {
                    if (m->runs[j].slow)
                        continue;
                    long nj = s.sf[k].in_run[j];
                    size_t rn = nj >= 0 ? ranks[j][nj] : m->runs[j].nfuncs + 1;
                    f->hist_c++;
                    if (rn < ranks[i][si])
                        f->hist_h++;
                }
            }
            if (f->hist_c) {
                f->discounter = VP_RANK_DISC_HIST;
                f->discount = (double)f->hist_h / (double)f->hist_c;
                if (f->discount < p->valid_discount)
                    f->discount = 0;
            }
        }
        f->calibrated_cost_ns = (1.0 - f->discount) * f->raw_cost_ns;
    }
    for (size_t i = 0; i < m->nruns; i++)
        free(ranks[i]);
    free(ranks);

    /* raw rank (what a plain profiler would say) */
    {
        struct vp_rank_func_result **by_raw = malloc(s.nsf * sizeof *by_raw);
        if (!by_raw)
            goto oom;
        for (size_t k = 0; k < s.nsf; k++)
            by_raw[k] = &res->funcs[k];
        qsort_n(by_raw, s.nsf, sizeof *by_raw, cmp_func_raw);
        for (size_t k = 0; k < s.nsf; k++)
            by_raw[k]->raw_rank = k + 1;
        free(by_raw);
    }

    /* patterns and localisation, before sorting (indices match s.sf) */
    g_sort_result = res;
    size_t top = 0; /* the function the calibrated ranking puts first */
    size_t pctop = 0; /* the first by PC-sample cost (a plain profiler's self time) */
    for (size_t k = 1; k < s.nsf; k++) {
        if (cmp_func_result(&res->funcs[k], &res->funcs[top]) < 0)
            top = k;
        int c = cmp_double_desc(res->funcs[k].pc_cost_ns, res->funcs[pctop].pc_cost_ns);
        if (c < 0 || (c == 0 && cmp_func_key(&res->funcs[k], &res->funcs[pctop]) < 0))
            pctop = k;
    }
    for (size_t k = 0; k < s.nsf; k++) {
        struct vp_rank_func_result *f = &res->funcs[k];
        if (!f->nvars) {
            /* rule 4 for the most costly function without any sampled
               variable: no basic-type values at all (docs/rank.md) */
            if ((k == top || f->raw_rank == 1 || (k == pctop && f->pc_cost_ns > 0)) &&
                f->calibrated_cost_ns > 0) {
                f->pattern = VP_RANK_PAT_SCALABILITY;
                f->pattern_rule = 4;
            }
            continue;
        }
        free(order);
        order = malloc(f->nvars * sizeof *order);
        if (!order)
            goto oom;
        memcpy(order, f->var_idx, f->nvars * sizeof *order);
        qsort_n(order, f->nvars, sizeof *order, cmp_var_anomaly);
        f->top_var = (long)order[0];
        infer_pattern(res, f, order, p->default_discount,
                      k == top || f->raw_rank == 1 || (k == pctop && f->pc_cost_ns > 0));
        long lv = f->pattern_var >= 0 ? f->pattern_var
                                      : (res->vars[order[0]].anomalous ? (long)order[0] : -1);
        if (lv >= 0) {
            int ld = f->pattern_var >= 0 ? f->pattern_dim : res->vars[lv].dim;
            f->loc_var = lv;
            if (ld != VP_RANK_DIM_NONE &&
                localise(m, &s.groups[lv], &res->vars[lv], ld, f->name, p, f))
                goto oom;
        }
    }
    free(order);
    order = NULL;

    qsort_n(res->funcs, res->nfuncs, sizeof *res->funcs, cmp_func_result);
    for (size_t k = 0; k < res->nfuncs; k++)
        res->funcs[k].rank = k + 1;

    free(func_vars);
    free(func_nvars);
    free(targets);
    free(run_ticks);
    free_state(&s);
    res->model = m;
    *out = res;
    return 0;
oom:
    vp_set_err(err, errlen, "out of memory");
fail:
    if (func_vars)
        for (size_t k = 0; k < s.nsf; k++)
            free(func_vars[k]);
    free(func_vars);
    free(func_nvars);
    free(targets);
    free(run_ticks);
    free(order);
    free_state(&s);
    vp_rank_result_free(res);
    return -1;
}

/* ---- distributions (for plots) ------------------------------------------- */

struct dist_buf {
    const struct vp_rank_var *v;
    int dim;
    double *x;
    size_t n, cap;
    int oom;
};

/* The number behind an observation, recomputed from its samples so the
 * plot shows values, not order keys. */
static double obs_number(const struct vp_rank_var *v, int dim, uint64_t key, size_t first,
                         size_t last)
{
    if (dim == VP_RANK_DIM_PROC)
        return (double)key;
    if (dim == VP_RANK_DIM_VALUES) {
        uint64_t b = v->values[first];
        if (v->type_kind == VP_TYPE_FLOAT)
            return as_double(v, b);
        return v->type_kind == VP_TYPE_SINT ? (double)(int64_t)b : (double)b;
    }
    uint64_t a = v->values[first], b = v->values[last];
    if (v->type_kind == VP_TYPE_FLOAT)
        return as_double(v, b) - as_double(v, a);
    __int128 d = v->type_kind == VP_TYPE_SINT ? (__int128)(int64_t)b - (__int128)(int64_t)a
                                              : (__int128)b - (__int128)a;
    return (double)d;
}

static void push_number(void *ctx, uint64_t key, size_t first, size_t last)
{
    struct dist_buf *b = ctx;
    if (b->oom)
        return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        double *x = realloc(b->x, cap * sizeof *x);
        if (!x) {
            b->oom = 1;
            return;
        }
        b->x = x;
        b->cap = cap;
    }
    b->x[b->n++] = obs_number(b->v, b->dim, key, first, last);
}

static int cmp_num(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

int vp_rank_var_dist(const struct vp_rank_model *m, const struct vp_rank_var_result *v, int dim,
                     struct vp_rank_dist *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (dim != VP_RANK_DIM_VALUES && dim != VP_RANK_DIM_DELTAS && dim != VP_RANK_DIM_PROC) {
        vp_set_err(err, errlen, "no distribution for dimension %d", dim);
        return -1;
    }
    /* A key with the result's strings, for the same matching as build_groups. */
    struct vp_rank_var key = {.function = (char *)v->function, .file = (char *)v->file,
                              .name = (char *)v->name, .line = v->line};
    struct dist_buf side[2] = {{.dim = dim}, {.dim = dim}};
    struct state st = {.m = m};
    if (m && build_aliases(&st)) {
        free_state(&st);
        vp_set_err(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; m && i < m->nruns; i++) {
        const struct vp_rank_run *r = &m->runs[i];
        struct dist_buf *b = &side[r->slow ? 1 : 0];
        long only = r->slow ? -1 : find_var(r, NULL, &key);
        for (size_t k = 0; k < r->nvars; k++) {
            const struct vp_rank_var *w = &r->vars[k];
            int match = r->slow ? var_key_cmp_files(w, slow_file(&st.al, i, w->file), &key,
                                                    key.file) == 0
                                : only == (long)k;
            if (!match || (dim != VP_RANK_DIM_PROC && !basic_kind(w->type_kind)))
                continue;
            b->v = w;
            for_each_obs(w, dim, push_number, b);
        }
    }
    free_state(&st);
    if (side[0].oom || side[1].oom) {
        free(side[0].x);
        free(side[1].x);
        vp_set_err(err, errlen, "out of memory");
        return -1;
    }
    qsort_n(side[0].x, side[0].n, sizeof(double), cmp_num);
    qsort_n(side[1].x, side[1].n, sizeof(double), cmp_num);
    out->normal = side[0].x;
    out->n_normal = side[0].n;
    out->slow = side[1].x;
    out->n_slow = side[1].n;
    return 0;
}

void vp_rank_dist_free(struct vp_rank_dist *d)
{
    if (!d)
        return;
    free(d->normal);
    free(d->slow);
    memset(d, 0, sizeof *d);
}
