/*
 * load.c - build a vprof rank model run (vprof/rank.h) from a profile file:
 * symbolize PCs once per distinct address, count PC samples and value ticks
 * per function, and group value samples per variable in (thread, seq, depth)
 * order.  The file stays mapped; samples are read in place, not copied,
 * except the 8-byte values (and, for slow runs, PCs) the analysis keeps.
 */
#define _GNU_SOURCE /* qsort_r */
#include "vprof/looptable.h"
#include "vprof/rank.h"
#include "util/err.h"
#include "util/grow.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vprof/format.h"
#include "vprof/profile.h"
#include "vprof/symbols.h"
#include "report_common.h" /* vp_rank_base_name */


/* ---- PC -> run function index, memoised (open addressing) -------------- */

struct pc_cache {
    uint64_t *pc;
    long *func;              /* run function index, -1 unresolved           */
    uint8_t *used;
    size_t mask, n;
};

struct fn_map {              /* struct vp_func pointer -> run function index */
    const struct vp_func **key;
    long *idx;
    size_t mask, n;
};

struct loader {
    struct vp_profile *p;
    struct vp_resolver *res;
    struct vp_rank_run *run;
    struct pc_cache pcs;
    struct fn_map fns;
    uint64_t unresolved;
    /* unresolved samples by the library function over them (library_entry) */
    struct lib_count {
        const struct vp_func *fn;
        const struct vp_prof_module *mod;
        uint64_t samples;
        struct { uint64_t ra, samples; } site[8]; /* the calls from outside
                                                     the module, the first 8 */
    } *lib;
    size_t nlib, lib_cap, lib_last;
    int merge; /* another process of the run's recording: its variables join
                  the run's of the same identity */
};

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static int fn_map_grow(struct fn_map *m)
{
    size_t cap = m->mask ? (m->mask + 1) * 2 : 256;
    const struct vp_func **key = calloc(cap, sizeof *key);
    long *idx = malloc(cap * sizeof *idx);
    if (!key || !idx) {
        free(key);
        free(idx);
        return -1;
    }
    for (size_t i = 0; m->mask && i <= m->mask; i++)
        if (m->key[i]) {
            size_t h = mix((uint64_t)(uintptr_t)m->key[i]) & (cap - 1);
            while (key[h])
                h = (h + 1) & (cap - 1);
            key[h] = m->key[i];
            idx[h] = m->idx[i];
        }
    free(m->key);
    free(m->idx);
    m->key = key;
    m->idx = idx;
    m->mask = cap - 1;
    return 0;
}

/* Run function index of a symbolized function; adds it on first sight.
   A function without a file is told where it is by its module (of `pc`). */
static long func_index(struct loader *L, const struct vp_func *f, uint64_t pc)
{
    if ((L->fns.n + 1) * 2 > L->fns.mask + 1 && fn_map_grow(&L->fns))
        return -2;
    size_t h = mix((uint64_t)(uintptr_t)f) & L->fns.mask;
    while (L->fns.key[h]) {
        if (L->fns.key[h] == f)
            return L->fns.idx[h];
        h = (h + 1) & L->fns.mask;
    }
    const char *key = vp_func_key(f->name, f->linkage);
    size_t i = vp_rank_add_func(L->run, key ? key : "", f->file ? f->file : "", f->line, 0, 0);
    if (i == (size_t)-1)
        return -2;
    struct vp_rank_func *rf = &L->run->funcs[i];
    const struct vp_prof_module *mod = vp_profile_module_of(L->p, pc);
    if (!rf->file[0] && !rf->module && mod) {
        if (!(rf->module = strdup(vp_rank_base_name(vp_profile_str(L->p, mod->path)))))
            return -2;
    }
    L->fns.key[h] = f;
    L->fns.idx[h] = (long)i;
    L->fns.n++;
    return (long)i;
}

static int pc_cache_grow(struct pc_cache *c)
{
    size_t cap = c->mask ? (c->mask + 1) * 2 : 4096;
    uint64_t *pc = malloc(cap * sizeof *pc);
    long *func = malloc(cap * sizeof *func);
    uint8_t *used = calloc(cap, 1);
    if (!pc || !func || !used) {
        free(pc);
        free(func);
        free(used);
        return -1;
    }
    for (size_t i = 0; c->mask && i <= c->mask; i++)
        if (c->used[i]) {
            size_t h = mix(c->pc[i]) & (cap - 1);
            while (used[h])
                h = (h + 1) & (cap - 1);
            used[h] = 1;
            pc[h] = c->pc[i];
            func[h] = c->func[i];
        }
    free(c->pc);
    free(c->func);
    free(c->used);
    c->pc = pc;
    c->func = func;
    c->used = used;
    c->mask = cap - 1;
    return 0;
}

