/*
 * fuzz_rankmodel.c - libFuzzer target for `vprof rank`'s analysis: the
 * model the profile loader builds (vprof-core/src/rank/model.c), the
 * statistics (stats.c: k-sample Anderson-Darling, Hellinger), the
 * discounters, pattern rules and localisation (rank.c), and the four report
 * writers, on models no real recording would give: any mix of normal and
 * slow runs, a period of 0, functions and variables of one name in several
 * files, every type kind and tag, ties, NaN and infinite floats, unreadable
 * samples, threads interleaved, values near 2^64.
 *
 * The input is a script read byte by byte (a short input ends it early;
 * missing bytes read as 0).  A refusal must be one line; a ranking must be
 * one whose numbers mean something: costs finite and >= 0, calibrated =
 * (1 - discount) x raw, discounts in [0, 1], p-values and Hellinger
 * distances in [0, 1], ranks 1..n by non-increasing calibrated cost.  No
 * report may pass a control byte of a file name through raw (an escape
 * byte is looked for).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/rank.h"

struct script {
    const uint8_t *p;
    size_t n, at;
};

static unsigned byte(struct script *s)
{
    return s->at < s->n ? s->p[s->at++] : 0;
}

static uint64_t word(struct script *s, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)byte(s) << (8 * i);
    return v;
}

/* A value: small (ties), a float's bit pattern (NaN, inf, -0), or any. */
static uint64_t value(struct script *s, unsigned kind)
{
    unsigned how = byte(s) % 4;
    if (how == 0)
        return byte(s) % 5;
    if (how == 1 && kind == VP_TYPE_FLOAT) {
        static const double special[] = {0.0, -0.0, 1.5, -1e308, NAN, INFINITY, -INFINITY, 1e-320};
        double d = special[byte(s) % 8];
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        return b;
    }
    if (how == 2)
        return UINT64_MAX - byte(s) % 3;
    return word(s, 8);
}

static const char *const funcs[] = {"f", "g", "main", "_ZN1a1fEv", "", "h"};
/* the last: a name from debug info may hold any byte (#line "a\nb.c") */
static const char *const files[] = {"/a/x.c", "/b/x.c", "/a/y.c", "", "/a/odd\n\x1b[31m.c"};
static const char *const names[] = {"i", "n", "p", "i"};

static void trap_unless(int ok)
{
    if (!ok)
        __builtin_trap();
}

static int finite_nonneg(double x)
{
    return isfinite(x) && x >= 0;
}

static void check(const struct vp_rank_result *r)
{
    for (size_t i = 0; i < r->nvars; i++) {
        const struct vp_rank_var_result *v = &r->vars[i];
        /* -1: no dimension with readable samples on both sides; such a
           variable is attributed to no function (rank.c) */
        trap_unless((v->discount >= 0 && v->discount <= 1) ||
                    (v->discount == -1 && v->dim == VP_RANK_DIM_NONE));
        for (int d = 0; d < VP_RANK_DIM_COUNT; d++) {
            const struct vp_rank_dim_result *x = &v->dims[d];
            if (!x->available)
                continue;
            trap_unless(x->discount >= 0 && x->discount <= 1);
            trap_unless(x->hellinger >= 0 && x->hellinger <= 1 + 1e-12);
            if (x->tested)
                trap_unless(x->pvalue >= 0 && x->pvalue <= 1 && !isnan(x->statistic));
        }
    }
    for (size_t i = 0; i < r->nfuncs; i++) {
        const struct vp_rank_func_result *f = &r->funcs[i];
        trap_unless(f->rank == i + 1);
        trap_unless(f->discount >= 0 && f->discount <= 1);
        trap_unless(finite_nonneg(f->raw_cost_ns) && finite_nonneg(f->calibrated_cost_ns) &&
                    finite_nonneg(f->pc_cost_ns) && finite_nonneg(f->var_cost_ns));
        trap_unless(fabs(f->calibrated_cost_ns - (1 - f->discount) * f->raw_cost_ns) <=
                    1e-9 * (1 + f->raw_cost_ns));
        if (i)
            trap_unless(f->calibrated_cost_ns <= r->funcs[i - 1].calibrated_cost_ns);
        trap_unless(f->top_var >= -1 && f->top_var < (long)r->nvars);
        trap_unless(f->pattern_var >= -1 && f->pattern_var < (long)r->nvars);
        for (size_t k = 0; k < f->nvars; k++)
            trap_unless(f->var_idx[k] < r->nvars && r->vars[f->var_idx[k]].discount >= 0);
    }
}

