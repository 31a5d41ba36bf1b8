/*
 * symbols.c - address -> function and address -> source line for one ELF
 * file (vp_symtab), and for every module of a profile (vp_resolver).
 *
 * Everything is decoded once at open time into two sorted arrays: functions
 * (from DWARF subprograms, completed by the ELF symbol table for code without
 * debug info) and line-table rows.  Lookups are binary searches and allocate
 * nothing.  File names are interned: every vp_func.file and every line row
 * points into one table owned by the symtab.
 */
#include "vprof/symbols.h"
#include "util/err.h"
#include "util/grow.h"
#include "symbols/decl_file.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One line-table row: code at [addr, next row's addr) comes from file:line. */
struct line_row {
    uint64_t addr;
    const char *file;
    int line;
    bool end_seq;     /* the row ends a sequence: addr is past its code */
};

/* One code range of an inlined call at one inline depth: code at [lo, hi)
   is `name` inlined at call_file:call_line of the code one level out. */
struct inline_range {
    uint64_t lo, hi;
    const char *call_file, *name, *linkage;
    const char *decl_file; /* the inlined function's declaration, "" unknown */
    int call_line, decl_line;
};

/* The ranges of one inline depth (1 = inlined into a concrete function).
   Ranges of one depth do not overlap, so each depth is one sorted array. */
struct inline_level {
    struct inline_range *r;
    size_t n, cap;
};

#define INLINE_DEPTH_MAX 64

/* Interned strings: open addressing over malloc'ed copies. */
struct strtab {
    char **slots;
    size_t cap, used;
};

struct vp_symtab {
    char *path;
    int fd;
    Elf *elf;
    Dwarf *dw;        /* NULL without debug info                          */
    struct vp_func *funcs;
    size_t nfuncs, capfuncs;
    struct line_row *rows;
    size_t nrows, caprows;
    struct inline_level inl[INLINE_DEPTH_MAX];
    size_t ninl;      /* depths in use */
    struct strtab strs;
};


/* ------------------------------------------------------------------ */
/* Paths and strings                                                   */
/* ------------------------------------------------------------------ */

char *vp_symtab_normpath(const char *dir, const char *file)
{
    if (!file)
        file = "";
    size_t dl = (dir && file[0] != '/') ? strlen(dir) : 0;
    size_t fl = strlen(file);
    char *joined = malloc(dl + fl + 2);
    if (!joined)
        return NULL;
    if (dl) {
        memcpy(joined, dir, dl);
        joined[dl] = '/';
        memcpy(joined + dl + 1, file, fl + 1);
    } else {
        memcpy(joined, file, fl + 1);
    }
    /* Walk the components, writing the kept ones back in place; `out`
       never overtakes `in`, so no second buffer is needed. */
    bool abs = joined[0] == '/';
    char *out = joined;
    size_t olen = 0;
    const char *in = joined;
    if (abs) {
        out[olen++] = '/';
    }
    size_t base = olen; /* ".." never climbs above this point */
    while (*in) {
        while (*in == '/')
            in++;
        if (!*in)
            break;
        const char *c = in;
        while (*in && *in != '/')
            in++;
        size_t cl = (size_t)(in - c);
        if (cl == 1 && c[0] == '.')
            continue;
        if (cl == 2 && c[0] == '.' && c[1] == '.') {
            /* Drop the previous component unless it is itself ".." of a
               relative path or there is nothing to drop. */
            size_t k = olen;
            while (k > base && out[k - 1] == '/')
                k--;
            size_t start = k;
            while (start > base && out[start - 1] != '/')
                start--;
            bool prev_dotdot = (k - start == 2 && out[start] == '.' && out[start + 1] == '.');
            if (k > base && !prev_dotdot) {
                olen = start;
                continue;
            }
            if (abs)
                continue; /* "/.." is "/" */
        }
        if (olen > base && out[olen - 1] != '/')
            out[olen++] = '/';
        memmove(out + olen, c, cl);
        olen += cl;
    }
    if (olen > 1 && out[olen - 1] == '/')
        olen--;
    if (olen == 0)
        out[olen++] = '.';
    out[olen] = '\0';
    return joined;
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Intern `s` and return the stored copy, or NULL when out of memory. */
static const char *strtab_intern(struct strtab *t, const char *s)
{
    if (t->used * 2 >= t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 256;
        char **ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->slots[i])
                continue;
            size_t j = str_hash(t->slots[i]) & (ncap - 1);
            while (ns[j])
                j = (j + 1) & (ncap - 1);
            ns[j] = t->slots[i];
        }
        free(t->slots);
        t->slots = ns;
        t->cap = ncap;
    }
    size_t j = str_hash(s) & (t->cap - 1);
    while (t->slots[j]) {
        if (strcmp(t->slots[j], s) == 0)
            return t->slots[j];
        j = (j + 1) & (t->cap - 1);
    }
    t->slots[j] = strdup(s);
    if (!t->slots[j])
        return NULL;
    t->used++;
    return t->slots[j];
}

/* Intern the normalised join of dir and file. */
static const char *intern_path(struct strtab *t, const char *dir, const char *file)
{
    char *p = vp_symtab_normpath(dir, file);
    if (!p)
        return NULL;
    const char *r = strtab_intern(t, p);
    free(p);
    return r;
}

static void strtab_free(struct strtab *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slots[i]);
    free(t->slots);
}

