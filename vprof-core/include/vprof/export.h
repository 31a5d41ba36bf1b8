/*
 * export.h - vprof profiles in other tools' formats: folded stacks for flame
 * graphs (flamegraph.pl, speedscope, inferno), the two-column differential
 * form difffolded.pl produces, and gzip-compressed pprof profile.proto
 * (go tool pprof, and everything that reads pprof).  docs/reports.md
 * describes each output.
 *
 * Stacks are the PC samples: the interrupted PC (leaf) and the callers the
 * runtime recorded.  A caller's frame is symbolized at its return address
 * minus one (the call instruction), the leaf at its PC.  Frames that
 * resolve to no function are named "MODULE+0xOFFSET" (module base name,
 * offset from the ELF load bias) or "0xADDRESS" outside any module.
 *
 * Usage:
 *     struct vp_export_folded f;
 *     if (vp_export_fold(profile, &f, err, sizeof err)) -> error
 *     vp_export_write_folded(stdout, &f);
 *     vp_export_folded_free(&f);
 */
#ifndef VPROF_EXPORT_H
#define VPROF_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vprof/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Aggregated folded stacks: "root;caller;leaf" -> PC samples, sorted by
 * stack (strcmp), each stack once.  Frame names have ';' replaced by ':'
 * and control characters by '?', so a line always splits correctly. */
struct vp_export_folded {
    char **stacks;
    uint64_t *counts;
    size_t n;
    uint64_t total;          /* sum of counts                                 */
};

/* Fold the PC samples of `p`.  Returns 0, or -1 with err set (out of
 * memory).  A profile without PC samples gives n = 0. */
int vp_export_fold(const struct vp_profile *p, struct vp_export_folded *out, char *err,
                   size_t errlen);
/* The same over the `n` profiles of one recording's processes
 * (vp_profile_open_tree): their stacks counted together, as perf script
 * folds every process of a perf.data. */
int vp_export_fold_many(const struct vp_profile *const *p, size_t n,
                        struct vp_export_folded *out, char *err, size_t errlen);
void vp_export_folded_free(struct vp_export_folded *f);

/* "stack count\n" per stack, in the sorted order.  Returns 0, or -1 if a
 * write failed. */
int vp_export_write_folded(FILE *out, const struct vp_export_folded *f);

/* The differential form: "stack normal_count buggy_count\n" for every stack
 * of either input (0 where absent), sorted by stack; what difffolded.pl
 * writes and flamegraph.pl draws as a differential flame graph.  Counts are
 * not normalised.  Returns 0, or -1 if a write failed. */
int vp_export_write_diff_folded(FILE *out, const struct vp_export_folded *normal,
                                const struct vp_export_folded *buggy);

/* Write `p` as a gzip-compressed pprof profile to `path` (atomically:
 * "<path>.tmp.<pid>" renamed over it).  Sample types "samples/count" and
 * "cpu/nanoseconds" (count x period), period type "cpu/nanoseconds";
 * locations carry their function and line (mappings say so, so pprof does
 * not re-symbolize); mappings are the profile's modules with hex build ids.
 * With `base` (may be NULL) the samples of that profile are added with
 * negated values and the label run=normal (buggy ones get run=buggy), so
 * `pprof -top` shows the difference as -diff_base would.
 * Returns 0, or -1 with err set. */
int vp_export_pprof(const struct vp_profile *p, const struct vp_profile *base, const char *path,
                    char *err, size_t errlen);
/* The same over the processes of one recording (vp_profile_open_tree):
 * `p[0..np)` added, `base[0..nbase)` negated; the comment counts them. */
int vp_export_pprof_many(const struct vp_profile *const *p, size_t np,
                         const struct vp_profile *const *base, size_t nbase, const char *path,
                         char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_EXPORT_H */