/* Run function index containing runtime address pc; -1 unresolved, -2 OOM,
   -3 in vprof's runtime (libvprof-rt). */
static long func_of_pc(struct loader *L, uint64_t pc)
{
    struct pc_cache *c = &L->pcs;
    if ((c->n + 1) * 2 > c->mask + 1 && pc_cache_grow(c))
        return -2;
    size_t h = mix(pc) & c->mask;
    while (c->used[h]) {
        if (c->pc[h] == pc)
            return c->func[h];
        h = (h + 1) & c->mask;
    }
    const struct vp_func *f = vp_resolve_func(L->res, pc);
    /* a library's internal code is no candidate (docs/rank.md, "Library
       code"): unresolved here, as without its debug file; nor is a PLT
       stub, the jump to a library function; vprof's own runtime (its fork
       and signal handling) is not the program's time: -3, left out */
    long idx = vp_profile_in_runtime(L->p, pc) ? -3
               : f && !f->internal && !f->plt ? func_index(L, f, pc)
                                              : -1;
    if (idx == -2)
        return -2;
    c->used[h] = 1;
    c->pc[h] = pc;
    c->func[h] = idx;
    c->n++;
    return idx;
}

/* Whether module m is the program's own code: the executable or a module of
   the PC index (built with vprof-cc). */
static int program_module(const struct loader *L, const struct vp_prof_module *m)
{
    return m == &L->p->modules[0] || m->indexed;
}

/* The first of the n return addresses ra[] into the program's own code (the
   executable or a module of the PC index), past other libraries between: a
   memmove that libstdc++'s string code calls is called at the program line
   that used the string; ra[0] when none is the program's. */
static uint64_t program_return(struct loader *L, const uint64_t *ra, size_t n)
{
    for (size_t d = 0; d < n && ra[d]; d++) {
        const struct vp_prof_module *m = vp_profile_module_of(L->p, ra[d] - 1);
        if (m && program_module(L, m))
            return ra[d];
    }
    return ra[0];
}

/* The library function a sample in no candidate function ran under: the
   outermost caller on its stack that is a named (not internal) function of
   the same module before the stack leaves it, the entry point the program
   called (regcomp for its re_compile_internal and for the malloc it calls,
   regfree for the free it calls); *site is the return address into the
   program.  Without one, the outermost frame a debug file names (an IFUNC
   variant such as __memmove_avx512_unaligned_erms, which the program calls
   straight through its PLT); NULL when no frame of the module is named.
   The sample stays unattributed: this only says where (docs/rank.md,
   "Library code"). */
static const struct vp_func *library_entry(struct loader *L, const struct vp_pc_sample *s,
                                           const struct vp_prof_module **mod, uint64_t *site)
{
    *site = 0;
    *mod = vp_profile_module_of(L->p, s->pc);
    if (!*mod)
        return NULL;
    const uint64_t *ra = (const uint64_t *)(s + 1);
    /* without a named frame, the outermost one a debug file names: the
       IFUNC variant the program's PLT called, __memmove_avx_unaligned_erms */
    const struct vp_func *entry = NULL, *inner = vp_resolve_func(L->res, s->pc);
    /* a PLT stub: the library call it jumps to, called from the frame
       below it (the program's own module, so not found by the walk) */
    if (inner && inner->plt) {
        *site = s->depth ? ra[0] : 0;
        return inner;
    }
    for (uint16_t d = 0; d < s->depth && ra[d]; d++) {
        if (vp_profile_module_of(L->p, ra[d] - 1) != *mod) {
            if (!entry)
                entry = inner;
            if (entry) /* where the program called the library */
                *site = program_return(L, ra + d, s->depth - d);
            return entry;
        }
        const struct vp_func *f = vp_resolve_func(L->res, ra[d] - 1);
        if (f && !f->internal)
            entry = f;
        else if (f)
            inner = f;
    }
    return entry ? entry : inner;
}

static void count_site(struct lib_count *c, uint64_t ra, uint64_t w)
{
    for (size_t i = 0; ra && i < sizeof c->site / sizeof c->site[0]; i++)
        if (c->site[i].ra == ra || c->site[i].ra == 0) {
            c->site[i].ra = ra;
            c->site[i].samples += w;
            return;
        }
}