/* ------------------------------------------------------------------ */
/* Collecting functions and lines                                      */
/* ------------------------------------------------------------------ */

static int add_func(struct vp_symtab *st, const struct vp_func *f)
{
    if (vp_grow((void **)&st->funcs, &st->capfuncs, st->nfuncs + 1, sizeof *st->funcs, 256))
        return -1;
    st->funcs[st->nfuncs++] = *f;
    return 0;
}

static int add_row(struct vp_symtab *st, const struct line_row *r)
{
    if (vp_grow((void **)&st->rows, &st->caprows, st->nrows + 1, sizeof *st->rows, 1024))
        return -1;
    st->rows[st->nrows++] = *r;
    return 0;
}

const char *vp_dwarf_decl_file(Dwarf_Die *die)
{
    const char *f = dwarf_decl_file(die);
    if (f)
        return f;
    Dwarf_Attribute a;
    Dwarf_Word idx;
    if (!dwarf_attr_integrate(die, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) != 0)
        return NULL;
    Dwarf_Die cu;
    Dwarf_Files *files;
    size_t nfiles;
    if (!dwarf_diecu(die, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 ||
        idx >= nfiles)
        return NULL;
    return dwarf_filesrc(files, idx, NULL, NULL);
}

/* Name of a subprogram, following DW_AT_specification / abstract_origin. */
static const char *die_attr_string(Dwarf_Die *die, unsigned name)
{
    Dwarf_Attribute a;
    if (!dwarf_attr_integrate(die, name, &a))
        return NULL;
    return dwarf_formstring(&a);
}

/* Record every code range of a concrete subprogram DIE.  Declarations and
   abstract instances (no pc) are skipped by dwarf_ranges returning none. */
static int collect_subprogram(struct vp_symtab *st, Dwarf_Die *die, const char *comp_dir)
{
    Dwarf_Addr base, lo, hi;
    ptrdiff_t off = 0;
    const char *name = die_attr_string(die, DW_AT_name);
    const char *link = die_attr_string(die, DW_AT_linkage_name);
    if (!link)
        link = die_attr_string(die, DW_AT_MIPS_linkage_name);
    const char *decl = vp_dwarf_decl_file(die);
    int line = 0;
    if (dwarf_decl_line(die, &line) != 0)
        line = 0;
    struct vp_func f = { 0 };
    f.name = strtab_intern(&st->strs, name ? name : (link ? link : "??"));
    f.linkage = strtab_intern(&st->strs, link ? link : (name ? name : "??"));
    f.file = decl ? intern_path(&st->strs, comp_dir, decl) : strtab_intern(&st->strs, "");
    f.line = line;
    if (!f.name || !f.linkage || !f.file)
        return -1;
    while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
        if (hi <= lo || lo == 0)
            continue; /* discarded (garbage-collected) code has lo 0 */
        f.lo = lo;
        f.hi = hi;
        if (add_func(st, &f) != 0)
            return -1;
    }
    return 0;
}

static int add_inline(struct vp_symtab *st, size_t depth, const struct inline_range *r)
{
    struct inline_level *lv = &st->inl[depth - 1];
    if (vp_grow((void **)&lv->r, &lv->cap, lv->n + 1, sizeof *lv->r, 256))
        return -1;
    lv->r[lv->n++] = *r;
    if (depth > st->ninl)
        st->ninl = depth;
    return 0;
}

/* The last file name of a CU interned as a path, by libdw's string for it
   (which stays the same while the CU is walked): most inlined calls of a
   CU are in one file, and most inlined functions declared in one. */
struct path_memo {
    const char *src, *interned;
};

/* What walking one CU needs: its file table and compilation directory,
   and the last call file and declaration file interned. */
struct cu_ctx {
    Dwarf_Files *files;
    size_t nfiles;
    const char *comp_dir;
    struct path_memo call, decl;
};

/* `src` (NULL: unknown, "") interned as a path of the CU, through `m`;
   NULL when out of memory. */
static const char *cu_path(struct vp_symtab *st, const struct cu_ctx *cu, struct path_memo *m,
                           const char *src)
{
    if (src && src == m->src)
        return m->interned;
    const char *r = src ? intern_path(&st->strs, cu->comp_dir, src) : strtab_intern(&st->strs, "");
    if (src && r) {
        m->src = src;
        m->interned = r;
    }
    return r;
}

/* The inlined calls under `parent` (a concrete subprogram, a lexical block
   or an inlined call at depth - 1): each code range at `depth`, then what is
   inlined into it at depth + 1.  Nested out-of-line subprograms are
   walk_dies's. */
