/*
 * table.c - reads the ".vprof.loops" loop table of a binary (format.h part 2).
 *
 * The section is the concatenation of one blob per translation unit, each a
 * multiple of 8 bytes, possibly separated by 8-byte words of zero.  Every
 * offset and count is checked against the blob before use; the result owns
 * copies of everything, so the ELF file can be closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vprof/looptable.h"
#include "vprof/oneline.h"
#include "vprof/symbols.h"

static int fail(char *err, size_t errlen, const char *name, size_t off, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s: offset %zu: ", name, off);
    if (n >= 0 && (size_t)n < errlen) {
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    vp_oneline(err);
    return -1;
}

const char *vp_loop_class_name(unsigned c)
{
    switch (c) {
    case VP_CLASS_ZERO_STAR: return "0*";
    case VP_CLASS_ZERO_STAR_ONE: return "0*1?";
    case VP_CLASS_ZERO_OR_ONE: return "[0|1]*";
    case VP_CLASS_ONE_STAR: return "1*";
    }
    return "?";
}

const char *vp_loop_site_kind_name(unsigned k)
{
    static const char *const names[] = {"store", "call", "external", "indirect", "liveout",
                                         "return"};
    return k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* Validates one blob at `base` (absolute offset `off` in the section) of at
 * most `avail` bytes; on success sets *size to its total size and adds its
 * counts to *loops, *sites, *strings. */
static int check_blob(const char *name, const uint8_t *base, size_t off, size_t avail,
                      size_t *size, size_t *loops, size_t *sites, size_t *strings, char *err,
                      size_t errlen)
{
    struct vp_loops_header h;
    if (avail < sizeof h)
        return fail(err, errlen, name, off, "truncated loop table header (%zu bytes left)", avail);
    memcpy(&h, base, sizeof h);
    if (h.magic != VP_LOOPS_MAGIC)
        return fail(err, errlen, name, off, "bad loop table magic 0x%08x", h.magic);
    if (h.version != VP_LOOPS_VERSION)
        return fail(err, errlen, name, off,
                    "unsupported loop table version %u (this vprof reads %u): rebuild with "
                    "this vprof-cc", h.version, VP_LOOPS_VERSION);
    if (h.header_size < sizeof h || h.header_size % 8)
        return fail(err, errlen, name, off, "bad header_size %u", h.header_size);
    if (h.total_size % 8 || h.total_size < h.header_size || h.total_size > avail)
        return fail(err, errlen, name, off, "bad total_size %u (%zu bytes left)", h.total_size,
                    avail);
    uint64_t arrays = (uint64_t)h.header_size +
                      (uint64_t)h.loop_count * sizeof(struct vp_loop_entry) +
                      (uint64_t)h.site_count * sizeof(struct vp_loop_site);
    if (arrays > h.strings_offset)
        return fail(err, errlen, name, off, "%u loops and %u sites overlap the string table",
                    h.loop_count, h.site_count);
    if ((uint64_t)h.strings_offset + h.strings_size > h.total_size || h.strings_size == 0)
        return fail(err, errlen, name, off, "string table [%u, +%u) outside the blob",
                    h.strings_offset, h.strings_size);
    const char *str = (const char *)base + h.strings_offset;
    if (str[0] != 0 || str[h.strings_size - 1] != 0)
        return fail(err, errlen, name, off + h.strings_offset,
                    "string table not NUL-delimited");
    for (uint32_t i = 0; i < h.loop_count; i++) {
        struct vp_loop_entry e;
        size_t eo = h.header_size + (size_t)i * sizeof e;
        memcpy(&e, base + eo, sizeof e);
        if (e.function >= h.strings_size || e.linkage >= h.strings_size ||
            e.file >= h.strings_size || e.host >= h.strings_size)
            return fail(err, errlen, name, off + eo, "loop %u: string offset out of range", i);
        if ((uint64_t)e.first_site + e.site_count > h.site_count)
            return fail(err, errlen, name, off + eo, "loop %u: sites [%u, +%u) beyond %u", i,
                        e.first_site, e.site_count, h.site_count);
        if (e.kind > VP_LOOP_RECURSION || e.static_class > VP_CLASS_ONE_STAR)
            return fail(err, errlen, name, off + eo, "loop %u: bad kind %u or class %u", i,
                        e.kind, e.static_class);
    }
    size_t so = h.header_size + (size_t)h.loop_count * sizeof(struct vp_loop_entry);
    for (uint32_t i = 0; i < h.site_count; i++) {
        struct vp_loop_site s;
        memcpy(&s, base + so + (size_t)i * sizeof s, sizeof s);
        if (s.callee >= h.strings_size)
            return fail(err, errlen, name, off + so + (size_t)i * sizeof s,
                        "site %u: callee string offset out of range", i);
    }
    *size = h.total_size;
    *loops += h.loop_count;
    *sites += h.site_count;
    *strings += h.strings_size;
    return 0;
}

