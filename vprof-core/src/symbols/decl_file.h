/*
 * decl_file.h - DW_AT_decl_file that works for DWARF 4 and DWARF 5.
 *
 * libdw 0.188's dwarf_decl_file() rejects file index 0, which DWARF 5 (clang
 * 14's default) uses for the primary source file; this helper falls back to
 * the CU's file table for that case.  Shared by symbols/ and dwarf/.
 */
#ifndef VPROF_SYMBOLS_DECL_FILE_H
#define VPROF_SYMBOLS_DECL_FILE_H

#include <elfutils/libdw.h>

/* The DIE's declaration file as libdw names it (may be relative), or NULL.
 * Follows DW_AT_abstract_origin / DW_AT_specification. */
const char *vp_dwarf_decl_file(Dwarf_Die *die);

#endif