static int collect_inlines(struct vp_symtab *st, Dwarf_Die *parent, struct cu_ctx *cu,
                           size_t depth)
{
    Dwarf_Die child;
    if (depth > INLINE_DEPTH_MAX || dwarf_child(parent, &child) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_lexical_block) {
            if (collect_inlines(st, &child, cu, depth) != 0)
                return -1;
            continue;
        }
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        struct inline_range r = { 0 };
        Dwarf_Attribute a;
        Dwarf_Word w;
        const char *src = NULL;
        if (cu->files && dwarf_attr(&child, DW_AT_call_file, &a) &&
            dwarf_formudata(&a, &w) == 0 && w < cu->nfiles)
            src = dwarf_filesrc(cu->files, w, NULL, NULL);
        if (dwarf_attr(&child, DW_AT_call_line, &a) && dwarf_formudata(&a, &w) == 0 &&
            w <= INT32_MAX)
            r.call_line = (int)w;
        const char *name = die_attr_string(&child, DW_AT_name);
        r.call_file = cu_path(st, cu, &cu->call, src);
        const char *link = die_attr_string(&child, DW_AT_linkage_name);
        r.name = strtab_intern(&st->strs, name ? name : "??");
        r.linkage = link ? strtab_intern(&st->strs, link) : r.name;
        /* the abstract origin's */
        r.decl_file = cu_path(st, cu, &cu->decl, vp_dwarf_decl_file(&child));
        if (dwarf_decl_line(&child, &r.decl_line) != 0)
            r.decl_line = 0;
        if (!r.call_file || !r.name || !r.linkage || !r.decl_file)
            return -1;
        Dwarf_Addr base, lo, hi;
        ptrdiff_t off = 0;
        while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
            if (hi <= lo || lo == 0)
                continue;
            r.lo = lo;
            r.hi = hi;
            if (add_inline(st, depth, &r) != 0)
                return -1;
        }
        if (collect_inlines(st, &child, cu, depth + 1) != 0)
            return -1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* Walk a DIE tree for subprograms.  Functions can nest in namespaces and
   classes (C++) and, rarely, in other subprograms; lexical blocks cannot
   hold out-of-line functions, so they are not entered. */
static int walk_dies(struct vp_symtab *st, Dwarf_Die *parent, struct cu_ctx *cu, int depth)
{
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(parent, &child) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram) {
            if (collect_subprogram(st, &child, cu->comp_dir) != 0 ||
                collect_inlines(st, &child, cu, 1) != 0)
                return -1;
            if (walk_dies(st, &child, cu, depth + 1) != 0)
                return -1;
        } else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
                   tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
            if (walk_dies(st, &child, cu, depth + 1) != 0)
                return -1;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

static int collect_lines(struct vp_symtab *st, Dwarf_Die *cudie, const char *comp_dir)
{
    Dwarf_Lines *lines;
    size_t n;
    if (dwarf_getsrclines(cudie, &lines, &n) != 0)
        return 0; /* a CU without a line table is not an error */
    const char *last_src = NULL, *last_interned = NULL;
    for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a;
        int ln = 0;
        bool end = false;
        if (!l || dwarf_lineaddr(l, &a) != 0)
            continue;
        dwarf_lineno(l, &ln);
        dwarf_lineendsequence(l, &end);
        const char *src = dwarf_linesrc(l, NULL, NULL);
        if (!src)
            src = "";
        if (src != last_src) {
            last_interned = src[0] ? intern_path(&st->strs, comp_dir, src)
                                   : strtab_intern(&st->strs, "");
            if (!last_interned)
                return -1;
            last_src = src;
        }
        struct line_row r = { .addr = a, .file = last_interned, .line = ln, .end_seq = end };
        if (add_row(st, &r) != 0)
            return -1;
    }
    return 0;
}

static int collect_dwarf(struct vp_symtab *st)
{
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie, subdie;
    uint8_t unit_type;
    while (dwarf_get_units(st->dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) == 0) {
        if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
            continue;
        const char *comp_dir = die_attr_string(&cudie, DW_AT_comp_dir);
        struct cu_ctx cu = {.comp_dir = comp_dir};
        if (dwarf_getsrcfiles(&cudie, &cu.files, &cu.nfiles) != 0)
            cu.files = NULL; /* no call sites then, the ranges still count */
        if (walk_dies(st, &cudie, &cu, 0) != 0)
            return -1;
        if (collect_lines(st, &cudie, comp_dir) != 0)
            return -1;
    }
    return 0;
}

static int cmp_func(const void *a, const void *b)
{
    const struct vp_func *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    /* At equal start, DWARF entries (with a file) first, longest first. */
    if ((x->file[0] != 0) != (y->file[0] != 0))
        return x->file[0] ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi > y->hi ? -1 : 1;
    return 0;
}

static int cmp_row(const void *a, const void *b)
{
    const struct line_row *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* An end of sequence at X sorts before rows starting at X, so the last
       row <= addr is the one that starts there. */
    if (x->end_seq != y->end_seq)
        return x->end_seq ? -1 : 1;
    return 0;
}

static int cmp_inline(const void *a, const void *b)
{
    const struct inline_range *x = a, *y = b;
    return x->lo != y->lo ? (x->lo < y->lo ? -1 : 1) : 0;
}

/* Index of the last function with lo <= addr in the sorted array, or -1. */
static ptrdiff_t func_floor(const struct vp_func *f, size_t n, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f[mid].lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (ptrdiff_t)lo - 1;
}

/* ELF STT_FUNC symbols of `elf` for code not described by the first
   `ncovered` functions (sorted): DWARF's, for crt files, assembly and
   stripped-of-DWARF binaries; a stripped file's own, for its separate debug
   file.  .symtab is preferred; .dynsym is the fallback for stripped
   files. */
