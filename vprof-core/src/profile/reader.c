/*
 * reader.c - map and validate a vprof profile file (format.h part 4,
 * docs/profile-format.md).
 *
 * Validation happens in two passes, both before anything is handed out:
 *   1. walk the section headers from the file header to VP_SEC_END, checking
 *      each size against the file, remembering where the known sections are;
 *   2. check the contents of each section (record counts, string offsets,
 *      PC-sample depths, value-sample variable ids) now that the string
 *      tables and the variable table are known.
 * Every failure names the file and the byte offset of the offending field or
 * record.  Nothing is read before it has been bounds-checked.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vprof/oneline.h"
#include "vprof/profile.h"

/* Loop-stage section types (format.h: "16..") are kept as extras without
   interpretation; this is the range reserved for them. */
#define VP_SEC_LOOP_FIRST 16u
#define VP_SEC_LOOP_LAST 31u

/* Where a known section was found: payload offset and size in the file. */
struct sec_loc {
    int present;
    uint64_t hdr_off; /* offset of the section header */
    uint64_t off;     /* offset of the payload        */
    uint64_t size;
};

struct parse {
    const char *name;
    const unsigned char *base;
    uint64_t size;
    char *err;
    size_t errlen;
    struct sec_loc sec[VP_SEC_THREADS + 1];
};

static const char *const section_names[] = {
    "END", "STRINGS", "MODULES", "VARIABLES", "PC_SAMPLES",
    "VALUE_SAMPLES", "LOSS", "COVERAGE", "THREADS",
};

