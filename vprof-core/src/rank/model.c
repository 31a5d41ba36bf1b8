/*
 * model.c - the address-free model vprof rank works on (see vprof/rank.h):
 * constructors for runs, functions and variables with their value sequences.
 */
#include "vprof/rank.h"
#include "report_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/symbols.h"
#include "util/grow.h"

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    return vp_grow(p, cap, need, elem, 8);
}

static char *dup(const char *s)
{
    return strdup(s ? s : "");
}

struct vp_rank_model *vp_rank_model_new(void)
{
    return calloc(1, sizeof(struct vp_rank_model));
}

static void free_var(struct vp_rank_var *v)
{
    free(v->function);
    free(v->file);
    free(v->name);
    free(v->type);
    free(v->values);
    free(v->pcs);
    free(v->seg_start);
    free(v->sites);
}

void vp_rank_model_free(struct vp_rank_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nruns; i++) {
        struct vp_rank_run *r = &m->runs[i];
        for (size_t f = 0; f < r->nfuncs; f++) {
            free(r->funcs[f].name);
            free(r->funcs[f].file);
            free(r->funcs[f].module);
        }
        for (size_t v = 0; v < r->nvars; v++)
            free_var(&r->vars[v]);
        free(r->funcs);
        free(r->func_slots);
        free(r->vars);
        free(r->label);
        for (size_t d = 0; d < r->ndeclared; d++)
            free(r->declared[d]);
        free(r->declared);
        for (size_t d = 0; d < r->nsources; d++)
            free(r->sources[d]);
        free(r->sources);
        for (size_t l = 0; l < r->nlib; l++) {
            free(r->lib[l].name);
            free(r->lib[l].module);
            free(r->lib[l].site_file);
            free(r->lib[l].site_function);
        }
        free(r->lib);
        free(r->forked);
        if (r->sym.free)
            r->sym.free(r->sym.ctx);
    }
    free(m->runs);
    free(m);
}

struct vp_rank_run *vp_rank_add_run(struct vp_rank_model *m, const char *label, int slow,
                                    uint64_t period_ns)
{
    if (grow((void **)&m->runs, &m->runs_cap, m->nruns + 1, sizeof *m->runs))
        return NULL;
    struct vp_rank_run *r = &m->runs[m->nruns];
    memset(r, 0, sizeof *r);
    r->label = dup(label);
    if (!r->label)
        return NULL;
    r->slow = slow ? 1 : 0;
    r->period_ns = period_ns;
    m->nruns++;
    return r;
}

static size_t func_hash(const char *name, const char *file)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over "name\x1ffile" */
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 1099511628211ull;
    h = (h ^ 0x1f) * 1099511628211ull;
    for (const unsigned char *c = (const unsigned char *)file; *c; c++)
        h = (h ^ *c) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

/* Keeps the slots at most half full; -1 when out of memory. */
static int func_slots_reserve(struct vp_rank_run *r, size_t n)
{
    if (r->func_slots && n * 2 <= r->func_slots_mask + 1)
        return 0;
    size_t size = 64;
    while (size < n * 2)
        size *= 2;
    size_t *slots = calloc(size, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < r->nfuncs; i++) {
        size_t h = func_hash(r->funcs[i].name, r->funcs[i].file) & (size - 1);
        while (slots[h])
            h = (h + 1) & (size - 1);
        slots[h] = i + 1;
    }
    free(r->func_slots);
    r->func_slots = slots;
    r->func_slots_mask = size - 1;
    return 0;
}

