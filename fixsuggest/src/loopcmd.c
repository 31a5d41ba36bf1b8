/*
 * loopcmd.c - the vprof-loop pipeline (vprof/loopcmd.h): functions ->
 * probed run(s) -> loopclass analysis -> fix strategies -> ordered report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jsonread.h"
#include "loopmods.h"
#include "vprof/fixsuggest.h"
#include "vprof/launch.h"
#include "vprof/loopclass.h"
#include "vprof/loopcmd.h"
#include "vprof/loopreport.h"
#include "vprof/profile.h"
#include "vprof/redundancy.h"
#include "vprof/symbols.h"
#include "vprof/outfile.h"

#define MAX_QUOTED_LINES 12

/* The anomalous samples `vprof rank` localised in a loop of a ranked
   function (its anomalous_lines[] with a loop_line, docs/rank.md). */
struct rank_anom {
    char *function, *file, *variable;
    int loop_line;
    uint64_t samples;
    int top_line;              /* its line holding the most samples          */
    uint64_t top_samples;
    struct rank_constraint {   /* the function's missing constraint, when the
                                  pattern variable is the localised one    */
        int missing, values_anomalous;
        uint64_t normal_run, slow_run;
        uint64_t slow_runs;    /* observations of the slow median run      */
        double discount;       /* its processing-cost discount             */
    } pat;
};

struct ctx {
    const struct vp_loopcmd_opts *o;
    struct vp_loop_report rep;
    char **slow_profiles, **normal_profiles; /* from the ranking's inputs       */
    size_t nslow, nnormal;
    char **rank_names;                      /* top-N function names, in order  */
    size_t nrank_names;
    char *passed_over;                      /* the first ranked function without
                                               source, not probed (probeable) */
    struct rank_anom *anoms;                /* where the ranking's anomalous
                                               samples fell, by loop          */
    size_t nanoms;
    char *tmpdir;
};

static void msg(const struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg(const struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", c->o->prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "vprof-loop: out of memory\n");
        exit(VP_LOOPCMD_NOTHING);
    }
    return p;
}

static void *xrealloc(void *old, size_t size)
{
    void *p = realloc(old, size ? size : 1);
    if (!p) {
        fprintf(stderr, "vprof-loop: out of memory\n");
        exit(VP_LOOPCMD_NOTHING);
    }
    return p;
}

/* The last component of a path. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "vprof-loop: out of memory\n");
        exit(VP_LOOPCMD_NOTHING);
    }
    return d;
}

static void push_str(char ***v, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], s) == 0)
            return;
    char **nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv) {
        fprintf(stderr, "vprof-loop: out of memory\n");
        exit(VP_LOOPCMD_NOTHING);
    }
    *v = nv;
    nv[(*n)++] = xstrdup(s);
}

static void free_strv(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* ---- the ranking -------------------------------------------------------- */

/* A rank input path: as written if it exists, else relative to the
   directory of the rank file. */
static char *input_path(const char *rank_json, const char *path)
{
    if (path[0] == '/' || access(path, R_OK) == 0)
        return xstrdup(path);
    const char *slash = strrchr(rank_json, '/');
    if (!slash)
        return xstrdup(path);
    size_t n = (size_t)(slash - rank_json) + strlen(path) + 2;
    char *p = xcalloc(n, 1);
    snprintf(p, n, "%.*s/%s", (int)(slash - rank_json), rank_json, path);
    return p;
}

static void add_rank_row(struct ctx *c, size_t rank, const char *name, const char *file,
                         const char *module, int line, double raw, double cal, double disc,
                         const char *pattern, int selected)
{
    struct vp_loop_report *r = &c->rep;
    struct vp_lr_rank_row *rows = realloc(r->rank, (r->nrank + 1) * sizeof *rows);
    if (!rows) {
        fprintf(stderr, "vprof-loop: out of memory\n");
        exit(VP_LOOPCMD_NOTHING);
    }
    r->rank = rows;
    rows[r->nrank++] = (struct vp_lr_rank_row){
        .rank = rank, .name = xstrdup(name), .file = xstrdup(file),
        .module = module && module[0] ? xstrdup(module) : NULL, .line = line,
        .raw_cost = raw, .calibrated_cost = cal, .discount = disc,
        .pattern = pattern ? xstrdup(pattern) : NULL, .selected = selected};
}

static void set_unattributed_under(struct ctx *c, const struct vp_rank_lib_share *lib, size_t n)
{
    char clause[1024];
    free(c->rep.rank_unattributed_under);
    c->rep.rank_unattributed_under =
        n ? xstrdup(vp_rank_lib_clause(lib, n, clause, sizeof clause)) : NULL;
}

/* a + b, at most UINT64_MAX: sample counts come from a ranking file, which
   may say anything (each count is read up to LLONG_MAX). */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_anom(struct ctx *c, const char *func, const char *file, const char *var,
                     int loop_line, int line, uint64_t samples, const struct rank_constraint *pat)
{
    if (loop_line <= 0 || !samples)
        return;
    for (size_t i = 0; i < c->nanoms; i++) {
        struct rank_anom *a = &c->anoms[i];
        if (a->loop_line == loop_line && strcmp(a->function, func) == 0 &&
            strcmp(a->file, file) == 0) {
            a->samples = sat_add(a->samples, samples);
            if (samples > a->top_samples) {
                a->top_line = line;
                a->top_samples = samples;
            }
            return;
        }
    }
    struct rank_anom *v = realloc(c->anoms, (c->nanoms + 1) * sizeof *v);
    if (!v)
        exit(VP_LOOPCMD_NOTHING);
    c->anoms = v;
    v[c->nanoms++] = (struct rank_anom){.function = xstrdup(func), .file = xstrdup(file),
                                        .variable = xstrdup(var ? var : ""),
                                        .loop_line = loop_line, .samples = samples,
                                        .top_line = line, .top_samples = samples, .pat = *pat};
}

/* Whether a missing constraint's variable went over other values in the
   slow run (vp_fix_constraint.values_anomalous): its values test rejected
   with a discount below DefaultDiscount, and either enough of its slow
   samples lie outside the normal run's range or the two distributions
   differ more than they agree.  The test alone is no such sign: a loop
   over the same 256 slots, sampled 272 times in a short normal run, came
   out rejected with H 0.33 under load (p 0.025, 1 % of the slow samples
   outside the normal range). */
static int values_scale(int rejected, double discount, double default_discount, double outside)
{
    return rejected && discount < default_discount &&
           (outside >= VP_FIX_CONSTRAINT_MIN_OUTSIDE || discount <= VP_FIX_CONSTRAINT_MAX_DISCOUNT);
}

/* A ranking file's missing constraint for function `f` (docs/vprof-loop.md,
   "A constraint the loop is missing"): pattern missing-constraint decided
   by the variable the anomalous lines are of, of a basic type (its entry
   in variables[] says so), with its processing-cost medians when the file
   has them; values_scale() on its values dimension (a file without the
   share outside the normal range, older than it, or with a share that is
   not one, counts it all outside). */
static void json_constraint(const struct vp_jr *f, const char *loc_var, double default_discount,
                            struct rank_constraint *pat)
{
    memset(pat, 0, sizeof *pat);
    const char *pattern = vp_jr_str(f, "pattern", NULL), *pv = vp_jr_str(f, "pattern_variable", NULL);
    if (!pattern || strcmp(pattern, "missing-constraint") != 0 || !pv || !loc_var ||
        strcmp(pv, loc_var) != 0)
        return;
    const struct vp_jr *vars = vp_jr_get(f, "variables");
    for (size_t i = 0; vars && vars->type == VP_JR_ARRAY && i < vars->count; i++) {
        const char *name = vp_jr_str(&vars->items[i], "name", NULL);
        if (!name || strcmp(name, pv) != 0)
            continue;
        /* a loop counter or a condition's scalar: an aggregate or a pointer
           to one "stays the same" as a whole, which no check in the loop
           tests */
        const char *kind = vp_jr_str(&vars->items[i], "kind", "");
        if (strcmp(kind, "sint") != 0 && strcmp(kind, "uint") != 0 &&
            strcmp(kind, "float") != 0 && strcmp(kind, "ptr-basic") != 0)
            return;
        const struct vp_jr *dims = vp_jr_get(&vars->items[i], "dimensions");
        const struct vp_jr *d = vp_jr_get(dims, "processing-cost"), *val = vp_jr_get(dims, "values"),
                           *rej = vp_jr_get(val, "rejected");
        pat->missing = 1;
        /* a share outside 0..1 is no share: as if absent (no skip-loop) */
        double outside = vp_jr_num(val, "slow_outside", 1);
        if (!(outside >= 0 && outside <= 1))
            outside = 1;
        pat->values_anomalous = values_scale(rej && rej->type == VP_JR_BOOL && rej->number != 0,
                                             vp_jr_num(val, "discount", 0), default_discount,
                                             outside);
        pat->normal_run = (uint64_t)vp_jr_int(d, "normal_median_run", 0, LLONG_MAX, 0);
        pat->slow_run = (uint64_t)vp_jr_int(d, "slow_median_run", 0, LLONG_MAX, 0);
        /* a ranking without the count (older) is taken as it was before */
        pat->slow_runs = vp_jr_get(d, "slow_n") ? (uint64_t)vp_jr_int(d, "slow_n", 0, LLONG_MAX, 0)
                                                : UINT64_MAX;
        pat->discount = vp_jr_num(d, "discount", 1);
        return;
    }
}

/* Whether a ranked function can have probed loops: only code with source
   was built by vprof-cc.  A function the ranking names without a file (a
   library's exported function, an assembly routine, a PLT stub) has no loop
   table, so the top N taken for probing pass over it to the next function
   (docs/vprof-loop.md, "Which functions"). */
static int probeable(struct ctx *c, const char *shown, const char *file)
{
    if (file && file[0])
        return 1;
    if (!c->passed_over)
        c->passed_over = xstrdup(shown);
    return 0;
}

/* Rows shown: the top N, at least 5 when there are that many. */
static size_t rows_shown(size_t top, size_t n)
{
    size_t k = top > 5 ? top : 5;
    return k < n ? k : n;
}

static int load_rank_json(struct ctx *c)
{
    const char *path = c->o->rank_json;
    FILE *f = fopen(path, "rb");
    if (!f) {
        msg(c, "cannot read the ranking %s: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (len + got > cap) {
            cap = (len + got) * 2;
            char *t = realloc(text, cap);
            if (!t) {
                free(text);
                fclose(f);
                msg(c, "out of memory");
                return -1;
            }
            text = t;
        }
        memcpy(text + len, buf, got);
        len += got;
    }
    fclose(f);
    char err[256];
    struct vp_jr *j = vp_jr_parse(text ? text : "", len, err, sizeof err);
    free(text);
    if (!j) {
        msg(c, "%s: not valid JSON: %s", path, err);
        return -1;
    }
    const char *schema = vp_jr_str(j, "schema", NULL);
    if (!schema || strcmp(schema, "vprof-rank/1") != 0) {
        msg(c, "%s: not a vprof rank file (schema %s, want vprof-rank/1)", path,
            schema ? schema : "missing");
        vp_jr_free(j);
        return -1;
    }
    const struct vp_jr *inputs = vp_jr_get(j, "inputs");
    for (size_t i = 0; inputs && inputs->type == VP_JR_ARRAY && i < inputs->count; i++) {
        const char *p = vp_jr_str(&inputs->items[i], "path", NULL);
        const char *role = vp_jr_str(&inputs->items[i], "role", "");
        if (!p)
            continue;
        char *full = input_path(path, p);
        if (strcmp(role, "buggy") == 0)
            push_str(&c->slow_profiles, &c->nslow, full);
        else if (strcmp(role, "normal") == 0)
            push_str(&c->normal_profiles, &c->nnormal, full);
        free(full);
    }
    const struct vp_jr *funcs = vp_jr_get(j, "functions");
    double default_discount = vp_jr_num(vp_jr_get(j, "parameters"), "default_discount", 0.8);
    if (!funcs || funcs->type != VP_JR_ARRAY) {
        msg(c, "%s: no functions[] array", path);
        vp_jr_free(j);
        return -1;
    }
    c->rep.rank_unattributed = vp_jr_num(j, "slow_unattributed", 0);
    const struct vp_jr *under = vp_jr_get(j, "slow_unattributed_under");
    struct vp_rank_lib_share lib[VP_RANK_LIB_MAX];
    size_t nlib = 0;
    for (size_t i = 0; under && under->type == VP_JR_ARRAY && i < under->count &&
                       nlib < VP_RANK_LIB_MAX; i++) {
        const struct vp_jr *u = &under->items[i];
        const char *name = vp_jr_str(u, "linkage", vp_jr_str(u, "name", NULL));
        const struct vp_jr *at = vp_jr_get(u, "called_at");
        if (name)
            lib[nlib++] = (struct vp_rank_lib_share){
                name, vp_jr_str(u, "module", "?"), vp_jr_num(u, "share", 0),
                at ? vp_jr_str(at, "file", NULL) : NULL,
                at ? (int)vp_jr_int(at, "line", 0, INT_MAX, 0) : 0,
                at ? vp_jr_str(at, "function", NULL) : NULL};
    }
    set_unattributed_under(c, lib, nlib);
    size_t taken = 0, rows = rows_shown(c->o->top, funcs->count);
    for (size_t i = 0; i < funcs->count; i++) {
        const struct vp_jr *f = &funcs->items[i];
        const char *shown = vp_jr_str(f, "name", NULL);
        if (!shown)
            continue;
        /* the key the loop table knows (C++: the mangled name), "name" is
           what a person reads */
        const char *name = vp_jr_str(f, "linkage", shown);
        int selected = probeable(c, shown, vp_jr_str(f, "file", "")) && taken < c->o->top;
        if (selected) {
            taken++;
            push_str(&c->rank_names, &c->nrank_names, name);
            const struct vp_jr *lines = vp_jr_get(f, "anomalous_lines");
            const char *var = vp_jr_str(f, "anomalous_variable", NULL);
            struct rank_constraint pat;
            json_constraint(f, var, default_discount, &pat);
            for (size_t k = 0; lines && lines->type == VP_JR_ARRAY && k < lines->count; k++)
                add_anom(c, name, vp_jr_str(&lines->items[k], "file", ""), var,
                         (int)vp_jr_int(&lines->items[k], "loop_line", 0, INT_MAX, 0),
                         (int)vp_jr_int(&lines->items[k], "line", 0, INT_MAX, 0),
                         (uint64_t)vp_jr_int(&lines->items[k], "samples", 0, LLONG_MAX, 0), &pat);
        }
        if (i < rows || selected)
            add_rank_row(c, (size_t)vp_jr_int(f, "rank", 1, INT_MAX, (long long)(i + 1)), shown,
                         vp_jr_str(f, "file", ""), vp_jr_str(f, "module", NULL),
                         (int)vp_jr_int(f, "line", 0, INT_MAX, 0),
                         vp_jr_num(f, "raw_cost", 0), vp_jr_num(f, "calibrated_cost", 0),
                         vp_jr_num(f, "discount", 1), vp_jr_str(f, "pattern", NULL),
                         selected);
    }
    vp_jr_free(j);
    return 0;
}

