/*
 * schema.c - read the ".vprof.schema" section (format.h, part 1).
 *
 * The linker concatenates one blob per translation unit, possibly with zero
 * padding words between them.  Every field is checked against the blob and
 * section bounds before use; any inconsistency is an error naming the file
 * and the section offset, never a crash or a silent skip.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf_internal.h"
#include "vprof/symbols.h"
#include "util/err.h"


void vp_dwarf_schema_free(struct vp_dwarf_var *vars, size_t n)
{
    if (!vars)
        return;
    for (size_t i = 0; i < n; i++) {
        free(vars[i].file);
        free(vars[i].users);
    }
    free(vars);
}

/* Check one string offset of a blob; returns the string or NULL. */
static const char *blob_str(const char *strs, uint32_t size, uint32_t off)
{
    return off < size ? strs + off : NULL;
}

int vp_dwarf_schema_parse(const void *data, size_t size, const char *path,
                          struct vp_dwarf_var **out, size_t *nout, char *err, size_t errlen)
{
    const unsigned char *base = data;
    struct vp_dwarf_var *vars = NULL;
    size_t n = 0, cap = 0;
    size_t off = 0;
    static const unsigned char zero[8];
    *out = NULL;
    *nout = 0;
#define BAD(...)                                                                  \
    do {                                                                          \
        char why_[256];                                                           \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                 \
        vp_set_err(err, errlen, "%s: " VP_SCHEMA_SECTION " offset %zu: %s", path, off, \
                why_);                                                            \
        goto fail;                                                                \
    } while (0)

    if (size % 8 != 0) {
        vp_set_err(err, errlen, "%s: " VP_SCHEMA_SECTION " size %zu is not a multiple of 8", path,
                size);
        return -1;
    }
    while (off < size) {
        if (memcmp(base + off, zero, 8) == 0) {
            off += 8; /* linker padding between blobs */
            continue;
        }
        struct vp_schema_header h;
        memset(&h, 0, sizeof h);
        if (size - off < VP_SCHEMA_V1_HEADER_SIZE)
            BAD("truncated blob header (%zu bytes left)", size - off);
        memcpy(&h, base + off, VP_SCHEMA_V1_HEADER_SIZE);
        if (h.magic != VP_SCHEMA_MAGIC)
            BAD("bad magic 0x%08x", h.magic);
        if (h.version < VP_SCHEMA_VERSION_MIN || h.version > VP_SCHEMA_VERSION)
            BAD("unsupported schema version %u (expected %u..%u)", h.version,
                VP_SCHEMA_VERSION_MIN, VP_SCHEMA_VERSION);
        size_t hmin = h.version >= 2 ? sizeof h : VP_SCHEMA_V1_HEADER_SIZE;
        if (h.header_size < hmin || h.header_size % 8 != 0)
            BAD("bad header_size %u", h.header_size);
        if (h.total_size % 8 != 0 || h.total_size < h.header_size || h.total_size > size - off)
            BAD("blob total_size %u exceeds the section or is misaligned", h.total_size);
        size_t esize = VP_SCHEMA_V1_ENTRY_SIZE;
        if (h.version >= 2) {
            memcpy(&h, base + off, sizeof h);
            if (h.entry_size < sizeof(struct vp_schema_entry) || h.entry_size % 8 != 0)
                BAD("bad entry_size %u", h.entry_size);
            esize = h.entry_size;
        } else {
            h.users_count = 0;
        }
        uint64_t ent_end = (uint64_t)h.header_size + (uint64_t)h.entry_count * esize;
        if (ent_end > h.total_size)
            BAD("%u entries do not fit in a blob of %u bytes", h.entry_count, h.total_size);
        uint64_t users_end = h.users_count ? (uint64_t)h.users_offset + 4ull * h.users_count : 0;
        if (h.users_count &&
            (h.users_offset < ent_end || h.users_offset % 4 != 0 || users_end > h.total_size))
            BAD("users array [%u, +%u) outside the blob", h.users_offset, h.users_count);
        if (h.strings_offset < ent_end || h.strings_offset < users_end || h.strings_size == 0 ||
            (uint64_t)h.strings_offset + h.strings_size > h.total_size)
            BAD("string table [%u, +%u) outside the blob", h.strings_offset, h.strings_size);
        const char *strs = (const char *)base + off + h.strings_offset;
        if (strs[0] != '\0' || strs[h.strings_size - 1] != '\0')
            BAD("string table does not start and end with NUL");
        const char *comp_dir = blob_str(strs, h.strings_size, h.comp_dir);
        if (!comp_dir)
            BAD("comp_dir string offset %u out of range", h.comp_dir);
        for (uint32_t i = 0; i < h.entry_count; i++) {
            struct vp_schema_entry e;
            memset(&e, 0, sizeof e);
            size_t eoff = off + h.header_size + (size_t)i * esize;
            memcpy(&e, base + eoff, esize < sizeof e ? esize : sizeof e);
            struct vp_dwarf_var v = { .e = e };
            v.file_raw = blob_str(strs, h.strings_size, e.file);
            v.function = blob_str(strs, h.strings_size, e.function);
            v.linkage = blob_str(strs, h.strings_size, e.linkage);
            v.name = blob_str(strs, h.strings_size, e.name);
            v.type = blob_str(strs, h.strings_size, e.type);
            if (!v.file_raw || !v.function || !v.linkage || !v.name || !v.type) {
                off = eoff;
                BAD("entry %u: string offset out of range", i);
            }
            if (!v.name[0] || e.type_kind > VP_TYPE_AGGREGATE) {
                off = eoff;
                BAD("entry %u: %s", i, !v.name[0] ? "empty variable name" : "bad type_kind");
            }
            if (e.users_count &&
                ((uint64_t)e.users_first + e.users_count > h.users_count || v.function[0])) {
                off = eoff;
                BAD("entry %u: users [%u, +%u) %s", i, e.users_first, e.users_count,
                    v.function[0] ? "on a local variable" : "outside the users array");
            }
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                struct vp_dwarf_var *nv = realloc(vars, nc * sizeof *nv);
                if (!nv)
                    goto oom;
                vars = nv;
                cap = nc;
            }
            if (e.users_count) {
                v.users = malloc(e.users_count * sizeof *v.users);
                if (!v.users)
                    goto oom;
                v.nusers = e.users_count;
                const unsigned char *ua = base + off + h.users_offset;
                for (uint32_t u = 0; u < e.users_count; u++) {
                    uint32_t so;
                    memcpy(&so, ua + 4 * ((size_t)e.users_first + u), 4);
                    v.users[u] = blob_str(strs, h.strings_size, so);
                    if (!v.users[u] || !v.users[u][0]) {
                        free(v.users);
                        off = eoff;
                        BAD("entry %u: user %u: bad function name offset %u", i, u, so);
                    }
                }
            }
            v.version = h.version;
            v.file = vp_symtab_normpath(comp_dir[0] ? comp_dir : NULL, v.file_raw);
            if (!v.file) {
                free(v.users);
                goto oom;
            }
            vars[n++] = v;
        }
        off += h.total_size;
    }