int vp_loop_table_parse(const char *name, const void *data, size_t size,
                        struct vp_loop_table **out, char *err, size_t errlen)
{
    const uint8_t *p = data;
    size_t loops = 0, sites = 0, strings = 0;
    /* pass 1: validate and count */
    for (size_t off = 0; off < size;) {
        if (size - off >= 8 && memcmp(p + off, "\0\0\0\0\0\0\0\0", 8) == 0) {
            off += 8;
            continue;
        }
        size_t blob;
        if (check_blob(name, p + off, off, size - off, &blob, &loops, &sites, &strings, err,
                       errlen) != 0)
            return -1;
        off += blob;
    }
    struct vp_loop_table *t = calloc(1, sizeof *t);
    if (!t)
        return fail(err, errlen, name, 0, "out of memory");
    t->loops = calloc(loops ? loops : 1, sizeof *t->loops);
    t->sites_ = calloc(sites ? sites : 1, sizeof *t->sites_);
    t->strings_ = malloc(strings ? strings : 1);
    if (!t->loops || !t->sites_ || !t->strings_) {
        vp_loop_table_free(t);
        return fail(err, errlen, name, 0, "out of memory");
    }
    /* pass 2: copy (already validated) */
    size_t nl = 0, ns = 0, nstr = 0;
    for (size_t off = 0; off < size;) {
        if (size - off >= 8 && memcmp(p + off, "\0\0\0\0\0\0\0\0", 8) == 0) {
            off += 8;
            continue;
        }
        struct vp_loops_header h;
        memcpy(&h, p + off, sizeof h);
        char *str = t->strings_ + nstr;
        memcpy(str, p + off + h.strings_offset, h.strings_size);
        nstr += h.strings_size;
        size_t site_base = ns;
        size_t so = off + h.header_size + (size_t)h.loop_count * sizeof(struct vp_loop_entry);
        for (uint32_t i = 0; i < h.site_count; i++) {
            struct vp_loop_site s;
            memcpy(&s, p + so + (size_t)i * sizeof s, sizeof s);
            struct vp_loop_site_info *si = &t->sites_[ns++];
            si->line = s.line;
            si->column = s.column;
            si->kind = s.kind;
            si->in_body = s.in_body;
            si->io_every_iteration = (s.reserved & VP_SITEF_IO_EVERY_ITER) && s.in_body && s.callee;
            si->wait_every_iteration =
                (s.reserved & VP_SITEF_WAIT_EVERY_ITER) && s.in_body && s.callee;
            si->syscall_bytes = (s.reserved & VP_SITEF_SYSCALL_BYTES) && s.in_body && s.callee
                                    ? (uint8_t)(s.reserved >> VP_SITE_SYSCALL_BYTES_SHIFT)
                                    : 0;
            si->callee = str + s.callee;
        }
        for (uint32_t i = 0; i < h.loop_count; i++) {
            struct vp_loop_entry e;
            memcpy(&e, p + off + h.header_size + (size_t)i * sizeof e, sizeof e);
            struct vp_loop_info *li = &t->loops[nl++];
            li->loop_id = e.loop_id;
            li->parent_id = e.parent_id;
            li->function = str + e.function;
            li->linkage = str + e.linkage;
            li->file = str + e.file;
            li->host = e.host ? str + e.host : vp_func_key(li->function, li->linkage);
            li->line = e.line;
            li->column = e.column;
            li->end_line = e.end_line;
            li->depth = e.depth;
            li->flags = e.flags;
            li->kind = e.kind;
            li->static_class = e.static_class;
            if ((e.flags & VP_LOOPF_INDIRECT) && (e.reserved & 0xff) >= 1 &&
                (e.reserved & 0xff) <= 1 + VP_CLASS_ONE_STAR)
                li->direct_class = (uint8_t)((e.reserved & 0xff) - 1);
            else
                li->flags &= (uint16_t)~VP_LOOPF_INDIRECT; /* no usable class */
            if ((e.flags & VP_LOOPF_UNROLLED) && ((e.reserved >> 8) & 0xff) >= 2)
                li->unroll_factor = (uint8_t)((e.reserved >> 8) & 0xff);
            else
                li->flags &= (uint16_t)~VP_LOOPF_UNROLLED; /* no usable factor */
            li->bucket_line = (e.flags & VP_LOOPF_BUCKET_CHAIN) ? e.reserved2 : 0;
            li->spin_line = (e.flags & VP_LOOPF_SPIN) && !(e.flags & VP_LOOPF_BUCKET_CHAIN)
                                ? e.reserved2
                                : 0;
            li->sites = &t->sites_[site_base + e.first_site];
            li->site_count = e.site_count;
        }
        off += h.total_size;
    }
    t->loop_count = nl;
    *out = t;
    return 0;
}

int vp_loop_table_read(const char *path, struct vp_loop_table **out, char *err, size_t errlen)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(err, errlen, path, 0, "libelf initialisation failed");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(err, errlen, path, 0, "%s", strerror(errno));
    int rc = -1;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0) {
        fail(err, errlen, path, 0, "not an ELF file");
        goto out;
    }
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *n = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!n || strcmp(n, VP_LOOPS_SECTION) != 0)
            continue;
        if (sh.sh_type == SHT_NOBITS) {
            fail(err, errlen, path, (size_t)sh.sh_offset, "%s has no data", VP_LOOPS_SECTION);
            goto out;
        }
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || (d->d_size && !d->d_buf)) {
            fail(err, errlen, path, (size_t)sh.sh_offset, "cannot read %s: %s",
                 VP_LOOPS_SECTION, elf_errmsg(-1));
            goto out;
        }
        char name[1024];
        snprintf(name, sizeof name, "%s(%s)", path, VP_LOOPS_SECTION);
        rc = vp_loop_table_parse(name, d->d_buf, d->d_size, out, err, errlen);
        goto out;
    }
    rc = vp_loop_table_parse(path, NULL, 0, out, err, errlen); /* no section: empty */
out:
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

void vp_loop_table_free(struct vp_loop_table *t)
{
    if (!t)
        return;
    free(t->loops);
    free(t->sites_);
    free(t->strings_);
    free(t);
}