/* Whether PC sample s, in an exported function of a library the program was
   not built with, was called there by library code rather than by the
   program: brk under malloc's sysmalloc, _IO_default_xsputn under
   snprintf's vfprintf, the malloc that libstdc++'s operator new calls.
   Such a function is a library's step, not an API the program called, so
   the sample is unattributed like the library's internal code
   (docs/rank.md, "Library code").  Without a recorded caller, or with one
   in code no module holds, the function stays a candidate. */
static int library_inner_call(const struct loader *L, const struct vp_pc_sample *s)
{
    const struct vp_prof_module *mod = vp_profile_module_of(L->p, s->pc);
    if (!mod || program_module(L, mod) || s->depth == 0)
        return 0;
    const uint64_t *ra = (const uint64_t *)(s + 1);
    const struct vp_prof_module *caller = ra[0] ? vp_profile_module_of(L->p, ra[0] - 1) : NULL;
    return caller && !program_module(L, caller);
}

/* Counts an unresolved sample for the library function it ran under;
   -1 out of memory.  Distinct functions past 4096 are not named. */
static int count_library(struct loader *L, const struct vp_pc_sample *s)
{
    const struct vp_prof_module *mod;
    uint64_t site;
    const struct vp_func *f = library_entry(L, s, &mod, &site);
    if (!f)
        return 0;
    uint64_t w = VP_PC_SAMPLE_WEIGHT(s->flags);
    size_t i = L->lib_last;
    if (!L->nlib || L->lib[i].fn != f)
        for (i = 0; i < L->nlib && L->lib[i].fn != f; i++)
            ;
    if (i == L->nlib) {
        if (L->nlib == 4096)
            return 0;
        if (vp_grow((void **)&L->lib, &L->lib_cap, L->nlib + 1, sizeof *L->lib, 16))
            return -1;
        memset(&L->lib[i], 0, sizeof L->lib[i]);
        L->lib[i].fn = f;
        L->lib[i].mod = mod;
        L->nlib++;
    }
    L->lib[i].samples += w;
    count_site(&L->lib[i], site, w);
    L->lib_last = i;
    return 0;
}

static void loader_free_maps(struct loader *L)
{
    free(L->lib);
    L->lib = NULL;
    L->nlib = L->lib_cap = 0;
    free(L->pcs.pc);
    free(L->pcs.func);
    free(L->pcs.used);
    free(L->fns.key);
    free(L->fns.idx);
    memset(&L->pcs, 0, sizeof L->pcs);
    memset(&L->fns, 0, sizeof L->fns);
}

/* ---- symbolizer kept for localisation (slow runs) ----------------------- */

struct sym_ctx {
    struct vp_profile *p;
    struct vp_resolver *res;
    struct vp_loop_locator *loops; /* vp_rank_use_loop_tables, or NULL */
};

/* The line of pc in the code of `want`: the outermost frame of its inline
   chain that is want's code, else the concrete function's (the last frame):
   samples in code inlined into a loop land on the loop's call line, not in
   a header the loop table does not know.  With the loop tables, a deeper
   frame in the same file whose line is in a loop of its own function is
   taken instead, the innermost one: a static helper of the file inlined at
   -O2 puts the samples on its loop, where the work is, not on the call line
   in want, which may be in no loop at all.  A frame in another file (a
   library header, C++'s char_traits) is not taken: the line stays in the
   reported function's file (docs/rank.md, "Localisation"). */
static int sym_line(void *ctx, uint64_t pc, const char *want, const char **file, int *line,
                    const char **func, int *loop_line)
{
    struct sym_ctx *s = ctx;
    struct vp_line_frame fr[VP_INLINE_FRAMES_MAX];
    size_t n = vp_resolve_inline_chain(s->res, pc, fr, VP_INLINE_FRAMES_MAX);
    if (n == 0)
        return -1;
    size_t k = n - 1;
    for (size_t i = n; want && i-- > 0;)
        if (fr[i].function && strcmp(vp_func_key(fr[i].function, fr[i].linkage), want) == 0) {
            k = i;
            break;
        }
    *func = vp_func_key(fr[k].function, fr[k].linkage);
    while (k > 0 && fr[k].line <= 0) /* a call site without a line */
        k--;
    *file = fr[k].file;
    *line = fr[k].line;
    *loop_line = 0;
    if (!s->loops)
        return 0;
    for (size_t i = 0; i < k; i++) {
        if (fr[i].line <= 0 || !fr[i].function || !fr[i].file || !fr[k].file ||
            strcmp(fr[i].file, fr[k].file) != 0)
            continue;
        int at = vp_loop_locate(s->loops, vp_func_key(fr[i].function, fr[i].linkage),
                                fr[i].file, fr[i].line);
        if (at > 0) {
            *line = fr[i].line;
            *loop_line = at;
            return 0;
        }
    }
    *loop_line = vp_loop_locate(s->loops, *func, *file, *line);
    return 0;
}

