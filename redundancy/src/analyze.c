/*
 * analyze.c - per-loop redundancy verdicts from a binary and a profile.
 * Reads `.vprof.redund` with libelf (bounds-checked), groups the sampled
 * iteration signatures and instance pairs by loop, and applies the rules of
 * docs/redundancy.md.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vprof/oneline.h"
#include "vprof/redundancy.h"

static int vp_red_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    vp_oneline(err);
    return -1;
}

/* Source record k of loop entry e (the blob header's check bounds the
   array). */
static struct vp_redund_source blob_source(const uint8_t *blob, const struct vp_redund_header *h,
                                           const struct vp_redund_loop *e, uint32_t k)
{
    struct vp_redund_source src;
    memcpy(&src, blob + sizeof *h + (size_t)h->loop_count * sizeof *e +
                     ((size_t)e->first_source + k) * sizeof src,
           sizeof src);
    return src;
}

/* Appends the loops of one `.vprof.redund` blob. */
static int vp_red_read_blob(const char *path, const uint8_t *blob, size_t avail, size_t off,
                            struct vp_red_result *r, size_t *cap, char **strs,
                            size_t *strs_used, char *err, size_t errlen)
{
    struct vp_redund_header h;
    if (avail < sizeof h)
        return vp_red_fail(err, errlen, "%s: .vprof.redund offset %zu: truncated header", path, off);
    memcpy(&h, blob, sizeof h);
    if (h.magic != VP_REDUND_MAGIC || h.version != VP_REDUND_VERSION ||
        h.header_size != sizeof h || h.total_size > avail || h.total_size < sizeof h ||
        h.strings_offset > h.total_size || h.strings_offset < sizeof h || /* no underflow below */
        h.strings_size > h.total_size - h.strings_offset ||
        (uint64_t)h.loop_count * sizeof(struct vp_redund_loop) +
                (uint64_t)h.source_count * sizeof(struct vp_redund_source) >
            h.strings_offset - sizeof h)
        return vp_red_fail(err, errlen, "%s: .vprof.redund offset %zu: bad blob header", path, off);
    const char *st = (const char *)blob + h.strings_offset;
    if (h.strings_size == 0 || st[h.strings_size - 1] != '\0')
        return vp_red_fail(err, errlen, "%s: .vprof.redund offset %zu: bad string table", path, off);
    size_t base = r->loop_count;
    for (uint32_t i = 0; i < h.loop_count; i++) {
        struct vp_redund_loop e;
        memcpy(&e, blob + sizeof h + i * sizeof e, sizeof e);
        if (e.function >= h.strings_size ||
            (uint64_t)e.first_source + e.source_count > h.source_count ||
            ((e.flags & VP_REDF_CALLSITE) && (e.reserved == 0 || e.reserved > h.loop_count ||
                                              e.reserved - 1 == i)) ||
            ((e.flags & VP_REDF_CL_CONST) &&
             ((e.flags & VP_REDF_CALLSITE) || e.reserved >= h.strings_size ||
              st[e.reserved] == '\0')))
            return vp_red_fail(err, errlen, "%s: .vprof.redund offset %zu: bad loop %u", path,
                               off, i);
        if (r->loop_count == *cap) {
            *cap = *cap ? 2 * *cap : 16;
            void *p = realloc(r->loops, *cap * sizeof *r->loops);
            if (!p)
                return vp_red_fail(err, errlen, "out of memory");
            r->loops = p;
        }
        /* a unit of a call in a helper: the helper, from its VP_SRC_VIA */
        const char *via = "";
        uint32_t via_line = 0;
        for (uint32_t k = 0; (e.flags & VP_REDF_VIA) && k < e.source_count; k++) {
            struct vp_redund_source src = blob_source(blob, &h, &e, k);
            if (src.kind != VP_SRC_VIA)
                continue;
            if (!(e.flags & VP_REDF_CALLSITE) || src.function >= h.strings_size ||
                st[src.function] == '\0')
                return vp_red_fail(err, errlen, "%s: .vprof.redund offset %zu: bad loop %u",
                                   path, off, i);
            via = st + src.function;
            via_line = src.line;
            break;
        }
        const char *fn = st + e.function;
        const char *obj = (e.flags & VP_REDF_CL_CONST) ? st + e.reserved : "";
        size_t len = strlen(fn) + 1, olen = strlen(obj) + 1, vlen = strlen(via) + 1;
        char *ns = realloc(*strs, *strs_used + len + olen + vlen);
        if (!ns)
            return vp_red_fail(err, errlen, "out of memory");
        *strs = ns;
        memcpy(ns + *strs_used, fn, len);
        memcpy(ns + *strs_used + len, obj, olen);
        memcpy(ns + *strs_used + len + olen, via, vlen);
        struct vp_red_loop_result *lr = &r->loops[r->loop_count++];
        memset(lr, 0, sizeof *lr);
        lr->loop_id = e.loop_id;
        /* offsets, fixed up later */
        lr->function = (const char *)(uintptr_t)*strs_used;
        lr->constant_object = (const char *)(uintptr_t)(*strs_used + len);
        lr->via = (const char *)(uintptr_t)(*strs_used + len + olen);
        lr->via_line = via_line;
        *strs_used += len + olen + vlen;
        lr->line = e.line;
        lr->static_flags = e.flags;
        lr->side_effect_sites = e.side_effects;
        lr->source_count = e.source_count - (*via != '\0'); /* values only */
        lr->ci_impossible = (e.flags & VP_REDF_CI_IV) != 0;
        lr->mean_pair_distance = -1;
        lr->callsite = (e.flags & VP_REDF_CALLSITE) != 0;
        lr->parent_id = e.reserved; /* an index until the blob is read */
        /* its strided accesses (the header's check above bounds the array) */
        for (uint32_t k = 0; k < e.source_count; k++) {
            struct vp_redund_source src = blob_source(blob, &h, &e, k);
            if (src.kind != VP_SRC_STRIDE)
                continue;
            if (!(src.id & VP_RED_SRC_STRIDE_BIT) || lr->nstrides == VP_RED_STRIDES_PER_LOOP)
                return vp_red_fail(err, errlen, "%s: .vprof.redund offset %zu: bad loop %u",
                                   path, off, i);
            /* a constant step is the table's (negative backwards) */
            int64_t step = (src.reserved & VP_SRC_STRIDE_BACKWARDS) ? -(int64_t)src.reserved2
                                                                  : (int64_t)src.reserved2;
            lr->strides[lr->nstrides++] = (struct vp_red_stride){
                .id = src.id, .line = src.line, .column = src.column, .constant = step != 0,
                .bytes = step};
        }
    }
    /* Call units name their loop by index in the blob: turn it into the id. */
    for (size_t i = base; i < r->loop_count; i++)
        if (r->loops[i].callsite)
            r->loops[i].parent_id = r->loops[base + r->loops[i].parent_id - 1].loop_id;
    return 0;
}

