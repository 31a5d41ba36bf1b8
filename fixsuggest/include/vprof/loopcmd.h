/*
 * loopcmd.h - the vprof-loop pipeline as a library, shared by `vprof-loop`
 * and `vprof-diagnose`: pick the functions (top-N of a ranking and/or named
 * ones), check the binary and the ranking belong together, run the slow
 * command once with the loop probes of those functions switched on (and the
 * normal command, when given), analyse every loop that ran, order the loops
 * by their share of the slow run and write the report.  docs/vprof-loop.md.
 */
#ifndef VPROF_LOOPCMD_H
#define VPROF_LOOPCMD_H

#include <stddef.h>

#include "vprof/rank.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A command line's redirections: `< FILE` (its standard input) and
 * `> FILE` (its standard output), malloc'ed, NULL when absent. */
struct vp_loopcmd_io {
    char *in, *out;
};

struct vp_loopcmd_opts {
    const char *prog;              /* name in messages ("vprof-loop")          */
    size_t top;                    /* --top N: 0 = none                        */
    const char *rank_json;         /* --rank FILE (vprof-rank/1), or NULL       */
    const char *const *normal;     /* normal-run profiles (--normal)           */
    size_t nnormal;
    const char *const *buggy;      /* slow-run profiles (--buggy)              */
    size_t nbuggy;
    const struct vp_rank_result *rank; /* a ranking already computed, or NULL:
                                      with --normal/--buggy and no rank, the
                                      profiles are ranked here                 */
    const char *const *functions;  /* --function NAME..., may be empty         */
    size_t nfunctions;
    char *const *cmd;              /* the slow command, NULL-terminated        */
    char *const *normal_cmd;       /* the normal command, or NULL              */
    const struct vp_loopcmd_io *cmd_io;    /* the slow command's redirections,
                                              NULL: vprof-loop's own stdin/out */
    const struct vp_loopcmd_io *normal_io; /* the normal command's, or NULL   */
    int format;                    /* enum vp_lr_format                        */
    const char *output;            /* -o FILE (atomic), NULL = stdout          */
    const char *source_root;       /* --source-root, NULL = git toplevel       */
    int color;                     /* -1 auto (tty, no NO_COLOR), 0, 1         */
};

/* Exit statuses (also of the commands). */
enum vp_loopcmd_status {
    VP_LOOPCMD_FOUND = 0,          /* at least one loop ran and was diagnosed  */
    VP_LOOPCMD_NOTHING = 1,        /* no loop ran, no loops in the functions,
                                      the workload failed, or a write failed   */
    VP_LOOPCMD_USAGE = 2,          /* usage or input error                     */
};

/* Runs the pipeline; messages go to stderr as one line each, prefixed with
 * o->prog.  Returns an enum vp_loopcmd_status.  Partial results (loops that
 * ran before a failing workload stopped) are still written. */
int vp_loopcmd_run(const struct vp_loopcmd_opts *o);

/* Splits a command line into words like a POSIX shell does, without any
 * expansion: blanks separate words; '...' is literal; "..." is literal
 * except \" \\ \$ \` and backslash-newline; a backslash outside quotes
 * escapes the next character.  No $VAR, ~, globs, ;, |, redirections: those
 * characters are ordinary (vp_loopcmd_split_io takes < and >).  Returns 0 with a malloc'ed NULL-terminated argv
 * (free each word and the array), or -1 with `err` set (unterminated quote,
 * no words, out of memory). */
int vp_loopcmd_split(const char *line, char ***argv, size_t *argc, char *err, size_t errlen);

/* vp_loopcmd_split, and an unquoted '<' or '>' that begins a word takes the
 * file name that follows it (in the same word or the next) out of the
 * words into `io`: `./app < big.txt`, `./app <big.txt`, `./app > /dev/null`.
 * A quoted or escaped '<' ('<', \<) and one inside a word (a<b) stay
 * ordinary.  Errors besides vp_loopcmd_split's: a redirection without a
 * file, two of one kind.  On error `io` is freed. */
int vp_loopcmd_split_io(const char *line, char ***argv, size_t *argc, struct vp_loopcmd_io *io,
                        char *err, size_t errlen);
void vp_loopcmd_io_free(struct vp_loopcmd_io *io);

/* Opens io's files for one run: *in_fd and *out_fd (O_CLOEXEC), -1 when
 * absent (io may be NULL); the output is created or truncated.  Returns 0,
 * or -1 with `err` naming the file (both closed). */
int vp_loopcmd_io_open(const struct vp_loopcmd_io *io, int *in_fd, int *out_fd, char *err,
                       size_t errlen);

/* Whether io's files would open (io may be NULL), checked before any run
 * so that a missing input is refused before minutes of recording: 0, or
 * -1 with `err` as vp_loopcmd_io_open's.  The output is created if need
 * be but not truncated: what it holds is lost only when a run writes it. */
int vp_loopcmd_io_check(const struct vp_loopcmd_io *io, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_LOOPCMD_H */