/* The absolute paths of the modules the slow runs recorded, each once,
   into paths[0..cap); returns how many were stored. */
static size_t slow_modules(const struct vp_rank_model *m, const char **paths, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *r = &m->runs[i];
        if (!r->slow || r->sym.line != sym_line)
            continue; /* not loaded from a profile (tests build runs by hand) */
        const struct sym_ctx *s = r->sym.ctx;
        for (size_t k = 0; k < s->p->module_count && n < cap; k++) {
            const char *path = vp_profile_str(s->p, s->p->modules[k].path);
            if (!path || path[0] != '/')
                continue; /* the vDSO, or unknown */
            size_t j = 0;
            while (j < n && strcmp(paths[j], path) != 0)
                j++;
            if (j == n)
                paths[n++] = path;
        }
    }
    return n;
}

struct vp_loop_locator *vp_rank_use_loop_tables(struct vp_rank_model *m)
{
    size_t bound = 0;
    for (size_t i = 0; i < m->nruns; i++)
        if (m->runs[i].slow && m->runs[i].sym.line == sym_line)
            bound += ((const struct sym_ctx *)m->runs[i].sym.ctx)->p->module_count;
    const char **paths = malloc((bound ? bound : 1) * sizeof *paths);
    if (!paths)
        return NULL;
    size_t n = slow_modules(m, paths, bound);
    struct vp_loop_locator *l = vp_loop_locator_new(paths, n);
    free(paths);
    for (size_t i = 0; l && i < m->nruns; i++) {
        struct vp_rank_run *r = &m->runs[i];
        if (!r->slow || r->sym.line != sym_line)
            continue;
        ((struct sym_ctx *)r->sym.ctx)->loops = l;
    }
    return l;
}

static void sym_free(void *ctx)
{
    struct sym_ctx *s = ctx;
    vp_resolver_free(s->res);
    vp_profile_close(s->p);
    free(s);
}

/* ---- value sample ordering ---------------------------------------------- */

static int cmp_sample(const void *a, const void *b, void *ctx)
{
    const struct vp_value_sample *v = ctx;
    const struct vp_value_sample *x = &v[*(const uint32_t *)a], *y = &v[*(const uint32_t *)b];
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

static int cmp_seq(const void *a, const void *b, void *ctx)
{
    const struct vp_value_sample *v = ctx;
    uint64_t x = v[*(const uint32_t *)a].seq, y = v[*(const uint32_t *)b].seq;
    if (x != y)
        return x < y ? -1 : 1;
    return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* Put one variable's samples (indices into v[], in file order) in
 * (tid, seq, depth) order.  The runtime writes samples in seq order, so a
 * stable radix sort by tid usually suffices; anything else falls back to a
 * full comparison sort.  tmp holds n entries.  Returns 0 (can't fail now;
 * kept for a future allocation). */
static int order_group(const struct vp_value_sample *v, uint32_t *idx, size_t n, uint32_t *tmp)
{
    int seq_sorted = 1, tid_sorted = 1;
    for (size_t i = 1; i < n; i++) {
        const struct vp_value_sample *a = &v[idx[i - 1]], *b = &v[idx[i]];
        if (a->seq > b->seq || (a->seq == b->seq && a->depth > b->depth))
            seq_sorted = 0;
        if (a->tid > b->tid)
            tid_sorted = 0;
    }
    if (!seq_sorted) {
        qsort_r(idx, n, sizeof *idx, cmp_sample, (void *)v);
        return 0;
    }
    if (tid_sorted)
        return 0;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((v[idx[i]].tid >> shift) & 0xff) + 1]++;
        if (count[((v[idx[0]].tid >> shift) & 0xff) + 1] == n)
            continue;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            tmp[count[(v[idx[i]].tid >> shift) & 0xff]++] = idx[i];
        memcpy(idx, tmp, n * sizeof *idx);
    }
    return 0;
}

static uint64_t frame_pc(const struct vp_value_sample *s)
{
    /* A caller frame's pc is a return address: pc-1 lies in the call. */
    return s->depth > 0 && s->pc > 0 ? s->pc - 1 : s->pc;
}

struct seq_weight {
    uint64_t seq;
    unsigned weight;
};

static int cmp_seq_weight(const void *a, const void *b)
{
    const struct seq_weight *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The weight of the PC sample with sequence number `seq` (1 if unknown);
   `sw` is sorted by seq, NULL when every weight is 1. */
static unsigned weight_of(const struct seq_weight *sw, size_t n, uint64_t seq)
{
    size_t lo = 0, hi = sw ? n : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sw[mid].seq < seq)
            lo = mid + 1;
        else if (sw[mid].seq > seq)
            hi = mid;
        else
            return sw[mid].weight;
    }
    return 1;
}

