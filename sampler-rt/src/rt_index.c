/*
 * rt_index.c - maps the PC index file (format.h part 3) read-only and
 * validates every offset, count, op and range once, at start-up, so the
 * signal path can index it without bounds checks.
 *
 * Runtime convention on top of format.h (docs/runtime.md): in a module's
 * range list, an empty range lo == hi == 0 (which sorts first) holds the
 * module's always-live recipes (globals); they are evaluated on every
 * sample, in the interrupted frame.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"

static char vp_rt_ix_err[256];
static void vp_rt_index_range_info(struct vp_rt_index *ix);

/* Is [off, off + count * elem) inside a file of `size` bytes, 8-aligned? */
static int vp_rt_in_file(uint64_t size, uint64_t off, uint64_t count, uint64_t elem)
{
    if (off % 8 != 0 && count != 0)
        return 0;
    return off <= size && count <= (size - off) / (elem ? elem : 1);
}

#define IX_FAIL(...)                                                                      \
    do {                                                                                  \
        snprintf(vp_rt_ix_err, sizeof vp_rt_ix_err, __VA_ARGS__);                         \
        return -1;                                                                        \
    } while (0)

/* Validates the mapped file; fills the array pointers of `ix`. */
static int vp_rt_index_check(struct vp_rt_index *ix)
{
    const struct vp_index_header *h = (const struct vp_index_header *)ix->base;
    if (ix->size < sizeof *h)
        IX_FAIL("file too small (%llu bytes)", (unsigned long long)ix->size);
    if (h->magic != VP_INDEX_MAGIC)
        IX_FAIL("bad magic 0x%08x at offset 0", h->magic);
    if (h->version != VP_INDEX_VERSION)
        IX_FAIL("unsupported version %u at offset 4", h->version);
    if (h->header_size < sizeof *h || h->file_size != ix->size)
        IX_FAIL("header_size/file_size mismatch at offset 6");
    if (!vp_rt_in_file(ix->size, h->modules_off, h->module_count, sizeof(struct vp_index_module)) ||
        !vp_rt_in_file(ix->size, h->ranges_off, h->range_count, sizeof(struct vp_index_range)) ||
        !vp_rt_in_file(ix->size, h->refs_off, h->refs_count, 4) ||
        !vp_rt_in_file(ix->size, h->recipes_off, h->recipe_count, sizeof(struct vp_recipe)) ||
        !vp_rt_in_file(ix->size, h->ops_off, h->op_count, sizeof(struct vp_op)) ||
        !vp_rt_in_file(ix->size, h->strings_off, h->strings_size, 1) ||
        !vp_rt_in_file(ix->size, h->vartab_off, h->vartab_size, 1) ||
        !vp_rt_in_file(ix->size, h->coverage_off, h->coverage_size, 1))
        IX_FAIL("an array lies outside the file or is misaligned (header)");
    ix->hdr = h;
    ix->modules = (const void *)(ix->base + h->modules_off);
    ix->ranges = (const void *)(ix->base + h->ranges_off);
    ix->refs = (const void *)(ix->base + h->refs_off);
    ix->recipes = (const void *)(ix->base + h->recipes_off);
    ix->ops = (const void *)(ix->base + h->ops_off);
    ix->strings = (const char *)(ix->base + h->strings_off);
    if (h->strings_size == 0 || ix->strings[h->strings_size - 1] != 0)
        IX_FAIL("string table at offset %u not NUL-terminated", h->strings_off);
    for (uint32_t i = 0; i < h->recipe_count; i++) {
        const struct vp_recipe *r = &ix->recipes[i];
        uint64_t off = h->recipes_off + (uint64_t)i * sizeof *r;
        if (r->op_count == 0 || r->op_count > VP_RECIPE_MAX_OPS ||
            (uint64_t)r->first_op + r->op_count > h->op_count)
            IX_FAIL("recipe %u at offset %llu: ops out of range", i, (unsigned long long)off);
        if (r->size > 8 || r->pointee_size > 8)
            IX_FAIL("recipe %u at offset %llu: size > 8", i, (unsigned long long)off);
    }
    for (uint32_t i = 0; i < h->refs_count; i++)
        if (ix->refs[i] >= h->recipe_count)
            IX_FAIL("recipe ref %u at offset %llu out of range", i,
                    (unsigned long long)(h->refs_off + 4ull * i));
    for (uint32_t m = 0; m < h->module_count; m++) {
        const struct vp_index_module *im = &ix->modules[m];
        uint64_t moff = h->modules_off + (uint64_t)m * sizeof *im;
        if (im->path >= h->strings_size || im->build_id_len > 32 ||
            (uint64_t)im->first_range + im->range_count > h->range_count)
            IX_FAIL("module %u at offset %llu: bad path/build id/ranges", m,
                    (unsigned long long)moff);
        for (uint32_t k = 0; k < im->range_count; k++) {
            const struct vp_index_range *rg = &ix->ranges[im->first_range + k];
            uint64_t roff = h->ranges_off + (uint64_t)(im->first_range + k) * sizeof *rg;
            if ((uint64_t)rg->first_recipe + rg->recipe_count > h->refs_count)
                IX_FAIL("range at offset %llu: recipe refs out of range", (unsigned long long)roff);
            int globals = rg->lo == 0 && rg->hi == 0;
            if (globals && k != 0)
                IX_FAIL("range at offset %llu: globals range must come first", (unsigned long long)roff);
            if (!globals && rg->lo >= rg->hi)
                IX_FAIL("range at offset %llu: empty or inverted", (unsigned long long)roff);
            if (k > 0 && !(ix->ranges[im->first_range + k - 1].hi <= rg->lo))
                IX_FAIL("range at offset %llu: not sorted/disjoint", (unsigned long long)roff);
        }
    }
    if (h->vartab_size) {
        struct vp_vartab_header vh;
        if (h->vartab_size < sizeof vh)
            IX_FAIL("variable table at offset %u too small", h->vartab_off);
        memcpy(&vh, ix->base + h->vartab_off, sizeof vh);
        if ((uint64_t)vh.var_count * sizeof(struct vp_prof_var) + vh.strings_size + sizeof vh >
            h->vartab_size)
            IX_FAIL("variable table at offset %u: counts exceed its size", h->vartab_off);
        ix->vartab = ix->base + h->vartab_off;
        ix->var_count = vh.var_count;
    }
    if (h->coverage_size)
        ix->coverage = ix->base + h->coverage_off;
    return 0;
}

