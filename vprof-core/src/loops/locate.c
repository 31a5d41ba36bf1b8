/*
 * locate.c - the loop a source line is in, over the loop tables of several
 * modules (vprof/looptable.h): `vprof rank` gives each anomalous line its
 * enclosing loop with it (docs/rank.md, "Localisation").
 *
 * `vprof rank` asks once per distinct anomalous PC, and a large program
 * has tens of thousands of loops: the loops are indexed by function name
 * (and linkage name when it differs), so a question looks only at the
 * loops of its function.
 */
#include <stdlib.h>
#include <string.h>

#include "vprof/looptable.h"

struct loop_key {
    const char *name; /* function or linkage name */
    const struct vp_loop_info *loop;
};

struct vp_loop_locator {
    struct vp_loop_table **tables;
    size_t n;
    struct loop_key *keys; /* sorted by name */
    size_t nkeys;
};

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const struct loop_key *)a)->name, ((const struct loop_key *)b)->name);
}

struct vp_loop_locator *vp_loop_locator_new(const char *const *paths, size_t n)
{
    struct vp_loop_locator *l = calloc(1, sizeof *l);
    if (!l || !(l->tables = calloc(n ? n : 1, sizeof *l->tables))) {
        free(l);
        return NULL;
    }
    size_t loops = 0;
    for (size_t i = 0; i < n; i++) {
        struct vp_loop_table *t = NULL;
        char err[256];
        if (vp_loop_table_read(paths[i], &t, err, sizeof err) != 0)
            continue; /* unreadable or not ELF: no loops from it */
        if (!t->loop_count) {
            vp_loop_table_free(t);
            continue;
        }
        l->tables[l->n++] = t;
        loops += t->loop_count;
    }
    if (!(l->keys = malloc((2 * loops ? 2 * loops : 1) * sizeof *l->keys))) {
        vp_loop_locator_free(l);
        return NULL;
    }
    for (size_t i = 0; i < l->n; i++)
        for (size_t k = 0; k < l->tables[i]->loop_count; k++) {
            const struct vp_loop_info *x = &l->tables[i]->loops[k];
            l->keys[l->nkeys++] = (struct loop_key){x->function, x};
            if (x->linkage[0] && strcmp(x->linkage, x->function) != 0)
                l->keys[l->nkeys++] = (struct loop_key){x->linkage, x};
        }
    qsort(l->keys, l->nkeys, sizeof *l->keys, cmp_key);
    return l;
}

void vp_loop_locator_free(struct vp_loop_locator *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        vp_loop_table_free(l->tables[i]);
    free(l->tables);
    free(l->keys);
    free(l);
}

/* Keeps in *best / *rec the better of them and `x` for file:line. */
static void consider(const struct vp_loop_info *x, const char *func, const char *file, int line,
                     const struct vp_loop_info **best, const struct vp_loop_info **rec)
{
    if (strcmp(x->file, file) != 0)
        return;
    if (x->kind == VP_LOOP_RECURSION) {
        /* a recursive function is a loop whose iterations are its calls
           (LDoctor): the loop of every line of it that no natural loop
           holds; its table line is the function's */
        if (func && (uint32_t)line >= x->line)
            *rec = x;
        return;
    }
    uint32_t end = x->end_line >= x->line ? x->end_line : x->line;
    if (x->kind != VP_LOOP_NATURAL || (uint32_t)line < x->line || (uint32_t)line > end)
        return;
    /* innermost: the deepest; among equals (copies, siblings on one line)
       the one that starts last */
    if (!*best || x->depth > (*best)->depth ||
        (x->depth == (*best)->depth && x->line > (*best)->line))
        *best = x;
}

int vp_loop_locate(const struct vp_loop_locator *l, const char *func, const char *file,
                   int line)
{
    if (!l || !file || line <= 0)
        return 0;
    const struct vp_loop_info *best = NULL, *rec = NULL;
    if (!func) {
        for (size_t i = 0; i < l->n; i++)
            for (size_t k = 0; k < l->tables[i]->loop_count; k++)
                consider(&l->tables[i]->loops[k], NULL, file, line, &best, &rec);
    } else {
        size_t lo = 0, hi = l->nkeys; /* first key >= func */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(l->keys[mid].name, func) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k < l->nkeys && strcmp(l->keys[k].name, func) == 0; k++)
            consider(l->keys[k].loop, func, file, line, &best, &rec);
    }
    return best ? (int)best->line : rec ? (int)rec->line : 0;
}
