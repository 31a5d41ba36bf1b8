/*
 * loopmods.c - the modules whose loops vprof-loop diagnoses (loopmods.h).
 */
#define _GNU_SOURCE
#include "loopmods.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vprof/launch.h"

int vp_loopmods_add(struct vp_loopmods *m, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < m->n; i++)
        if (m->mod[i].dev == st.st_dev && m->mod[i].ino == st.st_ino)
            return 0;
    struct vp_loop_table *t = NULL;
    int bad = vp_loop_table_read(path, &t, err, errlen) != 0;
    if (!bad && !t->loop_count) {
        vp_loop_table_free(t);
        return 0;
    }
    /* an unreadable module is kept too, without a table, so that it is
       reported once however often it is met */
    char *p = strdup(path);
    struct vp_loopmod *nm = realloc(m->mod, (m->n + 1) * sizeof *nm);
    if (nm)
        m->mod = nm;
    if (!p || !nm) {
        free(p);
        vp_loop_table_free(t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->mod[m->n++] = (struct vp_loopmod){.path = p, .dev = st.st_dev, .ino = st.st_ino, .table = t};
    return bad ? -1 : 1;
}

size_t vp_loopmods_add_needed(struct vp_loopmods *m, const char *exe,
                              void (*warn)(void *ctx, const char *msg), void *ctx)
{
    char **libs;
    size_t n = vp_launch_libraries(exe, &libs), kept = 0;
    char err[1024];
    for (size_t i = 0; i < n; i++) {
        int r = vp_loopmods_add(m, libs[i], err, sizeof err);
        if (r == 1)
            kept++;
        else if (r < 0 && warn)
            warn(ctx, err);
    }
    vp_launch_free_paths(libs, n);
    return kept;
}

int vp_loopmods_merge(struct vp_loopmods *m)
{
    size_t total = 0;
    for (size_t i = 0; i < m->n; i++)
        total += m->mod[i].table ? m->mod[i].table->loop_count : 0;
    struct vp_loop_table *t = calloc(1, sizeof *t);
    struct vp_loop_info *loops = malloc((total ? total : 1) * sizeof *loops);
    if (!t || !loops) {
        free(t);
        free(loops);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t j = 0; m->mod[i].table && j < m->mod[i].table->loop_count; j++)
            loops[k++] = m->mod[i].table->loops[j];
    t->loops = loops;
    t->loop_count = total;
    vp_loop_table_free(m->merged); /* its sites and strings are the parts' */
    m->merged = t;
    return 0;
}

/* Copies `str` to *dst, moves *dst past it and returns the copy. */
static const char *keep_string(char **dst, const char *str)
{
    size_t len = strlen(str) + 1;
    char *at = *dst;
    memcpy(at, str, len);
    *dst += len;
    return at;
}

int vp_loopmods_redundancy(const struct vp_loopmods *m, const struct vp_profile *const *profs,
                           size_t nprof, const struct vp_red_params *prm,
                           struct vp_red_result **out, char *err, size_t errlen)
{
    struct vp_red_result **part = calloc(m->n ? m->n : 1, sizeof *part);
    if (!part) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t nloops = 0, nchars = 0, ok = 0;
    char first[1024] = "";
    for (size_t i = 0; i < m->n; i++) {
        char e[1024];
        if (!m->mod[i].table)
            continue; /* unreadable, reported when met */
        if (vp_red_analyze_many(m->mod[i].path, profs, nprof, prm, &part[i], e, sizeof e) != 0) {
            part[i] = NULL;
            if (!first[0])
                snprintf(first, sizeof first, "%s", e);
            continue;
        }
        ok++;
        nloops += part[i]->loop_count;
        for (size_t j = 0; j < part[i]->loop_count; j++) {
            const struct vp_red_loop_result *l = &part[i]->loops[j];
            nchars += strlen(l->function) + 1;
            if (l->constant_object)
                nchars += strlen(l->constant_object) + 1;
            if (l->via)
                nchars += strlen(l->via) + 1;
        }
    }
    int rc = -1;
    struct vp_red_result *r = NULL;
    if (!ok) {
        snprintf(err, errlen, "%s", first[0] ? first : "no module with loops");
        goto done;
    }
    /* One result owning its loops and their strings (function names, the
       global of constant work, the helper of a unit's call). */
    r = calloc(1, sizeof *r);
    if (r) {
        r->loops = malloc((nloops ? nloops : 1) * sizeof *r->loops);
        r->strings_ = malloc(nchars ? nchars : 1);
    }
    if (!r || !r->loops || !r->strings_) {
        vp_red_result_free(r);
        r = NULL;
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    char *s = r->strings_;
    int have_loss = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (!part[i])
            continue;
        if (!have_loss) {
            have_loss = 1;
            /* the loss counts are the profiles': the same in every part */
            r->iterations_dropped = part[i]->iterations_dropped;
            r->iterations_truncated = part[i]->iterations_truncated;
            r->instances_dropped = part[i]->instances_dropped;
            r->values_dropped = part[i]->values_dropped;
        }
        for (size_t j = 0; j < part[i]->loop_count; j++) {
            struct vp_red_loop_result *l = &r->loops[r->loop_count++];
            *l = part[i]->loops[j];
            l->function = keep_string(&s, l->function);
            if (l->constant_object)
                l->constant_object = keep_string(&s, l->constant_object);
            if (l->via)
                l->via = keep_string(&s, l->via);
        }
    }
    *out = r;
    rc = 0;
done:
    for (size_t i = 0; i < m->n; i++)
        vp_red_result_free(part[i]);
    free(part);
    return rc;
}

void vp_loopmods_free(struct vp_loopmods *m)
{
    vp_loop_table_free(m->merged);
    for (size_t i = 0; i < m->n; i++) {
        vp_loop_table_free(m->mod[i].table);
        free(m->mod[i].path);
    }
    free(m->mod);
    memset(m, 0, sizeof *m);
}