static void take_rank_result(struct ctx *c, const struct vp_rank_result *res)
{
    c->rep.rank_unattributed = res->slow_unattributed;
    set_unattributed_under(c, res->lib, res->nlib);
    size_t taken = 0, rows = rows_shown(c->o->top, res->nfuncs);
    for (size_t i = 0; i < res->nfuncs; i++) {
        const struct vp_rank_func_result *f = &res->funcs[i];
        int selected = probeable(c, vp_rank_func_name(f), f->file) && taken < c->o->top;
        if (selected) {
            taken++;
            push_str(&c->rank_names, &c->nrank_names, f->name);
            struct rank_constraint pat = {0};
            if (f->pattern == VP_RANK_PAT_MISSING_CONSTRAINT && f->pattern_var >= 0 &&
                f->pattern_var == f->loc_var && res->vars[f->pattern_var].basic) {
                const struct vp_rank_var_result *v = &res->vars[f->pattern_var];
                const struct vp_rank_dim_result *d = &v->dims[VP_RANK_DIM_PROC];
                pat.missing = 1;
                const struct vp_rank_dim_result *val = &v->dims[VP_RANK_DIM_VALUES];
                pat.values_anomalous = values_scale(val->rejected, val->discount,
                                                    res->params.default_discount,
                                                    val->slow_outside);
                pat.discount = 1;
                if (d->available) {
                    pat.normal_run = d->normal_median;
                    pat.slow_run = d->slow_median;
                    pat.slow_runs = d->n_slow;
                    pat.discount = d->discount;
                }
            }
            for (size_t k = 0; k < f->nlines; k++)
                add_anom(c, f->name, f->lines[k].file,
                         f->loc_var >= 0 ? res->vars[f->loc_var].name : NULL,
                         f->lines[k].loop_line, f->lines[k].line, f->lines[k].count, &pat);
        }
        if (i < rows || selected)
            add_rank_row(c, f->rank, vp_rank_func_name(f), f->file, f->module, f->line,
                         f->raw_cost_ns / 1e9,
                         f->calibrated_cost_ns / 1e9, f->discount,
                         vp_rank_pattern_name(f->pattern), selected);
    }
}