/* The PC samples' weights by seq, or NULL (*ok stays 1) when all are 1;
   *ok = 0 out of memory. */
static struct seq_weight *seq_weights(const struct vp_profile *p, int *ok)
{
    *ok = 1;
    size_t i = 0;
    while (i < p->pc_count && VP_PC_SAMPLE_WEIGHT(p->pc_samples[i]->flags) == 1)
        i++;
    if (i == p->pc_count)
        return NULL;
    struct seq_weight *sw = malloc(p->pc_count * sizeof *sw);
    if (!sw) {
        *ok = 0;
        return NULL;
    }
    for (i = 0; i < p->pc_count; i++)
        sw[i] = (struct seq_weight){ p->pc_samples[i]->seq,
                                     VP_PC_SAMPLE_WEIGHT(p->pc_samples[i]->flags) };
    qsort(sw, p->pc_count, sizeof *sw, cmp_seq_weight);
    return sw;
}

/* Value ticks: for each function, the PC samples (seq) with at least one
 * value sample in one of its frames, each counted with its weight (timer
 * periods).  Needs samples in seq order. */
static int count_ticks(struct loader *L)
{
    const struct vp_profile *p = L->p;
    size_t n = p->value_count;
    uint32_t *order = NULL;
    int ok;
    struct seq_weight *sw = seq_weights(p, &ok);
    if (!ok)
        return -1;
    int sorted = 1;
    for (size_t i = 1; i < n && sorted; i++)
        sorted = p->values[i - 1].seq <= p->values[i].seq;
    if (!sorted) {
        order = malloc(n * sizeof *order);
        if (!order) {
            free(sw);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            order[i] = (uint32_t)i;
        qsort_r(order, n, sizeof *order, cmp_seq, (void *)p->values);
    }
    uint64_t *last = NULL; /* per run function: seq + 1 of the last tick */
    size_t nlast = 0;
    for (size_t k = 0; k < n; k++) {
        const struct vp_value_sample *s = &p->values[order ? order[k] : k];
        long f = func_of_pc(L, frame_pc(s));
        if (f == -2)
            goto oom;
        if (f < 0)
            continue;
        if ((size_t)f >= nlast) {
            size_t nn = L->run->nfuncs + 64;
            uint64_t *q = realloc(last, nn * sizeof *q);
            if (!q)
                goto oom;
            memset(q + nlast, 0, (nn - nlast) * sizeof *q);
            last = q;
            nlast = nn;
        }
        if (last[f] != s->seq + 1) {
            last[f] = s->seq + 1;
            L->run->funcs[f].value_ticks += weight_of(sw, p->pc_count, s->seq);
        }
    }
    free(sw);
    free(last);
    free(order);
    return 0;
oom:
    free(sw);
    free(last);
    free(order);
    return -1;
}

/* The run's variable of that identity, or NULL. */
static struct vp_rank_var *same_var(struct vp_rank_run *r, const char *function, const char *file,
                                    const char *name, int line)
{
    for (size_t i = 0; i < r->nvars; i++) {
        struct vp_rank_var *v = &r->vars[i];
        if (v->line == line && strcmp(v->name, name) == 0 &&
            strcmp(v->function, function ? function : "") == 0 &&
            strcmp(v->file, file ? file : "") == 0)
            return v;
    }
    return NULL;
}

/* Group value samples by variable, each group in (tid, seq, depth) order,
 * and append them to model variables. */
static int load_values(struct loader *L, int slow)
{
    const struct vp_profile *p = L->p;
    size_t n = p->value_count, nv = p->var_count;
    size_t *start = calloc(nv + 1, sizeof *start);
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    uint32_t *tmp = NULL; /* scratch for order_group, as large as the largest group */
    if (!start || !idx)
        goto oom;
    for (size_t i = 0; i < n; i++)
        start[p->values[i].var_id + 1]++;
    for (size_t v = 0; v < nv; v++)
        start[v + 1] += start[v];
    {
        size_t *fill = malloc((nv ? nv : 1) * sizeof *fill);
        if (!fill)
            goto oom;
        memcpy(fill, start, nv * sizeof *fill);
        for (size_t i = 0; i < n; i++)
            idx[fill[p->values[i].var_id]++] = (uint32_t)i; /* stable: file order */
        free(fill);
    }
    size_t biggest = 0;
    for (size_t v = 0; v < nv; v++)
        if (start[v + 1] - start[v] > biggest)
            biggest = start[v + 1] - start[v];
    tmp = malloc((biggest ? biggest : 1) * sizeof *tmp);
    if (!tmp)
        goto oom;
    for (size_t v = 0; v < nv; v++) {
        size_t lo = start[v], hi = start[v + 1];
        if (lo == hi)
            continue;
        if (order_group(p->values, idx + lo, hi - lo, tmp))
            goto oom;
        const struct vp_prof_var *pv = &p->vars[v];
        const char *fn = vp_profile_var_str(p, pv->function);
        if (fn && fn[0]) /* a local: its function's key; a global's linkage is its own */
            fn = vp_func_key(fn, vp_profile_var_str(p, pv->linkage));
        struct vp_rank_var *mv =
            L->merge ? same_var(L->run, fn, vp_profile_var_str(p, pv->file),
                                vp_profile_var_str(p, pv->name), (int)pv->line)
                     : NULL;
        if (!mv)
            mv = vp_rank_add_var(L->run, fn, vp_profile_var_str(p, pv->file),
                                 vp_profile_var_str(p, pv->name), vp_profile_var_str(p, pv->type),
                                 (int)pv->line, pv->tags, pv->type_kind, pv->size);
        if (!mv || vp_rank_var_reserve(mv, hi - lo, slow))
            goto oom;
        int global = pv->function == 0 || vp_profile_var_str(p, pv->function)[0] == 0;
        long site = -1;
        uint64_t site_n = 0;
        for (size_t i = lo; i < hi; i++) {
            const struct vp_value_sample *s = &p->values[idx[i]];
            if (vp_rank_var_sample(mv, s->tid, s->value, frame_pc(s), s->status == VP_VAL_OK,
                                   slow))
                goto oom;
            if (!global)
                continue;
            /* A global is attributed to the functions whose PCs sampled it;
               runs of the same function are summed before recording. */
            long f = func_of_pc(L, frame_pc(s));
            if (f == -2)
                goto oom;
            if (f != site) {
                if (site >= 0 && vp_rank_var_site(mv, (size_t)site, site_n))
                    goto oom;
                site = f;
                site_n = 0;
            }
            site_n++;
        }
        if (site >= 0 && vp_rank_var_site(mv, (size_t)site, site_n))
            goto oom;
    }
    free(start);
    free(idx);
    free(tmp);
    return 0;
oom:
    free(start);
    free(idx);
    free(tmp);
    return -1;
}

/* Counts one profile's samples into L->run: PC samples per function and
   the library time under no function, value ticks, value samples per
   variable (L->merge: added to the run's variables of the same identity),
   and the variables its build declares.  -1 out of memory. */
static int load_samples(struct loader *L, int slow)
{
    L->run->value_samples += L->p->value_count;
    L->run->input_bytes += L->p->map_size_;
    /* Costs are weighted: a record stands for VP_PC_SAMPLE_WEIGHT(flags)
       timer periods (> 1 when the timer_create fallback overran), so
       pc_samples and value_ticks count periods, not records. */
    for (size_t i = 0; i < L->p->pc_count; i++) {
        long f = func_of_pc(L, L->p->pc_samples[i]->pc);
        if (f == -2)
            return -1;
        if (f == -3)
            continue; /* in vprof's runtime */
        if (f >= 0 && library_inner_call(L, L->p->pc_samples[i]))
            f = -1;
        L->run->pc_total += VP_PC_SAMPLE_WEIGHT(L->p->pc_samples[i]->flags);
        if (f >= 0)
            L->run->funcs[f].pc_samples += VP_PC_SAMPLE_WEIGHT(L->p->pc_samples[i]->flags);
        else if (count_library(L, L->p->pc_samples[i]))
            return -1;
        else
            L->unresolved++;
    }
    for (size_t i = 0; i < L->nlib; i++) {
        const struct lib_count *c = &L->lib[i];
        const char *key = vp_func_key(c->fn->name, c->fn->linkage);
        const char *mpath = vp_profile_str(L->p, c->mod->path);
        size_t best = 0; /* the call site with most samples: its innermost
                            source line, in the function written there */
        for (size_t k = 1; k < sizeof c->site / sizeof c->site[0]; k++)
            if (c->site[k].samples > c->site[best].samples)
                best = k;
        struct vp_line_frame fr[VP_INLINE_FRAMES_MAX];
        size_t nfr = c->site[best].ra
                         ? vp_resolve_inline_chain(L->res, c->site[best].ra - 1, fr,
                                                   VP_INLINE_FRAMES_MAX)
                         : 0;
        /* the program's own line, not the system header inlined there
           (char_traits.h's copy under a std::string's substr) */
        size_t k = 0;
        while (k + 1 < nfr && (!fr[k].file || fr[k].line <= 0 || vp_system_source(fr[k].file)))
            k++;
        if (vp_rank_run_add_lib(L->run, key ? key : "", mpath ? vp_rank_base_name(mpath) : "",
                                c->samples, nfr && fr[k].line > 0 ? fr[k].file : NULL,
                                nfr ? fr[k].line : 0,
                                nfr ? vp_func_key(fr[k].function, fr[k].linkage) : NULL))
            return -1;
    }
    if (count_ticks(L) || load_values(L, slow))
        return -1;
    /* What a normal run's build declares, sampled or not: a slow-only
       variable that no normal build declares is new code (another version),
       not a path the normal run did not take (docs/rank.md). */
    for (size_t v = 0; !slow && v < L->p->var_count; v++) {
        const struct vp_prof_var *pv = &L->p->vars[v];
        const char *fn = vp_profile_var_str(L->p, pv->function);
        if (fn && fn[0])
            fn = vp_func_key(fn, vp_profile_var_str(L->p, pv->linkage));
        if (vp_rank_run_declare(L->run, fn, vp_profile_var_str(L->p, pv->name),
                                vp_profile_var_str(L->p, pv->file)))
            return -1;
    }
    for (size_t v = 0; v < L->p->var_count; v++)
        if (vp_rank_run_add_source(L->run, vp_profile_var_str(L->p, L->p->vars[v].file)))
            return -1;
    return 0;
}

/* Whether the recording of profile `p` is a run of the model already
   (given on its own before the recording that forked it). */
static int given(const struct vp_rank_model *m, const struct vp_profile *p)
{
    for (size_t i = 0; i < m->nruns; i++)
        if (m->runs[i].rec_pid == p->hdr.pid && m->runs[i].rec_start_ns == p->hdr.start_ns &&
            m->runs[i].rec_end_ns == p->hdr.end_ns)
            return 1;
    return 0;
}

/* Loads the profiles of the processes that the recording at `path` forked
   (`path.<pid>`, docs/runtime.md) into L->run, in name order: one run is
   the whole process tree, as perf record's is, and a prefork server's
   workers are not left out.  Profiles of other recordings are passed
   over; a file of that name that is no valid profile is refused, since
   it may be one of this recording's processes.  0, or -1 with err set. */
static int load_children(struct vp_rank_model *m, struct loader *root, const char *path,
                         int slow, char *err, size_t errlen)
{
    char **names;
    size_t n;
    if (vp_profile_forked_files(path, &names, &n)) {
        vp_set_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct loader C = {0};
        char perr[512];
        if (vp_profile_open(names[i], &C.p, perr, sizeof perr) != 0) {
            vp_set_err(err, errlen,
                       "%s (named as a process of %s's recording): remove it, or record again",
                       perr, path);
            rc = -1;
            break;
        }
        if (!vp_profile_forked_from(root->p, C.p) || given(m, C.p)) {
            vp_profile_close(C.p);
            continue;
        }
        if ((uint64_t)C.p->value_count >= UINT32_MAX) {
            vp_set_err(err, errlen, "%s: more than 2^32 value samples are not supported",
                       names[i]);
            vp_profile_close(C.p);
            rc = -1;
            break;
        }
        struct vp_rank_run *r = root->run;
        if (vp_grow((void **)&r->forked, &r->nforked_cap, r->nforked + 1, sizeof *r->forked, 4)) {
            vp_profile_close(C.p);
            vp_set_err(err, errlen, "%s: out of memory", names[i]);
            rc = -1;
            break;
        }
        r->forked[r->nforked++] =
            (struct vp_rank_proc){C.p->hdr.pid, C.p->hdr.start_ns, C.p->hdr.end_ns};
        C.run = root->run;
        C.merge = 1;
        if (!(C.res = vp_resolver_new(C.p)) || load_samples(&C, slow)) {
            vp_set_err(err, errlen, "%s: out of memory", names[i]);
            rc = -1;
        }
        loader_free_maps(&C);
        if (C.res)
            vp_resolver_free(C.res);
        vp_profile_close(C.p);
    }
    vp_profile_free_names(names, n);
    return rc;
}

int vp_rank_load_profile(struct vp_rank_model *m, const char *path, int slow, char *err,
                         size_t errlen)
{
    struct loader L = {0};
    char perr[512];
    if (vp_profile_open(path, &L.p, perr, sizeof perr) != 0) {
        vp_set_err(err, errlen, "%s", perr);
        return -1;
    }
    if ((uint64_t)L.p->value_count >= UINT32_MAX) {
        vp_set_err(err, errlen, "%s: more than 2^32 value samples are not supported", path);
        vp_profile_close(L.p);
        return -1;
    }
    /* The same recording twice (one file given twice, or a copy of it, or
       one run as both normal and slow) would count its samples twice as
       independent observations and change the statistics (a processing-cost
       dimension with one run per profile becomes testable): refused. */
    for (size_t i = 0; i < m->nruns; i++) {
        const struct vp_rank_run *o = &m->runs[i];
        if (o->rec_start_ns && o->rec_pid == L.p->hdr.pid &&
            o->rec_start_ns == L.p->hdr.start_ns && o->rec_end_ns == L.p->hdr.end_ns) {
            vp_set_err(err, errlen,
                       "%s: the same recording as %s (pid %u, same start and end): give each run "
                       "once",
                       path, o->label, (unsigned)L.p->hdr.pid);
            vp_profile_close(L.p);
            return -1;
        }
        for (size_t k = 0; k < o->nforked; k++)
            if (o->forked[k].pid == L.p->hdr.pid && o->forked[k].start_ns == L.p->hdr.start_ns &&
                o->forked[k].end_ns == L.p->hdr.end_ns) {
                vp_set_err(err, errlen,
                           "%s: a process that %s forked, counted with it already: give each "
                           "recording once, by the file vprof record wrote",
                           path, o->label);
                vp_profile_close(L.p);
                return -1;
            }
    }
    L.res = vp_resolver_new(L.p);
    if (!L.res)
        goto oom;
    L.run = vp_rank_add_run(m, path, slow, L.p->hdr.period_ns);
    if (!L.run)
        goto oom;
    L.run->rec_pid = L.p->hdr.pid;
    L.run->rec_start_ns = L.p->hdr.start_ns;
    L.run->rec_end_ns = L.p->hdr.end_ns;
    if (load_samples(&L, slow))
        goto oom;
    /* The program's own code unreadable (rebuilt since recording): the
       ranking would hold only library functions, silently; refused. */
    const char *progerr = vp_resolver_program_error(L.res);
    if (progerr) {
        vp_set_err(err, errlen, "%s: %s; record the run again with this build", path, progerr);
        loader_free_maps(&L);
        vp_resolver_free(L.res);
        vp_profile_close(L.p);
        return -1;
    }
    if (load_children(m, &L, path, slow, err, errlen)) {
        loader_free_maps(&L);
        vp_resolver_free(L.res);
        vp_profile_close(L.p);
        return -1;
    }
    vp_rank_run_sort_declared(L.run);
    vp_rank_run_sort_sources(L.run);
    if (L.run->pc_total == 0 && L.run->value_samples == 0) {
        char other[2048];
        vp_profile_why_no_samples(L.p, path, other, sizeof other);
        vp_set_err(err, errlen, "%s: no samples (no PC and no value samples)%s%s", path,
                   *other ? "; " : "", other);
        loader_free_maps(&L);
        vp_resolver_free(L.res);
        vp_profile_close(L.p);
        return -1;
    }
    loader_free_maps(&L);
    if (L.run->nfuncs == 0) {
        const char *why = vp_resolver_error(L.res);
        vp_set_err(err, errlen, "%s: no sample resolves to a function%s%s", path, why ? ": " : "",
                why ? why : "");
        vp_resolver_free(L.res);
        vp_profile_close(L.p);
        return -1;
    }
    if (slow) {
        /* Keep the profile and resolver for localisation, but give the
           value-sample pages back: the model holds what it needs. */
        struct sym_ctx *s = malloc(sizeof *s);
        if (!s)
            goto oom;
        s->p = L.p;
        s->res = L.res;
        s->loops = NULL;
        L.run->sym.line = sym_line;
        L.run->sym.free = sym_free;
        L.run->sym.ctx = s;
        if (L.p->value_count) {
            long pg = sysconf(_SC_PAGESIZE);
            uintptr_t a = ((uintptr_t)L.p->values + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
            uintptr_t e = ((uintptr_t)(L.p->values + L.p->value_count)) & ~((uintptr_t)pg - 1);
            if (e > a)
                madvise((void *)a, e - a, MADV_DONTNEED);
        }
    } else {
        vp_resolver_free(L.res);
        vp_profile_close(L.p);
    }
    return 0;
oom:
    vp_set_err(err, errlen, "%s: out of memory", path);
    loader_free_maps(&L);
    if (L.res)
        vp_resolver_free(L.res);
    vp_profile_close(L.p);
    return -1;
}
