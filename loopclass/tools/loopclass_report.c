/*
 * loopclass_report.c - test driver: per-loop resultless results of one run.
 * Not a user command (vprof-loop is); used by loopclass/test/e2e.
 *
 *   loopclass-report [--all] [--zero-star-one T] [--zero-or-one T] BINARY PROFILE
 *   loopclass-report --table BINARY
 *   loopclass-report --locate BINARY FUNCTION FILE LINE...
 *
 * Prints one line per loop that has counters (every loop with --all), in
 * table order; --table prints the static loop table with its sites;
 * --locate prints, per LINE, the line of the loop vp_loop_locate puts it in
 * (0: none), as `vprof rank` does for anomalous lines.
 * Exit status: 0 ok, 2 usage or input error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/loopclass.h"
#include "vprof/profile.h"
#include "vprof/symbols.h"

static int usage(void)
{
    fprintf(stderr, "usage: loopclass-report [--all] [--zero-star-one T] [--zero-or-one T] "
                    "BINARY PROFILE\n       loopclass-report --table BINARY\n"
                    "       loopclass-report --locate BINARY FUNCTION FILE LINE...\n");
    return 2;
}

static int print_table(const char *binary)
{
    char err[1024];
    struct vp_loop_table *t;
    if (vp_loop_table_read(binary, &t, err, sizeof err) != 0) {
        fprintf(stderr, "loopclass-report: %s\n", err);
        return 2;
    }
    for (size_t i = 0; i < t->loop_count; i++) {
        const struct vp_loop_info *l = &t->loops[i];
        int parent = -1;
        for (size_t k = 0; k < t->loop_count; k++)
            if (l->parent_id && t->loops[k].loop_id == l->parent_id)
                parent = (int)k;
        printf("loop %zu %s linkage=%s %s:%u:%u end=%u kind=%s depth=%u parent=%d class=%s "
               "flags=0x%x sites=%zu",
               i, l->function, l->linkage, l->file, l->line, l->column, l->end_line,
               l->kind == VP_LOOP_RECURSION ? "recursion" : "loop", l->depth, parent,
               vp_loop_class_name(l->static_class), l->flags, l->site_count);
        if (strcmp(l->host, vp_func_key(l->function, l->linkage)) != 0)
            printf(" inlined-into=%s", l->host);
        putchar('\n');
        for (size_t k = 0; k < l->site_count; k++)
            printf("  site %u:%u %s %s%s%s\n", l->sites[k].line, l->sites[k].column,
                   vp_loop_site_kind_name(l->sites[k].kind), l->sites[k].in_body ? "body" : "exit",
                   *l->sites[k].callee ? " " : "", l->sites[k].callee);
    }
    vp_loop_table_free(t);
    return 0;
}

static int locate(int argc, char **argv)
{
    const char *binary = argv[0];
    struct vp_loop_locator *l = vp_loop_locator_new(&binary, 1);
    if (!l) {
        fprintf(stderr, "loopclass-report: out of memory\n");
        return 2;
    }
    for (int k = 3; k < argc; k++)
        printf("%s:%s -> %d\n", argv[2], argv[k], vp_loop_locate(l, argv[1], argv[2], atoi(argv[k])));
    vp_loop_locator_free(l);
    return 0;
}

int main(int argc, char **argv)
{
    struct vp_loop_thresholds th = VP_LOOP_THRESHOLDS_DEFAULT;
    int all = 0, i = 1;
    if (argc == 3 && strcmp(argv[1], "--table") == 0)
        return print_table(argv[2]);
    if (argc >= 6 && strcmp(argv[1], "--locate") == 0)
        return locate(argc - 2, argv + 2);
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else if (strcmp(argv[i], "--zero-star-one") == 0 && i + 1 < argc)
            th.zero_star_one = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--zero-or-one") == 0 && i + 1 < argc)
            th.zero_or_one = strtod(argv[++i], NULL);
        else
            return usage();
    }
    if (argc - i != 2)
        return usage();
    char err[1024];
    struct vp_loop_table *t;
    struct vp_profile *p;
    struct vp_loop_counts *c;
    if (vp_loop_table_read(argv[i], &t, err, sizeof err) != 0) {
        fprintf(stderr, "loopclass-report: %s\n", err);
        return 2;
    }
    if (vp_profile_open(argv[i + 1], &p, err, sizeof err) != 0) {
        fprintf(stderr, "loopclass-report: %s\n", err);
        vp_loop_table_free(t);
        return 2;
    }
    if (vp_loop_counts_from_profile(p, &c, err, sizeof err) != 0) {
        fprintf(stderr, "loopclass-report: %s\n", err);
        vp_profile_close(p);
        vp_loop_table_free(t);
        return 2;
    }
    struct vp_loop_result *r;
    size_t n;
    if (vp_loop_analyze(t, c, &th, &r, &n, err, sizeof err) != 0) {
        fprintf(stderr, "loopclass-report: %s\n", err);
        vp_loop_counts_free(c);
        vp_profile_close(p);
        vp_loop_table_free(t);
        return 2;
    }
    printf("records=%zu threads=%u\n", c->record_count, c->thread_count);
    for (size_t k = 0; k < n; k++) {
        const struct vp_loop_info *l = r[k].loop;
        if (!all && r[k].verdict == VP_LOOP_NOT_RUN)
            continue;
        const char *base = strrchr(l->file, '/');
        char stat[64] = "";
        if (l->flags & VP_LOOPF_INDIRECT) /* the class the counts chose, and the two it had */
            snprintf(stat, sizeof stat, " static=%s direct=%s", vp_loop_class_name(l->static_class),
                     vp_loop_class_name(l->direct_class));
        printf("loop %s %s:%u kind=%s class=%s%s instances=%llu iterations=%llu results=%llu "
               "max=%llu avg=%.2f resultless=%.6f verdict=%s\n",
               l->function, base ? base + 1 : l->file, l->line,
               l->kind == VP_LOOP_RECURSION ? "recursion" : "loop",
               vp_loop_class_name((unsigned)r[k].cls), stat, (unsigned long long)r[k].instances,
               (unsigned long long)r[k].iterations, (unsigned long long)r[k].result_iterations,
               (unsigned long long)r[k].max_iterations, r[k].avg_iterations,
               r[k].resultless_rate, vp_loop_verdict_name(r[k].verdict));
    }
    free(r);
    vp_loop_counts_free(c);
    vp_profile_close(p);
    vp_loop_table_free(t);
    return 0;
}
