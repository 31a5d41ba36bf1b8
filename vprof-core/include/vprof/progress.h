/*
 * progress.h - a one-line progress display for long steps (DWARF index of a
 * big binary in `vprof record`, loading large profiles in `vprof rank`,
 * the stages of `vprof diagnose`).
 *
 * Shown only when the stream is a terminal, and only once a step has taken
 * longer than a short delay, so pipes, files, CI logs and quick runs stay
 * silent.  Redraws are rate-limited (at most 10 per second); a small
 * thread redraws the elapsed time while the caller is busy in one long call
 * that reports nothing.  The line is cleared when the step ends, so the
 * next message starts on a clean line.  Every function accepts NULL, so
 * callers need no "is progress on?" checks.
 *
 * Usage:
 *     struct vp_progress *pg = vp_progress_start("loading", nfiles);
 *     for (i = 0; i < nfiles; i++) {
 *         vp_progress_label(pg, path[i]);
 *         load(path[i]);
 *         vp_progress_update(pg, i + 1);
 *     }
 *     vp_progress_end(pg);
 */
#ifndef VPROF_PROGRESS_H
#define VPROF_PROGRESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vp_progress;

/* Progress of `what` on stderr, `total` steps (0 = unknown: elapsed time
 * only).  Returns NULL when stderr is not a terminal or when out of
 * memory; the other functions then do nothing. */
struct vp_progress *vp_progress_start(const char *what, uint64_t total);

/* Same on file descriptor `fd`, shown after `delay_ms` (the default
 * above is 300 ms).  NULL when fd is not a terminal. */
struct vp_progress *vp_progress_start_fd(int fd, const char *what, uint64_t total,
                                         unsigned delay_ms);

/* Steps done so far (clamped to total when total > 0); reaching the total
 * is always drawn (past the delay), other updates are rate-limited.
 * Can't fail. */
void vp_progress_update(struct vp_progress *p, uint64_t done);
/* The detail shown after `what` (e.g. a file name); copied.  NULL clears. */
void vp_progress_label(struct vp_progress *p, const char *label);
/* Clear the line, stop the redraw thread, free p. */
void vp_progress_end(struct vp_progress *p);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_PROGRESS_H */
