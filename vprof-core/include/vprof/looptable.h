/*
 * looptable.h - the static loop table a vprof-cc binary carries
 * (".vprof.loops", layout in vprof/format.h) and the loop a source line is
 * in.  Read by loopclass's analysis (vprof/loopclass.h), vprof-loop and
 * `vprof rank` (the enclosing loop of an anomalous line, docs/rank.md).
 *
 * Every reader bounds-checks its input: bad input returns -1 with `err` set
 * to "<name>: offset <n>: <what is wrong>", never crashes.
 */
#ifndef VPROF_LOOPTABLE_H
#define VPROF_LOOPTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "vprof/format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- static loop table ---------------------------------------------------- */

struct vp_loop_site_info {
    uint32_t line, column;
    uint8_t kind;          /* enum vp_site_kind                                */
    uint8_t in_body;       /* 1 in the loop body, 0 on the way out             */
    uint8_t io_every_iteration; /* VP_SITEF_IO_EVERY_ITER                      */
    uint8_t wait_every_iteration; /* VP_SITEF_WAIT_EVERY_ITER                  */
    uint8_t syscall_bytes; /* VP_SITEF_SYSCALL_BYTES: the byte count of a
                              system call run in every iteration; 0 none    */
    const char *callee;    /* "" when not a call                               */
};

struct vp_loop_info {
    uint64_t loop_id, parent_id;
    const char *function;  /* source function (DISubprogram name)              */
    const char *linkage;
    const char *file;      /* absolute, normalised                             */
    const char *host;      /* key (vp_func_key) of the function whose code
                              holds the loop: not the loop's own key when it
                              is inlined into another function                */
    uint32_t line, column, end_line;
    uint16_t depth, flags; /* flags: enum vp_loop_flags                        */
    uint8_t kind;          /* enum vp_loop_kind                                */
    uint8_t static_class;  /* enum vp_loop_class                               */
    uint8_t direct_class;  /* VP_LOOPF_INDIRECT: the class without the blocks
                              whose only effects are calls through pointers  */
    uint8_t unroll_factor; /* VP_LOOPF_UNROLLED: source iterations per
                              iteration (2-255); 0 otherwise                 */
    uint32_t spin_line;    /* VP_LOOPF_SPIN: the line of the atomic access
                              it spins on; 0 otherwise                       */
    uint32_t bucket_line;  /* VP_LOOPF_BUCKET_CHAIN: the line that loads the
                              chain's head from its bucket; 0 otherwise      */
    const struct vp_loop_site_info *sites;
    size_t site_count;
};

struct vp_loop_table {
    struct vp_loop_info *loops; /* in section order (TU by TU)                */
    size_t loop_count;
    /* private */
    struct vp_loop_site_info *sites_;
    char *strings_;
};

/* Reads the ".vprof.loops" section of ELF file `path`.  A binary without the
 * section gives an empty table (0 loops), not an error.  Returns 0, or -1
 * with `err` set (unreadable file, not ELF, corrupt table). */
int vp_loop_table_read(const char *path, struct vp_loop_table **out, char *err, size_t errlen);

/* Parses the bytes of a ".vprof.loops" section (one or more blobs, with
 * zero padding between them).  `name` is used in messages.  Returns 0 or -1
 * with `err` set. */
int vp_loop_table_parse(const char *name, const void *data, size_t size,
                        struct vp_loop_table **out, char *err, size_t errlen);

void vp_loop_table_free(struct vp_loop_table *t);

/* The loop tables of several modules (an executable and its libraries),
 * to find the loop a source line is in.  Modules that cannot be read or
 * have no loop are left out.  NULL only when out of memory. */
struct vp_loop_locator;
struct vp_loop_locator *vp_loop_locator_new(const char *const *paths, size_t n);
void vp_loop_locator_free(struct vp_loop_locator *l);

/* The line of the innermost natural loop of function `func` (its name or
 * linkage name; NULL: any function) in `file` whose lines [line, end_line]
 * contain `line`; when there is none and `func` is a recursive function in
 * the table, the recursion's line (the function's: a recursion is a loop of
 * calls); else 0. */
int vp_loop_locate(const struct vp_loop_locator *l, const char *func, const char *file,
                   int line);

/* Name of a static class: "0*", "0*1?", "[0|1]*", "1*"; "?" if unknown. */
const char *vp_loop_class_name(unsigned static_class);

/* Name of a site kind: "store", "call", "external", ...; "?" if unknown. */
const char *vp_loop_site_kind_name(unsigned kind);

#ifdef __cplusplus
}
#endif

#endif
