/*
 * gen_rank_profiles.c - write a large synthetic normal/slow profile pair for
 * benchmarking `vprof rank`.  PCs point into a real ELF (non-PIE, load bias
 * 0) so symbolization is exercised.  Value samples are interleaved by tick
 * like the runtime writes them: each PC sample carries VARS_PER_TICK values
 * of variables of the function it hit (depth 0) and of its caller (depth 1).
 *
 * usage: gen_rank_profiles ELF OUT_NORMAL OUT_SLOW MB_PER_FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/profile.h"
#include "vprof/symbols.h"

#define NVARS 64          /* variables per function */
#define VARS_PER_TICK 16

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

struct strtab {
    char *d;
    size_t n, cap;
};
static uint32_t str(struct strtab *t, const char *s)
{
    size_t len = strlen(s) + 1;
    if (t->n + len > t->cap) {
        t->cap = (t->n + len) * 2;
        t->d = realloc(t->d, t->cap);
    }
    if (t->n == 0) { /* offset 0 is "" */
        t->d[0] = 0;
        t->n = 1;
    }
    memcpy(t->d + t->n, s, len);
    t->n += len;
    return (uint32_t)(t->n - len);
}

static int write_one(const char *elf, const char *out, size_t mb, int slow)
{
    char err[512];
    struct vp_symtab *st;
    if (vp_symtab_open(elf, NULL, 0, &st, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t nf;
    const struct vp_func *fs = vp_symtab_funcs(st, &nf);
    const struct vp_func *callee = NULL, *caller = NULL;
    for (size_t i = 0; i < nf; i++) {
        if (!strcmp(fs[i].name, "helper"))
            callee = &fs[i];
        if (!strcmp(fs[i].name, "scan_list"))
            caller = &fs[i];
    }
    if (!callee || !caller) {
        fprintf(stderr, "%s: needs functions helper and scan_list\n", elf);
        return 1;
    }
    struct vp_profile_header hdr;
    vp_profile_header_init(&hdr);
    hdr.clock = VP_CLOCK_THREAD_CPUTIME;
    hdr.max_depth = 3;
    hdr.period_ns = 1000000;
    hdr.pid = hdr.root_pid = 1;

    struct strtab ps = {0}, vs = {0};
    struct vp_prof_module mod = {.load_bias = 0, .lo = 0x400000, .hi = 0x800000,
                                 .path = str(&ps, elf), .indexed = 1};
    size_t vt_size = sizeof(struct vp_vartab_header) + 2 * NVARS * sizeof(struct vp_prof_var);
    struct vp_prof_var *vars = calloc(2 * NVARS, sizeof *vars);
    for (int f = 0; f < 2; f++)
        for (int v = 0; v < NVARS; v++) {
            const struct vp_func *fn = f ? caller : callee;
            char name[32];
            snprintf(name, sizeof name, "v%02d", v);
            struct vp_prof_var *pv = &vars[f * NVARS + v];
            pv->file = str(&vs, fn->file);
            pv->function = str(&vs, fn->name);
            pv->name = str(&vs, name);
            pv->type = str(&vs, v % 8 == 7 ? "struct node *" : "long");
            pv->line = (uint32_t)fn->line + 1 + (uint32_t)v;
            pv->tags = (uint16_t)(v % 4 == 0 ? VP_TAG_LOOP : v % 4 == 1 ? VP_TAG_COND : 0);
            pv->type_kind = v % 8 == 7 ? VP_TYPE_PTR_OTHER : VP_TYPE_SINT;
            pv->size = 8;
        }
    struct vp_vartab_header vh = {.var_count = 2 * NVARS, .strings_size = (uint32_t)vs.n};
    char *vt = malloc(vt_size + vs.n);
    memcpy(vt, &vh, sizeof vh);
    memcpy(vt + sizeof vh, vars, 2 * NVARS * sizeof *vars);
    memcpy(vt + vt_size, vs.d, vs.n);

    size_t nvalues = mb * 1000000 / sizeof(struct vp_value_sample);
    size_t nticks = nvalues / VARS_PER_TICK;
    struct vp_value_sample *values = malloc(nticks * VARS_PER_TICK * sizeof *values);
    size_t pc_rec = sizeof(struct vp_pc_sample) + 8;
    unsigned char *pcs = malloc(nticks * pc_rec);
    uint64_t state[2 * NVARS] = {0};
    size_t k = 0;
    for (size_t t = 0; t < nticks; t++) {
        uint32_t tid = 100 + (uint32_t)(t % 4);
        uint64_t pc = callee->lo + (rnd() % (callee->hi - callee->lo));
        uint64_t ret = caller->lo + 1 + (rnd() % (caller->hi - caller->lo - 1));
        struct vp_pc_sample ps_ = {.seq = t + 1, .time_ns = t * 1000000, .pc = pc, .tid = tid,
                                   .depth = 1};
        memcpy(pcs + t * pc_rec, &ps_, sizeof ps_);
        memcpy(pcs + t * pc_rec + sizeof ps_, &ret, 8);
        for (int j = 0; j < VARS_PER_TICK; j++) {
            int depth = j >= VARS_PER_TICK / 2;
            int v = (int)((t * 7 + (size_t)j * 5) % NVARS);
            int id = depth * NVARS + v;
            /* values drift like loop counters; the slow run's loop variables
               run 10x further and change less often */
            if (rnd() % (slow && v % 4 == 0 ? 8 : 2) == 0)
                state[id] += 1 + rnd() % 3;
            if (state[id] > (slow && v % 4 == 0 ? 10000u : 1000u))
                state[id] = 0;
            struct vp_value_sample *s = &values[k++];
            memset(s, 0, sizeof *s);
            s->seq = t + 1;
            s->value = v % 8 == 7 ? 0x7f0000000000ull + (state[id] & ~7ull) : state[id];
            s->pc = depth ? ret : pc;
            s->var_id = (uint32_t)id;
            s->tid = tid;
            s->depth = (uint8_t)depth;
            s->status = rnd() % 1000 == 0 ? VP_VAL_UNREADABLE : VP_VAL_OK;
        }
    }
    struct vp_profile_writer *w = vp_pw_open(out, &hdr, err, sizeof err);
    if (!w || vp_pw_section(w, VP_SEC_STRINGS, 0, ps.d, ps.n) ||
        vp_pw_section(w, VP_SEC_MODULES, 0, &mod, sizeof mod) ||
        vp_pw_section(w, VP_SEC_VARIABLES, 0, vt, vt_size + vs.n) ||
        vp_pw_section(w, VP_SEC_PC_SAMPLES, 0, pcs, nticks * pc_rec) ||
        vp_pw_section(w, VP_SEC_VALUE_SAMPLES, 0, values, k * sizeof *values) ||
        vp_pw_commit(w, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", out, err);
        return 1;
    }
    free(values);
    free(pcs);
    free(vars);
    free(vt);
    free(ps.d);
    free(vs.d);
    vp_symtab_close(st);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s ELF OUT_NORMAL OUT_SLOW MB_PER_FILE\n", argv[0]);
        return 2;
    }
    size_t mb = strtoul(argv[4], NULL, 10);
    return write_one(argv[1], argv[2], mb, 0) || write_one(argv[1], argv[3], mb, 1);
}
