/*
 * redundancy-report - test driver: per-loop redundancy verdicts for a
 * binary and a profile (the user command is vprof-loop, fixsuggest/).
 *
 *   redundancy-report [--ci-threshold X] [--cl-threshold Y] [--pair-bound Z]
 *                     [--one] BINARY PROFILE
 * PROFILE is read with the profiles of the processes its recording forked
 * (PROFILE.<pid>, as vprof-loop reads them); --one reads PROFILE alone.
 * Exit status: 0 success, 2 usage or input error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/redundancy.h"
#include "vprof/symbols.h"

static const char *fix_name(enum vp_red_fix f)
{
    return f == VP_RED_FIX_MEMOIZATION ? "memoization" : f == VP_RED_FIX_BATCHING ? "batching"
                                                                                 : "none";
}

static const char *writes_name(enum vp_red_writes w)
{
    return w == VP_RED_WRITES_CONSTANT ? "constant" : w == VP_RED_WRITES_GROWING ? "growing"
                                                                                : "unknown";
}

int main(int argc, char **argv)
{
    struct vp_red_params prm;
    vp_red_params_default(&prm);
    int i = 1, one = 0;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (!strcmp(argv[i], "--one")) {
            one = 1;
            i--;
            continue;
        }
        double v = atof(argv[i + 1]);
        if (!strcmp(argv[i], "--ci-threshold"))
            prm.ci_threshold = v;
        else if (!strcmp(argv[i], "--cl-threshold"))
            prm.cl_threshold = v;
        else if (!strcmp(argv[i], "--pair-bound"))
            prm.pair_bound = v;
        else
            break;
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: redundancy-report [--ci-threshold X] [--cl-threshold Y] "
                        "[--pair-bound Z] [--one] BINARY PROFILE\n");
        return 2;
    }
    char err[512];
    struct vp_profile **prof;
    size_t nprof;
    if (vp_profile_open_tree(argv[i + 1], &prof, &nprof, err, sizeof err) != 0) {
        fprintf(stderr, "redundancy-report: %s\n", err);
        return 2;
    }
    for (; one && nprof > 1; nprof--) /* the process it started only */
        vp_profile_close(prof[nprof - 1]);
    if (nprof > 1)
        printf("processes: %zu\n", nprof);
    struct vp_red_result *r;
    if (vp_red_analyze_many(argv[i], (const struct vp_profile *const *)prof, nprof, &prm, &r, err,
                            sizeof err) != 0) {
        fprintf(stderr, "redundancy-report: %s\n", err);
        vp_profile_close_tree(prof, nprof);
        return 2;
    }
    for (size_t k = 0; k < r->loop_count; k++) {
        const struct vp_red_loop_result *l = &r->loops[k];
        if (l->callsite) { /* a repeated-call unit: its calls are its iterations */
            char name[192];
            printf("%scalls of %s at line %u in loop %016llx id=%016llx sources=%u",
                   (l->static_flags & VP_REDF_SETUP)  ? "setup "
                   : (l->static_flags & VP_REDF_PURE) ? "math "
                                                      : "",
                   vp_func_display(l->function, name, sizeof name), l->line, (unsigned long long)l->parent_id,
                   (unsigned long long)l->loop_id, l->source_count);
            if (l->via) /* made in a helper the loop calls */
                printf(" via=%s:%u", l->via, l->via_line);
            putchar('\n');
            printf("  repeated calls: %s rate=%.2f sampled=%llu distinct%c%llu\n",
                   l->ci_redundant ? "yes" : "no", l->ci_rate,
                   (unsigned long long)l->sampled_iterations, l->ci_estimated ? '~' : '=',
                   (unsigned long long)l->distinct_signatures);
            if (l->sampled_instances) /* a string scan's calls, in pairs */
                printf("  rescanned: %s rate=%.2f pairs=%llu redundant=%llu "
                       "mean-distance=%.3f calls=%llu shifted=%llu\n",
                       l->cl_redundant ? "yes" : "no", l->cl_rate,
                       (unsigned long long)l->pairs_compared,
                       (unsigned long long)l->pairs_redundant, l->mean_pair_distance,
                       (unsigned long long)l->sampled_instances,
                       (unsigned long long)l->pairs_redundant_shifted);
            continue;
        }
        printf("loop %s:%u id=%016llx sources=%u%s%s\n", l->function, l->line,
               (unsigned long long)l->loop_id, l->source_count,
               l->constant_object ? " constant-work=" : "",
               l->constant_object ? l->constant_object : "");
        if (l->ci_impossible)
            printf("  cross-iteration: no (IV source, static)\n");
        else
            /* distinct~N: estimated over the whole run from the sketch */
            printf("  cross-iteration: %s rate=%.2f sampled=%llu distinct%c%llu fix=%s\n",
                   l->ci_redundant ? "yes" : "no", l->ci_rate,
                   (unsigned long long)l->sampled_iterations, l->ci_estimated ? '~' : '=',
                   (unsigned long long)l->distinct_signatures, fix_name(l->ci_fix));
        printf("  cross-loop: %s rate=%.2f pairs=%llu redundant=%llu mean-distance=%.3f "
               "by-earlier=%llu instances=%llu writes=%s(%llu..%llu) fix=%s iterations=%llu "
               "side-effects=%llu\n",
               l->cl_redundant ? "yes" : "no", l->cl_rate,
               (unsigned long long)l->pairs_compared, (unsigned long long)l->pairs_redundant,
               l->mean_pair_distance, (unsigned long long)l->pairs_redundant_earlier,
               (unsigned long long)l->sampled_instances,
               writes_name(l->cl_writes), (unsigned long long)l->side_effects_min,
               (unsigned long long)l->side_effects_max, fix_name(l->cl_fix),
               (unsigned long long)l->instance_iterations,
               (unsigned long long)l->instance_side_effects);
        for (size_t k = 0; k < l->nstrides; k++)
            printf("  stride: %u:%u bytes=%lld %s%u\n", l->strides[k].line,
                   l->strides[k].column, (long long)l->strides[k].bytes,
                   l->strides[k].constant ? "constant instances=" : "instances=",
                   l->strides[k].instances);
    }
    printf("loss: iterations-dropped=%llu iterations-truncated=%llu instances-dropped=%llu "
           "values-dropped=%llu\n",
           (unsigned long long)r->iterations_dropped, (unsigned long long)r->iterations_truncated,
           (unsigned long long)r->instances_dropped, (unsigned long long)r->values_dropped);
    if (r->iterations_unsketched)
        printf("sketch loss: iterations-unsketched=%llu\n",
               (unsigned long long)r->iterations_unsketched);
    vp_red_result_free(r);
    vp_profile_close_tree(prof, nprof);
    return 0;
}