/* Appends the loops of a whole `.vprof.redund` section (blobs separated by
   zero padding words); its strings are kept in *strs.  The buffer entry
   point of the section reader (tests/fuzz/fuzz_redund.c). */
static int vp_red_parse_section(const char *path, const uint8_t *p, size_t size,
                                struct vp_red_result *r, size_t *cap, char **strs,
                                size_t *used, char *err, size_t errlen)
{
    size_t off = 0;
    while (off + 8 <= size) {
        uint64_t word;
        memcpy(&word, p + off, 8);
        if (word == 0) { /* linker padding between blobs */
            off += 8;
            continue;
        }
        uint32_t total;
        if (vp_red_read_blob(path, p + off, size - off, off, r, cap, strs, used, err,
                             errlen) != 0)
            return -1;
        memcpy(&total, p + off + 8, 4);
        off += (total + 7) & ~7u;
    }
    return 0;
}

/* Points the loops' function names into the string block (they hold
   offsets while it grows) and hands the block to `r`. */
static void vp_red_fix_strings(struct vp_red_result *r, char *strs)
{
    for (size_t i = 0; i < r->loop_count; i++) {
        struct vp_red_loop_result *l = &r->loops[i];
        l->function = strs + (uintptr_t)l->function;
        l->constant_object = (l->static_flags & VP_REDF_CL_CONST)
                                 ? strs + (uintptr_t)l->constant_object
                                 : NULL;
        l->via = strs[(uintptr_t)l->via] ? strs + (uintptr_t)l->via : NULL;
    }
    r->strings_ = strs;
}