size_t vp_rank_add_func(struct vp_rank_run *r, const char *name, const char *file, int line,
                        uint64_t pc_samples, uint64_t value_ticks)
{
    file = file ? file : "";
    /* Hashed: a profile of a large program samples tens of thousands of
       functions, and a linear lookup took a second per 20,000. */
    if (func_slots_reserve(r, r->nfuncs + 1))
        return (size_t)-1;
    size_t h = func_hash(name, file) & r->func_slots_mask;
    for (; r->func_slots[h]; h = (h + 1) & r->func_slots_mask) {
        struct vp_rank_func *f = &r->funcs[r->func_slots[h] - 1];
        if (strcmp(f->name, name) == 0 && strcmp(f->file, file) == 0) {
            f->pc_samples += pc_samples;
            f->value_ticks += value_ticks;
            if (!f->line)
                f->line = line;
            return r->func_slots[h] - 1;
        }
    }
    if (grow((void **)&r->funcs, &r->funcs_cap, r->nfuncs + 1, sizeof *r->funcs))
        return (size_t)-1;
    struct vp_rank_func *f = &r->funcs[r->nfuncs];
    f->name = dup(name);
    f->file = dup(file);
    if (!f->name || !f->file) {
        free(f->name);
        free(f->file);
        return (size_t)-1;
    }
    f->line = line;
    f->module = NULL;
    f->pc_samples = pc_samples;
    f->value_ticks = value_ticks;
    r->func_slots[h] = r->nfuncs + 1;
    return r->nfuncs++;
}

struct vp_rank_var *vp_rank_add_var(struct vp_rank_run *r, const char *function,
                                    const char *file, const char *name, const char *type,
                                    int line, uint16_t tags, uint16_t type_kind, uint32_t size)
{
    if (grow((void **)&r->vars, &r->vars_cap, r->nvars + 1, sizeof *r->vars))
        return NULL;
    struct vp_rank_var *v = &r->vars[r->nvars];
    memset(v, 0, sizeof *v);
    v->function = dup(function);
    v->file = dup(file);
    v->name = dup(name);
    v->type = dup(type);
    if (!v->function || !v->file || !v->name || !v->type) {
        free_var(v);
        return NULL;
    }
    v->line = line;
    v->tags = tags;
    v->type_kind = type_kind;
    v->size = size;
    r->nvars++;
    return v;
}

int vp_rank_var_reserve(struct vp_rank_var *v, size_t n, int keep_pc)
{
    size_t cap = v->cap;
    if (grow((void **)&v->values, &cap, v->count + n, sizeof *v->values))
        return -1;
    if (keep_pc || v->pcs) {
        size_t pcap = v->pcs ? v->cap : 0;
        if (pcap < cap) {
            uint64_t *p = realloc(v->pcs, cap * sizeof *p);
            if (!p)
                return -1;
            v->pcs = p;
        }
    }
    v->cap = cap;
    return 0;
}

int vp_rank_var_sample(struct vp_rank_var *v, uint32_t tid, uint64_t value, uint64_t pc,
                       int readable, int keep_pc)
{
    if (!readable) {
        v->unreadable++;
        v->open = 0; /* no delta or run continues across a gap */
        return 0;
    }
    if (v->count == v->cap && vp_rank_var_reserve(v, v->cap ? v->cap : 16, keep_pc))
        return -1;
    if (keep_pc && !v->pcs && vp_rank_var_reserve(v, 0, 1))
        return -1;
    if (!v->open || tid != v->last_tid) {
        /* seg_start keeps nseg+1 entries: the last is the end (count). */
        if (grow((void **)&v->seg_start, &v->seg_cap, v->nseg + 2, sizeof *v->seg_start))
            return -1;
        v->seg_start[v->nseg] = v->count;
        v->nseg++;
    }
    v->values[v->count] = value;
    if (v->pcs)
        v->pcs[v->count] = pc;
    v->count++;
    v->seg_start[v->nseg] = v->count;
    v->last_tid = tid;
    v->open = 1;
    return 0;
}

int vp_rank_var_site(struct vp_rank_var *v, size_t func, uint64_t samples)
{
    for (size_t i = 0; i < v->nsites; i++)
        if (v->sites[i].func == func) {
            v->sites[i].samples += samples;
            return 0;
        }
    struct vp_rank_site *s = realloc(v->sites, (v->nsites + 1) * sizeof *s);
    if (!s)
        return -1;
    v->sites = s;
    v->sites[v->nsites].func = func;
    v->sites[v->nsites].samples = samples;
    v->nsites++;
    return 0;
}

/* "function\x1fname\x1fbase": the identity a declaration is looked up by
   (the variable match's fallback: function, name and file base name). */
