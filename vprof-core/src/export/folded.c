/*
 * folded.c - PC samples as folded stacks ("main;outer;work 123"), the input
 * of flame graph tools, and the two-column differential form of
 * difffolded.pl (vprof/export.h).
 */
#define _GNU_SOURCE /* qsort_r */
#include "vprof/export.h"
#include "util/err.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_internal.h"
#include "vprof/symbols.h"


struct folder {
    const struct vp_profile *p;
    struct vp_resolver *res;
    struct vp_export_map names;   /* address -> index into name[]           */
    char **name;
    size_t nname, capname;
    struct vp_export_map stack_of; /* stack hash -> index into out          */
    struct vp_export_folded *out;
    size_t cap;
    char *buf;                    /* the stack being built                  */
    size_t len, bufcap;
};

/// The names of a frame's inline chain, outermost first, as frames of their
/// own: "work;mix" for code of mix() inlined into work() (perf script
/// --inline does the same).  malloc'ed, NULL when out of memory.
static char *inline_names(struct folder *F, uint64_t addr, const char *outer)
{
    struct vp_line_frame fr[VP_INLINE_FRAMES_MAX];
    size_t n = vp_resolve_inline_chain(F->res, addr, fr, VP_INLINE_FRAMES_MAX);
    char shown[VP_INLINE_FRAMES_MAX][256]; /* each level as reports show it */
    const char *nms[VP_INLINE_FRAMES_MAX];
    size_t len = strlen(outer) + 1;
    for (size_t k = 0; k + 1 < n; k++) {
        nms[k] = fr[k].function ? vp_func_display(vp_func_key(fr[k].function, fr[k].linkage),
                                                  shown[k], sizeof shown[k])
                                : "?";
        len += strlen(nms[k]) + 1;
    }
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t w = 0;
    for (size_t k = n ? n : 1; k-- > 0;) {
        const char *nm = k + 1 >= n ? outer : nms[k];
        for (const char *c = nm; *c; c++) /* a ';' in a name would split the frame */
            s[w++] = *c == ';' ? ':' : *c;
        s[w++] = k ? ';' : '\0';
    }
    return s;
}

/// A frame's name (with its inline frames) with the characters that would
/// break a folded line replaced; malloc'ed, NULL when out of memory.
static char *frame_name(struct folder *F, uint64_t addr)
{
    const struct vp_func *fn = vp_resolve_func(F->res, addr);
    char tmp[64], *s;
    if (fn && fn->name && fn->name[0]) {
        char shown[512];
        s = inline_names(F, addr,
                         vp_func_display(vp_func_key(fn->name, fn->linkage), shown, sizeof shown));
    } else {
        const struct vp_prof_module *m = vp_profile_module_of(F->p, addr);
        if (m) {
            const char *path = vp_profile_str(F->p, m->path);
            const char *base = strrchr(path, '/');
            base = base ? base + 1 : path;
            size_t n = strlen(base) + 24;
            s = malloc(n);
            if (s)
                snprintf(s, n, "%s+0x%" PRIx64, *base ? base : "?", addr - m->load_bias);
        } else {
            snprintf(tmp, sizeof tmp, "0x%" PRIx64, addr);
            s = strdup(tmp);
        }
    }
    for (char *c = s; c && *c; c++) {
        if (*c == ';' && !(fn && fn->name && fn->name[0])) /* inline_names' ';' separate frames */
            *c = ':';
        else if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    }
    return s;
}

static const char *name_of(struct folder *F, uint64_t addr)
{
    int isnew;
    size_t *v = vp_export_map_get(&F->names, addr, &isnew);
    if (!v)
        return NULL;
    if (!isnew)
        return F->name[*v];
    if (F->nname == F->capname) {
        size_t cap = F->capname ? F->capname * 2 : 256;
        char **n = realloc(F->name, cap * sizeof *n);
        if (!n)
            return NULL;
        F->name = n;
        F->capname = cap;
    }
    char *s = frame_name(F, addr);
    if (!s)
        return NULL;
    F->name[F->nname] = s;
    *v = F->nname++;
    return s;
}

static int append(struct folder *F, const char *s)
{
    size_t n = strlen(s);
    if (F->len + n + 2 > F->bufcap) {
        size_t cap = (F->len + n + 2) * 2;
        char *b = realloc(F->buf, cap);
        if (!b)
            return -1;
        F->buf = b;
        F->bufcap = cap;
    }
    if (F->len)
        F->buf[F->len++] = ';';
    memcpy(F->buf + F->len, s, n + 1);
    F->len += n;
    return 0;
}

