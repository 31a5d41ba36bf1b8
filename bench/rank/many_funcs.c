/*
 * many_funcs.c - time `vprof rank`'s model and ranking on a program with many
 * sampled functions (the throughput bench has a handful): one normal and two
 * slow runs of N functions, ten per file, each with one sampled loop
 * variable; with OTHER=1 the second slow run's files sit in another
 * directory (docs/rank.md, "Several slow runs from different directories").  Prints the seconds to build the model (what the
 * loader does per function) and to rank it.
 *
 * usage: many_funcs N OTHER
 * build: clang-14 -O2 -Ivprof-core/include bench/rank/many_funcs.c
 *        build/lib/libvprof_core.a -ldw -lelf -lm -lz -lstdc++ -o many_funcs
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vprof/format.h"
#include "vprof/rank.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: many_funcs N OTHER\n");
        return 2;
    }
    size_t nf = (size_t)strtoul(argv[1], NULL, 10);
    int other = atoi(argv[2]);
    double t0 = now();
    struct vp_rank_model *m = vp_rank_model_new();
    struct vp_rank_run *n = vp_rank_add_run(m, "n", 0, 1000000);
    struct vp_rank_run *s1 = vp_rank_add_run(m, "s1", 1, 1000000);
    struct vp_rank_run *s2 = vp_rank_add_run(m, "s2", 1, 1000000);
    if (!m || !n || !s1 || !s2)
        return 1;
    char name[64], f1[64], f2[64];
    for (size_t i = 0; i < nf; i++) {
        snprintf(name, sizeof name, "func_%zu", i);
        snprintf(f1, sizeof f1, "/a/src/file_%zu.c", i / 10);
        snprintf(f2, sizeof f2, "/%c/src/file_%zu.c", other ? 'b' : 'a', i / 10);
        if (vp_rank_add_func(n, name, f1, 1, 10 + i % 7, 0) == (size_t)-1 ||
            vp_rank_add_func(s1, name, f1, 1, 10 + i % 5, 0) == (size_t)-1 ||
            vp_rank_add_func(s2, name, f2, 1, 10 + i % 3, 0) == (size_t)-1)
            return 1;
        /* one loop variable each, 8 samples per run (the slow ones larger) */
        struct vp_rank_run *runs[3] = {n, s1, s2};
        const char *files[3] = {f1, f1, f2};
        for (int k = 0; k < 3; k++) {
            struct vp_rank_var *v = vp_rank_add_var(runs[k], name, files[k], "i", "int", 2,
                                                    VP_TAG_LOOP, VP_TYPE_SINT, 4);
            for (uint64_t j = 0; v && j < 8; j++)
                if (vp_rank_var_sample(v, 1, j * (k ? 3 : 1), 0x1000, 1, 0))
                    v = NULL;
            if (!v)
                return 1;
        }
    }
    double t1 = now();
    struct vp_rank_params p;
    vp_rank_params_default(&p);
    struct vp_rank_result *r;
    char err[256];
    if (vp_rank_run(m, &p, &r, err, sizeof err)) {
        fprintf(stderr, "many_funcs: %s\n", err);
        return 1;
    }
    double t2 = now();
    printf("functions=%zu other_dir=%d ranked=%zu build_s=%.3f rank_s=%.3f\n", nf, other,
           r->nfuncs, t1 - t0, t2 - t1);
    vp_rank_result_free(r);
    vp_rank_model_free(m);
    return 0;
}