static int vp_red_read_binary(const char *path, struct vp_red_result *r, char *err,
                              size_t errlen)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return vp_red_fail(err, errlen, "%s: cannot open", path);
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    size_t shstrndx;
    int rc = -1, found = 0;
    size_t cap = 0, used = 0;
    char *strs = NULL;
    if (!e || elf_getshdrstrndx(e, &shstrndx) != 0) {
        vp_red_fail(err, errlen, "%s: not an ELF file", path);
        goto out;
    }
    for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(s, &sh))
            continue;
        const char *name = elf_strptr(e, shstrndx, sh.sh_name);
        if (!name || strcmp(name, VP_REDUND_SECTION) != 0)
            continue;
        Elf_Data *d = elf_getdata(s, NULL);
        if (!d || !d->d_buf)
            continue;
        found = 1;
        if (vp_red_parse_section(path, d->d_buf, d->d_size, r, &cap, &strs, &used, err,
                                 errlen) != 0)
            goto out;
    }
    if (!found) {
        vp_red_fail(err, errlen, "%s: no %s section (not built with vprof-cc?)", path,
                    VP_REDUND_SECTION);
        goto out;
    }
    vp_red_fix_strings(r, strs);
    strs = NULL;
    rc = 0;
out:
    free(strs);
    if (e)
        elf_end(e);
    close(fd);
    return rc;
}

static struct vp_red_loop_result *vp_red_find(struct vp_red_result *r, uint64_t id)
{
    for (size_t i = 0; i < r->loop_count; i++)
        if (r->loops[i].loop_id == id)
            return &r->loops[i];
    return NULL;
}

/* Optional section `type` of prof: *x, and its header copied into hdr.
   1 when present, 0 when absent, -1 (err "<path>: <what>: truncated
   header") when it is shorter than the header. */
static int vp_red_section(const struct vp_profile *prof, uint32_t type, const char *what,
                          const struct vp_profile_extra **x, void *hdr, size_t hdr_size,
                          char *err, size_t errlen)
{
    *x = vp_profile_extra(prof, type);
    if (!*x)
        return 0;
    if ((*x)->size < hdr_size)
        return vp_red_fail(err, errlen, "%s: %s: truncated header", prof->path, what);
    memcpy(hdr, (*x)->data, hdr_size);
    return 1;
}

static int vp_red_read_hashes(const struct vp_profile *const *profs, size_t nprof,
                              struct vp_red_result *r, char *err, size_t errlen)
{
    /* every process's signatures of a loop together: an iteration that
       repeats another process's is repeated work too */
    const struct vp_iter_hash **rec = calloc(nprof ? nprof : 1, sizeof *rec);
    uint64_t *nrec = calloc(nprof ? nprof : 1, sizeof *nrec), total = 0;
    if (!rec || !nrec) {
        free(rec);
        free(nrec);
        return vp_red_fail(err, errlen, "out of memory");
    }
    for (size_t p = 0; p < nprof; p++) {
        const struct vp_profile_extra *x;
        struct vp_iter_hashes_header h;
        int in = vp_red_section(profs[p], VP_SEC_LOOP_ITER_HASHES, "iteration hashes", &x, &h,
                                sizeof h, err, errlen);
        if (in < 0 || (in && (h.version != VP_ITER_HASHES_VERSION || h.header_size != sizeof h ||
                              h.record_count > (x->size - sizeof h) / sizeof(struct vp_iter_hash)))) {
            free(rec);
            free(nrec);
            return in < 0 ? -1
                          : vp_red_fail(err, errlen, "%s: iteration hashes: bad header",
                                        profs[p]->path);
        }
        if (!in)
            continue;
        r->iterations_dropped += h.dropped;
        r->iterations_truncated += h.truncated;
        rec[p] = (const struct vp_iter_hash *)(const void *)((const uint8_t *)x->data + sizeof h);
        nrec[p] = h.record_count;
        total += h.record_count;
    }
    uint64_t *sigs = malloc((total + 1) * sizeof *sigs);
    if (!sigs) {
        free(rec);
        free(nrec);
        return vp_red_fail(err, errlen, "out of memory");
    }
    for (size_t i = 0; i < r->loop_count && total; i++) {
        struct vp_red_loop_result *l = &r->loops[i];
        size_t n = 0;
        for (size_t p = 0; p < nprof; p++)
            for (uint64_t k = 0; k < nrec[p]; k++)
                if (rec[p][k].loop_id == l->loop_id)
                    sigs[n++] = rec[p][k].signature;
        l->sampled_iterations = n;
        l->ci_rate = vp_red_ci_rate(sigs, n, &l->distinct_signatures);
    }
    free(sigs);
    free(rec);
    free(nrec);
    return 0;
}

