/*
 * loopmods.h - the modules whose loops vprof-loop can diagnose: the
 * executable, the shared libraries the dynamic loader maps at start-up, and
 * the modules (dlopen) that registered loops during a probed run
 * (docs/vprof-loop.md, "Shared libraries").  Private to fixsuggest.
 */
#ifndef VPROF_FIXSUGGEST_LOOPMODS_H
#define VPROF_FIXSUGGEST_LOOPMODS_H

#include <stddef.h>
#include <sys/types.h>

#include "vprof/loopclass.h"
#include "vprof/redundancy.h"

/* A module with at least one loop. */
struct vp_loopmod {
    char *path;                    /* as read                                 */
    dev_t dev;                     /* file identity, to add each module once  */
    ino_t ino;
    struct vp_loop_table *table;   /* NULL: its table could not be read    */
};

struct vp_loopmods {
    struct vp_loopmod *mod;
    size_t n;
    /* every module's loops, module by module (vp_loopmods_merge); its loops
       point into the modules' tables, so it lives no longer than they */
    struct vp_loop_table *merged;
};

/* Reads the loop table of `path` and keeps it if it has loops.  Returns 1
 * kept, 0 no loops or already there (also when it was unreadable before),
 * -1 unreadable (`err` set; kept without a table, so reported once). */
int vp_loopmods_add(struct vp_loopmods *m, const char *path, char *err, size_t errlen);

/* Adds the shared libraries `exe` loads at start-up (vp_launch_libraries,
 * what `vprof record` indexes too).  A library whose loop table cannot be read is passed to `warn`
 * (may be NULL) and left out.  Returns the number of modules kept. */
size_t vp_loopmods_add_needed(struct vp_loopmods *m, const char *exe,
                              void (*warn)(void *ctx, const char *msg), void *ctx);

/* (Re)builds m->merged.  Returns 0, or -1 out of memory. */
int vp_loopmods_merge(struct vp_loopmods *m);

/* Redundancy verdicts of every kept module against the `nprof` profiles of
 * one recording's processes (vp_red_analyze_many, with `prm`, NULL for
 * the defaults), in one result (loss counts from the profiles, once).
 * Returns 0, or -1 with `err` set
 * from the first module that failed when none succeeded. */
int vp_loopmods_redundancy(const struct vp_loopmods *m, const struct vp_profile *const *profs,
                           size_t nprof, const struct vp_red_params *prm,
                           struct vp_red_result **out, char *err, size_t errlen);

void vp_loopmods_free(struct vp_loopmods *m);

#endif
