/* pf_builder.c - synthetic profiles for tests (see pf_builder.h). */
#include "pf_builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void buf_add(struct pf_buf *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        b->data = realloc(b->data, cap);
        if (!b->data)
            abort();
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
}

void pf_init(struct pf_builder *b)
{
    memset(b, 0, sizeof *b);
    vp_profile_header_init(&b->hdr);
    b->hdr.clock = VP_CLOCK_THREAD_CPUTIME;
    b->hdr.max_depth = 8;
    b->hdr.period_ns = 1000000;
    b->hdr.pid = 4242;
    b->hdr.root_pid = 4242;
}

void pf_free(struct pf_builder *b)
{
    struct pf_buf *all[] = {&b->strings, &b->modules, &b->vars, &b->var_strings,
                            &b->pcs,     &b->values,  &b->threads};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]->data);
    memset(b, 0, sizeof *b);
}

static uint32_t intern(struct pf_buf *t, const char *s)
{
    if (t->len == 0)
        buf_add(t, "", 1);
    if (!*s)
        return 0;
    for (size_t off = 1; off < t->len; off += strlen((char *)t->data + off) + 1)
        if (strcmp((char *)t->data + off, s) == 0)
            return (uint32_t)off;
    uint32_t off = (uint32_t)t->len;
    buf_add(t, s, strlen(s) + 1);
    return off;
}

uint32_t pf_str(struct pf_builder *b, const char *s)
{
    return intern(&b->strings, s);
}

uint32_t pf_var_str(struct pf_builder *b, const char *s)
{
    return intern(&b->var_strings, s);
}

void pf_module(struct pf_builder *b, const char *path, uint64_t load_bias, uint64_t lo,
               uint64_t hi, uint32_t indexed)
{
    struct vp_prof_module m = {.load_bias = load_bias, .lo = lo, .hi = hi, .indexed = indexed};
    m.path = pf_str(b, path);
    buf_add(&b->modules, &m, sizeof m);
}

uint32_t pf_var(struct pf_builder *b, const char *file, const char *function, const char *name,
                const char *type, uint32_t line, uint16_t tags, uint16_t type_kind,
                uint32_t size)
{
    struct vp_prof_var v = {.line = line, .tags = tags, .type_kind = type_kind, .size = size};
    v.file = pf_var_str(b, file);
    v.function = pf_var_str(b, function);
    v.name = pf_var_str(b, name);
    v.type = pf_var_str(b, type);
    buf_add(&b->vars, &v, sizeof v);
    return (uint32_t)(b->vars.len / sizeof v - 1);
}

void pf_pc(struct pf_builder *b, uint64_t seq, uint64_t pc, uint32_t tid, uint16_t depth,
           const uint64_t *callers)
{
    struct vp_pc_sample s = {.seq = seq, .time_ns = seq * 1000, .pc = pc, .tid = tid,
                             .depth = depth};
    buf_add(&b->pcs, &s, sizeof s);
    if (depth)
        buf_add(&b->pcs, callers, depth * sizeof *callers);
}

void pf_value(struct pf_builder *b, uint64_t seq, uint32_t var_id, uint64_t value,
              uint64_t pc, uint8_t status)
{
    struct vp_value_sample v = {.seq = seq, .value = value, .pc = pc, .var_id = var_id,
                                .tid = 1, .status = status};
    buf_add(&b->values, &v, sizeof v);
}

void pf_thread(struct pf_builder *b, uint32_t tid, uint64_t pc_samples, uint64_t cpu_ns)
{
    struct vp_prof_thread t = {.tid = tid, .pc_samples = pc_samples, .cpu_ns = cpu_ns};
    buf_add(&b->threads, &t, sizeof t);
}

int pf_write(struct pf_builder *b, const char *path, char *err, size_t errlen)
{
    struct vp_profile_writer *w = vp_pw_open(path, &b->hdr, err, errlen);
    if (!w)
        return -1;
    if (b->strings.len)
        vp_pw_section(w, VP_SEC_STRINGS, 0, b->strings.data, b->strings.len);
    if (b->modules.len)
        vp_pw_section(w, VP_SEC_MODULES, 0, b->modules.data, b->modules.len);
    if (b->vars.len || b->var_strings.len) {
        struct vp_vartab_header vh = {.var_count = (uint32_t)(b->vars.len /
                                                               sizeof(struct vp_prof_var)),
                                      .strings_size = (uint32_t)b->var_strings.len};
        struct pf_buf sec = {0};
        buf_add(&sec, &vh, sizeof vh);
        if (b->vars.len)
            buf_add(&sec, b->vars.data, b->vars.len);
        if (b->var_strings.len)
            buf_add(&sec, b->var_strings.data, b->var_strings.len);
        vp_pw_section(w, VP_SEC_VARIABLES, 0, sec.data, sec.len);
        free(sec.data);
    }
    if (b->pcs.len)
        vp_pw_section(w, VP_SEC_PC_SAMPLES, 0, b->pcs.data, b->pcs.len);
    if (b->values.len)
        vp_pw_section(w, VP_SEC_VALUE_SAMPLES, 0, b->values.data, b->values.len);
    if (b->has_loss)
        vp_pw_section(w, VP_SEC_LOSS, 0, &b->loss, sizeof b->loss);
    if (b->has_coverage)
        vp_pw_section(w, VP_SEC_COVERAGE, 0, &b->coverage, sizeof b->coverage);
    if (b->threads.len)
        vp_pw_section(w, VP_SEC_THREADS, 0, b->threads.data, b->threads.len);
    return vp_pw_commit(w, err, errlen);
}

unsigned char *pf_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct pf_buf b = {0};
    unsigned char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, chunk, n);
    fclose(f);
    /* realloc'd memory is suitably aligned for any type (>= 8). */
    if (!b.data)
        b.data = malloc(8);
    *size = b.len;
    return b.data;
}