/* Every format; none may carry a raw escape byte from a file name to the
   reader's terminal or page (text, Markdown and HTML show it as '?' or
   U+FFFD, JSON escapes it). */
static void write_all(const struct vp_rank_result *r)
{
    for (int fmt = VP_RANK_TEXT; fmt <= VP_RANK_HTML; fmt++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        if (!out)
            return;
        (void)vp_rank_write(out, r, fmt, fmt == VP_RANK_HTML ? 3 : 0);
        fclose(out);
        trap_unless(memchr(buf, 0x1b, len) == NULL);
        free(buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct script s = {data, size, 0};
    struct vp_rank_model *m = vp_rank_model_new();
    if (!m)
        return 0;
    unsigned nruns = 2 + byte(&s) % 3;
    for (unsigned k = 0; k < nruns; k++) {
        int slow = k == 1 || (k > 1 && (byte(&s) & 1));
        struct vp_rank_run *run = vp_rank_add_run(m, slow ? "slow" : "normal", slow,
                                                  byte(&s) * 1000000ull);
        if (!run)
            goto out;
        size_t fidx[8];
        unsigned nf = byte(&s) % 7;
        for (unsigned i = 0; i < nf; i++) {
            fidx[i] = vp_rank_add_func(run, funcs[byte(&s) % 6], files[byte(&s) % 5],
                                       (int)byte(&s), word(&s, 2), word(&s, 1));
            if (fidx[i] == (size_t)-1)
                goto out;
        }
        if (byte(&s) & 1)
            run->pc_total = word(&s, 3);
        unsigned nv = byte(&s) % 6;
        for (unsigned i = 0; i < nv; i++) {
            unsigned kind = byte(&s) % 7, tags = byte(&s) & 15;
            const char *fn = tags & VP_TAG_GLOBAL ? "" : funcs[byte(&s) % 6];
            struct vp_rank_var *v =
                vp_rank_add_var(run, fn, files[byte(&s) % 5], names[byte(&s) % 4], "t",
                                (int)byte(&s), (uint16_t)tags, (uint16_t)kind,
                                1u << (byte(&s) % 5));
            if (!v)
                goto out;
            unsigned ns = (unsigned)word(&s, 2) % 400;
            for (unsigned j = 0; j < ns && s.at < s.n; j++) {
                unsigned op = byte(&s);
                if (vp_rank_var_sample(v, op % 3, value(&s, kind), 0x1000 + (op >> 2),
                                       (op & 0x30) != 0x30, 1))
                    goto out;
            }
            if (tags & VP_TAG_GLOBAL && nf)
                if (vp_rank_var_site(v, fidx[byte(&s) % nf], word(&s, 1)))
                    goto out;
        }
        if (!slow && (byte(&s) & 1))
            if (vp_rank_run_declare(run, funcs[byte(&s) % 6], names[byte(&s) % 4],
                                    files[byte(&s) % 5]))
                goto out;
    }
    struct vp_rank_params p;
    vp_rank_params_default(&p);
    if (byte(&s) & 1) {
        p.alpha = byte(&s) / 255.0;
        p.default_discount = byte(&s) / 255.0;
        p.valid_discount = byte(&s) / 255.0;
        p.hellinger_bins = 1 + byte(&s);
    }
    struct vp_rank_result *r = NULL;
    char err[512];
    if (vp_rank_run(m, &p, &r, err, sizeof err) != 0) {
        trap_unless(err[0] != 0 && strchr(err, '\n') == NULL);
    } else {
        check(r);
        write_all(r);
        vp_rank_result_free(r);
    }
out:
    vp_rank_model_free(m);
    return 0;
}