/* A loop that sampled more iterations than the table kept (its first
   VP_RED_LOOP_HASHES on a thread): sampled / distinct over the whole run,
   from its sketch (docs/redundancy.md, "Whole-run rate").  The distinct
   count is the HyperLogLog estimate, at least what the kept signatures show
   and at most the sampled count. */
static int vp_red_read_sketches(const struct vp_profile *const *profs, size_t nprof,
                                struct vp_red_result *r, char *err, size_t errlen)
{
    /* the processes' sketches of a loop merged: their sampled counts
       summed, their registers the maximum of each (a HyperLogLog of the
       union) */
    uint8_t *reg = NULL;
    uint64_t *sampled = NULL;
    for (size_t p = 0; p < nprof; p++) {
        const struct vp_profile *prof = profs[p];
        const struct vp_profile_extra *x;
        struct vp_iter_sketch_header h;
        int in = vp_red_section(prof, VP_SEC_LOOP_ITER_SKETCH, "iteration sketches", &x, &h,
                                sizeof h, err, errlen);
        if (in < 0)
            goto fail;
        if (!in)
            continue;
        if (h.version != VP_ITER_SKETCH_VERSION || h.header_size != sizeof h ||
            h.registers != VP_ITER_SKETCH_REGS ||
            h.loop_count > (x->size - sizeof h) / sizeof(struct vp_iter_sketch)) {
            vp_red_fail(err, errlen, "%s: iteration sketches: bad header", prof->path);
            goto fail;
        }
        if (!reg) {
            reg = calloc(r->loop_count ? r->loop_count : 1, VP_ITER_SKETCH_REGS);
            sampled = calloc(r->loop_count ? r->loop_count : 1, sizeof *sampled);
            if (!reg || !sampled) {
                vp_red_fail(err, errlen, "out of memory");
                goto fail;
            }
        }
        r->iterations_unsketched += h.dropped;
        const uint8_t *base = (const uint8_t *)x->data + sizeof h;
        for (uint64_t k = 0; k < h.loop_count; k++) {
            struct vp_iter_sketch s;
            memcpy(&s, base + k * sizeof s, sizeof s);
            for (uint32_t j = 0; j < VP_ITER_SKETCH_REGS; j++)
                if (s.reg[j] > 64 - VP_ITER_SKETCH_BITS + 1) {
                    vp_red_fail(err, errlen,
                                "%s: iteration sketches: register %u of loop %016llx is %u",
                                prof->path, j, (unsigned long long)s.loop_id, s.reg[j]);
                    goto fail;
                }
            struct vp_red_loop_result *l = vp_red_find(r, s.loop_id);
            if (!l)
                continue;
            size_t i = (size_t)(l - r->loops);
            uint8_t *rg = reg + i * VP_ITER_SKETCH_REGS;
            for (uint32_t j = 0; j < VP_ITER_SKETCH_REGS; j++)
                if (s.reg[j] > rg[j])
                    rg[j] = s.reg[j];
            sampled[i] = sampled[i] + s.sampled < sampled[i] ? UINT64_MAX : sampled[i] + s.sampled;
        }
    }
    for (size_t i = 0; reg && i < r->loop_count; i++) {
        struct vp_red_loop_result *l = &r->loops[i];
        if (sampled[i] <= l->sampled_iterations)
            continue; /* the kept signatures are all of them: exact */
        double d = vp_red_hll_estimate(reg + i * VP_ITER_SKETCH_REGS, VP_ITER_SKETCH_REGS);
        if (d < (double)l->distinct_signatures)
            d = (double)l->distinct_signatures;
        if (d > (double)sampled[i])
            d = (double)sampled[i];
        l->sampled_iterations = sampled[i];
        /* (llround is for values a long holds; a sampled count near 2^64
           from a damaged profile is not one) */
        l->distinct_signatures = d < 1                           ? 1
                                 : d >= (double)sampled[i]       ? sampled[i]
                                                                 : (uint64_t)(d + 0.5);
        l->ci_rate = (double)sampled[i] / (double)l->distinct_signatures;
        l->ci_estimated = 1;
    }
    free(reg);
    free(sampled);
    return 0;
fail:
    free(reg);
    free(sampled);
    return -1;
}

