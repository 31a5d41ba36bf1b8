/*
 * dwarf_internal.h - pieces of the PC index builder shared between the files
 * of src/dwarf/ (not a public interface):
 *   schema.c   reads and validates ".vprof.schema" blobs;
 *   locexpr.c  translates one DWARF location expression into a recipe;
 *   build.c    matches schema entries to DIEs, flattens ranges, writes;
 *   dump.c     prints an index file.
 */
#ifndef VPROF_DWARF_INTERNAL_H
#define VPROF_DWARF_INTERNAL_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "vprof/format.h"

/* One schema entry with its strings resolved (pointers into the section
   data, valid while the Elf is open) and its file made absolute. */
struct vp_dwarf_var {
    struct vp_schema_entry e;
    const char *file_raw, *function, *linkage, *name, *type;
    char *file;             /* normalised, joined with the blob's comp_dir */
    const char **users;     /* v2 globals: functions of the TU using it (malloc'd
                               array of pointers into the section data)      */
    uint32_t nusers;
    uint16_t version;       /* of the blob (1: no users known)               */
};

/* Read every blob of the ".vprof.schema" section of `elf`.  Returns 1 when
   the file has no such section, 0 with *vars / *n filled (caller frees with
   vp_dwarf_schema_free), or -1 with err "<path>: .vprof.schema offset N:
   <problem>". */
int vp_dwarf_schema_read(Elf *elf, const char *path, struct vp_dwarf_var **vars, size_t *n,
                         char *err, size_t errlen);
void vp_dwarf_schema_free(struct vp_dwarf_var *vars, size_t n);

/* Same on an in-memory section image (for tests and the fuzz target). */
int vp_dwarf_schema_parse(const void *data, size_t size, const char *path,
                          struct vp_dwarf_var **vars, size_t *n, char *err, size_t errlen);

/* How the frame base of the enclosing subprogram is computed, already
   reduced to "register + offset" or "CFA + offset". */
struct vp_dwarf_frame_base {
    enum { VP_FB_NONE, VP_FB_BREG, VP_FB_CFA } kind;
    uint8_t reg;
    int64_t off;
};

/* A translated recipe before it is placed in the index. */
struct vp_dwarf_recipe {
    struct vp_op ops[VP_RECIPE_MAX_OPS];
    uint32_t op_count;
    uint16_t flags;        /* VP_RECIPE_CALLER_OK | VP_RECIPE_NEEDS_CFA     */
    int is_addr_only;      /* no register or CFA (addresses, constants, memory):
                              the same at every PC of the module           */
};

/* Translate the expression `ops[0..nops)` of attribute `attr` (needed for
   DW_OP_addrx / constx / implicit_value) into `out`; `size` is the value's
   byte size (1..8).  Returns VP_COV_OK, VP_COV_NO_LOCATION for an empty
   expression (optimised out here), or the enum vp_coverage_reason that
   stops it. */
int vp_dwarf_translate(Dwarf_Attribute *attr, const Dwarf_Op *ops, size_t nops,
                       const struct vp_dwarf_frame_base *fb, unsigned size,
                       struct vp_dwarf_recipe *out);

/* A DW_AT_const_value as a recipe. Returns VP_COV_OK or a reason. */
int vp_dwarf_translate_const(Dwarf_Attribute *attr, struct vp_dwarf_recipe *out);

/* Reduce a DW_AT_frame_base to *fb (VP_FB_NONE when it cannot be used). */
void vp_dwarf_frame_base(Dwarf_Die *subprogram, struct vp_dwarf_frame_base *fb);

#endif /* VPROF_DWARF_INTERNAL_H */