/// Formats "<name>: offset <off>: <msg>" into the caller's buffer; returns -1
/// so a check can `return fail(...)`.
static int fail(struct parse *ps, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct parse *ps, uint64_t off, const char *fmt, ...)
{
    if (!ps->err || ps->errlen == 0)
        return -1;
    int n = snprintf(ps->err, ps->errlen, "%s: offset %llu: ", ps->name,
                     (unsigned long long)off);
    if (n >= 0 && (size_t)n < ps->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    vp_oneline(ps->err);
    return -1;
}

static uint64_t pad8(uint64_t n)
{
    return (n + 7u) & ~(uint64_t)7u;
}

/// Checks the fixed file header.  Order matters: the endianness and word size
/// are checked before any multi-byte field is trusted, so a big-endian file
/// is reported as such and not as "version 16777216".
static int check_header(struct parse *ps, struct vp_profile_header *hdr)
{
    if (ps->size < sizeof *hdr)
        return fail(ps, ps->size, "file too short for the %zu-byte header (%llu bytes)",
                    sizeof *hdr, (unsigned long long)ps->size);
    memcpy(hdr, ps->base, sizeof *hdr);
    if (memcmp(hdr->magic, VP_PROFILE_MAGIC, 8) != 0)
        return fail(ps, 0, "not a vprof profile (bad magic)");
    if (hdr->endian != VP_ENDIAN_MARK) {
        if (hdr->endian == __builtin_bswap32(VP_ENDIAN_MARK))
            return fail(ps, offsetof(struct vp_profile_header, endian),
                        "written on a machine of the other byte order");
        return fail(ps, offsetof(struct vp_profile_header, endian),
                    "bad endianness mark 0x%08x", hdr->endian);
    }
    if (hdr->version != VP_PROFILE_VERSION)
        return fail(ps, offsetof(struct vp_profile_header, version),
                    "profile version %u, this vprof reads version %u", hdr->version,
                    VP_PROFILE_VERSION);
    if (hdr->word_size != 8)
        return fail(ps, offsetof(struct vp_profile_header, word_size),
                    "word size %u, this vprof reads 64-bit profiles", hdr->word_size);
    if (hdr->header_size < sizeof *hdr || hdr->header_size % 8 != 0)
        return fail(ps, offsetof(struct vp_profile_header, header_size),
                    "bad header size %u", hdr->header_size);
    if (hdr->header_size > ps->size)
        return fail(ps, offsetof(struct vp_profile_header, header_size),
                    "header size %u overruns the file (%llu bytes)", hdr->header_size,
                    (unsigned long long)ps->size);
    /* clock 0 = not recorded (synthetic profiles) */
    if (hdr->clock > VP_CLOCK_PERF_TASK_CLOCK)
        return fail(ps, offsetof(struct vp_profile_header, clock), "unknown clock %u",
                    hdr->clock);
    return 0;
}

static int add_extra(struct parse *ps, struct vp_profile *p, uint32_t type, uint32_t flags,
                     uint64_t off, uint64_t size)
{
    struct vp_profile_extra *e =
        realloc(p->extras, (p->extra_count + 1) * sizeof *p->extras);
    if (!e)
        return fail(ps, off, "out of memory");
    p->extras = e;
    e[p->extra_count++] = (struct vp_profile_extra){
        .type = type, .flags = flags, .data = ps->base + off, .size = size};
    return 0;
}

/// Pass 1: walks the sections up to VP_SEC_END.  Each known section may occur
/// once; loop-stage sections are collected as extras; other types are an
/// error unless marked optional.
static int walk_sections(struct parse *ps, struct vp_profile *p)
{
    uint64_t off = p->hdr.header_size;
    for (;;) {
        struct vp_section_header sh;
        if (ps->size - off < sizeof sh)
            return fail(ps, off, "truncated: no END section");
        memcpy(&sh, ps->base + off, sizeof sh);
        uint64_t payload = off + sizeof sh;
        if (sh.size > ps->size - payload)
            return fail(ps, off, "section type %u: size %llu overruns the file (%llu bytes left)",
                        sh.type, (unsigned long long)sh.size,
                        (unsigned long long)(ps->size - payload));
        uint64_t next = payload + pad8(sh.size);
        if (next > ps->size)
            return fail(ps, off, "truncated: section type %u lacks its padding", sh.type);
        if (sh.flags & ~(uint32_t)VP_SECF_OPTIONAL)
            return fail(ps, off + offsetof(struct vp_section_header, flags),
                        "section type %u: unknown flags 0x%x", sh.type, sh.flags);

        if (sh.type == VP_SEC_END) {
            if (sh.size != 0)
                return fail(ps, off, "END section with size %llu", (unsigned long long)sh.size);
            if (next != ps->size)
                return fail(ps, next, "%llu bytes of trailing data after the END section",
                            (unsigned long long)(ps->size - next));
            return 0;
        }
        if (sh.type <= VP_SEC_THREADS) {
            struct sec_loc *s = &ps->sec[sh.type];
            if (s->present)
                return fail(ps, off, "duplicate %s section (first at offset %llu)",
                            section_names[sh.type], (unsigned long long)s->hdr_off);
            *s = (struct sec_loc){1, off, payload, sh.size};
        } else if (sh.type >= VP_SEC_LOOP_FIRST && sh.type <= VP_SEC_LOOP_LAST) {
            if (add_extra(ps, p, sh.type, sh.flags, payload, sh.size) != 0)
                return -1;
        } else if (!(sh.flags & VP_SECF_OPTIONAL)) {
            return fail(ps, off, "unknown section type %u (not marked optional)", sh.type);
        }
        off = next;
    }
}

/// A string table is empty, or starts and ends with NUL (so every in-range
/// offset yields a terminated string).
static int check_strtab(struct parse *ps, uint64_t off, const char *s, uint64_t size,
                        const char *what)
{
    if (size == 0)
        return 0;
    if (s[0] != '\0')
        return fail(ps, off, "%s string table does not start with an empty string", what);
    if (s[size - 1] != '\0')
        return fail(ps, off + size - 1, "%s string table is not NUL-terminated", what);
    return 0;
}

/// A string offset must be inside the table and at the start of a string
/// (0, or just after a NUL).  `field_off` is the file offset of the field.
static int check_str(struct parse *ps, uint64_t field_off, const char *tab, uint64_t tabsize,
                     uint32_t s, const char *what)
{
    if (s == 0)
        return 0;
    if (s >= tabsize)
        return fail(ps, field_off, "%s string offset %u out of range (table has %llu bytes)",
                    what, s, (unsigned long long)tabsize);
    if (tab[s - 1] != '\0')
        return fail(ps, field_off, "%s string offset %u is not at the start of a string",
                    what, s);
    return 0;
}

static int check_modules(struct parse *ps, struct vp_profile *p)
{
    const struct sec_loc *s = &ps->sec[VP_SEC_MODULES];
    if (!s->present)
        return 0;
    if (s->size % sizeof(struct vp_prof_module) != 0)
        return fail(ps, s->hdr_off, "MODULES section size %llu is not a multiple of %zu",
                    (unsigned long long)s->size, sizeof(struct vp_prof_module));
    p->modules = (const struct vp_prof_module *)(const void *)(ps->base + s->off);
    p->module_count = s->size / sizeof(struct vp_prof_module);
    for (size_t i = 0; i < p->module_count; i++) {
        const struct vp_prof_module *m = &p->modules[i];
        uint64_t at = s->off + i * sizeof *m;
        if (check_str(ps, at + offsetof(struct vp_prof_module, path), p->strings,
                      p->strings_size, m->path, "module path") != 0)
            return -1;
        if (m->build_id_len > sizeof m->build_id)
            return fail(ps, at + offsetof(struct vp_prof_module, build_id_len),
                        "module %zu: build-id length %u > %zu", i, m->build_id_len,
                        sizeof m->build_id);
        if (m->lo > m->hi)
            return fail(ps, at + offsetof(struct vp_prof_module, lo),
                        "module %zu: text range start 0x%llx after its end 0x%llx", i,
                        (unsigned long long)m->lo, (unsigned long long)m->hi);
    }
    return 0;
}

static int check_variables(struct parse *ps, struct vp_profile *p)
{
    const struct sec_loc *s = &ps->sec[VP_SEC_VARIABLES];
    if (!s->present)
        return 0;
    struct vp_vartab_header vh;
    if (s->size < sizeof vh)
        return fail(ps, s->hdr_off, "VARIABLES section too short (%llu bytes)",
                    (unsigned long long)s->size);
    memcpy(&vh, ps->base + s->off, sizeof vh);
    uint64_t need = sizeof vh + (uint64_t)vh.var_count * sizeof(struct vp_prof_var);
    if (need > s->size)
        return fail(ps, s->off + offsetof(struct vp_vartab_header, var_count),
                    "variable count %u overruns the section (%llu bytes)", vh.var_count,
                    (unsigned long long)s->size);
    if (vh.strings_size > s->size - need)
        return fail(ps, s->off + offsetof(struct vp_vartab_header, strings_size),
                    "variable string table size %u overruns the section", vh.strings_size);
    if (s->size - need - vh.strings_size >= 8)
        return fail(ps, s->off + need + vh.strings_size,
                    "%llu unexplained bytes at the end of the VARIABLES section",
                    (unsigned long long)(s->size - need - vh.strings_size));
    p->vars = (const struct vp_prof_var *)(const void *)(ps->base + s->off + sizeof vh);
    p->var_count = vh.var_count;
    p->var_strings = (const char *)ps->base + s->off + need;
    p->var_strings_size = vh.strings_size;
    if (check_strtab(ps, s->off + need, p->var_strings, p->var_strings_size, "variable") != 0)
        return -1;

    for (size_t i = 0; i < p->var_count; i++) {
        const struct vp_prof_var *v = &p->vars[i];
        uint64_t at = s->off + sizeof vh + i * sizeof *v;
        const struct {
            uint32_t val;
            size_t field;
            const char *what;
        } strs[] = {
            {v->file, offsetof(struct vp_prof_var, file), "variable file"},
            {v->function, offsetof(struct vp_prof_var, function), "variable function"},
            {v->linkage, offsetof(struct vp_prof_var, linkage), "variable linkage"},
            {v->name, offsetof(struct vp_prof_var, name), "variable name"},
            {v->type, offsetof(struct vp_prof_var, type), "variable type"},
        };
        for (size_t k = 0; k < sizeof strs / sizeof strs[0]; k++)
            if (check_str(ps, at + strs[k].field, p->var_strings, p->var_strings_size,
                          strs[k].val, strs[k].what) != 0)
                return -1;
        if (v->type_kind > VP_TYPE_AGGREGATE)
            return fail(ps, at + offsetof(struct vp_prof_var, type_kind),
                        "variable %zu: unknown type kind %u", i, v->type_kind);
    }
    return 0;
}

/// PC samples are variable length: a fixed record then `depth` callers.  The
/// reader builds an array of pointers to the records.
static int check_pc_samples(struct parse *ps, struct vp_profile *p)
{
    const struct sec_loc *s = &ps->sec[VP_SEC_PC_SAMPLES];
    if (!s->present)
        return 0;
    const uint64_t end = s->off + s->size;
    size_t n = 0;
    for (uint64_t at = s->off; at < end; n++) {
        struct vp_pc_sample rec;
        if (end - at < sizeof rec)
            return fail(ps, at, "PC sample %zu truncated (%llu bytes left in the section)", n,
                        (unsigned long long)(end - at));
        memcpy(&rec, ps->base + at, sizeof rec);
        uint64_t len = sizeof rec + (uint64_t)rec.depth * sizeof(uint64_t);
        if (len > end - at)
            return fail(ps, at + offsetof(struct vp_pc_sample, depth),
                        "PC sample %zu: depth %u overruns the section", n, rec.depth);
        at += len;
    }
    p->pc_samples = n ? calloc(n, sizeof *p->pc_samples) : NULL;
    if (n && !p->pc_samples)
        return fail(ps, s->off, "out of memory for %zu PC samples", n);
    uint64_t at = s->off;
    for (size_t i = 0; i < n; i++) {
        const struct vp_pc_sample *rec = (const void *)(ps->base + at);
        p->pc_samples[i] = rec;
        at += sizeof *rec + (uint64_t)rec->depth * sizeof(uint64_t);
    }
    p->pc_count = n;
    return 0;
}

static int check_values(struct parse *ps, struct vp_profile *p)
{
    const struct sec_loc *s = &ps->sec[VP_SEC_VALUE_SAMPLES];
    if (!s->present)
        return 0;
    if (s->size % sizeof(struct vp_value_sample) != 0)
        return fail(ps, s->hdr_off, "VALUE_SAMPLES section size %llu is not a multiple of %zu",
                    (unsigned long long)s->size, sizeof(struct vp_value_sample));
    p->values = (const struct vp_value_sample *)(const void *)(ps->base + s->off);
    p->value_count = s->size / sizeof(struct vp_value_sample);
    for (size_t i = 0; i < p->value_count; i++) {
        const struct vp_value_sample *v = &p->values[i];
        uint64_t at = s->off + i * sizeof *v;
        if (v->var_id >= p->var_count)
            return fail(ps, at + offsetof(struct vp_value_sample, var_id),
                        "value sample %zu: variable id %u beyond the variable table (%zu)", i,
                        v->var_id, p->var_count);
        if (v->status > VP_VAL_POINTEE_UNREADABLE)
            return fail(ps, at + offsetof(struct vp_value_sample, status),
                        "value sample %zu: unknown status %u", i, v->status);
    }
    return 0;
}

/// LOSS is exactly one struct; COVERAGE is one struct, optionally followed by
/// per-variable records that version 1 readers ignore; THREADS is an array.
static int check_small_sections(struct parse *ps, struct vp_profile *p)
{
    const struct sec_loc *s = &ps->sec[VP_SEC_LOSS];
    if (s->present) {
        if (s->size != sizeof p->loss)
            return fail(ps, s->hdr_off, "LOSS section has %llu bytes, expected %zu",
                        (unsigned long long)s->size, sizeof p->loss);
        memcpy(&p->loss, ps->base + s->off, sizeof p->loss);
    }
    s = &ps->sec[VP_SEC_COVERAGE];
    if (s->present) {
        if (s->size < sizeof p->coverage)
            return fail(ps, s->hdr_off, "COVERAGE section has %llu bytes, expected at least %zu",
                        (unsigned long long)s->size, sizeof p->coverage);
        memcpy(&p->coverage, ps->base + s->off, sizeof p->coverage);
        if (p->coverage.located > p->coverage.schema_vars)
            return fail(ps, s->off + offsetof(struct vp_coverage, located),
                        "coverage: %u located of only %u schema variables",
                        p->coverage.located, p->coverage.schema_vars);
        p->has_coverage = 1;
    }
    s = &ps->sec[VP_SEC_THREADS];
    if (s->present) {
        if (s->size % sizeof(struct vp_prof_thread) != 0)
            return fail(ps, s->hdr_off, "THREADS section size %llu is not a multiple of %zu",
                        (unsigned long long)s->size, sizeof(struct vp_prof_thread));
        p->threads = (const struct vp_prof_thread *)(const void *)(ps->base + s->off);
        p->thread_count = s->size / sizeof(struct vp_prof_thread);
    }
    return 0;
}

static int parse_into(struct parse *ps, struct vp_profile *p)
{
    if (check_header(ps, &p->hdr) != 0 || walk_sections(ps, p) != 0)
        return -1;
    const struct sec_loc *s = &ps->sec[VP_SEC_STRINGS];
    if (s->present) {
        p->strings = (const char *)ps->base + s->off;
        p->strings_size = s->size;
        if (check_strtab(ps, s->off, p->strings, p->strings_size, "profile") != 0)
            return -1;
    }
    if (check_modules(ps, p) != 0 || check_variables(ps, p) != 0 ||
        check_pc_samples(ps, p) != 0 || check_values(ps, p) != 0 ||
        check_small_sections(ps, p) != 0)
        return -1;
    return 0;
}

/* Parses `buf` (8-aligned, owned elsewhere) into a new profile. */
static int parse_buffer(const char *name, const void *buf, size_t size, struct vp_profile **out,
                        char *err, size_t errlen)
{
    *out = NULL;
    struct vp_profile *p = calloc(1, sizeof *p);
    if (!p || !(p->path = strdup(name))) {
        free(p);
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    struct parse ps = {.name = name, .base = buf, .size = size, .err = err, .errlen = errlen};
    if (parse_into(&ps, p) != 0) {
        vp_profile_close(p);
        return -1;
    }
    *out = p;
    return 0;
}

int vp_profile_parse(const char *name, const void *buf, size_t size, struct vp_profile **out,
                     char *err, size_t errlen)
{
    if ((uintptr_t)buf % 8 == 0)
        return parse_buffer(name, buf, size, out, err, errlen);
    /* Records are read in place; a misaligned buffer gets an aligned copy
       that the profile owns (released by vp_profile_close). */
    void *copy = NULL;
    if (posix_memalign(&copy, 8, size ? size : 1) != 0) {
        *out = NULL;
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memcpy(copy, buf, size);
    if (parse_buffer(name, copy, size, out, err, errlen) != 0) {
        free(copy);
        return -1;
    }
    (*out)->map_ = copy;
    (*out)->map_size_ = 0; /* 0: map_ is heap memory, not a mapping */
    return 0;
}

int vp_profile_open(const char *path, struct vp_profile **out, char *err, size_t errlen)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        close(fd);
        snprintf(err, errlen, "%s: offset 0: empty file", path);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "%s: cannot map: %s", path, strerror(errno));
        return -1;
    }
    if (parse_buffer(path, map, size, out, err, errlen) != 0) {
        munmap(map, size);
        return -1;
    }
    (*out)->map_ = map;
    (*out)->map_size_ = size;
    return 0;
}