static int collect_elf_symbols(struct vp_symtab *st, Elf *elf, size_t ndwarf, int internal)
{
    Elf_Scn *scn = NULL, *symscn = NULL;
    GElf_Shdr sh, symsh;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) {
            symscn = scn;
            symsh = sh;
        }
    }
    if (!symscn || symsh.sh_entsize == 0)
        return 0;
    Elf_Data *data = elf_getdata(symscn, NULL);
    if (!data)
        return 0;
    size_t count = symsh.sh_size / symsh.sh_entsize;
    for (size_t i = 0; i < count; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym))
            break;
        int type = GELF_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
            sym.st_value == 0)
            continue;
        /* Already covered by a DWARF function? */
        ptrdiff_t k = func_floor(st->funcs, ndwarf, sym.st_value);
        if (k >= 0 && sym.st_value < st->funcs[k].hi)
            continue;
        const char *nm = elf_strptr(elf, symsh.sh_link, sym.st_name);
        if (!nm || !nm[0])
            continue;
        struct vp_func f = { .lo = sym.st_value,
                             .hi = sym.st_value + sym.st_size,
                             .name = strtab_intern(&st->strs, nm),
                             .linkage = NULL,
                             .file = strtab_intern(&st->strs, ""),
                             .line = 0,
                             .internal = internal };
        f.linkage = f.name;
        if (!f.name || !f.file || add_func(st, &f) != 0)
            return -1;
    }
    return 0;
}

/* The section holding `addr` (allocated, executable), or 0. */
static int exec_section_of(Elf *elf, uint64_t addr, GElf_Shdr *out)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(elf, scn)) != NULL)
        if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) && sh.sh_addr <= addr &&
            addr - sh.sh_addr < sh.sh_size) {
            *out = sh;
            return 1;
        }
    return 0;
}

static int add_plt_range(struct vp_symtab *st, uint64_t lo, uint64_t hi, const char *name)
{
    struct vp_func f = { .lo = lo, .hi = hi, .name = strtab_intern(&st->strs, name),
                         .file = strtab_intern(&st->strs, ""), .line = 0, .plt = 1 };
    f.linkage = f.name;
    return !f.name || !f.file ? -1 : add_func(st, &f);
}

/* PLT stubs, which carry no symbol: each x86-64 lazy-binding stub as
   `<function>@plt` (as perf and objdump name them), the rest of the PLT
   sections (the resolver stub, .plt.got, IBT layouts we do not decode) as
   `[plt]`.  Without this the stubs fell into the extent of the size-0
   `_init` symbol just before them, and a hot library call showed up as
   `_init`.  Stub i + 1 of .plt (or stub i of .plt.sec) jumps through the
   GOT slot of the i-th R_X86_64_JUMP_SLOT relocation of .rela.plt, the
   order the linker writes them in. */
static int collect_plt(struct vp_symtab *st)
{
    GElf_Ehdr eh;
    if (!gelf_getehdr(st->elf, &eh))
        return 0;
    size_t shstrndx;
    if (elf_getshdrstrndx(st->elf, &shstrndx) != 0)
        return 0;
    Elf_Scn *scn = NULL, *rela = NULL;
    GElf_Shdr sh, plt = { 0 }, pltsec = { 0 }, pltgot = { 0 }, relash = { 0 };
    while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *nm = elf_strptr(st->elf, shstrndx, sh.sh_name);
        if (!nm)
            continue;
        if (strcmp(nm, ".plt") == 0 && (sh.sh_flags & SHF_EXECINSTR))
            plt = sh;
        else if (strcmp(nm, ".plt.sec") == 0 && (sh.sh_flags & SHF_EXECINSTR))
            pltsec = sh;
        else if (strcmp(nm, ".plt.got") == 0 && (sh.sh_flags & SHF_EXECINSTR))
            pltgot = sh;
        else if (strcmp(nm, ".rela.plt") == 0 && sh.sh_type == SHT_RELA) {
            rela = scn;
            relash = sh;
        }
    }
    /* the stubs with a name: .plt.sec when there is one, else .plt past
       the resolver stub */
    GElf_Shdr *stubs = pltsec.sh_size ? &pltsec : &plt;
    uint64_t first = pltsec.sh_size ? 0 : 16, named_end = stubs->sh_addr + first;
    Elf_Data *rd = rela ? elf_getdata(rela, NULL) : NULL;
    Elf_Scn *dynsym = rela ? elf_getscn(st->elf, relash.sh_link) : NULL;
    GElf_Shdr dsh;
    Elf_Data *dd = dynsym && gelf_getshdr(dynsym, &dsh) ? elf_getdata(dynsym, NULL) : NULL;
    if (eh.e_machine == EM_X86_64 && stubs->sh_size && rd && dd && relash.sh_entsize) {
        size_t nrel = relash.sh_size / relash.sh_entsize;
        if (first + 16 * (uint64_t)nrel == stubs->sh_size) {
            for (size_t i = 0; i < nrel; i++) {
                GElf_Rela r;
                GElf_Sym sym;
                if (!gelf_getrela(rd, (int)i, &r) ||
                    GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
                    !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym))
                    break;
                const char *fn = elf_strptr(st->elf, dsh.sh_link, sym.st_name);
                char name[256];
                snprintf(name, sizeof name, "%s@plt", fn && fn[0] ? fn : "??");
                uint64_t lo = stubs->sh_addr + first + 16 * (uint64_t)i;
                if (add_plt_range(st, lo, lo + 16, name) != 0)
                    return -1;
                named_end = lo + 16;
            }
        }
    }
    /* what is left of the PLT sections */
    if (plt.sh_size) {
        /* the resolver stub when the others got names, else all of it */
        uint64_t hi = plt.sh_addr + plt.sh_size;
        if (stubs == &plt && named_end > plt.sh_addr + first)
            hi = plt.sh_addr + first;
        if (add_plt_range(st, plt.sh_addr, hi, "[plt]") != 0)
            return -1;
    }
    if (pltsec.sh_size && named_end == pltsec.sh_addr &&
        add_plt_range(st, pltsec.sh_addr, pltsec.sh_addr + pltsec.sh_size, "[plt]") != 0)
        return -1;
    if (pltgot.sh_size &&
        add_plt_range(st, pltgot.sh_addr, pltgot.sh_addr + pltgot.sh_size, "[plt]") != 0)
        return -1;
    return 0;
}

