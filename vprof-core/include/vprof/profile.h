/*
 * profile.h - read and write vprof profile files (layout in format.h,
 * documented in docs/profile-format.md).
 *
 * The reader maps the whole file, validates every section and record against
 * the file's bounds before handing anything out, and never crashes on bad
 * input: every failure returns -1 with a one-line message naming the file and
 * the byte offset of the problem.
 *
 * Usage:
 *     struct vp_profile *p;
 *     char err[512];
 *     if (vp_profile_open("slow.vprof", &p, err, sizeof err) != 0) {
 *         fprintf(stderr, "vprof: %s\n", err);
 *         return 2;
 *     }
 *     for (size_t i = 0; i < p->pc_count; i++) use(p->pc_samples[i]);
 *     vp_profile_close(p);
 */
#ifndef VPROF_PROFILE_H
#define VPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "vprof/format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An extra section the reader does not interpret (loop-stage sections). */
struct vp_profile_extra {
    uint32_t type;
    uint32_t flags;
    const void *data; /* points into the mapping, 8-aligned */
    uint64_t size;
};

struct vp_profile {
    char *path;
    struct vp_profile_header hdr;

    const char *strings;            /* VP_SEC_STRINGS, NUL-terminated entries */
    size_t strings_size;

    const struct vp_prof_module *modules;
    size_t module_count;

    const struct vp_prof_var *vars; /* VP_SEC_VARIABLES                       */
    size_t var_count;
    const char *var_strings;        /* the variable table's own strings       */
    size_t var_strings_size;

    /* PC samples are variable length; this array (allocated by the reader)
       points at each record in the mapping, in file order. */
    const struct vp_pc_sample **pc_samples;
    size_t pc_count;

    const struct vp_value_sample *values; /* in file order                   */
    size_t value_count;

    struct vp_loss loss;            /* zero if the section was absent          */
    int has_coverage;
    struct vp_coverage coverage;

    const struct vp_prof_thread *threads;
    size_t thread_count;

    struct vp_profile_extra *extras; /* sections of type >= 16, in file order */
    size_t extra_count;

    /* private */
    void *map_;
    size_t map_size_;
};

/* Open and validate a profile.  Returns 0, or -1 with `err` set to
 * "<path>: offset <n>: <what is wrong>". */
int vp_profile_open(const char *path, struct vp_profile **out, char *err, size_t errlen);

/* Validate an in-memory buffer (used by the fuzz target).  `name` is used in
 * messages.  The buffer must outlive the profile; it is not copied.
 * Returns 0 or -1 with `err` set. */
int vp_profile_parse(const char *name, const void *buf, size_t size,
                     struct vp_profile **out, char *err, size_t errlen);

void vp_profile_close(struct vp_profile *p);

/* String helpers; both return "" for offset 0 (validated at open, can't fail). */
const char *vp_profile_str(const struct vp_profile *p, uint32_t off);
const char *vp_profile_var_str(const struct vp_profile *p, uint32_t off);

/* Callers of a PC sample (innermost first), `s->depth` of them. */
static inline const uint64_t *vp_pc_sample_callers(const struct vp_pc_sample *s)
{
    return (const uint64_t *)(const void *)(s + 1);
}

/* Find the module containing absolute address `pc`; NULL if none. */
const struct vp_prof_module *vp_profile_module_of(const struct vp_profile *p, uint64_t pc);

/* Whether `pc` is in vprof's own runtime (a module named libvprof-rt*):
 * the recording's cost, not the program's. */
int vp_profile_in_runtime(const struct vp_profile *p, uint64_t pc);

/* The files beside the profile at `path` that processes forked by its
 * recording may have written: `path.<pid>` (docs/runtime.md), sorted by
 * name, each malloc'd, in a malloc'd array of *n (NULL when none).  Which
 * of them belong to this recording is for the caller to check (the
 * headers' root_pid).  Returns 0, or -1 out of memory. */
int vp_profile_forked_files(const char *path, char ***names, size_t *n);
void vp_profile_free_names(char **names, size_t n);

/* Whether profile `c` is of a process that the recording of `root` forked
 * (not exec'd into another program): same root pid, sampling period and
 * executable, started within the root's recording (a file left by an
 * earlier recording to the same path has another root pid). */
int vp_profile_forked_from(const struct vp_profile *root, const struct vp_profile *c);

/* The processes of the recording of `root` (the profile at `path`) that its
 * tree leaves out because they ran another program: a wrapper script's
 * child that exec'd the program, and that program's own children.  They
 * are the `path.<pid>` files with the recording's root pid, sampling period
 * and time that vp_profile_forked_from refuses.  Writes where their PC
 * samples are to `buf`, with what to do ("366 PC samples are in 3
 * processes running /tmp/p/forkw, another program ...: record that program
 * itself (vprof record -- /tmp/p/forkw ...)"), the program with the most
 * samples named; returns how many PC samples they have (0: none,
 * and buf is "").  Files that are no valid profile are passed over.
 * `tree_samples` (may be NULL) gets the PC samples of the tree itself,
 * read in the same pass: root's and those of the files
 * vp_profile_forked_from accepts. */
uint64_t vp_profile_other_programs(const struct vp_profile *root, const char *path, char *buf,
                                   size_t n, uint64_t *tree_samples);

/* Why the recording of `root` (at `path`) has no PC samples, for the
 * "no samples" lines of rank, report and export: where they are
 * (vp_profile_other_programs), else, since no thread ran one sampling
 * period of CPU time, how long the run lasted and what to do ("the run
 * lasted 0.517 ms, and no thread ran the 1 ms of CPU time that one sample
 * takes (997 Hz): give the run more work ... or sample more often (-F
 * HZ)").  buf is "" when neither can be said.  Can't fail. */
void vp_profile_why_no_samples(const struct vp_profile *root, const char *path, char *buf,
                               size_t n);

/* A recording's process tree: the profile at `path` first, then those of
 * the processes it forked (vp_profile_forked_files that pass
 * vp_profile_forked_from), in name order, in a malloc'd array of *n.  A
 * file of such a name that is no valid profile is refused.  Returns 0, or
 * -1 with `err` set ("<file>: <what>"). */
int vp_profile_open_tree(const char *path, struct vp_profile ***out, size_t *n, char *err,
                         size_t errlen);
void vp_profile_close_tree(struct vp_profile **p, size_t n);

/* First extra section of `type`, or NULL. */
const struct vp_profile_extra *vp_profile_extra(const struct vp_profile *p, uint32_t type);

/* ---- writer (analysis side: synthetic profiles, tests, conversions) ---- */
/*
 * Writes to "<path>.tmp.<pid>" and renames over `path` on commit, so a reader
 * never sees a half-written file.  Sections are appended in call order; the
 * VP_SEC_END section is added by commit.
 */
struct vp_profile_writer;

struct vp_profile_writer *vp_pw_open(const char *path, const struct vp_profile_header *hdr,
                                     char *err, size_t errlen);
int vp_pw_section(struct vp_profile_writer *w, uint32_t type, uint32_t flags, const void *data,
                  uint64_t size);
/* Returns 0, or -1 with err set (the temporary file is removed). */
int vp_pw_commit(struct vp_profile_writer *w, char *err, size_t errlen);
void vp_pw_abort(struct vp_profile_writer *w);

/* Fill a header with magic, version, endian mark and word size. */
void vp_profile_header_init(struct vp_profile_header *hdr);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_PROFILE_H */