static int rank_profiles(struct ctx *c)
{
    const struct vp_loopcmd_opts *o = c->o;
    for (size_t i = 0; i < o->nbuggy; i++)
        push_str(&c->slow_profiles, &c->nslow, o->buggy[i]);
    for (size_t i = 0; i < o->nnormal; i++)
        push_str(&c->normal_profiles, &c->nnormal, o->normal[i]);
    if (o->rank) {
        take_rank_result(c, o->rank);
        return 0;
    }
    struct vp_rank_model *m = vp_rank_model_new();
    char err[1024];
    if (!m) {
        msg(c, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < o->nnormal + o->nbuggy; i++) {
        const char *p = i < o->nnormal ? o->normal[i] : o->buggy[i - o->nnormal];
        if (vp_rank_load_profile(m, p, i >= o->nnormal, err, sizeof err) != 0) {
            msg(c, "%s", err);
            vp_rank_model_free(m);
            return -1;
        }
    }
    struct vp_rank_params prm;
    vp_rank_params_default(&prm);
    struct vp_rank_result *res;
    struct vp_loop_locator *loops = vp_rank_use_loop_tables(m);
    int rc = vp_rank_run(m, &prm, &res, err, sizeof err);
    vp_loop_locator_free(loops);
    if (rc != 0) {
        msg(c, "rank: %s", err);
        vp_rank_model_free(m);
        return -1;
    }
    take_rank_result(c, res);
    vp_rank_result_free(res);
    vp_rank_model_free(m);
    return 0;
}

/* ---- does the ranking belong to this binary? ----------------------------- */

static int is_script(const char *path);

/* Which of `names` (as a user or a ranking gives them: the plain, the
   linkage or the qualified C++ name) are functions of `exe` or of a module
   in `mods`, concrete or only inlined: known[i] = 1.  Returns -1, with every name known, when the
   executable's symbols cannot be read (nothing can be said). */
static int known_functions(const char *exe, const struct vp_loopmods *mods, const char *const *names,
                           size_t n, unsigned char *known)
{
    for (size_t m = 0; m <= mods->n; m++) {
        struct vp_symtab *st;
        char err[1024];
        if (vp_symtab_open(m ? mods->mod[m - 1].path : exe, NULL, 0, &st, err, sizeof err) != 0) {
            if (m)
                continue;
            memset(known, 1, n);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            known[i] = known[i] || vp_symtab_has_function(st, names[i]);
        vp_symtab_close(st);
    }
    return 0;
}

static int check_same_binary(struct ctx *c, const char *exe, const struct vp_loopmods *mods)
{
    const char *base = base_name(exe);
    char real_exe[PATH_MAX];
    if (!realpath(exe, real_exe))
        snprintf(real_exe, sizeof real_exe, "%s", exe);
    /* The binary's build-id, read once: a slow profile must have recorded a
       module with it.  One of the binary's name with another build-id is
       another build of it; none at all, another program, whatever names
       the two share (main, a library's).  A script is left to the name
       check below. */
    if (is_script(exe))
        return 0;
    uint8_t id[32];
    size_t idlen = vp_elf_build_id(exe, id, sizeof id);
    for (size_t i = 0; i < c->nslow; i++) {
        struct vp_profile *p;
        char err[1024];
        if (vp_profile_open(c->slow_profiles[i], &p, err, sizeof err) != 0)
            continue; /* reported where the samples are read */
        int seen = 0;
        const char *other = NULL; /* a module of the binary's name, another build-id */
        for (size_t m = 0; m < p->module_count && !seen; m++) {
            const struct vp_prof_module *mod = &p->modules[m];
            const char *mp = vp_profile_str(p, mod->path);
            mp = mp ? mp : "";
            seen = idlen && mod->build_id_len == idlen && memcmp(mod->build_id, id, idlen) == 0;
            if (!seen && mod->build_id_len &&
                (strcmp(mp, real_exe) == 0 || strcmp(base_name(mp), base) == 0))
                other = mp;
        }
        const char *first = p->module_count ? vp_profile_str(p, p->modules[0].path) : NULL;
        if (!seen && other)
            msg(c, "the ranking is from another build of %s: its slow profile %s recorded "
                   "%s with a different build-id; record and rank again",
                exe, c->slow_profiles[i], other);
        else if (!seen && idlen && p->module_count)
            msg(c, "the ranking is from another program: its slow profile %s recorded %s, not "
                   "%s (no module with its build-id); rank profiles of this program",
                c->slow_profiles[i], first ? first : "?", exe);
        int refused = !seen && (other || (idlen && p->module_count));
        vp_profile_close(p);
        if (refused)
            return -1;
    }
    /* Names: some top function must exist in the binary or in a library
       of it built with vprof-cc. */
    if (!c->nrank_names)
        return 0;
    char shown0[512];
    unsigned char *known = xcalloc(c->nrank_names, 1);
    int found = known_functions(exe, mods, (const char *const *)c->rank_names, c->nrank_names,
                                known) != 0;
    for (size_t i = 0; i < c->nrank_names; i++)
        found |= known[i];
    free(known);
    if (!found) {
        msg(c, "the ranking is from another binary: none of its top %zu functions (%s%s) is "
               "in %s",
            c->nrank_names, vp_func_display(c->rank_names[0], shown0, sizeof shown0), c->nrank_names > 1 ? ", ..." : "", exe);
        return -1;
    }
    return 0;
}

/* ---- probed runs ---------------------------------------------------------- */

static void drop_warning(void *ctx, const char *m)
{
    (void)ctx;
    (void)m; /* the variable index does not matter for loop counts */
}

/* A recording's profiles: the process it started, then those it forked
   (vp_profile_open_tree), whose loops count as the run's too. */
struct tree {
    struct vp_profile **p;
    size_t n;
};

static const struct vp_profile *const *tree_profiles(const struct tree *t)
{
    return (const struct vp_profile *const *)t->p;
}

static void tree_close(struct tree *t)
{
    vp_profile_close_tree(t->p, t->n);
    t->p = NULL;
    t->n = 0;
}

/* Runs argv with the probes of `names` on; returns 0 with *t open, 1 if
   the workload failed (profiles may still be open), -1 launcher error
   (message printed; *status_code = exit status to use). */
static int probed_run(struct ctx *c, char *const *argv, const struct vp_loopcmd_io *io,
                      const char *label, const char *names, struct tree *t, int *wstatus,
                      int *code)
{
    char out[PATH_MAX], env[8192], err[2048];
    snprintf(out, sizeof out, "%s/%s.vprof", c->tmpdir, label);
    int w = snprintf(env, sizeof env, "VPROF_LOOP_FUNCTIONS=%s", names);
    if (w < 0 || (size_t)w >= sizeof env) {
        msg(c, "too many functions to probe");
        *code = VP_LOOPCMD_USAGE;
        return -1;
    }
    const char *envv[] = {env, NULL};
    struct vp_launch_opts lo;
    vp_launch_opts_init(&lo);
    lo.argv = argv;
    lo.output = out;
    lo.env = envv;
    lo.stdout_fd = 2; /* the report owns stdout */
    lo.warn = drop_warning;
    int in_fd, out_fd; /* `< FILE`, `> FILE` of the command line, opened anew each run */
    if (vp_loopcmd_io_open(io, &in_fd, &out_fd, err, sizeof err) != 0) {
        msg(c, "%s run: %s", label, err);
        *code = VP_LOOPCMD_USAGE;
        return -1;
    }
    lo.stdin_fd = in_fd;
    if (out_fd >= 0)
        lo.stdout_fd = out_fd;
    struct vp_launch_result r;
    int rc = vp_launch_run(&lo, &r, err, sizeof err);
    if (in_fd >= 0)
        close(in_fd);
    if (out_fd >= 0)
        close(out_fd);
    if (rc != VP_LAUNCH_OK) {
        msg(c, "%s run: %s", label, err);
        *code = rc == VP_LAUNCH_USAGE ? VP_LOOPCMD_USAGE : VP_LOOPCMD_NOTHING;
        return -1;
    }
    *wstatus = r.status;
    int failed = !(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
    if (failed) {
        if (WIFEXITED(r.status))
            msg(c, "the %s workload exited with status %d: results cover the run up to its end",
                label, WEXITSTATUS(r.status));
        else
            msg(c, "the %s workload was killed by signal %d: results cover the run up to there",
                label, WTERMSIG(r.status));
    }
    t->p = NULL;
    t->n = 0;
    if (access(r.output, F_OK) != 0) {
        msg(c, "the %s run of %s wrote no profile (%s)", label, argv[0],
            vp_launch_no_profile_why(r.output, 0));
        *code = VP_LOOPCMD_NOTHING;
        return -1;
    }
    /* with the processes the workload forked, which write profiles of
       their own (docs/vprof-loop.md, "Forked processes") */
    if (vp_profile_open_tree(r.output, &t->p, &t->n, err, sizeof err) != 0) {
        msg(c, "the %s run's profile is not valid: %s", label, err);
        *code = VP_LOOPCMD_NOTHING;
        return -1;
    }
    return failed;
}

/* ---- PC samples per loop ------------------------------------------------- */

/* A PC's function and inline chain (vp_resolve_inline_chain): the code of
   an inlined call belongs to the loops around its call site too. */
struct pc_slot {
    uint64_t pc;
    const char *func;
    const char *key; /* the concrete function's vp_func_key */
    struct vp_line_frame fr[VP_INLINE_FRAMES_MAX];
    int nframes, used;
};

struct pc_cache {
    struct pc_slot *slots;
    size_t cap, n;
};

static struct pc_slot *cache_get(struct pc_cache *pc, struct vp_resolver *res, uint64_t addr)
{
    if (pc->n * 2 >= pc->cap) {
        size_t ncap = pc->cap ? pc->cap * 2 : 4096;
        struct pc_slot *ns = xcalloc(ncap, sizeof *ns);
        for (size_t i = 0; i < pc->cap; i++) {
            if (!pc->slots[i].used)
                continue;
            size_t h = (size_t)(pc->slots[i].pc * 0x9e3779b97f4a7c15ull) & (ncap - 1);
            while (ns[h].used)
                h = (h + 1) & (ncap - 1);
            ns[h] = pc->slots[i];
        }
        free(pc->slots);
        pc->slots = ns;
        pc->cap = ncap;
    }
    size_t h = (size_t)(addr * 0x9e3779b97f4a7c15ull) & (pc->cap - 1);
    while (pc->slots[h].used) {
        if (pc->slots[h].pc == addr)
            return &pc->slots[h];
        h = (h + 1) & (pc->cap - 1);
    }
    struct pc_slot *s = &pc->slots[h];
    s->used = 1;
    s->pc = addr;
    s->nframes = (int)vp_resolve_inline_chain(res, addr, s->fr, VP_INLINE_FRAMES_MAX);
    const struct vp_func *f = vp_resolve_func(res, addr);
    s->func = f ? f->name : NULL;
    s->key = f ? vp_func_key(f->name, f->linkage) : NULL;
    pc->n++;
    return s;
}

struct sel_loop {
    const struct vp_loop_info *info;
    uint64_t samples;
    size_t function_rank;
    const char *inlined_into; /* the selected function it is inlined into   */
    uint64_t anom_own;       /* the ranking's anomalous samples whose innermost
                                loop is this one                               */
    uint64_t anom_in;        /* ... in this loop or a loop inside it (the
                                recursion holds its function's loops)          */
    uint64_t anom_total;     /* ... in any loop of its function                */
    int anom_marked;         /* the loop the anomaly points to (mark_anomaly)  */
    const char *anom_variable;
    const struct rank_anom *anom_top; /* marked: of the anomalies in it or in
                                loops inside it, the one with the top line */
};

/* Whether sel[k] and sel[j] are loops of the same function (and file). */
static int same_function(const struct vp_loop_info *a, const struct vp_loop_info *b)
{
    return strcmp(a->function, b->function) == 0 && strcmp(a->file, b->file) == 0;
}

/* The function the ranking names for a selected loop: the one it is
   inlined into (rank names the concrete function), else its own. */
static const char *owner(const struct sel_loop *s)
{
    return s->inlined_into ? s->inlined_into : s->info->function;
}

/* Whether two selected loops are loops of one ranked function (and file):
   a static helper's loops inlined into it are its loops too. */
static int same_owner(const struct sel_loop *a, const struct sel_loop *b)
{
    return strcmp(owner(a), owner(b)) == 0 && strcmp(a->info->file, b->info->file) == 0;
}

/* The ranking's anomalous samples in selected loop `s`, of its own
   function or of the function it is inlined into (whose code `vprof rank`
   reports, its anomalous lines in the helper's loop when the helper is of
   the same file); the file matches exactly or, for a ranking made
   elsewhere, by its last component. */
static const struct rank_anom *anom_of(const struct ctx *c, const struct sel_loop *s)
{
    const struct vp_loop_info *l = s->info;
    const char *lb = base_name(l->file);
    for (size_t i = 0; i < c->nanoms; i++) {
        const struct rank_anom *a = &c->anoms[i];
        if (a->loop_line != (int)l->line ||
            (strcmp(a->function, l->function) != 0 && strcmp(a->function, l->linkage) != 0 &&
             (!s->inlined_into || strcmp(a->function, s->inlined_into) != 0)))
            continue;
        if (strcmp(a->file, l->file) == 0 || strcmp(base_name(a->file), lb) == 0)
            return a;
    }
    return NULL;
}

/* The loop enclosing sel[k] among the selected loops (-1: none): its
   parent, or for an outermost loop the recursion of its function. */
static long enclosing(const struct sel_loop *sel, size_t nsel, size_t k)
{
    const struct vp_loop_info *l = sel[k].info;
    if (l->kind == VP_LOOP_RECURSION)
        return -1;
    for (size_t j = 0; j < nsel; j++) {
        const struct vp_loop_info *p = sel[j].info;
        if (l->parent_id ? p->loop_id == l->parent_id && p->kind != VP_LOOP_RECURSION
                         : p->kind == VP_LOOP_RECURSION && same_function(p, l))
            return (long)j;
    }
    return -1;
}

/* Which loop of each function the ranking's anomaly points to
   (docs/vprof-loop.md, "Where the ranking's anomaly is"): `vprof rank`
   gives each anomalous line its innermost loop; the mark goes to the
   innermost loop that holds at least VP_ANOM_SHARE of the function's
   anomalous samples counting those of the loops inside it, else (the
   samples spread over loops not nested in one another) to the loop that
   holds the most.  A variable anomalous in an inner loop marks that loop; one
   that changes in an outer loop and is sampled in both (pg14b1's retry
   count) marks the outer one.  The compiler's copies of a loop share its
   line: the first takes the samples. */
#define VP_ANOM_SHARE 0.9
static void mark_anomaly(const struct ctx *c, struct sel_loop *sel, size_t nsel)
{
    for (size_t k = 0; k < nsel; k++) {
        const struct rank_anom *a = anom_of(c, &sel[k]);
        int twin = 0;
        for (size_t j = 0; j < k && !twin; j++)
            twin = sel[j].info->line == sel[k].info->line &&
                   sel[j].info->kind == sel[k].info->kind && same_function(sel[j].info, sel[k].info);
        sel[k].anom_own = a && !twin ? a->samples : 0;
        sel[k].anom_variable = a ? a->variable : NULL;
        sel[k].anom_in = sel[k].anom_total = 0;
        sel[k].anom_marked = 0;
    }
    for (size_t k = 0; k < nsel; k++) {
        if (!sel[k].anom_own)
            continue;
        /* up the nesting; a table with a cycle stops after nsel steps */
        long j = (long)k;
        for (size_t steps = 0; j >= 0 && steps < nsel; steps++, j = enclosing(sel, nsel, (size_t)j))
            sel[j].anom_in = sat_add(sel[j].anom_in, sel[k].anom_own);
        for (size_t q = 0; q < nsel; q++)
            if (same_owner(&sel[q], &sel[k]))
                sel[q].anom_total = sat_add(sel[q].anom_total, sel[k].anom_own);
    }
    for (size_t k = 0; k < nsel; k++) {
        if (!sel[k].anom_in)
            continue;
        /* the best of its function: held share first, then depth, then count */
        size_t best = k;
        for (size_t q = 0; q < nsel; q++) {
            if (!sel[q].anom_in || !same_owner(&sel[q], &sel[k]))
                continue;
            double tq = (double)sel[q].anom_total;
            int hq = sel[q].anom_in >= VP_ANOM_SHARE * tq,
                hb = sel[best].anom_in >= VP_ANOM_SHARE * tq;
            int dq = sel[q].info->kind == VP_LOOP_RECURSION ? 0 : sel[q].info->depth,
                db = sel[best].info->kind == VP_LOOP_RECURSION ? 0 : sel[best].info->depth;
            if (hq != hb ? hq
                : hq     ? dq > db || (dq == db && sel[q].anom_in > sel[best].anom_in)
                         : sel[q].anom_in > sel[best].anom_in ||
                               (sel[q].anom_in == sel[best].anom_in && dq > db))
                best = q;
        }
        sel[best].anom_marked = 1;
    }
    /* the marked loop's top line: the line holding most samples among the
       anomalies of the loops it holds (itself included) */
    for (size_t b = 0; b < nsel; b++) {
        sel[b].anom_top = NULL;
        if (!sel[b].anom_marked)
            continue;
        for (size_t k = 0; k < nsel; k++) {
            const struct rank_anom *a = sel[k].anom_own ? anom_of(c, &sel[k]) : NULL;
            if (!a || (sel[b].anom_top && a->top_samples <= sel[b].anom_top->top_samples))
                continue;
            long j = (long)k;
            for (size_t steps = 0; j >= 0 && steps < nsel && (size_t)j != b; steps++)
                j = enclosing(sel, nsel, (size_t)j);
            if (j == (long)b)
                sel[b].anom_top = a;
        }
    }
}

/* Whether frame i of a PC's inline chain lies in selected loop `sl`: a
   natural loop by its file and lines (code inlined into it belongs to it
   too) and, for a loop inlined into another function, by that function,
   whose code the PC must be in; a recursion by the concrete function,
   whose frame is the chain's last one. */
static int frame_in_loop(const struct pc_slot *s, int i, const struct sel_loop *sl)
{
    const struct vp_loop_info *l = sl->info;
    int last = s->nframes > 0 ? s->nframes - 1 : 0;
    if (l->kind == VP_LOOP_RECURSION)
        return i == last && s->func && strcmp(s->func, l->function) == 0;
    if (i >= s->nframes || (sl->inlined_into && s->key && strcmp(s->key, l->host) != 0))
        return 0;
    uint32_t end = l->end_line >= l->line ? l->end_line : l->line;
    return s->fr[i].line > 0 && (uint32_t)s->fr[i].line >= l->line &&
           (uint32_t)s->fr[i].line <= end && strcmp(s->fr[i].file, l->file) == 0;
}

/* The basename of the module holding `pc` in profile `p`; NULL unknown. */
static const char *module_base(const struct vp_profile *p, uint64_t pc)
{
    const struct vp_prof_module *m = vp_profile_module_of(p, pc);
    const char *path = m ? vp_profile_str(p, m->path) : NULL;
    return path ? base_name(path) : NULL;
}

/* Whether a sample's innermost PC is vprof's own code: the runtime library
   or a __vprof_ helper or stub the pass put into the program (the probes of
   a probed run; docs/vprof-loop.md, "Ordering"). */
static int in_vprof(const struct vp_profile *p, const struct pc_slot *s)
{
    if (s->func && strncmp(s->func, "__vprof_", 8) == 0)
        return 1;
    return vp_profile_in_runtime(p, s->pc);
}

/* One frame of a sample's stack, the inline frames of each PC one by one:
   its line and the function that holds that line (`key`, vp_func_key;
   NULL when the PC has no symbol, then `module`, the basename of its
   module, or NULL). */
struct walk_frame {
    int line;
    const char *file;
    const char *key, *module;
    const char *concrete; /* the key of the function whose code holds the PC */
};

/* A sample's frames, innermost (0) first, and its innermost PC's concrete
   function (the leaf: key or module as above). */
struct walk_stack {
    const struct walk_frame *fr;
    int n;
    const char *leaf_key, *leaf_module;
};

/* Where one sample's stack meets each selected loop: inner[k] and outer[k]
   are the innermost and outermost frames in loop k, indices into st->fr;
   -1 when no frame is in it. */
typedef void (*sample_fn)(void *arg, uint64_t wgt, const int *inner, const int *outer,
                          const struct walk_stack *st);

/* Calls fn for each sample of profile `p`, leaving out those in vprof's own
   code (their weight added to *skipped when given); returns the weight of
   the samples passed to fn. */
static uint64_t walk_samples(const struct vp_profile *p, const struct sel_loop *sel, size_t nsel,
                             uint64_t *skipped, sample_fn fn, void *arg)
{
    struct vp_resolver *res = vp_resolver_new(p);
    if (!res)
        return 0;
    struct pc_cache cache = {0};
    uint64_t total = 0;
    int *inner = xcalloc(nsel ? nsel : 1, sizeof *inner);
    int *outer = xcalloc(nsel ? nsel : 1, sizeof *outer);
    struct walk_frame *wf = NULL;
    size_t wcap = 0;
    for (size_t i = 0; i < p->pc_count; i++) {
        const struct vp_pc_sample *s = p->pc_samples[i];
        uint64_t wgt = VP_PC_SAMPLE_WEIGHT(s->flags);
        const struct pc_slot *leaf = cache_get(&cache, res, s->pc);
        if (in_vprof(p, leaf)) {
            if (skipped)
                *skipped += wgt;
            continue;
        }
        total += wgt;
        struct walk_stack st = {NULL, 0, leaf->key, leaf->key ? NULL : module_base(p, s->pc)};
        for (size_t k = 0; k < nsel; k++)
            inner[k] = outer[k] = -1;
        const uint64_t *callers = vp_pc_sample_callers(s);
        int base = 0;
        for (size_t d = 0; d <= s->depth; d++) {
            uint64_t a = d == 0 ? s->pc : callers[d - 1] - 1;
            if (d && callers[d - 1] == 0)
                continue;
            const struct pc_slot *slot = cache_get(&cache, res, a);
            int nf = slot->nframes > 0 ? slot->nframes : 1;
            if ((size_t)(base + nf) > wcap) {
                wcap = (size_t)(base + nf) * 2;
                wf = xrealloc(wf, wcap * sizeof *wf);
            }
            for (int f = 0; f < nf; f++) {
                struct walk_frame *w = &wf[base + f];
                w->line = f < slot->nframes ? slot->fr[f].line : 0;
                w->file = f < slot->nframes ? slot->fr[f].file : NULL;
                w->key = f < slot->nframes && slot->fr[f].function
                             ? vp_func_key(slot->fr[f].function, slot->fr[f].linkage)
                             : slot->key;
                w->module = w->key ? NULL : module_base(p, a);
                w->concrete = slot->key;
                for (size_t k = 0; k < nsel; k++)
                    if (frame_in_loop(slot, f, &sel[k])) {
                        if (inner[k] < 0)
                            inner[k] = base + f;
                        outer[k] = base + f;
                    }
            }
            base += nf;
        }
        st.fr = wf;
        st.n = base;
        fn(arg, wgt, inner, outer, &st);
    }
    free(wf);
    free(inner);
    free(outer);
    free(cache.slots);
    vp_resolver_free(res);
    return total;
}

/* ---- where a loop's time is, line by line ----------------------------------- */

static char *shown_dup(const char *key);
static char *trimmed_line(const char *path, uint32_t line);

/* The samples of one loop at one of its lines, by the function called
   there (NULL: its own code) and the leaf function running (NULL: the
   same), as keys or "[module]". */
struct line_cell {
    uint32_t line;
    char *callee, *leaf;
    uint64_t w;
    uint64_t unwind; /* of w, samples under the C++ unwinder */
};

/* The entry points of C++ exception unwinding (libgcc_s, libstdc++): a
   sample under one of them is the cost of a thrown exception. */
static int unwinder(const char *key)
{
    static const char *const names[] = {"_Unwind_RaiseException", "_Unwind_Resume",
                                        "_Unwind_Resume_or_Rethrow", "_Unwind_ForcedUnwind",
                                        "__cxa_throw", "__cxa_rethrow"};
    for (size_t i = 0; key && i < sizeof names / sizeof *names; i++)
        if (strcmp(key, names[i]) == 0)
            return 1;
    return 0;
}

/* The program's line that called the system-header code holding a loop (a
   C++ algorithm inlined from /usr/include), with its samples. */
struct call_cell {
    char *file;
    uint32_t line;
    uint64_t w;
};

struct line_acc {
    struct line_cell *v;
    size_t n, cap;
    struct call_cell *calls;
    size_t ncalls, capcalls;
};

/* Adds a sample of loop `k`, whose outermost frame in the loop is st->fr[g],
   to the program line that called it, when the loop is in a system header:
   the first frame outward in the program's own source. */
static void count_call_site(struct line_acc *acc, const struct walk_stack *st, int g, uint64_t wgt)
{
    if (g < 0 || g >= st->n || !st->fr[g].file || !vp_system_source(st->fr[g].file))
        return;
    while (g < st->n && (!st->fr[g].file || vp_system_source(st->fr[g].file)))
        g++;
    if (g >= st->n || st->fr[g].line <= 0)
        return;
    const struct walk_frame *f = &st->fr[g];
    for (size_t i = 0; i < acc->ncalls; i++)
        if (acc->calls[i].line == (uint32_t)f->line && strcmp(acc->calls[i].file, f->file) == 0) {
            acc->calls[i].w += wgt;
            return;
        }
    if (acc->ncalls == acc->capcalls) {
        acc->capcalls = acc->capcalls ? acc->capcalls * 2 : 4;
        acc->calls = xrealloc(acc->calls, acc->capcalls * sizeof *acc->calls);
    }
    acc->calls[acc->ncalls++] = (struct call_cell){xstrdup(f->file), (uint32_t)f->line, wgt};
}

struct lines_arg {
    struct line_acc *acc; /* per selected loop */
    uint64_t *count;      /* per selected loop: the samples in it           */
    size_t nsel;
};

/* A frame's function, as a key, or "[module]" (buf), or NULL unknown. */
static const char *frame_name(const char *key, const char *module, char *buf, size_t n)
{
    if (key)
        return key;
    if (!module)
        return NULL;
    snprintf(buf, n, "[%s]", module);
    return buf;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static void lines_one(void *arg, uint64_t wgt, const int *inner, const int *outer,
                      const struct walk_stack *st)
{
    struct lines_arg *a = arg;
    char cb[256], lb[256];
    const char *leaf = frame_name(st->leaf_key, st->leaf_module, lb, sizeof lb);
    int unwound = st->n; /* the innermost frame of the C++ unwinder, once per sample */
    for (int f = 0; f < st->n && unwound == st->n; f++)
        if (unwinder(st->fr[f].key))
            unwound = f;
    for (size_t k = 0; k < a->nsel; k++) {
        int g = inner[k];
        if (g < 0)
            continue;
        a->count[k] += wgt;
        count_call_site(&a->acc[k], st, outer[k], wgt);
        if (g >= st->n || st->fr[g].line <= 0)
            continue;
        const char *callee = NULL, *lf = NULL;
        if (g > 0 && !same_str(st->fr[g - 1].key, st->fr[g].key)) {
            callee = frame_name(st->fr[g - 1].key, st->fr[g - 1].module, cb, sizeof cb);
            /* a leaf in the loop's own function is code inlined into it */
            lf = same_str(leaf, callee) || same_str(leaf, st->fr[g].concrete) ? NULL : leaf;
        }
        struct line_acc *acc = &a->acc[k];
        struct line_cell *c = NULL;
        for (size_t i = 0; i < acc->n && !c; i++)
            if (acc->v[i].line == (uint32_t)st->fr[g].line && same_str(acc->v[i].callee, callee) &&
                same_str(acc->v[i].leaf, lf))
                c = &acc->v[i];
        if (!c) {
            if (acc->n == acc->cap) {
                acc->cap = acc->cap ? acc->cap * 2 : 8;
                acc->v = xrealloc(acc->v, acc->cap * sizeof *acc->v);
            }
            c = &acc->v[acc->n++];
            c->line = (uint32_t)st->fr[g].line;
            c->callee = callee ? xstrdup(callee) : NULL;
            c->leaf = lf ? xstrdup(lf) : NULL;
            c->w = 0;
            c->unwind = 0;
        }
        c->w += wgt;
        if (unwound < g) /* under the line's call */
            c->unwind += wgt;
    }
}

/* Adds the samples of profile `p` to out[k] for each selected loop k (its
   innermost frame in the loop on the sample's stack), and to acc[k] line
   by line, leaving out those in vprof's own code. */
static void count_lines(const struct vp_profile *p, const struct sel_loop *sel, size_t nsel,
                        uint64_t *out, struct line_acc *acc)
{
    struct lines_arg a = {acc, out, nsel};
    walk_samples(p, sel, nsel, NULL, lines_one, &a);
}

/* The call site with the most samples, into L (docs/vprof-loop.md, "Loops
   in system headers"); ties go to the first seen. */
static void take_call_site(const struct line_acc *acc, struct vp_lr_loop *L)
{
    const struct call_cell *best = NULL;
    for (size_t i = 0; i < acc->ncalls; i++)
        if (!best || acc->calls[i].w > best->w)
            best = &acc->calls[i];
    if (!best)
        return;
    free(L->call_file);
    free(L->call_text);
    L->call_file = xstrdup(best->file);
    L->call_line = best->line;
    L->call_text = trimmed_line(best->file, best->line);
    L->in.lib_header = base_name(L->file);
    L->in.lib_call_file = base_name(L->call_file);
    L->in.lib_call_line = L->call_line;
}

static void lines_free(struct line_acc *acc, size_t nsel)
{
    for (size_t k = 0; acc && k < nsel; k++) {
        for (size_t i = 0; i < acc[k].n; i++) {
            free(acc[k].v[i].callee);
            free(acc[k].v[i].leaf);
        }
        free(acc[k].v);
        for (size_t i = 0; i < acc[k].ncalls; i++)
            free(acc[k].calls[i].file);
        free(acc[k].calls);
    }
    free(acc);
}

/* The samples of `acc` at `line` (those called `callee` only, unless
   any_callee). */
static uint64_t line_weight(const struct line_acc *acc, uint32_t line, int any_callee,
                            const char *callee)
{
    uint64_t w = 0;
    for (size_t i = 0; acc && i < acc->n; i++)
        if (acc->v[i].line == line && (any_callee || same_str(acc->v[i].callee, callee)))
            w += acc->v[i].w;
    return w;
}

/* One of in->hot: `line`, the function called there with most of its
   slow samples, and the leaf running in most of those. */
static void hot_entry(const struct vp_loop_info *l, const struct line_acc *s,
                      const struct line_acc *n, double speriod, double nperiod, uint32_t line,
                      struct vp_fix_hot_line *h)
{
    const struct line_cell *top = NULL, *leaf = NULL;
    for (size_t i = 0; i < s->n; i++) /* the callee with most samples there */
        if (s->v[i].line == line &&
            (!top || line_weight(s, line, 0, s->v[i].callee) > line_weight(s, line, 0, top->callee)))
            top = &s->v[i];
    for (size_t i = 0; top && top->callee && i < s->n; i++)
        if (s->v[i].line == line && same_str(s->v[i].callee, top->callee) &&
            (!leaf || s->v[i].w > leaf->w))
            leaf = &s->v[i];
    h->line = line;
    h->text = trimmed_line(l->file, line);
    h->slow_samples = line_weight(s, line, 1, NULL);
    h->normal_samples = line_weight(n, line, 1, NULL);
    h->slow_seconds = (double)h->slow_samples * speriod;
    h->normal_seconds = (double)h->normal_samples * nperiod;
    if (top && top->callee)
        h->callee = top->callee[0] == '[' ? xstrdup(top->callee) : shown_dup(top->callee);
    if (leaf && leaf->leaf)
        h->leaf = leaf->leaf[0] == '[' ? xstrdup(leaf->leaf) : shown_dup(leaf->leaf);
    uint64_t unwind = 0; /* the line's slow samples under the unwinder */
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].line == line)
            unwind += s->v[i].unwind;
    h->unwinding = h->slow_samples && 2 * unwind > h->slow_samples;
}

/* in->hot for a loop from its line samples in the probed slow run (s) and
   normal run (n), whose counts in->slow and in->normal are: the
   VP_FIX_HOT_LINES lines with the most time added per iteration (more
   than none), most first; at equal time the first line first. */
static void take_hot_lines(const struct vp_loop_info *l, const struct line_acc *s,
                           const struct line_acc *n, double speriod, double nperiod,
                           struct vp_fix_input *in)
{
    if (!in->slow.iterations || !in->normal.ran || !in->normal.iterations)
        return;
    uint32_t line[VP_FIX_HOT_LINES] = {0};
    double add[VP_FIX_HOT_LINES] = {0};
    for (size_t i = 0; i < s->n; i++) {
        uint32_t L = s->v[i].line;
        int seen = 0;
        for (size_t q = 0; q < VP_FIX_HOT_LINES; q++)
            seen |= line[q] == L;
        double a = (double)line_weight(s, L, 1, NULL) * speriod / (double)in->slow.iterations -
                   (double)line_weight(n, L, 1, NULL) * nperiod / (double)in->normal.iterations;
        if (seen || a <= 0)
            continue;
        /* insert into the top list */
        size_t q = VP_FIX_HOT_LINES;
        while (q > 0 && (!line[q - 1] || a > add[q - 1] || (a == add[q - 1] && L < line[q - 1])))
            q--;
        if (q >= VP_FIX_HOT_LINES)
            continue;
        memmove(&line[q + 1], &line[q], (VP_FIX_HOT_LINES - 1 - q) * sizeof *line);
        memmove(&add[q + 1], &add[q], (VP_FIX_HOT_LINES - 1 - q) * sizeof *add);
        line[q] = L;
        add[q] = a;
    }
    for (size_t q = 0; q < VP_FIX_HOT_LINES && line[q]; q++)
        hot_entry(l, s, n, speriod, nperiod, line[q], &in->hot[q]);
}

/* The step of loop `l`'s strided access at `line` per source iteration,
   in bytes, from `red` (0: none measured there). */
static int64_t stride_at(const struct vp_red_result *red, const struct vp_loop_info *l,
                         uint32_t line, unsigned unroll)
{
    for (size_t i = 0; red && i < red->loop_count; i++) {
        const struct vp_red_loop_result *r = &red->loops[i];
        if (r->loop_id != l->loop_id || r->callsite)
            continue;
        for (size_t k = 0; k < r->nstrides; k++)
            if (r->strides[k].line == line && (r->strides[k].instances || r->strides[k].constant))
                return unroll > 1 ? r->strides[k].bytes / (int64_t)unroll : r->strides[k].bytes;
    }
    return 0;
}

/* in->hot[].stride_bytes and normal_stride_bytes: a strided access on
   each line that holds added time (docs/vprof-loop.md, "Strided walks"). */
static void take_strides(const struct vp_red_result *red, const struct vp_red_result *nred,
                         const struct vp_loop_info *l, struct vp_fix_input *in)
{
    for (size_t q = 0; q < VP_FIX_HOT_LINES && in->hot[q].line; q++) {
        in->hot[q].stride_bytes = stride_at(red, l, in->hot[q].line, in->unroll_factor);
        in->hot[q].normal_stride_bytes = stride_at(nred, l, in->hot[q].line, in->unroll_factor);
    }
}

/* in->result_call_*: the loop's samples in the calls made at its in-body
   call sites, which loopclass counts as results when they run (a call that
   may write memory), from its line samples `s` in the probed slow run.  A
   cell counts when the call at its line is that site's call: same line,
   same callee.  A store inlined at a line is left out: the inlined code
   may run without reaching it (docs/vprof-loop.md, "Results that hold the
   time"). */
static void take_result_calls(const struct vp_loop_info *l, const struct line_acc *s,
                              struct vp_fix_input *in)
{
    const struct line_cell *top = NULL;
    uint64_t top_w = 0;
    for (size_t i = 0; i < s->n; i++) {
        const struct line_cell *c = &s->v[i];
        int site = 0;
        for (size_t q = 0; q < l->site_count && !site && c->callee; q++) {
            const struct vp_loop_site_info *si = &l->sites[q];
            site = si->in_body && (si->kind == VP_SITE_CALL || si->kind == VP_SITE_EXTERNAL) &&
                   si->line == c->line && si->callee && *si->callee &&
                   strcmp(si->callee, c->callee) == 0;
        }
        if (!site)
            continue;
        in->result_call_samples += c->w;
        uint64_t w = line_weight(s, c->line, 0, c->callee);
        if (w > top_w) {
            top = c;
            top_w = w;
        }
    }
    if (top) {
        in->result_call_line = top->line;
        in->result_call_callee = shown_dup(top->callee);
    }
}

/* in->syscalls and in->syscall_samples: the loop's system calls for a few
   bytes that run in every iteration (loop table VP_SITEF_SYSCALL_BYTES),
   and its samples in any call at their lines (the C library's wrapper and
   the kernel below it, whatever the wrapper's symbol is called). */
static void take_syscalls(const struct vp_loop_info *l, const struct line_acc *s,
                          struct vp_fix_input *in)
{
    for (size_t q = 0; q < l->site_count && in->nsyscalls < VP_FIX_SYSCALLS_MAX; q++) {
        const struct vp_loop_site_info *si = &l->sites[q];
        if (!si->syscall_bytes || !si->line)
            continue;
        int seen = 0; /* one line counts once */
        for (size_t k = 0; k < in->nsyscalls; k++)
            seen |= in->syscalls[k].line == si->line;
        in->syscalls[in->nsyscalls++] = (struct vp_fix_syscall){
            .line = si->line, .callee = xstrdup(si->callee), .bytes = si->syscall_bytes};
        if (!seen)
            for (size_t i = 0; i < s->n; i++)
                if (s->v[i].line == si->line && s->v[i].callee)
                    in->syscall_samples += s->v[i].w;
    }
}

/* ---- shares, and the time in the loops a loop calls ------------------------- */

static int informative(const struct vp_lr_loop *l);

/* The walk of the profiles the shares come from.  It adds each sample to
   sel[k].samples of every loop k it is in, and, for the callee note
   (docs/vprof-loop.md, "Time in the loops it calls"), to the loops' counts
   of samples that have a "root" of another function in a deeper frame:
   a diagnosed loop with an informative root cause, the compiler's copies
   of a source loop folded into one root.  any[L]: such samples of loop L;
   pair[L * nroot + r]: those in root r. */
struct share_arg {
    struct sel_loop *sel;
    size_t nsel, nroot, nrsel;
    long *root;             /* per sel: its root index, -1 when none        */
    size_t *rsel;           /* the selected loops that are roots (nrsel)    */
    size_t *rep_of;         /* per root: a report loop of it                */
    uint64_t *any, *pair;
    unsigned char *seen;    /* per root: scratch                            */
};

static void share_one(void *arg, uint64_t wgt, const int *inner, const int *outer,
                      const struct walk_stack *st)
{
    (void)st;
    struct share_arg *a = arg;
    for (size_t l = 0; l < a->nsel; l++) {
        if (outer[l] < 0)
            continue;
        a->sel[l].samples += wgt;
        if (!a->nroot)
            continue;
        int any = 0;
        memset(a->seen, 0, a->nroot);
        for (size_t x = 0; x < a->nrsel; x++) {
            size_t q = a->rsel[x];
            long r = a->root[q];
            if (inner[q] < 0 || inner[q] >= outer[l] ||
                same_function(a->sel[q].info, a->sel[l].info))
                continue;
            any = 1;
            if (!a->seen[r]) {
                a->seen[r] = 1;
                a->pair[l * a->nroot + (size_t)r] += wgt;
            }
        }
        if (any)
            a->any[l] += wgt;
    }
}

/* share_one and lines_one in one walk (the shares from the probed run). */
struct shares_lines_arg {
    struct share_arg *shares;
    struct lines_arg lines;
};

static void shares_lines_one(void *arg, uint64_t wgt, const int *inner, const int *outer,
                             const struct walk_stack *st)
{
    struct shares_lines_arg *a = arg;
    share_one(a->shares, wgt, inner, outer, st);
    lines_one(&a->lines, wgt, inner, outer, st);
}

/* The roots among the diagnosed loops (repsel[i]: the selected loop of
   report loop i), before the walk. */
static void share_init(struct share_arg *a, const struct ctx *c, struct sel_loop *sel,
                       size_t nsel, const size_t *repsel)
{
    memset(a, 0, sizeof *a);
    a->sel = sel;
    a->nsel = nsel;
    a->root = xcalloc(nsel ? nsel : 1, sizeof *a->root);
    a->rsel = xcalloc(nsel ? nsel : 1, sizeof *a->rsel);
    a->rep_of = xcalloc(nsel ? nsel : 1, sizeof *a->rep_of);
    for (size_t k = 0; k < nsel; k++)
        a->root[k] = -1;
    for (size_t i = 0; i < c->rep.nloops; i++) {
        size_t k = repsel[i];
        if (!informative(&c->rep.loops[i]))
            continue;
        long r = -1; /* a copy of a root already seen */
        for (size_t q = 0; q < k && r < 0; q++)
            if (a->root[q] >= 0 && sel[q].info->line == sel[k].info->line &&
                sel[q].info->kind == sel[k].info->kind && same_function(sel[q].info, sel[k].info))
                r = a->root[q];
        if (r < 0) {
            r = (long)a->nroot;
            a->rep_of[a->nroot++] = i;
        }
        a->root[k] = r;
        a->rsel[a->nrsel++] = k;
    }
    a->any = xcalloc(nsel ? nsel : 1, sizeof *a->any);
    a->pair = xcalloc(nsel && a->nroot ? nsel * a->nroot : 1, sizeof *a->pair);
    a->seen = xcalloc(a->nroot ? a->nroot : 1, 1);
}

/* Starts the counts again (a slow profile of the ranking could not be read). */
static void share_reset(struct share_arg *a)
{
    for (size_t k = 0; k < a->nsel; k++)
        a->sel[k].samples = a->any[k] = 0;
    memset(a->pair, 0, (a->nsel && a->nroot ? a->nsel * a->nroot : 1) * sizeof *a->pair);
}

static void share_free(struct share_arg *a)
{
    free(a->root);
    free(a->rsel);
    free(a->rep_of);
    free(a->any);
    free(a->pair);
    free(a->seen);
}

/* Whether root b's loop lies inside root a's (same function, lines within). */
static int nested_in(const struct vp_loop_info *b, const struct vp_loop_info *a)
{
    uint32_t ae = a->end_line >= a->line ? a->end_line : a->line;
    return same_function(a, b) && b->line >= a->line && b->line <= ae;
}

/* Report loop i's callees (vp_fix_input.callees) from the walk: the roots
   below it, most samples first, when they hold at least
   VP_FIX_CALLEE_MIN_SHARE of its samples. */
static void take_callees(const struct ctx *c, const struct share_arg *a, const size_t *repsel,
                         size_t i, size_t *order)
{
    size_t k = repsel[i];
    struct vp_fix_input *in = &c->rep.loops[i].in;
    uint64_t own = a->sel[k].samples;
    in->ncallees = 0;
    if (!a->nroot || own < VP_FIX_CALLEE_MIN_SAMPLES ||
        (double)a->any[k] < VP_FIX_CALLEE_MIN_SHARE * (double)own)
        return;
    const uint64_t *row = &a->pair[k * a->nroot];
    size_t n = 0;
    for (size_t r = 0; r < a->nroot; r++)
        if (row[r])
            order[n++] = r;
    for (size_t x = 1; x < n; x++) /* most samples first, then table order */
        for (size_t y = x; y > 0 && row[order[y]] > row[order[y - 1]]; y--) {
            size_t t = order[y];
            order[y] = order[y - 1];
            order[y - 1] = t;
        }
    for (size_t x = 0; x < n && in->ncallees < VP_FIX_CALLEES_MAX; x++) {
        const struct vp_lr_loop *C = &c->rep.loops[a->rep_of[order[x]]];
        const struct vp_loop_info *ci = a->sel[repsel[a->rep_of[order[x]]]].info;
        int inside = 0; /* an inner loop of one already listed */
        for (size_t y = 0; y < x && !inside; y++)
            inside = nested_in(ci, a->sel[repsel[a->rep_of[order[y]]]].info);
        if (inside)
            continue;
        in->callees[in->ncallees++] = (struct vp_fix_callee){
            .function = C->function, .line = C->line, .categories = C->fix.categories,
            .samples = row[order[x]], .instances = C->in.slow.instances,
            .waits = C->in.wait_line != 0, .header = C->in.lib_header,
            .call_file = C->in.lib_call_file, .call_line = C->in.lib_call_line};
    }
    in->callee_samples = a->any[k];
    in->loop_samples = own;
}

/* A loop that waits (vp_fix_input.wait_line): an in-body call waits in
   every iteration (loop table VP_SITEF_WAIT_EVERY_ITER) and every other
   in-body call waits too.  A server's loop that accepts, or polls, and then
   calls its handlers does work besides waiting: not such a loop
   (docs/vprof-loop.md, "Loops that wait"). */
static char *shown_dup(const char *key);
static size_t wait_site(const struct vp_loop_info *l)
{
    size_t w = l->site_count;
    for (size_t s = 0; s < l->site_count; s++) {
        const struct vp_loop_site_info *si = &l->sites[s];
        if (!si->in_body || (si->kind != VP_SITE_CALL && si->kind != VP_SITE_EXTERNAL &&
                             si->kind != VP_SITE_INDIRECT))
            continue;
        if (!si->wait_every_iteration)
            return l->site_count;
        if (w == l->site_count && si->line)
            w = s;
    }
    return w;
}

static void take_wait(const struct vp_loop_info *l, struct vp_fix_input *in)
{
    size_t w = wait_site(l);
    if (w < l->site_count) {
        in->wait_line = l->sites[w].line;
        in->wait_callee = shown_dup(l->sites[w].callee);
    }
}

/* ---- source ----------------------------------------------------------------- */

/* Lines [from, to] of `path` (at most MAX_QUOTED_LINES), right-trimmed and
   tabs expanded to 4 columns; 0 lines when the file is not readable. */
static char **read_lines(const char *path, uint32_t from, uint32_t to, size_t *n)
{
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f || from == 0)
        return f ? (fclose(f), NULL) : NULL;
    if (to < from)
        to = from;
    if (to - from + 1 > MAX_QUOTED_LINES)
        to = from + MAX_QUOTED_LINES - 1;
    char **v = xcalloc(to - from + 1, sizeof *v);
    char *line = NULL;
    size_t cap = 0;
    uint32_t no = 0;
    while (getline(&line, &cap, f) >= 0) {
        if (++no < from)
            continue;
        if (no > to)
            break;
        size_t len = strcspn(line, "\r\n");
        while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            len--;
        char *o = xcalloc(len * 4 + 1, 1);
        size_t w = 0;
        for (size_t i = 0; i < len; i++) {
            if (line[i] == '\t') {
                do
                    o[w++] = ' ';
                while (w % 4);
            } else {
                o[w++] = line[i];
            }
        }
        v[(*n)++] = o;
    }
    free(line);
    fclose(f);
    if (!*n) {
        free(v);
        return NULL;
    }
    return v;
}

static char *trimmed_line(const char *path, uint32_t line)
{
    size_t n;
    char **v = read_lines(path, line, line, &n);
    if (!v)
        return NULL;
    const char *s = v[0];
    while (*s == ' ')
        s++;
    char *t = xstrdup(s);
    free_strv(v, n);
    return t;
}

/* The side effect a skip-loop condition names: the first one in the body
   that surely is one.  A call through a pointer is a side effect only when
   its callee turns out to write (docs/loopclass.md, "Calls through
   pointers"), so a router's `matchers[i]->matches(req)` on line 75 is named
   only when the body has nothing else; the `chosen = ...` it guards is. */
static const struct vp_loop_site_info *condition_site(const struct vp_loop_info *l)
{
    const struct vp_loop_site_info *any = NULL;
    for (size_t s = 0; s < l->site_count; s++) {
        const struct vp_loop_site_info *si = &l->sites[s];
        if (!si->in_body)
            continue;
        if (si->kind != VP_SITE_INDIRECT)
            return si;
        if (!any)
            any = si;
    }
    return any;
}

/* ---- the report ------------------------------------------------------------ */

/* Whether a loop's diagnosis says more than its static class: a root
   cause other than a bare 1*. */
static int informative(const struct vp_lr_loop *l)
{
    return (l->fix.categories & ~(unsigned)VP_FIX_CAT_ONE_STAR) != 0;
}

/* By share of the slow run; at equal share (a recursion and the loop that
   tail-recursion elimination made of it cover the same samples) the loop
   with an informative root cause first, then the one with more work. */
static int cmp_loops(const void *a, const void *b)
{
    const struct vp_lr_loop *x = a, *y = b;
    if (x->samples != y->samples)
        return x->samples > y->samples ? -1 : 1;
    if (informative(x) != informative(y))
        return informative(x) ? -1 : 1;
    if (x->in.slow.iterations != y->in.slow.iterations)
        return x->in.slow.iterations > y->in.slow.iterations ? -1 : 1;
    int f = strcmp(x->file, y->file);
    if (f)
        return f;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->loop_id < y->loop_id ? -1 : x->loop_id > y->loop_id;
}

/* The selected loops that never ran or have no probes, on stderr: each one
   when there are at most IDLE_NAMED, else their numbers (the report names
   each: a ranked function's inlined helpers bring many loops that did not
   run, 14 on bc). */
#define IDLE_NAMED 3
static void idle_messages(struct ctx *c)
{
    size_t unprobed = 0;
    for (size_t i = 0; i < c->rep.nidle; i++)
        unprobed += c->rep.idle[i].unprobed != 0;
    if (c->rep.nidle > IDLE_NAMED) {
        size_t never = c->rep.nidle - unprobed;
        if (never)
            msg(c, "%zu of the selected loops never ran in the slow run (the report names them)",
                never);
        if (unprobed)
            msg(c, "%zu of the selected loops were not probed: vprof-cc could not copy their "
                   "functions for the probes (the report names them)", unprobed);
        return;
    }
    for (size_t i = 0; i < c->rep.nidle; i++) {
        const struct vp_lr_idle *v = &c->rep.idle[i];
        msg(c, "the %s in %s at %s:%u %s", v->kind == VP_LOOP_RECURSION ? "recursion" : "loop",
            v->function, base_name(v->file), v->line,
            v->unprobed ? "was not probed: vprof-cc could not copy its function for the probes"
                        : "never ran in the slow run");
    }
}

/* Nested loops whose time is almost all in the inner one have almost the
   same share: tinyxml2's attribute parse loop (99.4 %) and the duplicate
   search inlined into it (99.3 %), whose cross-loop verdict is the finding.
   A loop moves above the loop just before it when its share is less than
   2 % (relative) smaller and it says more: an informative root cause where
   the other has none, or, when both diagnoses say as much, a function the
   ranking puts higher (a callee's loop above the driver loop that calls
   it; fixsuggest.order). */
#define LIFT_SHARE 0.98
#define INSIDE_SHARE 0.9
static int is_callee_of(const struct vp_lr_loop *c, const struct vp_fix_input *in);

/* Whether loop l runs inside loop o: nested in it (its parent chain among
   the report's loops), in the code of o's recursive function, or one of
   the loops of called functions o's callee note names. */
static int runs_inside(const struct vp_loop_report *rep, const struct vp_lr_loop *l,
                       const struct vp_lr_loop *o)
{
    if (o->kind == VP_LOOP_RECURSION)
        return l != o && strcmp(l->inlined_into ? l->inlined_into : l->function, o->function) == 0;
    if (is_callee_of(l, &o->in))
        return 1;
    uint64_t p = l->parent_id;
    for (size_t hops = 0; p && hops < rep->nloops; hops++) {
        if (p == o->loop_id)
            return 1;
        uint64_t up = 0;
        for (size_t i = 0; i < rep->nloops && !up; i++)
            if (rep->loops[i].loop_id == p)
                up = rep->loops[i].parent_id;
        p = up;
    }
    return 0;
}

static int lifts_above(const struct vp_loop_report *rep, const struct vp_lr_loop *l,
                       const struct vp_lr_loop *prev)
{
    int ranked = l->function_rank && prev->function_rank && l->function_rank != prev->function_rank;
    if ((double)l->samples >= LIFT_SHARE * (double)prev->samples) {
        if (informative(l) != informative(prev))
            return informative(l);
        if (ranked)
            return l->function_rank < prev->function_rank;
    }
    /* Both have a root cause and the ranking does not part them: a loop
       inside the other that holds nearly all of its samples is where the
       time goes (a recursion and the partition loop inlined into it,
       97.6 % of its 100 %; fixsuggest.order). */
    return !ranked && informative(l) && informative(prev) &&
           (double)l->samples >= INSIDE_SHARE * (double)prev->samples && runs_inside(rep, l, prev);
}

static void lift_loops(struct vp_loop_report *rep)
{
    for (size_t i = 1; i < rep->nloops; i++)
        for (size_t j = i; j > 0 && lifts_above(rep, &rep->loops[j], &rep->loops[j - 1]); j--) {
            struct vp_lr_loop t = rep->loops[j];
            rep->loops[j] = rep->loops[j - 1];
            rep->loops[j - 1] = t;
        }
}

/* A loop without a root cause of its own whose time is nearly all in the
   loops of functions it calls that have one (vp_fix_input.callees, "Time in
   the loops it calls") is a driver: it moves below the last of those
   loops, so that the findings come first.  A program inserting sorted keys
   into an unbalanced tree listed main's 1* loop (98.7 %) above the 0*1?
   searches of insert (87.8 %) and lookup (10.7 %) that hold 99.8 % of its
   samples (docs/vprof-loop.md, "Ordering"; fixsuggest.order). */
#define SINK_SHARE 0.9
static int is_callee_of(const struct vp_lr_loop *c, const struct vp_fix_input *in)
{
    for (size_t k = 0; k < in->ncallees; k++)
        if (in->callees[k].line == c->line && strcmp(in->callees[k].function, c->function) == 0)
            return 1;
    return 0;
}

static void sink_drivers(struct vp_loop_report *rep)
{
    for (size_t i = 0; i < rep->nloops;) {
        const struct vp_fix_input *in = &rep->loops[i].in;
        size_t last = i;
        if (!informative(&rep->loops[i]) && in->ncallees &&
            (double)in->callee_samples >= SINK_SHARE * (double)in->loop_samples)
            for (size_t j = i + 1; j < rep->nloops; j++)
                if (is_callee_of(&rep->loops[j], in))
                    last = j;
        if (last == i) {
            i++;
            continue;
        }
        /* moved below its last callee loop, which it then follows: another
           loop is at i now, and this one will not move again */
        struct vp_lr_loop t = rep->loops[i];
        memmove(&rep->loops[i], &rep->loops[i + 1], (last - i) * sizeof t);
        rep->loops[last] = t;
    }
}

/* Folds the compiler's copies of one source loop (same function, file,
   line, column and kind, inlined into the same function: the vectorizer's
   body and scalar remainder, a versioned or unswitched loop) into the
   first of them in report order, which cmp_loops makes the one with the
   most samples, then an informative root cause, then the most iterations.
   Each copy keeps its own diagnosis (vp_lr_loop.copies); the report lists
   the source loop once instead of once per copy, each with the same
   share.  Copies inlined into two functions are two loops. */
static void fold_copies(struct vp_loop_report *rep)
{
    size_t kept = 0;
    for (size_t i = 0; i < rep->nloops; i++) {
        struct vp_lr_loop *l = &rep->loops[i];
        size_t p = 0;
        while (p < kept && !(rep->loops[p].line == l->line && rep->loops[p].column == l->column &&
                             rep->loops[p].kind == l->kind &&
                             strcmp(rep->loops[p].function, l->function) == 0 &&
                             strcmp(rep->loops[p].file, l->file) == 0 &&
                             !rep->loops[p].inlined_into == !l->inlined_into &&
                             (!l->inlined_into ||
                              strcmp(rep->loops[p].inlined_into, l->inlined_into) == 0)))
            p++;
        if (p == kept) {
            rep->loops[kept++] = *l;
            continue;
        }
        struct vp_lr_loop *prim = &rep->loops[p];
        if (!prim->rank_samples && l->rank_samples) { /* the mark goes with the loop */
            prim->rank_samples = l->rank_samples;
            prim->rank_total = l->rank_total;
            prim->rank_variable = l->rank_variable;
            l->rank_samples = l->rank_total = 0;
            l->rank_variable = NULL;
            if (l->in.constraint.missing) { /* and the fix it brings */
                prim->in.constraint = l->in.constraint;
                memset(&l->in.constraint, 0, sizeof l->in.constraint);
                vp_fix_suggest(&prim->in, &prim->fix);
                vp_fix_suggest(&l->in, &l->fix);
            }
        }
        struct vp_lr_loop *v = realloc(prim->copies, (prim->ncopies + 1) * sizeof *v);
        if (!v)
            exit(VP_LOOPCMD_NOTHING);
        prim->copies = v;
        v[prim->ncopies++] = *l;
    }
    rep->nloops = kept;
}

static void to_counts(const struct vp_loop_result *r, struct vp_fix_counts *c)
{
    memset(c, 0, sizeof *c);
    if (!r || r->verdict == VP_LOOP_NOT_RUN)
        return;
    c->ran = 1;
    c->instances = r->instances;
    c->iterations = r->iterations;
    c->result_iterations = r->result_iterations;
    c->max_iterations = r->max_iterations;
    c->avg_iterations = r->avg_iterations;
}

/* Analysis of the counters in `p` against table `t`: results in table order
   (NULL when the profile has no counters).  With `recorded`, (*recorded)[i]
   says whether the run had loop i's probes on (a counter record, even of a
   loop that never ran); NULL, as the results, when no loop had them: a
   profile of `vprof record` carries an empty counts section, which says
   nothing about any loop. */
static struct vp_loop_result *analyze(struct ctx *c, const struct vp_loop_table *t,
                                      const struct tree *run, const char *label,
                                      unsigned char **recorded)
{
    struct vp_loop_counts *counts;
    char err[1024];
    if (vp_loop_counts_from_profiles(tree_profiles(run), run->n, &counts, err, sizeof err) != 0) {
        msg(c, "%s: %s", label, err);
        return NULL;
    }
    if (recorded) {
        size_t any = 0;
        *recorded = xcalloc(t->loop_count ? t->loop_count : 1, 1);
        for (size_t i = 0; i < t->loop_count; i++)
            for (size_t k = 0; counts && k < counts->record_count && !(*recorded)[i]; k++)
                if (counts->records[k].loop_id == t->loops[i].loop_id) {
                    (*recorded)[i] = 1;
                    any++;
                }
        if (!any) {
            free(*recorded);
            *recorded = NULL;
            vp_loop_counts_free(counts);
            return NULL;
        }
    }
    struct vp_loop_result *res = NULL;
    size_t n;
    if (vp_loop_analyze(t, counts, NULL, &res, &n, err, sizeof err) != 0) {
        msg(c, "%s: %s", label, err);
        res = NULL;
    }
    vp_loop_counts_free(counts);
    return res;
}

static int write_report(struct ctx *c)
{
    const struct vp_loopcmd_opts *o = c->o;
    int color = o->color;
    FILE *out = stdout;
    char *tmp = NULL;
    if (o->output) {
        size_t n = strlen(o->output) + 32;
        tmp = xcalloc(n, 1);
        snprintf(tmp, n, "%s.tmp.%ld", o->output, (long)getpid());
        if (!(out = vp_fopen_new(tmp))) {
            msg(c, "%s: %s", tmp, strerror(errno));
            free(tmp);
            return -1;
        }
        if (color < 0)
            color = 0;
    }
    if (color < 0) {
        const char *nc = getenv("NO_COLOR");
        color = isatty(fileno(out)) && !(nc && *nc) && o->format == VP_LR_TEXT;
    }
    if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
        color = 0;
    int rc = vp_lr_write(out, &c->rep, o->format, color);
    if (o->output) {
        if (fclose(out) != 0)
            rc = -1;
        if (rc == 0 && rename(tmp, o->output) != 0) {
            msg(c, "%s: %s", o->output, strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(tmp);
        free(tmp);
    }
    if (rc != 0)
        msg(c, "writing %s failed", o->output ? o->output : "the report");
    return rc;
}


/* What a report shows for a function key (C++: qualified, demangled). */
static char *shown_dup(const char *key)
{
    char buf[4096]; /* C++ names run to kilobytes */
    return xstrdup(vp_func_display(key, buf, sizeof buf));
}

/* The redundancy analysis' verdicts for one loop; measured only when the
   run sampled its iterations or instances. */
static void take_redundancy(const struct vp_red_result *red, const struct vp_loop_table *table,
                            const struct vp_loop_info *loop, struct vp_fix_redundancy *d)
{
    uint64_t loop_id = loop->loop_id;
    /* The loop's repeated-call units: the one whose calls repeat earlier
       ones with the highest rate, else the string scan whose calls rescan
       the previous call's string the most often, else the most sampled
       one.  A unit is shown once some of its calls were sampled: enough of
       them for a rate, or pairs enough for a rescan verdict. */
    const struct vp_red_loop_result *best = NULL;
    int best_rank = 0;
    for (size_t i = 0; i < red->loop_count; i++) {
        const struct vp_red_loop_result *u = &red->loops[i];
        if (!u->callsite || u->parent_id != loop_id ||
            (u->sampled_iterations < VP_RED_CALL_MIN_SAMPLES && !u->cl_redundant))
            continue;
        int rank = u->ci_redundant ? 2 : u->cl_redundant ? 1 : 0;
        if (!best || rank > best_rank ||
            (rank == best_rank &&
             (rank == 2   ? u->ci_rate > best->ci_rate
              : rank == 1 ? u->cl_rate > best->cl_rate
                          : u->sampled_iterations > best->sampled_iterations))) {
            best = u;
            best_rank = rank;
        }
    }
    if (best) {
        d->measured = 1;
        d->call_callee = shown_dup(best->function); /* freed with the report */
        d->call_line = best->line;
        d->call_via = best->via ? shown_dup(best->via) : NULL;
        d->call_via_line = best->via_line;
        d->call_sampled = best->sampled_iterations;
        d->call_distinct = best->distinct_signatures;
        d->call_rate = best->ci_rate;
        d->call_redundant = best->ci_redundant;
        d->call_rescan = best->cl_redundant;
        d->call_pairs = best->pairs_compared;
        d->call_rescan_rate = best->cl_rate;
        d->call_rescan_repeated =
            best->mean_pair_distance >= 0 ? 1.0 - best->mean_pair_distance : 0;
        d->call_copies = (best->static_flags & VP_REDF_COPY) != 0;
        d->call_setup = (best->static_flags & VP_REDF_SETUP) != 0;
        d->call_sorts = (best->static_flags & VP_REDF_SORT) != 0;
        d->call_pure = (best->static_flags & VP_REDF_PURE) != 0;
        d->call_shifted = d->call_copies && best->pairs_redundant_shifted * 2 > best->pairs_redundant;
        /* a call that does I/O on every call, in every iteration: its
           repetition is batched, not cached (docs/vprof-loop.md,
           "Repeated calls that do I/O") */
        for (size_t s = 0; s < loop->site_count; s++)
            if (loop->sites[s].io_every_iteration && loop->sites[s].line == best->line &&
                strcmp(loop->sites[s].callee, best->function) == 0)
                d->call_io = 1;
        /* a callee whose loop waits in every iteration: the calls repeat
           a wait (docs/vprof-loop.md, "Loops that wait") */
        for (size_t i = 0; i < table->loop_count && !d->call_wait_line; i++) {
            const struct vp_loop_info *l = &table->loops[i];
            if (strcmp(vp_func_key(l->function, l->linkage), best->function) == 0 &&
                wait_site(l) < l->site_count)
                d->call_wait_line = l->line;
        }
    }
    for (size_t i = 0; i < red->loop_count; i++) {
        const struct vp_red_loop_result *r = &red->loops[i];
        if (r->loop_id != loop_id)
            continue;
        d->over_budget = (r->static_flags & VP_REDF_OVER_BUDGET) != 0;
        if (!r->sampled_iterations && !r->sampled_instances && !r->ci_impossible)
            return;
        d->measured = 1;
        d->cross_iteration = r->ci_redundant;
        d->cross_loop = r->cl_redundant;
        d->cross_iteration_rate = r->ci_rate;
        d->cross_loop_rate = r->cl_rate;
        d->sampled_iterations = r->sampled_iterations;
        d->distinct_iterations = r->distinct_signatures;
        d->distinct_estimated = r->ci_estimated;
        d->sampled_instances = r->sampled_instances;
        d->pairs_compared = r->pairs_compared;
        d->pairs_by_earlier = r->pairs_redundant_earlier;
        d->ci_ruled_out = r->ci_impossible;
        /* freed with the report */
        d->constant_object = r->constant_object ? xstrdup(r->constant_object) : NULL;
        d->io_every_iteration = r->ci_fix == VP_RED_FIX_BATCHING;
        d->constant_writes = r->cl_fix != VP_RED_FIX_BATCHING;
        d->repeated_per_instance = r->mean_pair_distance >= 0 ? 1.0 - r->mean_pair_distance : 0;
        return;
    }
}

static int loop_of(const struct vp_loop_info *l, const char *name)
{
    return strcmp(l->function, name) == 0 || strcmp(l->linkage, name) == 0;
}

/* A name given as a report shows it ("tinyxml2::XMLElement::ParseDeep")
   becomes the keys of the functions with loops it names (every overload),
   which the loop table and the runtime's gate know. */
static void qualified_to_keys(const struct vp_loop_table *t, char ***names, size_t *nnames)
{
    size_t n = *nnames;
    for (size_t i = 0; i < n; i++) {
        if (!strstr((*names)[i], "::"))
            continue;
        char *want = (*names)[i];
        int replaced = 0;
        for (size_t k = 0; k < t->loop_count; k++) {
            const struct vp_loop_info *l = &t->loops[k];
            const char *key = vp_func_key(l->function, l->linkage);
            char buf[4096]; /* C++ names run to kilobytes */
            if (key == l->function || strcmp(vp_func_display(key, buf, sizeof buf), want) != 0)
                continue;
            if (!replaced) {
                (*names)[i] = xstrdup(key);
                replaced = 1;
            } else {
                push_str(names, nnames, key);
            }
        }
        if (replaced)
            free(want);
    }
}

/* Whether `name` (a key, or a name a user gave) names the function whose
   key is `host` and whose name as reports show it is `shown`: the key
   itself, that name, or its last component. */
static int names_host(const char *host, const char *shown, const char *name)
{
    if (strcmp(host, name) == 0)
        return 1;
    size_t n = strlen(shown), m = strlen(name);
    return strcmp(shown, name) == 0 ||
           (n > m + 2 && strcmp(shown + n - m, name) == 0 && shown[n - m - 1] == ':');
}

/* The loops of `t` in the functions `names` (the first `nrank` from the
   ranking; the first `nuser` chosen, the rest inlined into them) into
   `sel` (t->loop_count entries).  A loop inlined into another function
   (its host, vp_loop_info.host) is a loop of that function when it is
   chosen, else of its own function when that one is; each inlined copy
   is selected with its own host.  A concrete copy of a function that is
   only inlined into a chosen one is not selected.  Returns the number
   selected. */
static size_t select_loops(const struct vp_loop_table *t, char **names, size_t nuser,
                           size_t nrank, struct sel_loop *sel)
{
    size_t nsel = 0;
    const char *shown_of = NULL, *shown = ""; /* a host's loops are in a row */
    char buf[4096]; /* C++ names run to kilobytes */
    for (size_t i = 0; i < t->loop_count; i++) {
        const struct vp_loop_info *l = &t->loops[i];
        int inlined = strcmp(l->host, vp_func_key(l->function, l->linkage)) != 0;
        size_t own = 0, at = nuser;
        while (own < nuser && !loop_of(l, names[own]))
            own++;
        if (inlined && l->host != shown_of) {
            shown = vp_func_display(l->host, buf, sizeof buf);
            shown_of = l->host;
        }
        for (size_t k = 0; inlined && k < nuser && at == nuser; k++)
            if (names_host(l->host, shown, names[k]))
                at = k;
        size_t h = at < nuser ? at : own;
        if (h == nuser)
            continue;
        sel[nsel].info = l;
        sel[nsel].samples = 0;
        sel[nsel].function_rank = h < nrank ? h + 1 : 0;
        sel[nsel].inlined_into = inlined ? l->host : NULL;
        nsel++;
    }
    return nsel;
}

/* Functions inlined into the selected ones (docs/vprof-loop.md, "Loops
   inlined into a selected function"): rank names the concrete function
   whose code holds a sample, and the loops of a static helper inlined into
   it are in the loop table under the helper's name.  Their names open the
   runtime's gate to those loops whatever name the user gave. */
struct inlined_ctx {
    const struct vp_loop_table *t;
    char ***names;
    size_t *nnames;
};

static void add_inlined_name(const char *name, void *arg)
{
    struct inlined_ctx *x = arg;
    for (size_t i = 0; i < *x->nnames; i++)
        if (strcmp((*x->names)[i], name) == 0)
            return;
    size_t i = 0;
    while (i < x->t->loop_count && !loop_of(&x->t->loops[i], name))
        i++;
    if (i == x->t->loop_count)
        return; /* no loop of its own: nothing to select */
    push_str(x->names, x->nnames, name);
}

/* Appends to `names` (the first `nuser` chosen) the functions with loops
   that DWARF shows inlined into a chosen one, in the modules of `mods`.
   A module without debug information adds nothing. */
static void add_inlined(const struct vp_loopmods *mods, char ***names, size_t *nnames,
                        size_t nuser)
{
    for (size_t m = 0; m < mods->n; m++) {
        if (!mods->mod[m].table)
            continue;
        struct vp_symtab *st = NULL;
        char err[512];
        if (vp_symtab_open(mods->mod[m].path, NULL, 0, &st, err, sizeof err) != 0)
            continue;
        struct inlined_ctx x = {.t = mods->merged, .names = names, .nnames = nnames};
        for (size_t k = 0; k < nuser; k++)
            vp_symtab_inlined_into(st, (*names)[k], add_inlined_name, &x);
        vp_symtab_close(st);
    }
}

/* Whether another selected loop at the same place (function, file, line
   and column) ran: the vectorizer, loop versioning and unswitching copy a
   loop, each copy with its own table entry, and the copy that did not run
   (a scalar remainder, say) is not a loop that "never ran". */
static int same_place(const struct vp_loop_info *a, const struct vp_loop_info *b)
{
    return b->line == a->line && b->column == a->column && strcmp(b->function, a->function) == 0 &&
           strcmp(b->file, a->file) == 0 && strcmp(b->host, a->host) == 0;
}

static int twin_ran(const struct vp_loop_table *t, const struct sel_loop *sel, size_t nsel,
                    const struct vp_loop_result *res, size_t k)
{
    for (size_t j = 0; j < nsel; j++)
        if (j != k && res[sel[j].info - t->loops].verdict != VP_LOOP_NOT_RUN &&
            same_place(sel[k].info, sel[j].info))
            return 1;
    return 0;
}

/* Whether a copy of the same loop comes earlier in `sel`: a loop none of
   whose copies ran is said to have never run once, not once per copy. */
static int twin_before(const struct sel_loop *sel, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (same_place(sel[k].info, sel[j].info))
            return 1;
    return 0;
}

/* The gate list: every selected function once, including those whose loops
   are not known before the run (a module loaded with dlopen). */
static void gate_list(char **names, size_t nnames, char *probe, size_t probe_size)
{
    probe[0] = 0;
    for (size_t k = 0; k < nnames; k++) {
        char want[1024], have[8200];
        snprintf(want, sizeof want, ",%s,", names[k]);
        snprintf(have, sizeof have, ",%s,", probe);
        if (!strstr(have, want) && strlen(probe) + strlen(names[k]) + 2 < probe_size) {
            if (probe[0])
                strcat(probe, ",");
            strcat(probe, names[k]);
        }
    }
}

/* Whether `path` is a script ("#!"), not a binary. */
static int is_script(const char *path)
{
    char head[2] = {0, 0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(head, 1, 2, f);
    fclose(f);
    return n == 2 && head[0] == '#' && head[1] == '!';
}

/* A module whose loop table cannot be read: said, and its loops left out. */
static void skip_module(void *ctx, const char *err)
{
    msg(ctx, "%s: its loops are left out", err);
}

/* Modules that registered loops in the probed run and are not known yet
   (loaded with dlopen): their tables join `mods`.  Returns 1 if any did. */
static int add_run_modules(struct ctx *c, struct vp_loopmods *mods, const struct tree *run)
{
    struct vp_loop_counts *counts;
    char err[1024];
    if (vp_loop_counts_from_profiles(tree_profiles(run), run->n, &counts, err, sizeof err) != 0 ||
        !counts)
        return 0;
    int added = 0;
    for (size_t i = 0; i < counts->module_count; i++) {
        if (!counts->module_paths[i][0])
            continue;
        int r = vp_loopmods_add(mods, counts->module_paths[i], err, sizeof err);
        if (r == 1)
            added = 1;
        else if (r < 0)
            skip_module(c, err); /* relative to another working directory, say */
    }
    vp_loop_counts_free(counts);
    return added;
}

/* The --function names that are functions of neither the binary nor a
   module of `mods`: each said (`where`: what else was searched), as a
   typo would otherwise only show as a function without loops, with what
   happens to it: `fate_all` when every name is unknown and no ranking
   gives others, else `fate_some`.  Returns how many. */
static size_t unknown_functions(struct ctx *c, const char *exe, const struct vp_loopmods *mods,
                                const char *where, const char *fate_some,
                                const char *fate_all)
{
    size_t n = c->o->nfunctions, bad = 0;
    if (!n)
        return 0;
    unsigned char *known = xcalloc(n, 1);
    known_functions(exe, mods, c->o->functions, n, known);
    for (size_t i = 0; i < n; i++)
        bad += !known[i];
    const char *fate = bad == n && !c->nrank_names ? fate_all : fate_some;
    for (size_t i = 0; i < n; i++)
        if (!known[i])
            msg(c, "no function %s in %s or %s: %s", c->o->functions[i], exe, where, fate);
    free(known);
    return bad;
}

int vp_loopcmd_run(const struct vp_loopcmd_opts *o)
{
    struct ctx c = {.o = o};
    int status = VP_LOOPCMD_USAGE;
    struct vp_loopmods mods = {0};
    const struct vp_loop_table *table = NULL;
    struct tree slow = {0}, normal = {0};
    struct vp_loop_result *sres = NULL, *nres = NULL;
    unsigned char *nrec = NULL; /* per loop: the normal run had its probes on */
    struct sel_loop *sel = NULL;
    char **names = NULL;
    size_t nnames = 0, nuser = 0; /* names[nuser..]: inlined (add_inlined) */
    size_t *repsel = NULL; /* per report loop: its selected loop */
    uint64_t *probe_samples = NULL, *normal_samples = NULL; /* per sel: the probed runs' */
    struct line_acc *slow_lines = NULL, *normal_lines = NULL; /* ... line by line */
    char *exe = NULL;
    char err[2048];
    char shown0[512]; /* names[0] as a report shows it */

    /* 1. the functions */
    if (o->rank_json) {
        if (load_rank_json(&c) != 0)
            goto done;
    } else if (o->rank || o->nbuggy) {
        if (rank_profiles(&c) != 0)
            goto done;
    }
    for (size_t i = 0; i < c.nrank_names; i++)
        push_str(&names, &nnames, c.rank_names[i]);
    for (size_t i = 0; i < o->nfunctions; i++)
        push_str(&names, &nnames, o->functions[i]);
    if (!nnames && c.passed_over) {
        msg(&c, "no functions to diagnose: the ranked functions have no source file (%s, ...); "
                "library code is not built with vprof-cc and has no probes (give --function NAME)",
            c.passed_over);
        goto done;
    }
    if (!nnames) {
        msg(&c, "no functions to diagnose (the ranking is empty; give --top N with a ranking, "
                "or --function NAME)");
        goto done;
    }

    /* 2. the binary, the libraries it loads, and their loop tables */
    if (!(exe = vp_launch_resolve(o->cmd[0]))) {
        msg(&c, "%s: %s", o->cmd[0], errno == ENOENT ? "command not found" : strerror(errno));
        goto done;
    }
    /* A script (a libtool wrapper, say) runs the program: the launcher's
       environment reaches it, and its modules are found after the run. */
    int script = is_script(exe);
    if (!script && vp_loopmods_add(&mods, exe, err, sizeof err) < 0) {
        msg(&c, "%s", err);
        goto done;
    }
    if (!script)
        vp_loopmods_add_needed(&mods, exe, skip_module, &c);
    if (vp_loopmods_merge(&mods) != 0) {
        msg(&c, "out of memory");
        goto done;
    }
    table = mods.merged;
    if (!table->loop_count && !script) {
        msg(&c, "%s was not built with vprof-cc (no %s section in it or in the libraries it "
                "loads): rebuild it with vprof-cc", exe, VP_LOOPS_SECTION);
        goto done;
    }
    if ((o->rank_json || o->rank || o->nbuggy) && check_same_binary(&c, exe, &mods) != 0)
        goto done;

    /* 3. the loops of those functions */
    qualified_to_keys(table, &names, &nnames);
    nuser = nnames;
    add_inlined(&mods, &names, &nnames, nuser);
    sel = xcalloc(table->loop_count, sizeof *sel);
    char probe[8192];
    size_t nsel = select_loops(table, names, nuser, c.nrank_names, sel);
    gate_list(names, nnames, probe, sizeof probe);
    /* report skeleton */
    for (size_t i = 0; o->cmd[i]; i++) {
        char **v = realloc(c.rep.command, (c.rep.ncommand + 1) * sizeof *v);
        if (!v)
            exit(VP_LOOPCMD_NOTHING);
        c.rep.command = v;
        v[c.rep.ncommand++] = xstrdup(o->cmd[i]);
    }
    if (o->normal_cmd)
        for (size_t i = 0; o->normal_cmd[i]; i++) {
            char **v = realloc(c.rep.normal_command, (c.rep.nnormal_command + 1) * sizeof *v);
            if (!v)
                exit(VP_LOOPCMD_NOTHING);
            c.rep.normal_command = v;
            v[c.rep.nnormal_command++] = xstrdup(o->normal_cmd[i]);
        }
    if (o->cmd_io && o->cmd_io->in)
        c.rep.input = xstrdup(o->cmd_io->in);
    if (o->normal_cmd && o->normal_io && o->normal_io->in)
        c.rep.normal_input = xstrdup(o->normal_io->in);
    c.rep.top = o->top;
    for (size_t i = 0; i < nuser; i++) {
        char buf[4096]; /* C++ names run to kilobytes */
        push_str(&c.rep.functions, &c.rep.nfunctions, vp_func_display(names[i], buf, sizeof buf));
    }
    c.rep.samples_from = xstrdup(c.nslow ? "rank" : "probe-run");
    c.rep.source_root = o->source_root ? realpath(o->source_root, NULL) : NULL;
    if (o->source_root && !c.rep.source_root) {
        msg(&c, "--source-root %s: %s", o->source_root, strerror(errno));
        goto done;
    }
    /* What the run cannot add to: a binary that imports neither dlopen nor
       exec runs only the modules it starts with, so a name found in none
       of them, or functions without loops, are said now, not after the
       run. */
    int more = script || vp_launch_may_load_code(exe);
    if (!more) {
        const char *where = "the libraries it loads (it loads no others: no dlopen or exec)";
        size_t bad = unknown_functions(&c, exe, &mods, where, "left out", "check the name");
        if (!c.nrank_names && bad == o->nfunctions)
            goto done;
        if (!nsel) {
            msg(&c, "no loops in the selected functions (%s%s) in %s or the libraries it loads: "
                    "nothing to diagnose",
                vp_func_display(names[0], shown0, sizeof shown0), nnames > 1 ? ", ..." : "",
                exe);
            status = VP_LOOPCMD_NOTHING;
            goto done;
        }
    }
    if (!nsel && script)
        msg(&c, "%s is a script: running it to find the loops of %s%s in the programs it runs",
            exe, vp_func_display(names[0], shown0, sizeof shown0), nnames > 1 ? ", ..." : "");
    else if (!nsel)
        msg(&c, "no loops of %s%s in %s or the libraries it loads at start-up: running it to "
                "look in the modules it loads later (dlopen)",
            vp_func_display(names[0], shown0, sizeof shown0), nnames > 1 ? ", ..." : "",
            exe);

    /* 4. the probed runs */
    c.tmpdir = vp_launch_mkdtemp("vprof-loop");
    if (!c.tmpdir) {
        msg(&c, "cannot create a temporary directory: %s", strerror(errno));
        status = VP_LOOPCMD_NOTHING;
        goto done;
    }
    int wstatus = 0, code = VP_LOOPCMD_NOTHING;
    int failed = probed_run(&c, o->cmd, o->cmd_io, "slow", probe, &slow, &wstatus, &code);
    if (failed < 0) {
        status = code;
        goto done;
    }
    c.rep.workload_status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    /* modules the run loaded with dlopen */
    c.rep.slow_processes = (uint32_t)slow.n;
    if (add_run_modules(&c, &mods, &slow)) {
        if (vp_loopmods_merge(&mods) != 0) {
            msg(&c, "out of memory");
            status = VP_LOOPCMD_NOTHING;
            goto done;
        }
        table = mods.merged;
        free(sel);
        sel = xcalloc(table->loop_count, sizeof *sel);
        nsel = select_loops(table, names, nuser, c.nrank_names, sel);
    }
    if (!table->loop_count) {
        msg(&c, "no program %s ran was built with vprof-cc (no %s section): rebuild it with "
                "vprof-cc", exe, VP_LOOPS_SECTION);
        write_report(&c);
        status = VP_LOOPCMD_USAGE;
        goto done;
    }
    if (more)
        unknown_functions(&c, exe, &mods, "the modules it loaded", "left out", "left out");
    if (!nsel) {
        msg(&c, "no loops in the selected functions (%s%s): nothing to diagnose",
            vp_func_display(names[0], shown0, sizeof shown0),
            nnames > 1 ? ", ..." : "");
        write_report(&c);
        status = VP_LOOPCMD_NOTHING;
        goto done;
    }
    if (!(sres = analyze(&c, table, &slow, "slow run", NULL))) {
        status = VP_LOOPCMD_NOTHING;
        goto done;
    }
    /* redundancy verdicts of the same run (the probes share the gate) */
    struct vp_red_result *red = NULL;
    if (vp_loopmods_redundancy(&mods, tree_profiles(&slow), slow.n, NULL, &red, err, sizeof err) !=
        0) {
        msg(&c, "redundancy not measured: %s", err);
        red = NULL;
    }
    if (o->normal_cmd) {
        int nw, ncode;
        int nf = probed_run(&c, o->normal_cmd, o->normal_io, "normal", probe, &normal, &nw, &ncode);
        c.rep.normal_processes = (uint32_t)normal.n;
        if (nf >= 0 && normal.n)
            nres = analyze(&c, table, &normal, "normal run", &nrec);
    } else {
        /* counters recorded with the normal profiles, if any */
        for (size_t i = 0; i < c.nnormal && !nres; i++) {
            struct tree t;
            if (vp_profile_open_tree(c.normal_profiles[i], &t.p, &t.n, err, sizeof err) != 0)
                continue;
            if (vp_profile_extra(t.p[0], VP_SEC_LOOP_COUNTS))
                nres = analyze(&c, table, &t, c.normal_profiles[i], &nrec);
            if (nres)
                normal = t; /* its samples are the counts' time, as a probed run's */
            else
                tree_close(&t);
        }
    }
    c.rep.normal_counts = nres != NULL;
    /* the normal run's strides; its verdicts are not reported, so no pair
       is compared */
    struct vp_red_result *nred = NULL;
    struct vp_red_params strides_only;
    vp_red_params_default(&strides_only);
    strides_only.strides_only = 1;
    if (normal.n && vp_loopmods_redundancy(&mods, tree_profiles(&normal), normal.n, &strides_only,
                                           &nred, err, sizeof err) != 0)
        nred = NULL;

    mark_anomaly(&c, sel, nsel);

    /* 5. diagnose each loop that ran */
    c.rep.loops = xcalloc(nsel, sizeof *c.rep.loops);
    repsel = xcalloc(nsel ? nsel : 1, sizeof *repsel);
    for (size_t k = 0; k < nsel; k++) {
        const struct vp_loop_info *l = sel[k].info;
        size_t ti = (size_t)(l - table->loops);
        const struct vp_loop_result *r = &sres[ti];
        if (r->verdict == VP_LOOP_NOT_RUN &&
            (twin_ran(table, sel, nsel, sres, k) || twin_before(sel, k)))
            continue; /* a compiler's copy of a loop that ran, or already listed */
        if (r->verdict == VP_LOOP_NOT_RUN) {
            struct vp_lr_idle *v = realloc(c.rep.idle, (c.rep.nidle + 1) * sizeof *v);
            if (!v)
                exit(VP_LOOPCMD_NOTHING);
            c.rep.idle = v;
            int unprobed = !(l->flags & VP_LOOPF_PROBED);
            v[c.rep.nidle++] = (struct vp_lr_idle){.function = shown_dup(vp_func_key(
                                                       l->function, l->linkage)),
                                                   .inlined_into = sel[k].inlined_into
                                                                       ? shown_dup(sel[k].inlined_into)
                                                                       : NULL,
                                                   .file = xstrdup(l->file),
                                                   .line = l->line,
                                                   .kind = l->kind,
                                                   .unprobed = unprobed};
            continue;
        }
        repsel[c.rep.nloops] = k;
        struct vp_lr_loop *L = &c.rep.loops[c.rep.nloops++];
        L->loop_id = l->loop_id;
        L->parent_id = l->parent_id;
        L->function = shown_dup(vp_func_key(l->function, l->linkage));
        L->inlined_into = sel[k].inlined_into ? shown_dup(sel[k].inlined_into) : NULL;
        L->file = xstrdup(l->file);
        L->line = l->line;
        L->column = l->column;
        L->end_line = l->end_line;
        L->kind = l->kind;
        L->depth = l->depth;
        for (size_t p = 0; p < table->loop_count && l->parent_id; p++)
            if (table->loops[p].loop_id == l->parent_id) {
                L->parent_line = table->loops[p].line;
                L->parent_column = table->loops[p].column;
            }
        L->static_class = r->cls;
        L->flags = l->flags;
        L->function_rank = sel[k].function_rank;
        if (sel[k].anom_marked) {
            L->rank_samples = sel[k].anom_in;
            L->rank_total = sel[k].anom_total;
            L->rank_variable = xstrdup(sel[k].anom_variable ? sel[k].anom_variable : "");
        }
        const struct rank_anom *top = sel[k].anom_marked ? sel[k].anom_top : NULL;
        L->resultless_rate = r->resultless_rate;
        L->verdict = r->verdict;
        struct vp_fix_input *in = &L->in;
        vp_fix_input_init(in);
        in->function = L->function;
        in->kind = l->kind;
        in->static_class = r->cls;
        in->flags = l->flags;
        to_counts(r, &in->slow);
        to_counts(nres && nrec[ti] ? &nres[ti] : NULL, &in->normal);
        L->normal_recorded = nres && nrec[ti];
        in->inefficient = r->verdict == VP_LOOP_INEFFICIENT;
        in->resultless_rate = r->resultless_rate;
        const struct vp_loop_site_info *cond = condition_site(l);
        if (cond) {
            in->site_line = cond->line;
            in->site_text = trimmed_line(l->file, cond->line);
        }
        for (size_t s = 0; s < l->site_count; s++)
            if (l->sites[s].io_every_iteration && l->sites[s].line) {
                in->io_line = l->sites[s].line;
                in->io_callee = shown_dup(l->sites[s].callee);
                break;
            }
        take_wait(l, in);
        in->unroll_factor = l->unroll_factor;
        in->depth = L->depth;
        in->parent_line = L->parent_line;
        if (l->bucket_line) {
            in->bucket_line = l->bucket_line;
            in->bucket_text = trimmed_line(l->file, l->bucket_line);
        }
        if (l->spin_line) {
            in->spin_line = l->spin_line;
            in->spin_text = trimmed_line(l->file, l->spin_line);
        }
        if (top && top->pat.missing) {
            in->constraint.missing = 1;
            in->constraint.variable = L->rank_variable;
            in->constraint.values_anomalous = top->pat.values_anomalous;
            in->constraint.normal_run = top->pat.normal_run;
            in->constraint.slow_run = top->pat.slow_run;
            in->constraint.slow_runs = top->pat.slow_runs;
            in->constraint.discount = top->pat.discount;
            in->constraint.line = top->top_line > 0 ? (uint32_t)top->top_line : 0;
            in->constraint.text = in->constraint.line ? trimmed_line(l->file, in->constraint.line)
                                                      : NULL;
        }
        if (red)
            take_redundancy(red, table, l, &in->red);
        if (in->red.measured)
            c.rep.redundancy_measured = 1;
        /* the categories, which the samples do not change: the roots of
           the callee note (step 7 writes the sentences again) */
        vp_fix_suggest(in, &L->fix);
        L->source = read_lines(l->file, l->line, l->end_line, &L->nsource);
    }

    /* 6. shares of the slow run, and the time in the loops each loop calls */
    struct share_arg shares;
    share_init(&shares, &c, sel, nsel, repsel);
    size_t *callee_order = xcalloc(shares.nroot ? shares.nroot : 1, sizeof *callee_order);
    for (size_t i = 0; i < c.nslow; i++) {
        struct tree t;
        if (vp_profile_open_tree(c.slow_profiles[i], &t.p, &t.n, err, sizeof err) != 0) {
            msg(&c, "cannot read the ranking's slow profile (%s): ordering by the probed run",
                err);
            share_reset(&shares);
            c.rep.total_samples = c.rep.probe_samples = 0;
            free(c.rep.samples_from);
            c.rep.samples_from = xstrdup("probe-run");
            break;
        }
        for (size_t k = 0; k < t.n; k++)
            c.rep.total_samples +=
                walk_samples(t.p[k], sel, nsel, &c.rep.probe_samples, share_one, &shares);
        tree_close(&t);
    }
    /* the time in each loop in the probed runs, whose counts these are,
       line by line (docs/vprof-loop.md, "Where the added time is"); with
       the shares from the probed run, in the same walk */
    probe_samples = xcalloc(nsel ? nsel : 1, sizeof *probe_samples);
    normal_samples = xcalloc(nsel ? nsel : 1, sizeof *normal_samples);
    slow_lines = xcalloc(nsel ? nsel : 1, sizeof *slow_lines);
    normal_lines = xcalloc(nsel ? nsel : 1, sizeof *normal_lines);
    if (strcmp(c.rep.samples_from, "probe-run") == 0) {
        struct shares_lines_arg both = {&shares, {slow_lines, probe_samples, nsel}};
        c.rep.total_samples = 0;
        for (size_t k = 0; k < slow.n; k++)
            c.rep.total_samples += walk_samples(slow.p[k], sel, nsel, &c.rep.probe_samples,
                                                shares_lines_one, &both);
    } else {
        for (size_t k = 0; k < slow.n; k++)
            count_lines(slow.p[k], sel, nsel, probe_samples, slow_lines);
    }
    for (size_t k = 0; k < normal.n; k++)
        count_lines(normal.p[k], sel, nsel, normal_samples, normal_lines);

    /* 7. the samples into the diagnoses; first the call sites of the loops
       in system headers, which the callee sentences of the loops that call
       them name */
    for (size_t i = 0; i < c.rep.nloops; i++)
        take_call_site(&slow_lines[repsel[i]], &c.rep.loops[i]);
    for (size_t i = 0; i < c.rep.nloops; i++) {
        size_t k = repsel[i];
        struct vp_lr_loop *L = &c.rep.loops[i];
        struct vp_fix_input *in = &L->in;
        L->samples = sel[k].samples;
        L->share = c.rep.total_samples ? (double)L->samples / (double)c.rep.total_samples : 0;
        in->slow.samples = probe_samples[k];
        in->slow.seconds = (double)probe_samples[k] * (double)slow.p[0]->hdr.period_ns / 1e9;
        if (in->normal.ran && normal.n) {
            in->normal.samples = normal_samples[k];
            in->normal.seconds =
                (double)normal_samples[k] * (double)normal.p[0]->hdr.period_ns / 1e9;
            take_hot_lines(sel[k].info, &slow_lines[k], &normal_lines[k],
                          (double)slow.p[0]->hdr.period_ns / 1e9,
                          (double)normal.p[0]->hdr.period_ns / 1e9,
                          in);
        }
        take_strides(red, nred, sel[k].info, in);
        take_result_calls(sel[k].info, &slow_lines[k], in);
        take_syscalls(sel[k].info, &slow_lines[k], in);
        take_callees(&c, &shares, repsel, i, callee_order);
        vp_fix_suggest(in, &L->fix);
        /* a contended spin is 0*1? whatever its static class (every try
           but the last is resultless): its rate as 0*1?'s, which the
           counts' 1* rate (0: every exchange writes) contradicted */
        if (in->spin_line && (L->fix.categories & VP_FIX_CAT_ZERO_STAR_ONE) &&
            in->slow.iterations)
            L->resultless_rate =
                1.0 - (double)in->slow.instances / (double)in->slow.iterations;
    }
    lines_free(slow_lines, nsel);
    lines_free(normal_lines, nsel);
    free(callee_order);
    share_free(&shares);
    idle_messages(&c);
    qsort(c.rep.loops, c.rep.nloops, sizeof *c.rep.loops, cmp_loops);
    lift_loops(&c.rep);
    fold_copies(&c.rep);
    sink_drivers(&c.rep);
    /* in->function points into the loop itself: fix it after sorting */
    for (size_t i = 0; i < c.rep.nloops; i++) {
        c.rep.loops[i].in.function = c.rep.loops[i].function;
        for (size_t k = 0; k < c.rep.loops[i].ncopies; k++)
            c.rep.loops[i].copies[k].in.function = c.rep.loops[i].copies[k].function;
    }

    if (!c.rep.nloops)
        msg(&c, "none of the %zu loops of the selected functions ran in the slow run", nsel);
    status = c.rep.nloops && !failed ? VP_LOOPCMD_FOUND : VP_LOOPCMD_NOTHING;
    if (write_report(&c) != 0)
        status = VP_LOOPCMD_NOTHING;

    vp_red_result_free(red);
    vp_red_result_free(nred);
done:
    free(sres);
    free(nres);
    free(nrec);
    tree_close(&slow);
    tree_close(&normal);
    free(sel);
    free(repsel);
    free(probe_samples);
    free(normal_samples);
    vp_loopmods_free(&mods);
    free(exe);
    free_strv(names, nnames);
    free_strv(c.slow_profiles, c.nslow);
    free_strv(c.normal_profiles, c.nnormal);
    free_strv(c.rank_names, c.nrank_names);
    free(c.passed_over);
    for (size_t i = 0; i < c.nanoms; i++) {
        free(c.anoms[i].function);
        free(c.anoms[i].file);
        free(c.anoms[i].variable);
    }
    free(c.anoms);
    vp_launch_rmtemp(c.tmpdir);
    vp_lr_free(&c.rep);
    return status;
}
