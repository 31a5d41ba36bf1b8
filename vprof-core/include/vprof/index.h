/*
 * index.h - build the PC index (format.h, part 3) that the runtime uses to
 * find the variables live at a sampled PC and how to read them.
 *
 * Runs in the `vprof record` launcher, before the target starts, never in the
 * target process: reads each module's ".vprof.schema" section, matches every
 * schema entry to its DWARF variable (libdw), and turns DWARF locations and
 * location lists into bounded recipes (struct vp_op programs).
 */
#ifndef VPROF_INDEX_H
#define VPROF_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vprof/format.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vp_index_stats {
    struct vp_coverage coverage;   /* as stored in the index                  */
    uint32_t modules;              /* modules with a schema                   */
    uint32_t ranges;
    uint32_t recipes;
    double build_ms;
};

/* Build an index for the given ELF files (the executable first, then shared
 * libraries); files without a ".vprof.schema" section are skipped.  Writes
 * `out_path` atomically.  Returns 0 (stats filled if non-NULL), 1 when no
 * file had a schema (no index written), or -1 with err set. */
int vp_index_build(const char *const *elf_paths, size_t n, const char *out_path,
                   struct vp_index_stats *stats, char *err, size_t errlen);

enum vp_index_option_flags {
    /* Put every global in the always-live range (read at every sample),
       vProf's original behaviour, instead of only where it is used. */
    VP_INDEX_GLOBALS_EVERYWHERE = 1u << 0,
};

struct vp_index_options {
    unsigned flags;                /* enum vp_index_option_flags               */
};

/* vp_index_build with options (NULL: the defaults, as vp_index_build).
 * `vprof record` sets VP_INDEX_GLOBALS_EVERYWHERE for VPROF_GLOBALS=everywhere. */
int vp_index_build_opts(const char *const *elf_paths, size_t n, const char *out_path,
                        const struct vp_index_options *opts, struct vp_index_stats *stats,
                        char *err, size_t errlen);

/* Print an index file in readable form (for `vprof dump --index`).
 * Returns 0 or -1 with err set. */
int vp_index_dump(FILE *out, const char *index_path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_INDEX_H */