#undef BAD
    *out = vars;
    *nout = n;
    return 0;
oom:
    vp_set_err(err, errlen, "%s: out of memory reading " VP_SCHEMA_SECTION, path);
fail:
    vp_dwarf_schema_free(vars, n);
    return -1;
}

int vp_dwarf_schema_read(Elf *elf, const char *path, struct vp_dwarf_var **vars, size_t *n,
                         char *err, size_t errlen)
{
    size_t shstrndx;
    *vars = NULL;
    *n = 0;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
        vp_set_err(err, errlen, "%s: cannot read section names: %s", path, elf_errmsg(-1));
        return -1;
    }
    Elf_Scn *scn = NULL;
    int found = 0;
    struct vp_dwarf_var *all = NULL;
    size_t nall = 0;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *nm = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!nm || strcmp(nm, VP_SCHEMA_SECTION) != 0)
            continue;
        found = 1;
        if (sh.sh_type == SHT_NOBITS) {
            vp_set_err(err, errlen, "%s: " VP_SCHEMA_SECTION " has no contents", path);
            goto fail;
        }
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || (!d->d_buf && d->d_size)) {
            vp_set_err(err, errlen, "%s: cannot read " VP_SCHEMA_SECTION ": %s", path,
                    elf_errmsg(-1));
            goto fail;
        }
        struct vp_dwarf_var *v;
        size_t nv;
        if (vp_dwarf_schema_parse(d->d_buf, d->d_size, path, &v, &nv, err, errlen) != 0)
            goto fail;
        /* Relocatable links can leave several sections of that name. */
        struct vp_dwarf_var *m = realloc(all, (nall + nv + 1) * sizeof *m);
        if (!m) {
            vp_dwarf_schema_free(v, nv);
            vp_set_err(err, errlen, "%s: out of memory", path);
            goto fail;
        }
        all = m;
        if (nv)
            memcpy(all + nall, v, nv * sizeof *v);
        nall += nv;
        free(v);
    }
    if (!found)
        return 1;
    *vars = all;
    *n = nall;
    return 0;
fail:
    vp_dwarf_schema_free(all, nall);
    return -1;
}