/* An instance record and the process (index into the profiles) that
   recorded it: pairs are never made across processes. */
struct vp_red_inst {
    const struct vp_instance *in;
    size_t proc;
};

/* Appends the valid instance records of `prof` (process `proc`) to *v. */
static int vp_red_read_instances(const struct vp_profile *prof, size_t proc,
                                 struct vp_red_inst **v, size_t *count, struct vp_red_result *r,
                                 char *err, size_t errlen)
{
    const struct vp_profile_extra *x;
    struct vp_instances_header h;
    int in = vp_red_section(prof, VP_SEC_LOOP_INSTANCES, "instances", &x, &h, sizeof h, err,
                            errlen);
    if (in <= 0)
        return in;
    if (h.version != VP_INSTANCES_VERSION || h.header_size != sizeof h)
        return vp_red_fail(err, errlen, "%s: instances: bad header", prof->path);
    /* Every record takes at least its fixed part: a larger count is a lie
       (and would size the allocation below from the file alone). */
    if (h.instance_count > (x->size - sizeof h) / sizeof(struct vp_instance))
        return vp_red_fail(err, errlen, "%s: instances: %llu records cannot fit in %llu bytes",
                           prof->path, (unsigned long long)h.instance_count,
                           (unsigned long long)(x->size - sizeof h));
    r->instances_dropped += h.dropped_instances;
    r->values_dropped += h.dropped_values;
    struct vp_red_inst *nv = realloc(*v, (*count + h.instance_count + 1) * sizeof *nv);
    if (!nv)
        return vp_red_fail(err, errlen, "out of memory");
    *v = nv;
    const uint8_t *p = (const uint8_t *)x->data + sizeof h;
    size_t left = x->size - sizeof h;
    for (uint64_t i = 0; i < h.instance_count; i++) {
        const struct vp_instance *in = (const void *)p;
        if (left < sizeof *in)
            return vp_red_fail(err, errlen, "%s: instances: record %llu truncated", prof->path,
                               (unsigned long long)i);
        uint64_t bytes = sizeof *in + (uint64_t)in->value_count * sizeof(struct vp_instance_value) +
                         (uint64_t)in->range_count * sizeof(struct vp_instance_range);
        if (bytes > left)
            return vp_red_fail(err, errlen, "%s: instances: record %llu overruns the section",
                               prof->path, (unsigned long long)i);
        nv[*count + i] = (struct vp_red_inst){in, proc};
        p += bytes;
        left -= bytes;
    }
    *count += h.instance_count;
    return 0;
}

/* Writes per instance grow with its work when they vary and follow the
   iteration count (Pearson r >= 0.5); otherwise they are constant.  Also
   sets loop l's side-effect range and its instances' totals. */
static enum vp_red_writes vp_red_writes(const struct vp_red_inst *iv, size_t n,
                                        struct vp_red_loop_result *l)
{
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    size_t k = 0;
    uint64_t *mn = &l->side_effects_min, *mx = &l->side_effects_max;
    *mn = UINT64_MAX;
    *mx = 0;
    for (size_t i = 0; i < n; i++) {
        if (iv[i].in->loop_id != l->loop_id)
            continue;
        l->instance_iterations += iv[i].in->iterations;
        l->instance_side_effects += iv[i].in->side_effects;
        double x = (double)iv[i].in->iterations, y = (double)iv[i].in->side_effects;
        sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y, k++;
        if (iv[i].in->side_effects < *mn)
            *mn = iv[i].in->side_effects;
        if (iv[i].in->side_effects > *mx)
            *mx = iv[i].in->side_effects;
    }
    if (k < 2) {
        if (k == 0)
            *mn = 0;
        return VP_RED_WRITES_UNKNOWN;
    }
    if (*mx == *mn)
        return VP_RED_WRITES_CONSTANT;
    double cov = sxy - sx * sy / k, vx = sxx - sx * sx / k, vy = syy - sy * sy / k;
    if (vx <= 0 || vy <= 0)
        return VP_RED_WRITES_CONSTANT;
    return cov / sqrt(vx * vy) >= 0.5 ? VP_RED_WRITES_GROWING : VP_RED_WRITES_CONSTANT;
}

static int vp_red_cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Each loop's strides (l->strides[].bytes): the median over its recorded
   instances in iv[0..n), which are sorted by loop. */