/* Sort, drop duplicates (aliases: same start), give size-0 symbols the
   extent up to the next function. */
static void finish_funcs(struct vp_symtab *st)
{
    if (st->nfuncs == 0)
        return;
    qsort(st->funcs, st->nfuncs, sizeof *st->funcs, cmp_func);
    size_t w = 0;
    for (size_t i = 0; i < st->nfuncs; i++) {
        if (w > 0 && st->funcs[w - 1].lo == st->funcs[i].lo)
            continue;
        st->funcs[w++] = st->funcs[i];
    }
    st->nfuncs = w;
    for (size_t i = 0; i < st->nfuncs; i++) {
        if (st->funcs[i].hi > st->funcs[i].lo)
            continue;
        uint64_t hi = (i + 1 < st->nfuncs) ? st->funcs[i + 1].lo : st->funcs[i].lo + 1;
        /* not past its own section (crti's `_init` has no size and the PLT
           follows it) */
        GElf_Shdr sh;
        if (st->elf && exec_section_of(st->elf, st->funcs[i].lo, &sh) &&
            sh.sh_addr + sh.sh_size < hi)
            hi = sh.sh_addr + sh.sh_size;
        st->funcs[i].hi = hi > st->funcs[i].lo ? hi : st->funcs[i].lo + 1;
    }
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */
/* ------------------------------------------------------------------ */

static void hex(char *out, size_t outlen, const uint8_t *b, size_t n);

/* Whether `elf` has a .symtab (a stripped file has only .dynsym). */
static bool has_symtab(Elf *elf)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(elf, scn)) != NULL)
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            return true;
    return false;
}

/* Opens `path` as the separate debug file of an ELF file whose build-id is
   id[0..n): an ELF file with that same build-id.  Returns it (its
   descriptor in *fdp), or NULL. */
static Elf *open_debug_candidate(const char *path, const void *id, size_t n, int *fdp)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    const void *did = NULL;
    ssize_t dn = e && elf_kind(e) == ELF_K_ELF ? dwelf_elf_gnu_build_id(e, &did) : -1;
    if (dn > 0 && (size_t)dn == n && memcmp(did, id, n) == 0 && has_symtab(e)) {
        *fdp = fd;
        return e;
    }
    if (e)
        elf_end(e);
    close(fd);
    return NULL;
}

/* The separate debug file of a stripped ELF file (docs/reports.md,
   "Separate debug files"), as gdb and perf find it: under each debug
   directory (VPROF_DEBUG_DIRS, colon-separated; /usr/lib/debug by
   default) by build-id, .build-id/xx/rest.debug; then by its
   .gnu_debuglink name next to the file, in its .debug/ directory, and
   under each debug directory followed by the file's absolute directory.
   Only a file with the same build-id and a .symtab is taken; any other
   (not ELF, truncated, another build's) is passed over.  NULL when none. */
static Elf *open_debug_file(const char *elf_path, Elf *elf, int *fdp)
{
    const void *id = NULL;
    ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
    if (n <= 0 || n > 64)
        return NULL;
    const char *env = getenv("VPROF_DEBUG_DIRS");
    const char *dirs = env && env[0] ? env : "/usr/lib/debug";
    GElf_Word crc;
    const char *link = dwelf_elf_gnu_debuglink(elf, &crc);
    if (link && (!link[0] || strchr(link, '/')))
        link = NULL;
    char hexid[160], path[4096];
    hex(hexid, sizeof hexid, id, (size_t)n);
    const char *slash = strrchr(elf_path, '/');
    int dlen = slash ? (int)(slash - elf_path) : 1;
    const char *dir = slash ? elf_path : ".";
    Elf *e = NULL;
    if (link) {
        snprintf(path, sizeof path, "%.*s/%s", dlen, dir, link);
        if (strcmp(path, elf_path) != 0)
            e = open_debug_candidate(path, id, (size_t)n, fdp);
        if (!e) {
            snprintf(path, sizeof path, "%.*s/.debug/%s", dlen, dir, link);
            e = open_debug_candidate(path, id, (size_t)n, fdp);
        }
    }
    for (const char *d = dirs; !e && *d;) {
        size_t len = strcspn(d, ":");
        if (len > 0 && len < 2048) {
            snprintf(path, sizeof path, "%.*s/.build-id/%.2s/%s.debug", (int)len, d, hexid,
                     hexid + 2);
            e = open_debug_candidate(path, id, (size_t)n, fdp);
            if (!e && link && elf_path[0] == '/') {
                snprintf(path, sizeof path, "%.*s%.*s/%s", (int)len, d, dlen, dir, link);
                e = open_debug_candidate(path, id, (size_t)n, fdp);
            }
        }
        d += len;
        if (*d == ':')
            d++;
    }
    return e;
}

