/*
 * symbols.h - address -> function / source line, from an ELF file's symbol
 * table and DWARF (libdw).  Used by every analysis that names code.
 *
 * Addresses given to vp_symtab_* are ELF virtual addresses (runtime address
 * minus the module's load bias).  vp_resolver wraps one symtab per module of
 * a profile and takes runtime addresses.
 *
 * File names are absolute, lexically normalised paths when DWARF gives a
 * compilation directory (so they compare equal to the schema's file names).
 */
#ifndef VPROF_SYMBOLS_H
#define VPROF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vprof/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vp_func {
    uint64_t lo, hi;       /* [lo, hi) ELF vaddr of the function's code         */
    const char *name;      /* DWARF name (demangled-looking) or symbol name    */
    const char *linkage;   /* symbol (linkage) name                            */
    const char *file;      /* declaration file, "" when no debug info          */
    int line;              /* declaration line, 0 when unknown                 */
    int internal;          /* 1: named only by the separate debug file of a
                              stripped library (its internal code, such as
                              __memmove_avx512_unaligned_erms); not a ranking
                              candidate (docs/rank.md, "Library code")    */
    int plt;               /* 1: a PLT stub (`strlen@plt`, `[plt]`): the jump
                              to a library function, not a candidate either */
};

struct vp_symtab;

/* Open `elf_path`.  If build_id_len > 0, the file's build-id must match.
 * Works without DWARF (symbols only; has_dwarf() then returns 0).
 * Returns 0, or -1 with err "<path>: <problem>". */
int vp_symtab_open(const char *elf_path, const uint8_t *build_id, size_t build_id_len,
                   struct vp_symtab **out, char *err, size_t errlen);
void vp_symtab_close(struct vp_symtab *st);
/* The GNU build-id of ELF file `elf_path` into id[0..cap): its length, 0
 * when the file cannot be read, is not ELF or has none (or a longer one). */
size_t vp_elf_build_id(const char *elf_path, uint8_t *id, size_t cap);
int vp_symtab_has_dwarf(const struct vp_symtab *st);

/* The function containing `addr`, or NULL. */
const struct vp_func *vp_symtab_func(const struct vp_symtab *st, uint64_t addr);
/* All functions, sorted by lo. */
const struct vp_func *vp_symtab_funcs(const struct vp_symtab *st, size_t *count);
/* Source line of `addr`; returns 0 and sets file and line, or -1 if unknown. */
int vp_symtab_line(const struct vp_symtab *st, uint64_t addr, const char **file, int *line);

/* One level of the inline chain of an address: the source line the code
 * belongs to at that level and the function whose code it is. */
struct vp_line_frame {
    const char *file;
    int line;              /* 0 when DWARF gives none (a call site without one) */
    const char *function;  /* DW_AT_name of the inlined function, or the
                              concrete function's vp_func name at the last level */
    const char *linkage;   /* its linkage name (C++), else the same as function */
    const char *decl_file; /* that function's declaration ("" unknown)       */
    int decl_line;         /* ... and line (0 unknown)                        */
};

/* The inline chain of `addr`, innermost first: frame 0 is the line-table
 * line; frame k (k >= 1) is the call site, in the code one level out, of
 * the function inlined at level k - 1; the last frame is in the concrete
 * function's own code (the line a loop of that function contains).  With
 * no inlining at addr it is one frame, vp_symtab_line's.  Returns the
 * number of frames written, at most `max` (when the chain is longer,
 * frame 0 and the outermost max - 1: the innermost callers are dropped),
 * 0 when the address has no line. */
size_t vp_symtab_inline_chain(const struct vp_symtab *st, uint64_t addr,
                              struct vp_line_frame *out, size_t max);
#define VP_INLINE_FRAMES_MAX 16

/* Calls `fn(name, arg)` once for each distinct function (its key,
 * vp_func_key: C++'s linkage name, else DW_AT_name) inlined,
 * at any depth, into the code of the concrete functions whose name or
 * linkage name is `func`.  Returns the number of calls (0 without DWARF or
 * without such a function). */