/// Count the stack in F->buf once more; equal hashes of different stacks
/// probe on with a rehashed key.
static int count_stack(struct folder *F)
{
    uint64_t key = vp_export_hash(F->buf, F->len);
    for (;;) {
        int isnew;
        size_t *v = vp_export_map_get(&F->stack_of, key, &isnew);
        if (!v)
            return -1;
        if (!isnew) {
            if (strcmp(F->out->stacks[*v], F->buf) == 0) {
                F->out->counts[*v]++;
                return 0;
            }
            key = vp_export_hash(&key, sizeof key);
            continue;
        }
        struct vp_export_folded *o = F->out;
        if (o->n == F->cap) {
            size_t cap = F->cap ? F->cap * 2 : 256;
            char **s = realloc(o->stacks, cap * sizeof *s);
            if (!s)
                return -1;
            o->stacks = s;
            uint64_t *c = realloc(o->counts, cap * sizeof *c);
            if (!c)
                return -1;
            o->counts = c;
            F->cap = cap;
        }
        if (!(o->stacks[o->n] = strdup(F->buf)))
            return -1;
        o->counts[o->n] = 1;
        *v = o->n++;
        return 0;
    }
}

static int cmp_index(const void *a, const void *b, void *ctx)
{
    char **s = ctx;
    return strcmp(s[*(const size_t *)a], s[*(const size_t *)b]);
}

/* Forgets the names of one process's addresses (another's may map other
   code there). */
static void names_reset(struct folder *F)
{
    for (size_t i = 0; i < F->nname; i++)
        free(F->name[i]);
    F->nname = 0;
    vp_export_map_free(&F->names);
    memset(&F->names, 0, sizeof F->names);
}

int vp_export_fold(const struct vp_profile *p, struct vp_export_folded *out, char *err,
                   size_t errlen)
{
    return vp_export_fold_many(&p, 1, out, err, errlen);
}

int vp_export_fold_many(const struct vp_profile *const *ps, size_t np,
                        struct vp_export_folded *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct folder F = {.out = out};
    size_t *order = NULL;
    const char *path = np && ps[0]->path ? ps[0]->path : "profile";
    for (size_t k = 0; k < np; k++) {
        const struct vp_profile *p = ps[k];
        F.p = p;
        names_reset(&F);
        F.res = vp_resolver_new(p);
        if (!F.res)
            goto oom;
        for (size_t i = 0; i < p->pc_count; i++) {
            const struct vp_pc_sample *s = p->pc_samples[i];
            F.len = 0;
            for (size_t d = s->depth + 1; d-- > 0;) {
                const char *name = name_of(&F, vp_export_frame_addr(s, d));
                if (!name || append(&F, name))
                    goto oom;
            }
            if (count_stack(&F))
                goto oom;
            out->total++;
        }
        vp_resolver_free(F.res);
        F.res = NULL;
    }
    /* Sort by stack text: permute both arrays through an index. */
    order = malloc((out->n ? out->n : 1) * sizeof *order);
    char **stacks = malloc((out->n ? out->n : 1) * sizeof *stacks);
    uint64_t *counts = malloc((out->n ? out->n : 1) * sizeof *counts);
    if (!order || !stacks || !counts) {
        free(stacks);
        free(counts);
        goto oom;
    }
    for (size_t i = 0; i < out->n; i++)
        order[i] = i;
    qsort_r(order, out->n, sizeof *order, cmp_index, out->stacks);
    for (size_t i = 0; i < out->n; i++) {
        stacks[i] = out->stacks[order[i]];
        counts[i] = out->counts[order[i]];
    }
    free(out->stacks);
    free(out->counts);
    out->stacks = stacks;
    out->counts = counts;
    free(order);
    names_reset(&F);
    free(F.name);
    free(F.buf);
    vp_export_map_free(&F.stack_of);
    return 0;
oom:
    vp_set_err(err, errlen, "%s: out of memory while folding stacks", path);
    free(order);
    names_reset(&F);
    free(F.name);
    free(F.buf);
    vp_export_map_free(&F.stack_of);
    if (F.res)
        vp_resolver_free(F.res);
    vp_export_folded_free(out);
    return -1;
}

void vp_export_folded_free(struct vp_export_folded *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->stacks[i]);
    free(f->stacks);
    free(f->counts);
    memset(f, 0, sizeof *f);
}

int vp_export_write_folded(FILE *out, const struct vp_export_folded *f)
{
    for (size_t i = 0; i < f->n; i++)
        fprintf(out, "%s %" PRIu64 "\n", f->stacks[i], f->counts[i]);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int vp_export_write_diff_folded(FILE *out, const struct vp_export_folded *normal,
                                const struct vp_export_folded *buggy)
{
    size_t i = 0, j = 0;
    while (i < normal->n || j < buggy->n) {
        int c = i == normal->n   ? 1
                : j == buggy->n  ? -1
                                 : strcmp(normal->stacks[i], buggy->stacks[j]);
        if (c < 0) {
            fprintf(out, "%s %" PRIu64 " 0\n", normal->stacks[i], normal->counts[i]);
            i++;
        } else if (c > 0) {
            fprintf(out, "%s 0 %" PRIu64 "\n", buggy->stacks[j], buggy->counts[j]);
            j++;
        } else {
            fprintf(out, "%s %" PRIu64 " %" PRIu64 "\n", normal->stacks[i], normal->counts[i],
                    buggy->counts[j]);
            i++;
            j++;
        }
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
