/*
 * locate.c - the loop a source line is in, over the loop tables of several
 * modules (vprof/looptable.h): `vprof rank` gives each anomalous line its
 * enclosing loop with it (docs/rank.md, "Localisation").
 */
#include <stdlib.h>
#include <string.h>

#include "vprof/looptable.h"

struct vp_loop_locator {
    struct vp_loop_table **tables;
    size_t n;
};

struct vp_loop_locator *vp_loop_locator_new(const char *const *paths, size_t n)
{
    struct vp_loop_locator *l = calloc(1, sizeof *l);
    if (!l || !(l->tables = calloc(n ? n : 1, sizeof *l->tables))) {
        free(l);
        return NULL;
    }
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
    }
    return l;
}

void vp_loop_locator_free(struct vp_loop_locator *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        vp_loop_table_free(l->tables[i]);
    free(l->tables);
    free(l);
}

int vp_loop_locate(void *ctx, const char *func, const char *file, int line)
{
    const struct vp_loop_locator *l = ctx;
    if (!l || !file || line <= 0)
        return 0;
    const struct vp_loop_info *best = NULL, *rec = NULL;
    for (size_t i = 0; i < l->n; i++)
        for (size_t k = 0; k < l->tables[i]->loop_count; k++) {
            const struct vp_loop_info *x = &l->tables[i]->loops[k];
            if (strcmp(x->file, file) != 0 ||
                (func && strcmp(x->function, func) != 0 && strcmp(x->linkage, func) != 0))
                continue;
            if (x->kind == VP_LOOP_RECURSION) {
                /* a recursive function is a loop whose iterations are its
                   calls (LDoctor): the loop of every line of it that no
                   natural loop holds; its table line is the function's */
                if (func && (uint32_t)line >= x->line)
                    rec = x;
                continue;
            }
            uint32_t end = x->end_line >= x->line ? x->end_line : x->line;
            if (x->kind != VP_LOOP_NATURAL || (uint32_t)line < x->line || (uint32_t)line > end)
                continue;
            /* innermost: the deepest; among equals (copies, siblings on
               one line) the one that starts last */
            if (!best || x->depth > best->depth ||
                (x->depth == best->depth && x->line > best->line))
                best = x;
        }
    return best ? (int)best->line : rec ? (int)rec->line : 0;
}