static int vp_red_take_strides(struct vp_red_result *r, const struct vp_red_inst *iv, size_t n)
{
    int64_t *buf = NULL;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && iv[j].in->loop_id == iv[i].in->loop_id; j++)
            ;
        struct vp_red_loop_result *l = vp_red_find(r, iv[i].in->loop_id);
        if (!l || !l->nstrides)
            continue;
        free(buf);
        if (!(buf = malloc((j - i) * sizeof *buf)))
            return -1;
        for (size_t k = 0; k < l->nstrides; k++) {
            if (l->strides[k].constant)
                continue; /* known from the table */
            size_t m = 0;
            for (size_t q = i; q < j; q++)
                m += vp_red_instance_stride(iv[q].in, l->strides[k].id, &buf[m]);
            if (!m)
                continue;
            qsort(buf, m, sizeof *buf, vp_red_cmp_i64);
            l->strides[k].bytes = buf[m / 2];
            l->strides[k].instances = (uint32_t)(m < UINT32_MAX ? m : UINT32_MAX);
        }
    }
    free(buf);
    return 0;
}

/* Orders instance records by loop, process, thread, then sequence number. */
static int vp_red_cmp_instance(const void *x, const void *y)
{
    const struct vp_red_inst *ia = x, *ib = y;
    const struct vp_instance *a = ia->in, *b = ib->in;
    if (a->loop_id != b->loop_id)
        return a->loop_id < b->loop_id ? -1 : 1;
    if (ia->proc != ib->proc)
        return ia->proc < ib->proc ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int vp_red_analyze_loops(struct vp_red_result *r, const struct vp_profile *const *profs,
                                size_t nprof, const struct vp_red_params *prm,
                                struct vp_red_result **out, char *err, size_t errlen);

int vp_red_analyze(const char *binary, const struct vp_profile *prof,
                   const struct vp_red_params *prm, struct vp_red_result **out, char *err,
                   size_t errlen)
{
    return vp_red_analyze_many(binary, &prof, 1, prm, out, err, errlen);
}

int vp_red_analyze_many(const char *binary, const struct vp_profile *const *profs, size_t nprof,
                        const struct vp_red_params *prm, struct vp_red_result **out, char *err,
                        size_t errlen)
{
    struct vp_red_params dflt;
    if (!prm) {
        vp_red_params_default(&dflt);
        prm = &dflt;
    }
    struct vp_red_result *r = calloc(1, sizeof *r);
    if (!r)
        return vp_red_fail(err, errlen, "out of memory");
    if (vp_red_read_binary(binary, r, err, errlen) != 0) {
        vp_red_result_free(r);
        return -1;
    }
    return vp_red_analyze_loops(r, profs, nprof, prm, out, err, errlen);
}

/* The profile half of vp_red_analyze: `r` holds the binary's loops; it is
   consumed (freed on error). */
static int vp_red_analyze_loops(struct vp_red_result *r, const struct vp_profile *const *profs,
                                size_t nprof, const struct vp_red_params *prm,
                                struct vp_red_result **out, char *err, size_t errlen)
{
    struct vp_red_inst *inst = NULL;
    size_t ninst = 0;
    int bad = vp_red_read_hashes(profs, nprof, r, err, errlen) != 0 ||
              vp_red_read_sketches(profs, nprof, r, err, errlen) != 0;
    for (size_t p = 0; p < nprof && !bad; p++)
        bad = vp_red_read_instances(profs[p], p, &inst, &ninst, r, err, errlen) != 0;
    if (bad) {
        free(inst);
        vp_red_result_free(r);
        return -1;
    }
    /* Pairs: (seq 2k, seq 2k+1) of the same loop, process and thread,
       adjacent once sorted by (loop, process, thread, seq): linear,
       whatever the files hold.  A
       pair whose instances differ is given a second chance against the
       VP_RED_PAIR_WINDOW instances recorded before it on the thread. */
    if (ninst > 1)
        qsort(inst, ninst, sizeof *inst, vp_red_cmp_instance);
    size_t first = 0; /* the first instance of inst[i]'s loop, process and thread */
    for (size_t i = 0; i < ninst; i++) {
        if (i > 0 && (inst[i].in->loop_id != inst[i - 1].in->loop_id ||
                      inst[i].proc != inst[i - 1].proc || inst[i].in->tid != inst[i - 1].in->tid))
            first = i;
        struct vp_red_loop_result *l = vp_red_find(r, inst[i].in->loop_id);
        if (!l)
            continue;
        l->sampled_instances++;
        if ((inst[i].in->seq & 1) || prm->strides_only)
            continue;
        const struct vp_instance *a = inst[i].in;
        const struct vp_instance *b =
            i + 1 < ninst && inst[i + 1].proc == inst[i].proc ? inst[i + 1].in : NULL;
        if (!b || b->loop_id != a->loop_id || b->tid != a->tid || b->seq != a->seq + 1)
            continue;
        /* a copy: the closer of its two cuts (start, end); the same bytes
           again are not compared (tested first: it is cheaper than the
           distances it makes needless), except by a sort: sorting
           unchanged data again is redundant */
        int copy = (l->static_flags & VP_REDF_COPY) != 0, shifted = 0;
        if (copy && !(l->static_flags & VP_REDF_SORT) && vp_red_pair_same(a, b))
            continue;
        double d = copy ? vp_red_copy_distance(a, b, 0, &shifted) : vp_red_pair_distance(a, b);
        /* constant work reads nothing, so there are no values to compare:
           the pass proved the two instances write the same */
        if (d < 0 && (l->static_flags & VP_REDF_CL_CONST))
            d = 0;
        if (d < 0)
            continue;
        /* the latest earlier instance it repeats, if any (its distance is
           then exact: below the bound) */
        int earlier = 0;
        int window = vp_red_instance_values(b) >= VP_RED_WINDOW_MIN_VALUES;
        for (size_t k = i; window && d >= prm->pair_bound && k > first && i - k < VP_RED_PAIR_WINDOW;
             k--) {
            int sh = 0;
            double e = copy ? vp_red_copy_distance(inst[k - 1].in, b, prm->pair_bound, &sh)
                            : vp_red_pair_distance_below(inst[k - 1].in, b, prm->pair_bound);
            if (e >= 0 && e < prm->pair_bound) {
                d = e;
                earlier = 1;
                shifted = sh;
            }
        }
        l->mean_pair_distance =
            (l->mean_pair_distance < 0 ? 0 : l->mean_pair_distance * l->pairs_compared) + d;
        l->pairs_compared++;
        l->mean_pair_distance /= (double)l->pairs_compared;
        l->pairs_redundant += d < prm->pair_bound;
        l->pairs_redundant_earlier += earlier;
        l->pairs_redundant_shifted += d < prm->pair_bound && shifted;
    }
    for (size_t i = 0; i < r->loop_count; i++) {
        struct vp_red_loop_result *l = &r->loops[i];
        l->ci_redundant = !l->ci_impossible && l->distinct_signatures > 0 &&
                          l->ci_rate >= prm->ci_threshold &&
                          (!l->callsite || l->sampled_iterations >= VP_RED_CALL_MIN_SAMPLES);
        l->ci_fix = !l->ci_redundant ? VP_RED_FIX_NONE
                    : (l->static_flags & VP_REDF_IO_EVERY_ITER) ? VP_RED_FIX_BATCHING
                                                                : VP_RED_FIX_MEMOIZATION;
        l->cl_rate = l->pairs_compared ? (double)l->pairs_redundant / l->pairs_compared : 0;
        l->cl_redundant = l->pairs_compared >= VP_RED_CL_MIN_PAIRS && l->cl_rate >= prm->cl_threshold;
        l->cl_writes = vp_red_writes(inst, ninst, l);
        /* the writes go to locations fixed for the instance: their number
           is constant, however many writes (docs/redundancy.md) */
        if ((l->static_flags & VP_REDF_SE_FIXED) && l->cl_writes != VP_RED_WRITES_UNKNOWN)
            l->cl_writes = VP_RED_WRITES_CONSTANT;
        l->cl_fix = !l->cl_redundant ? VP_RED_FIX_NONE
                    : l->cl_writes == VP_RED_WRITES_GROWING ? VP_RED_FIX_BATCHING
                                                            : VP_RED_FIX_MEMOIZATION;
    }
    if (vp_red_take_strides(r, inst, ninst) != 0) {
        free(inst);
        vp_red_result_free(r);
        return vp_red_fail(err, errlen, "out of memory");
    }
    free(inst);
    *out = r;
    return 0;
}

void vp_red_result_free(struct vp_red_result *r)
{
    if (!r)
        return;
    free(r->loops);
    free(r->strings_);
    free(r);
}