static void hex(char *out, size_t outlen, const uint8_t *b, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 3 <= outlen; i++)
        k += (size_t)snprintf(out + k, outlen - k, "%02x", b[i]);
    if (outlen)
        out[k < outlen ? k : outlen - 1] = '\0';
}

size_t vp_elf_build_id(const char *elf_path, uint8_t *id, size_t cap)
{
    elf_version(EV_CURRENT);
    int fd = open(elf_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t n = 0;
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (e && elf_kind(e) == ELF_K_ELF) {
        const void *p = NULL;
        ssize_t len = dwelf_elf_gnu_build_id(e, &p);
        if (len > 0 && (size_t)len <= cap) {
            memcpy(id, p, (size_t)len);
            n = (size_t)len;
        }
    }
    if (e)
        elf_end(e);
    close(fd);
    return n;
}

int vp_symtab_open(const char *elf_path, const uint8_t *build_id, size_t build_id_len,
                   struct vp_symtab **out, char *err, size_t errlen)
{
    *out = NULL;
    elf_version(EV_CURRENT);
    struct vp_symtab *st = calloc(1, sizeof *st);
    if (!st) {
        vp_set_err(err, errlen, "%s: out of memory", elf_path);
        return -1;
    }
    st->fd = -1;
    st->path = strdup(elf_path);
    if (!st->path)
        goto oom;
    st->fd = open(elf_path, O_RDONLY | O_CLOEXEC);
    if (st->fd < 0) {
        vp_set_err(err, errlen, "%s: %s", elf_path, strerror(errno));
        goto fail;
    }
    st->elf = elf_begin(st->fd, ELF_C_READ_MMAP, NULL);
    if (!st->elf || elf_kind(st->elf) != ELF_K_ELF) {
        vp_set_err(err, errlen, "%s: not an ELF file", elf_path);
        goto fail;
    }
    if (build_id_len > 0) {
        const void *id = NULL;
        ssize_t idlen = dwelf_elf_gnu_build_id(st->elf, &id);
        if (idlen <= 0) {
            vp_set_err(err, errlen, "%s: no build-id note, cannot check it against the recorded one",
                    elf_path);
            goto fail;
        }
        if ((size_t)idlen != build_id_len || memcmp(id, build_id, build_id_len) != 0) {
            char a[80], b[80];
            hex(a, sizeof a, id, (size_t)idlen);
            hex(b, sizeof b, build_id, build_id_len);
            vp_set_err(err, errlen,
                    "%s: build-id differs from the recorded one (file %s, recorded %s): "
                    "the binary changed since recording",
                    elf_path, a, b);
            goto fail;
        }
    }
    /* No debug info is not an error: dwarf_begin_elf fails and we use the
       symbol table alone. */
    st->dw = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
    if (st->dw && collect_dwarf(st) != 0)
        goto oom;
    size_t ndwarf = st->nfuncs;
    if (ndwarf > 0)
        qsort(st->funcs, ndwarf, sizeof *st->funcs, cmp_func);
    if (collect_elf_symbols(st, st->elf, ndwarf, 0) != 0 || collect_plt(st) != 0)
        goto oom;
    /* A stripped file: the symbols of its separate debug file name what
       its .dynsym does not (the C library's __memmove_avx_unaligned_erms);
       their names are interned, so the file is closed at once */
    int dbg_fd = -1;
    Elf *dbg = has_symtab(st->elf) ? NULL : open_debug_file(elf_path, st->elf, &dbg_fd);
    if (dbg) {
        if (st->nfuncs > 0)
            qsort(st->funcs, st->nfuncs, sizeof *st->funcs, cmp_func);
        int rc = collect_elf_symbols(st, dbg, st->nfuncs, 1);
        elf_end(dbg);
        close(dbg_fd);
        if (rc != 0)
            goto oom;
    }
    finish_funcs(st);
    if (st->nrows > 0)
        qsort(st->rows, st->nrows, sizeof *st->rows, cmp_row);
    for (size_t d = 0; d < st->ninl; d++)
        if (st->inl[d].n > 1)
            qsort(st->inl[d].r, st->inl[d].n, sizeof *st->inl[d].r, cmp_inline);
    *out = st;
    return 0;
oom:
    vp_set_err(err, errlen, "%s: out of memory", elf_path);
fail:
    vp_symtab_close(st);
    return -1;
}

void vp_symtab_close(struct vp_symtab *st)
{
    if (!st)
        return;
    if (st->dw)
        dwarf_end(st->dw);
    if (st->elf)
        elf_end(st->elf);
    if (st->fd >= 0)
        close(st->fd);
    free(st->funcs);
    free(st->rows);
    for (size_t d = 0; d < st->ninl; d++)
        free(st->inl[d].r);
    strtab_free(&st->strs);
    free(st->path);
    free(st);
}

int vp_symtab_has_dwarf(const struct vp_symtab *st)
{
    return st && st->dw != NULL && st->nrows > 0;
}

const struct vp_func *vp_symtab_func(const struct vp_symtab *st, uint64_t addr)
{
    if (!st)
        return NULL;
    ptrdiff_t k = func_floor(st->funcs, st->nfuncs, addr);
    if (k < 0 || addr >= st->funcs[k].hi)
        return NULL;
    return &st->funcs[k];
}

const struct vp_func *vp_symtab_funcs(const struct vp_symtab *st, size_t *count)
{
    *count = st ? st->nfuncs : 0;
    return st ? st->funcs : NULL;
}

/* The range of inline depth d + 1 holding addr, or NULL. */
static const struct inline_range *inline_at(const struct inline_level *lv, uint64_t addr)
{
    size_t lo = 0, hi = lv->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (lv->r[mid].lo <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && addr < lv->r[lo - 1].hi ? &lv->r[lo - 1] : NULL;
}

/* The innermost inlined call's range holding addr (NULL: the concrete
   function's own code). */
static const struct inline_range *inline_scope(const struct vp_symtab *st, uint64_t addr)
{
    const struct inline_range *in = NULL, *next;
    for (size_t d = 0; d < st->ninl && (next = inline_at(&st->inl[d], addr)) != NULL; d++)
        in = next;
    return in;
}

/* How far a line-0 row looks for a row with a line, each way. */
#define LINE0_ROWS 16

/* Whether row k (line > 0) may stand for line-0 code at addr: the same
   function, and the same inlined call or none. */
static int same_scope(const struct vp_symtab *st, size_t k, uint64_t addr,
                      const struct inline_range *scope, const struct vp_func *f)
{
    return st->rows[k].line > 0 && vp_symtab_func(st, st->rows[k].addr) == f &&
           inline_scope(st, st->rows[k].addr) == scope;
}

int vp_symtab_line(const struct vp_symtab *st, uint64_t addr, const char **file, int *line)
{
    if (!st || st->nrows == 0)
        return -1;
    size_t lo = 0, hi = st->nrows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->rows[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    size_t at = lo - 1;
    const struct line_row *r = &st->rows[at];
    if (r->end_seq) /* past the end of a sequence */
        return -1;
    if (r->line <= 0) {
        /* Compiler-generated code (a merged location: an unrolled loop's
           induction step, a hoisted load) has line 0 in the scope it sits
           in.  It takes the line of the nearest row before it in the same
           sequence, function and inlined call, else the nearest after it:
           the code around it, usually the same loop (docs/symbols.md,
           "Line 0"). */
        const struct vp_func *f = vp_symtab_func(st, addr);
        const struct inline_range *scope = inline_scope(st, addr);
        size_t k = at, found = st->nrows;
        for (int n = 0; n < LINE0_ROWS && k > 0 && found == st->nrows; n++) {
            k--;
            if (st->rows[k].end_seq)
                break;
            if (same_scope(st, k, addr, scope, f))
                found = k;
        }
        k = at;
        for (int n = 0; n < LINE0_ROWS && found == st->nrows && k + 1 < st->nrows; n++) {
            if (st->rows[k].end_seq)
                break;
            k++;
            if (same_scope(st, k, addr, scope, f) && !st->rows[k].end_seq)
                found = k;
        }
        if (found == st->nrows)
            return -1;
        r = &st->rows[found];
    }
    *file = r->file;
    *line = r->line;
    return 0;
}

size_t vp_symtab_inline_chain(const struct vp_symtab *st, uint64_t addr,
                              struct vp_line_frame *out, size_t max)
{
    const char *file;
    int line;
    if (!st || max == 0 || vp_symtab_line(st, addr, &file, &line) != 0)
        return 0;
    /* The inlined calls holding addr, outermost first: a range of depth
       d + 1 lies inside one of depth d, so the walk stops at the first
       depth without one. */
    const struct inline_range *in[INLINE_DEPTH_MAX];
    size_t m = 0;
    while (m < st->ninl && (in[m] = inline_at(&st->inl[m], addr)) != NULL)
        m++;
    const struct vp_func *f = vp_symtab_func(st, addr);
    const char *outer = f ? f->name : "??", *outer_link = f ? f->linkage : outer;
    /* frame k (0 = innermost) of the m + 1: its line, and the function
       whose code it is (the range at depth m - k, or the concrete one).
       When they do not fit, frame 0 and the outermost max - 1: the frames
       dropped are the innermost callers, a library header's helpers
       (std::vector::erase's nine levels down to memmove), not the
       program's own code around them */
    size_t n = m + 1 <= max ? m + 1 : max;
    for (size_t i = 0; i < n; i++) {
        size_t k = i == 0 ? 0 : i + (m + 1 - n);
        out[i].file = k == 0 ? file : in[m - k]->call_file;
        out[i].line = k == 0 ? line : in[m - k]->call_line;
        out[i].function = k < m ? in[m - k - 1]->name : outer;
        out[i].linkage = k < m ? in[m - k - 1]->linkage : outer_link;
        out[i].decl_file = k < m ? in[m - k - 1]->decl_file : f ? f->file : "";
        out[i].decl_line = k < m ? in[m - k - 1]->decl_line : f ? f->line : 0;
    }
    return n;
}

size_t vp_symtab_inlined_into(const struct vp_symtab *st, const char *func,
                              void (*fn)(const char *name, void *arg), void *arg)
{
    if (!st || !func)
        return 0;
    /* names are interned (struct strtab): equal names are equal pointers */
    const char **seen = NULL;
    size_t nseen = 0, capseen = 0, calls = 0;
    for (size_t i = 0; i < st->nfuncs; i++) {
        const struct vp_func *f = &st->funcs[i];
        if (strcmp(f->name, func) != 0 && (!f->linkage || strcmp(f->linkage, func) != 0))
            continue;
        for (size_t d = 0; d < st->ninl; d++) {
            const struct inline_level *lv = &st->inl[d];
            size_t lo = 0, hi = lv->n; /* first range ending after f->lo */
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (lv->r[mid].hi <= f->lo)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (size_t k = lo; k < lv->n && lv->r[k].lo < f->hi; k++) {
                const char *name = vp_func_key(lv->r[k].name, lv->r[k].linkage);
                size_t j = 0;
                while (j < nseen && seen[j] != name)
                    j++;
                if (j < nseen || !name || !*name || strcmp(name, "??") == 0)
                    continue;
                if (vp_grow((void **)&seen, &capseen, nseen + 1, sizeof *seen, 16) != 0)
                    goto out;
                seen[nseen++] = name;
                fn(name, arg);
                calls++;
            }
        }
    }
out:
    free(seen);
    return calls;
}

/* Whether `want` names function (name, linkage): the plain or linkage
   name, or for a qualified C++ name ("ns::C::f") the name reports show. */
static bool names_function(const char *want, const char *name, const char *linkage)
{
    if ((name && strcmp(name, want) == 0) || (linkage && strcmp(linkage, want) == 0))
        return true;
    if (!strstr(want, "::") || !name)
        return false;
    char buf[512];
    return strcmp(vp_func_display(vp_func_key(name, linkage), buf, sizeof buf), want) == 0;
}

int vp_symtab_has_function(const struct vp_symtab *st, const char *want)
{
    if (!st || !want)
        return 0;
    for (size_t i = 0; i < st->nfuncs; i++)
        if (names_function(want, st->funcs[i].name, st->funcs[i].linkage))
            return 1;
    for (size_t d = 0; d < st->ninl; d++)
        for (size_t k = 0; k < st->inl[d].n; k++)
            if (names_function(want, st->inl[d].r[k].name, st->inl[d].r[k].linkage))
                return 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Resolver over the modules of a profile                              */
/* ------------------------------------------------------------------ */

struct vp_resolver {
    const struct vp_profile *p;
    struct vp_symtab **tabs; /* one per module, opened on first use */
    bool *tried;
    char err[512];
    char prog_err[512]; /* the first failure of a module the PC index covered */
};

struct vp_resolver *vp_resolver_new(const struct vp_profile *p)
{
    struct vp_resolver *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->p = p;
    size_t n = p->module_count ? p->module_count : 1;
    r->tabs = calloc(n, sizeof *r->tabs);
    r->tried = calloc(n, sizeof *r->tried);
    if (!r->tabs || !r->tried) {
        vp_resolver_free(r);
        return NULL;
    }
    return r;
}

void vp_resolver_free(struct vp_resolver *r)
{
    if (!r)
        return;
    if (r->tabs)
        for (size_t i = 0; i < r->p->module_count; i++)
            vp_symtab_close(r->tabs[i]);
    free(r->tabs);
    free(r->tried);
    free(r);
}

/* The symtab of the module containing runtime address pc (opened on first
   use) and the module's load bias; NULL if no module has pc or it failed. */
static struct vp_symtab *module_tab(struct vp_resolver *r, uint64_t pc, uint64_t *bias)
{
    const struct vp_profile *p = r->p;
    for (size_t i = 0; i < p->module_count; i++) {
        const struct vp_prof_module *m = &p->modules[i];
        if (pc < m->lo || pc >= m->hi)
            continue;
        *bias = m->load_bias;
        if (!r->tried[i]) {
            r->tried[i] = true;
            /* The reader validates string offsets; check again so a
               hand-built profile cannot make us read out of bounds. */
            if (!p->strings || m->path >= p->strings_size ||
                !memchr(p->strings + m->path, '\0', p->strings_size - m->path)) {
                if (!r->err[0])
                    snprintf(r->err, sizeof r->err, "module %zu: bad path string offset %u", i,
                             m->path);
                return NULL;
            }
            const char *path = p->strings + m->path;
            size_t idlen = m->build_id_len <= sizeof m->build_id ? m->build_id_len : 0;
            char e[512];
            if (vp_symtab_open(path, m->build_id, idlen, &r->tabs[i], e, sizeof e) != 0) {
                if (!r->err[0])
                    snprintf(r->err, sizeof r->err, "%s", e);
                if (m->indexed && !r->prog_err[0])
                    snprintf(r->prog_err, sizeof r->prog_err, "%s", e);
            }
        }
        return r->tabs[i];
    }
    return NULL;
}

const struct vp_func *vp_resolve_func(struct vp_resolver *r, uint64_t pc)
{
    uint64_t bias = 0;
    struct vp_symtab *st = module_tab(r, pc, &bias);
    return st ? vp_symtab_func(st, pc - bias) : NULL;
}

int vp_resolve_line(struct vp_resolver *r, uint64_t pc, const char **file, int *line)
{
    uint64_t bias = 0;
    struct vp_symtab *st = module_tab(r, pc, &bias);
    return st ? vp_symtab_line(st, pc - bias, file, line) : -1;
}

size_t vp_resolve_inline_chain(struct vp_resolver *r, uint64_t pc, struct vp_line_frame *out,
                               size_t max)
{
    uint64_t bias = 0;
    struct vp_symtab *st = module_tab(r, pc, &bias);
    return st ? vp_symtab_inline_chain(st, pc - bias, out, max) : 0;
}

const char *vp_resolver_error(const struct vp_resolver *r)
{
    return (r && r->err[0]) ? r->err : NULL;
}

const char *vp_resolver_program_error(const struct vp_resolver *r)
{
    return (r && r->prog_err[0]) ? r->prog_err : NULL;
}
