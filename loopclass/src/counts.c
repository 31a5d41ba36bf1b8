/*
 * counts.c - reads the VP_SEC_LOOP_COUNTS payload of a profile (layout in
 * format.h, "loop-stage sections"), bounds-checked, into an owned copy.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/loopclass.h"
#include "vprof/oneline.h"

static int fail(char *err, size_t errlen, const char *name, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s: offset %llu: ", name, (unsigned long long)off);
    if (n >= 0 && (size_t)n < errlen) {
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    vp_oneline(err);
    return -1;
}

int vp_loop_counts_parse(const char *name, const void *data, uint64_t size,
                         struct vp_loop_counts **out, char *err, size_t errlen)
{
    const uint8_t *p = data;
    struct vp_loop_counts_header h;
    if (size < sizeof h)
        return fail(err, errlen, name, 0, "loop counts section truncated (%llu bytes)",
                    (unsigned long long)size);
    memcpy(&h, p, sizeof h);
    if (h.version != VP_LOOP_COUNTS_VERSION)
        return fail(err, errlen, name, 0, "unsupported loop counts version %u", h.version);
    if (h.header_size < sizeof h || h.header_size % 8)
        return fail(err, errlen, name, 4, "bad loop counts header_size %u", h.header_size);
    uint64_t mods_off = h.header_size;
    uint64_t recs_off = mods_off + (uint64_t)h.module_count * sizeof(struct vp_loop_counts_module);
    uint64_t str_off = recs_off + (uint64_t)h.record_count * sizeof(struct vp_loop_count);
    if (str_off + h.strings_size > size)
        return fail(err, errlen, name, 0,
                    "%u modules, %u records and %u string bytes exceed the section (%llu bytes)",
                    h.module_count, h.record_count, h.strings_size, (unsigned long long)size);
    const char *str = (const char *)p + str_off;
    if (h.strings_size && (str[0] != 0 || str[h.strings_size - 1] != 0))
        return fail(err, errlen, name, str_off, "string table not NUL-delimited");

    struct vp_loop_counts *c = calloc(1, sizeof *c);
    if (!c)
        return fail(err, errlen, name, 0, "out of memory");
    c->records_ = calloc(h.record_count ? h.record_count : 1, sizeof *c->records_);
    c->module_paths = calloc(h.module_count ? h.module_count : 1, sizeof *c->module_paths);
    c->strings_ = malloc(h.strings_size ? h.strings_size : 1);
    if (!c->records_ || !c->module_paths || !c->strings_) {
        vp_loop_counts_free(c);
        return fail(err, errlen, name, 0, "out of memory");
    }
    memcpy(c->strings_, str, h.strings_size);
    for (uint32_t i = 0; i < h.module_count; i++) {
        struct vp_loop_counts_module m;
        uint64_t mo = mods_off + (uint64_t)i * sizeof m;
        memcpy(&m, p + mo, sizeof m);
        if (m.path && m.path >= h.strings_size) {
            vp_loop_counts_free(c);
            return fail(err, errlen, name, mo, "module %u: path offset %u out of range", i,
                        m.path);
        }
        c->module_paths[i] = m.path ? c->strings_ + m.path : "";
    }
    for (uint32_t i = 0; i < h.record_count; i++) {
        uint64_t ro = recs_off + (uint64_t)i * sizeof(struct vp_loop_count);
        struct vp_loop_count *r = &c->records_[i];
        memcpy(r, p + ro, sizeof *r);
        if (r->module >= h.module_count) {
            uint32_t module = r->module; /* r points into what is freed */
            vp_loop_counts_free(c);
            return fail(err, errlen, name, ro, "record %u: module %u out of range", i, module);
        }
        /* Every instance runs its header at least once (a recursion's
           outermost call is one of its calls): instances <= iterations. */
        if (r->result_iterations > r->iterations || r->max_iterations > r->iterations ||
            r->instances > r->iterations || (r->instances == 0 && r->iterations != 0)) {
            vp_loop_counts_free(c);
            return fail(err, errlen, name, ro, "record %u: inconsistent counters", i);
        }
    }
    c->thread_count = h.thread_count;
    c->records = c->records_;
    c->record_count = h.record_count;
    c->module_count = h.module_count;
    *out = c;
    return 0;
}

int vp_loop_counts_from_profile(const struct vp_profile *p, struct vp_loop_counts **out,
                                char *err, size_t errlen)
{
    const struct vp_profile_extra *x = vp_profile_extra(p, VP_SEC_LOOP_COUNTS);
    if (!x) {
        static const struct vp_loop_counts_header empty = {
            VP_LOOP_COUNTS_VERSION, sizeof(struct vp_loop_counts_header), 0, 0, 0, 0};
        return vp_loop_counts_parse(p->path, &empty, sizeof empty, out, err, errlen);
    }
    return vp_loop_counts_parse(p->path, x->data, x->size, out, err, errlen);
}

int vp_loop_counts_from_profiles(const struct vp_profile *const *p, size_t n,
                                 struct vp_loop_counts **out, char *err, size_t errlen)
{
    if (n == 1)
        return vp_loop_counts_from_profile(p[0], out, err, errlen);
    struct vp_loop_counts **part = calloc(n ? n : 1, sizeof *part);
    struct vp_loop_counts *c = calloc(1, sizeof *c);
    size_t nrec = 0, nmod = 0, nstr = 1;
    int rc = -1;
    if (!part || !c) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (vp_loop_counts_from_profile(p[i], &part[i], err, errlen) != 0)
            goto done;
        nrec += part[i]->record_count;
        nmod += part[i]->module_count;
        for (size_t m = 0; m < part[i]->module_count; m++)
            nstr += strlen(part[i]->module_paths[m]) + 1;
    }
    c->records_ = calloc(nrec ? nrec : 1, sizeof *c->records_);
    c->module_paths = calloc(nmod ? nmod : 1, sizeof *c->module_paths);
    c->strings_ = malloc(nstr);
    if (!c->records_ || !c->module_paths || !c->strings_) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* each process's records and modules after the previous ones', module
       indexes shifted (vp_loop_analyze sums a loop's records) */
    char *s = c->strings_;
    *s++ = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < part[i]->record_count; k++) {
            c->records_[c->record_count] = part[i]->records[k];
            c->records_[c->record_count++].module += (uint32_t)c->module_count;
        }
        for (size_t m = 0; m < part[i]->module_count; m++) {
            size_t len = strlen(part[i]->module_paths[m]);
            memcpy(s, part[i]->module_paths[m], len + 1);
            c->module_paths[c->module_count++] = len ? s : c->strings_;
            s += len + 1;
        }
        c->thread_count += part[i]->thread_count;
    }
    c->records = c->records_;
    *out = c;
    c = NULL;
    rc = 0;
done:
    for (size_t i = 0; part && i < n; i++)
        vp_loop_counts_free(part[i]);
    free(part);
    vp_loop_counts_free(c);
    return rc;
}

void vp_loop_counts_free(struct vp_loop_counts *c)
{
    if (!c)
        return;
    free(c->records_);
    free(c->module_paths);
    free(c->strings_);
    free(c);
}