void vp_profile_close(struct vp_profile *p)
{
    if (!p)
        return;
    if (p->map_) {
        if (p->map_size_)
            munmap(p->map_, p->map_size_);
        else
            free(p->map_);
    }
    free((void *)p->pc_samples);
    free(p->extras);
    free(p->path);
    free(p);
}

const char *vp_profile_str(const struct vp_profile *p, uint32_t off)
{
    return off && off < p->strings_size ? p->strings + off : "";
}

const char *vp_profile_var_str(const struct vp_profile *p, uint32_t off)
{
    return off && off < p->var_strings_size ? p->var_strings + off : "";
}

const struct vp_prof_module *vp_profile_module_of(const struct vp_profile *p, uint64_t pc)
{
    for (size_t i = 0; i < p->module_count; i++)
        if (pc >= p->modules[i].lo && pc < p->modules[i].hi)
            return &p->modules[i];
    return NULL;
}

const struct vp_profile_extra *vp_profile_extra(const struct vp_profile *p, uint32_t type)
{
    for (size_t i = 0; i < p->extra_count; i++)
        if (p->extras[i].type == type)
            return &p->extras[i];
    return NULL;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void vp_profile_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int vp_profile_forked_files(const char *path, char ***names, size_t *n)
{
    *names = NULL;
    *n = 0;
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        strcpy(dir, ".");
    else if (slash == path)
        strcpy(dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        memcpy(dir, path, (size_t)(slash - path)), dir[slash - path] = 0;
    else
        return 0;
    const char *base = slash ? slash + 1 : path;
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *s = e->d_name;
        if (strncmp(s, base, blen) != 0 || s[blen] != '.' || !s[blen + 1] ||
            strspn(s + blen + 1, "0123456789") != strlen(s + blen + 1))
            continue;
        size_t len = strlen(dir) + strlen(s) + 2;
        char *full = malloc(len);
        if (full && *n == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            char **nn = realloc(*names, ncap * sizeof *nn);
            if (nn) {
                *names = nn;
                cap = ncap;
            }
        }
        if (!full || *n == cap) {
            free(full);
            closedir(d);
            vp_profile_free_names(*names, *n);
            *names = NULL;
            *n = 0;
            return -1;
        }
        snprintf(full, len, "%s/%s", dir, s);
        (*names)[(*n)++] = full;
    }
    closedir(d);
    if (*n > 1)
        qsort(*names, *n, sizeof **names, cmp_name);
    return 0;
}

int vp_profile_in_runtime(const struct vp_profile *p, uint64_t pc)
{
    const struct vp_prof_module *m = vp_profile_module_of(p, pc);
    const char *path = m ? vp_profile_str(p, m->path) : NULL;
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : path;
    return base && strncmp(base, "libvprof-rt", 11) == 0;
}

int vp_profile_forked_from(const struct vp_profile *root, const struct vp_profile *c)
{
    uint32_t rootpid = root->hdr.root_pid ? root->hdr.root_pid : root->hdr.pid;
    if (!(c->hdr.flags & VP_PROFF_FORKED) || (c->hdr.flags & VP_PROFF_EXECED) ||
        c->hdr.root_pid != rootpid || c->hdr.period_ns != root->hdr.period_ns ||
        c->hdr.start_ns < root->hdr.start_ns ||
        (root->hdr.end_ns && c->hdr.start_ns > root->hdr.end_ns))
        return 0;
    if (!root->module_count || !c->module_count)
        return root->module_count == c->module_count;
    const char *a = vp_profile_str(root, root->modules[0].path);
    const char *b = vp_profile_str(c, c->modules[0].path);
    return strcmp(a ? a : "", b ? b : "") == 0;
}

uint64_t vp_profile_other_programs(const struct vp_profile *root, const char *path, char *buf,
                                   size_t n, uint64_t *tree_samples)
{
    if (n)
        buf[0] = '\0';
    if (tree_samples)
        *tree_samples = root->pc_count;
    char **names;
    size_t nnames;
    if (vp_profile_forked_files(path, &names, &nnames) != 0)
        return 0;
    uint32_t rootpid = root->hdr.root_pid ? root->hdr.root_pid : root->hdr.pid;
    /* per program: processes, samples */
    struct prog {
        char exe[512];
        uint64_t samples;
        size_t procs;
    } progs[8];
    size_t nprogs = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < nnames; i++) {
        struct vp_profile *c;
        char e[512];
        if (vp_profile_open(names[i], &c, e, sizeof e) != 0)
            continue;
        if (vp_profile_forked_from(root, c)) {
            if (tree_samples)
                *tree_samples += c->pc_count;
        } else if (c->hdr.root_pid == rootpid && c->hdr.period_ns == root->hdr.period_ns &&
            c->hdr.start_ns >= root->hdr.start_ns &&
            (!root->hdr.end_ns || c->hdr.start_ns <= root->hdr.end_ns)) {
            const char *exe = c->module_count ? vp_profile_str(c, c->modules[0].path) : NULL;
            exe = exe && *exe ? exe : "an unknown program";
            size_t k = 0;
            while (k < nprogs && strcmp(progs[k].exe, exe) != 0)
                k++;
            if (k == nprogs && nprogs < sizeof progs / sizeof progs[0]) {
                memset(&progs[k], 0, sizeof progs[k]);
                snprintf(progs[k].exe, sizeof progs[k].exe, "%s", exe);
                nprogs++;
            }
            if (k < nprogs) {
                struct prog *g = &progs[k];
                g->procs++;
                g->samples += c->pc_count;
            }
            total += c->pc_count;
        }
        vp_profile_close(c);
    }
    vp_profile_free_names(names, nnames);
    if (!total || !n)
        return total;
    const struct prog *top = &progs[0];
    for (size_t k = 1; k < nprogs; k++)
        if (progs[k].samples > top->samples)
            top = &progs[k];
    int used = snprintf(buf, n, "%" PRIu64 " PC samples are in %zu process%s running %s",
                        top->samples, top->procs, top->procs == 1 ? "" : "es", top->exe);
    if (total > top->samples && used > 0 && (size_t)used < n)
        used += snprintf(buf + used, n - (size_t)used, " (%" PRIu64 " more in other programs)",
                         total - top->samples);
    /* its processes' own profiles are no tree of theirs (their files are
       named after the recording, and the index was not built for them) */
    if (used > 0 && (size_t)used < n)
        snprintf(buf + used, n - (size_t)used,
                 ", another program the recorded command started (a script, or exec): record "
                 "that program itself (vprof record -- %s ...)",
                 top->exe);
    return total;
}