size_t vp_symtab_inlined_into(const struct vp_symtab *st, const char *func,
                              void (*fn)(const char *name, void *arg), void *arg);

/* Whether the module has code of a function `want` names (its name, its
 * linkage name, or for a name with "::" the qualified name reports show,
 * vp_func_display): a concrete function, or one only inlined (DWARF). */
int vp_symtab_has_function(const struct vp_symtab *st, const char *want);

/* The name that identifies a function across runs and versions: its
 * linkage name when that is an Itanium C++ mangled name ("_Z..."), else
 * its name.  Two C++ methods or overloads with one DW_AT_name in one file
 * are two functions (docs/rank.md, "Function identity"). */
/* Whether source file `path` is a system header or library source
   (/usr/include, /usr/lib): not the program's own code. */
static inline int vp_system_source(const char *path)
{
    return strncmp(path, "/usr/include/", 13) == 0 || strncmp(path, "/usr/lib/", 9) == 0;
}

static inline const char *vp_func_key(const char *name, const char *linkage)
{
    return linkage && linkage[0] == '_' && linkage[1] == 'Z' ? linkage : name;
}

/* The name a report shows for a function key: a mangled C++ name
 * demangled and qualified, without its parameter list, qualifiers or a
 * template function's return type ("tinyxml2::XMLElement::ParseDeep");
 * any other key as it is.  Writes into buf (truncated to n) and returns
 * buf, or returns key itself when there is nothing to demangle. */
const char *vp_func_display(const char *key, char *buf, size_t n);

/* A shown name fitted into a terminal column of `width` characters: as it
 * is when it fits, else with each outermost template argument list written
 * "<...>" ("std::map<...>::operator[]"), and if that is still too long, its
 * last width - 3 characters after "...".  Writes into buf (n bytes) and
 * returns buf, or returns shown itself when it fits. */
const char *vp_func_fit(const char *shown, size_t width, char *buf, size_t n);

/* The shown names of one column, fitted: each as vp_func_fit fits it,
 * except where two different names would then look alike (two
 * instantiations of one template, "std::thread::_State_impl<...>::_M_run"
 * for two lambdas).  Each of those shows its end after "..." when the
 * names differ there (where instantiations usually differ), else the
 * stretch of it around their first difference between "..."s.  Returns
 * count malloc'ed strings (free with vp_func_fit_list_free), or NULL when
 * out of memory, when a caller falls back on vp_func_fit. */
char **vp_func_fit_list(const char *const *names, size_t count, size_t width);
void vp_func_fit_list_free(char **fits, size_t count);

/* Join `file` onto `dir` (unless `file` is absolute; `dir` may be NULL) and
 * normalise lexically: repeated slashes and "." components collapse, and a
 * ".." removes the component before it (never climbing above the root).  Returns a malloc'ed string, or NULL when out of memory. */
char *vp_symtab_normpath(const char *dir, const char *file);

/* Resolver over all modules of a profile (symtabs opened lazily, cached). */
struct vp_resolver;
struct vp_resolver *vp_resolver_new(const struct vp_profile *p);
void vp_resolver_free(struct vp_resolver *r);
/* Runtime address -> function / line.  NULL / -1 when not resolvable.
 * The first failure to open a module's file is remembered and reported by
 * vp_resolver_error() (e.g. "binary changed since recording: build-id"). */
const struct vp_func *vp_resolve_func(struct vp_resolver *r, uint64_t pc);
int vp_resolve_line(struct vp_resolver *r, uint64_t pc, const char **file, int *line);
/* vp_symtab_inline_chain for a runtime address. */
size_t vp_resolve_inline_chain(struct vp_resolver *r, uint64_t pc, struct vp_line_frame *out,
                               size_t max);
const char *vp_resolver_error(const struct vp_resolver *r);
/* The same for the program's own code: the first module the PC index
 * covered (built with vprof-cc) whose file failed to open, e.g. rebuilt
 * since recording.  NULL when none has (yet). */
const char *vp_resolver_program_error(const struct vp_resolver *r);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_SYMBOLS_H */