/* Maps and validates the index at `path`.  Returns 0, or -1 after printing
   one line naming the file and the problem (the runtime then samples PCs
   only).  Not the signal path. */
int vp_rt_index_load(const char *path, struct vp_rt_index *ix)
{
    memset(ix, 0, sizeof *ix);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        vp_rt_log("cannot open index file, sampling PCs only: ", path);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    ix->size = (uint64_t)st.st_size;
    void *p = ix->size ? mmap(NULL, ix->size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (p == MAP_FAILED) {
        vp_rt_log("cannot map index file, sampling PCs only: ", path);
        return -1;
    }
    ix->base = p;
    if (vp_rt_index_check(ix) != 0) {
        char msg[VP_RT_PATH_MAX + 300];
        snprintf(msg, sizeof msg, "%s: %s; sampling PCs only", path, vp_rt_ix_err);
        vp_rt_log("invalid index file ", msg);
        munmap(p, ix->size);
        memset(ix, 0, sizeof *ix);
        return -1;
    }
    vp_rt_index_range_info(ix);
    if (ix->var_count) {
        ix->var_kind = mmap(NULL, ix->var_count, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (ix->var_kind == MAP_FAILED) {
            ix->var_kind = NULL;
            ix->var_count = 0;
        } else {
            const struct vp_prof_var *v =
                (const void *)(ix->vartab + sizeof(struct vp_vartab_header));
            for (uint32_t i = 0; i < ix->var_count; i++)
                ix->var_kind[i] = (uint8_t)v[i].type_kind;
        }
    }
    return 0;
}

/* Fills ix->range_info (start-up, after validation): per range, which
   registers its caller-frame recipes read and whether it needs the CFA.
   Without it (mmap failed) the signal path scans the recipes itself. */
static void vp_rt_index_range_info(struct vp_rt_index *ix)
{
    uint32_t n = ix->hdr->range_count;
    if (n == 0)
        return;
    void *p = mmap(NULL, (size_t)n * sizeof(struct vp_rt_range_info), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    struct vp_rt_range_info *info = p;
    for (uint32_t i = 0; i < n; i++) {
        const struct vp_index_range *rg = &ix->ranges[i];
        for (uint32_t k = 0; k < rg->recipe_count; k++) {
            const struct vp_recipe *r = &ix->recipes[ix->refs[rg->first_recipe + k]];
            int caller = (r->flags & VP_RECIPE_CALLER_OK) != 0;
            if (r->flags & VP_RECIPE_NEEDS_CFA) {
                info[i].cfa0 = 1;
                info[i].cfa_caller |= (uint8_t)caller;
            }
            if (!caller)
                continue;
            info[i].caller_count++;
        }
    }
    ix->range_info = info;
}

static int vp_rt_same_file(const char *a, const char *b, int resolve)
{
    if (strcmp(a, b) == 0)
        return 1;
    if (!resolve)
        return 0;
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* Matches each index module to a loaded module (build id when both have one,
   else the path, resolved with realpath when `resolve`) and marks it indexed
   in `ml`.  imods are only (re)built before timers are armed, in a fork
   child, or at the profile's write (sampling paused).  From a terminating
   signal's handler `resolve` must be 0: realpath may malloc and takes
   8 KB of the interrupted thread's stack. */
void vp_rt_index_bind(struct vp_rt_index *ix, struct vp_rt_modlist *ml, int resolve)
{
    int rebuild = ix->imod_count == 0;
    for (uint32_t m = 0; m < ix->hdr->module_count; m++) {
        const struct vp_index_module *im = &ix->modules[m];
        for (uint32_t k = 0; k < ml->count; k++) {
            struct vp_rt_module *lm = &ml->mods[k];
            int match = im->build_id_len && lm->build_id_len
                            ? im->build_id_len == lm->build_id_len &&
                                  memcmp(im->build_id, lm->build_id, im->build_id_len) == 0
                            : vp_rt_same_file(ix->strings + im->path, ml->strings + lm->path,
                                              resolve);
            if (!match)
                continue;
            lm->indexed = 1;
            if (rebuild && ix->imod_count < VP_RT_MAX_INDEXED) {
                struct vp_rt_imod *r = &ix->imods[ix->imod_count++];
                r->lo = lm->lo;
                r->hi = lm->hi;
                r->bias = lm->load_bias;
                r->ranges = ix->ranges + im->first_range;
                r->range_count = im->range_count;
                r->globals = NULL;
                if (r->range_count && r->ranges[0].lo == 0 && r->ranges[0].hi == 0) {
                    r->globals = r->ranges[0].recipe_count ? &r->ranges[0] : NULL;
                    r->ranges++;
                    r->range_count--;
                }
            }
            break;
        }
    }
}