static char *declared_key(const char *function, const char *name, const char *file)
{
    const char *base = vp_rank_base_name(file ? file : "");
    size_t n = strlen(function) + strlen(name) + strlen(base) + 3;
    char *k = malloc(n);
    if (k)
        snprintf(k, n, "%s\x1f%s\x1f%s", function, name, base);
    return k;
}

int vp_rank_run_declare(struct vp_rank_run *r, const char *function, const char *name,
                        const char *file)
{
    if (grow((void **)&r->declared, &r->declared_cap, r->ndeclared + 1, sizeof *r->declared))
        return -1;
    char *k = declared_key(function ? function : "", name ? name : "", file);
    if (!k)
        return -1;
    r->declared[r->ndeclared++] = k;
    r->declared_sorted = 0;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int vp_rank_run_add_source(struct vp_rank_run *r, const char *path)
{
    if (!path || !path[0] || vp_system_source(path))
        return 0;
    const char *base = vp_rank_base_name(path);
    if (r->nsources && strcmp(r->sources[r->nsources - 1], base) == 0)
        return 0; /* the variables of one function come together */
    if (grow((void **)&r->sources, &r->sources_cap, r->nsources + 1, sizeof *r->sources))
        return -1;
    if (!(r->sources[r->nsources] = strdup(base)))
        return -1;
    r->nsources++;
    return 0;
}

void vp_rank_run_sort_sources(struct vp_rank_run *r)
{
    if (r->nsources > 1)
        qsort(r->sources, r->nsources, sizeof *r->sources, cmp_str);
    size_t w = 0;
    for (size_t i = 0; i < r->nsources; i++) {
        if (w && strcmp(r->sources[w - 1], r->sources[i]) == 0)
            free(r->sources[i]);
        else
            r->sources[w++] = r->sources[i];
    }
    r->nsources = w;
}

void vp_rank_run_sort_declared(struct vp_rank_run *r)
{
    if (r->ndeclared > 1)
        qsort(r->declared, r->ndeclared, sizeof *r->declared, cmp_str);
    r->declared_sorted = 1;
}

int vp_rank_run_declares(const struct vp_rank_run *r, const char *function, const char *name,
                         const char *file)
{
    char *k = declared_key(function ? function : "", name ? name : "", file);
    if (!k)
        return -1;
    int found = 0;
    if (r->declared_sorted)
        found = bsearch(&k, r->declared, r->ndeclared, sizeof *r->declared, cmp_str) != NULL;
    else
        for (size_t i = 0; i < r->ndeclared && !found; i++)
            found = strcmp(r->declared[i], k) == 0;
    free(k);
    return found;
}

/* Sets l's call site when it has none; -1 out of memory. */
static int lib_site(struct vp_rank_lib *l, const char *file, int line, const char *function)
{
    if (l->site_file || !file || !file[0])
        return 0;
    l->site_file = strdup(file);
    l->site_function = function && function[0] ? strdup(function) : NULL;
    l->site_line = line;
    if (!l->site_file || (function && function[0] && !l->site_function)) {
        free(l->site_file);
        free(l->site_function);
        l->site_file = l->site_function = NULL;
        return -1;
    }
    return 0;
}

int vp_rank_run_add_lib(struct vp_rank_run *r, const char *name, const char *module,
                        uint64_t samples, const char *site_file, int site_line,
                        const char *site_function)
{
    if (!module)
        module = "";
    for (size_t i = 0; i < r->nlib; i++)
        if (strcmp(r->lib[i].name, name) == 0 && strcmp(r->lib[i].module, module) == 0) {
            r->lib[i].samples += samples;
            return lib_site(&r->lib[i], site_file, site_line, site_function);
        }
    if (grow((void **)&r->lib, &r->lib_cap, r->nlib + 1, sizeof *r->lib))
        return -1;
    struct vp_rank_lib *l = &r->lib[r->nlib];
    memset(l, 0, sizeof *l);
    l->name = strdup(name);
    l->module = strdup(module);
    l->samples = samples;
    if (!l->name || !l->module) {
        free(l->name);
        free(l->module);
        return -1;
    }
    r->nlib++;
    return lib_site(l, site_file, site_line, site_function);
}