void vp_profile_why_no_samples(const struct vp_profile *root, const char *path, char *buf,
                               size_t n)
{
    if (!n)
        return;
    if (vp_profile_other_programs(root, path, buf, n, NULL))
        return;
    buf[0] = '\0';
    const struct vp_profile_header *h = &root->hdr;
    if (!h->period_ns || h->end_ns <= h->start_ns)
        return;
    snprintf(buf, n,
             "the run lasted %.3g ms, and no thread ran the %.3g ms of CPU time that one "
             "sample takes (%.0f Hz): give the run more work (a larger input, or its work "
             "repeated) or sample more often (-F HZ)",
             (double)(h->end_ns - h->start_ns) / 1e6, (double)h->period_ns / 1e6,
             1e9 / (double)h->period_ns);
}

void vp_profile_close_tree(struct vp_profile **p, size_t n)
{
    for (size_t i = 0; p && i < n; i++)
        vp_profile_close(p[i]);
    free(p);
}

int vp_profile_open_tree(const char *path, struct vp_profile ***out, size_t *n, char *err,
                         size_t errlen)
{
    *out = NULL;
    *n = 0;
    struct vp_profile *root;
    if (vp_profile_open(path, &root, err, errlen) != 0)
        return -1;
    char **names;
    size_t nnames;
    struct vp_profile **v = NULL;
    if (vp_profile_forked_files(path, &names, &nnames) != 0 ||
        !(v = malloc((nnames + 1) * sizeof *v))) {
        if (!v)
            vp_profile_free_names(names, nnames);
        vp_profile_close(root);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    size_t k = 0;
    v[k++] = root;
    for (size_t i = 0; i < nnames; i++) {
        struct vp_profile *c;
        char e[512];
        /* a file of that name may be one of this recording's processes:
           refused when broken, not passed over */
        if (vp_profile_open(names[i], &c, e, sizeof e) != 0) {
            snprintf(err, errlen,
                     "%s (named as a process of %s's recording): remove it, or record again", e,
                     path);
            vp_profile_free_names(names, nnames);
            vp_profile_close_tree(v, k);
            return -1;
        }
        if (vp_profile_forked_from(root, c))
            v[k++] = c;
        else
            vp_profile_close(c);
    }
    vp_profile_free_names(names, nnames);
    *out = v;
    *n = k;
    return 0;
}
