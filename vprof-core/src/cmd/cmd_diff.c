/*
 * cmd_diff.c - `vprof diff --folded NORMAL BUGGY [-o OUT]`: the two-column
 * folded form ("stack normal_count buggy_count", as difffolded.pl writes
 * it) from two profiles, for differential flame graphs.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "vprof/export.h"
#include "vprof/profile.h"

static void diff_usage(FILE *out)
{
    fputs("usage: vprof diff --folded NORMAL BUGGY [-o OUT]\n"
          "\n"
          "Write 'stack normal_count buggy_count' for every stack of either profile,\n"
          "sorted by stack (the input of flamegraph.pl for a differential flame graph).\n"
          "\n"
          "  -o OUT   output file (written atomically; default stdout)\n",
          out);
}

struct pair {
    const struct vp_export_folded *normal, *buggy;
};

static int write_diff(FILE *out, const void *ctx)
{
    const struct pair *pr = ctx;
    return vp_export_write_diff_folded(out, pr->normal, pr->buggy);
}

int vp_cmd_diff(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *outpath = NULL;
    int folded = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            diff_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--folded")) {
            folded = 1;
        } else if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "vprof diff: -o needs a value\n");
                return 2;
            }
            outpath = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vprof diff: unknown option '%s' (see vprof diff --help)\n", a);
            return 2;
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            fprintf(stderr, "vprof diff: too many files: want NORMAL BUGGY\n");
            return 2;
        }
    }
    if (!folded || nfiles != 2) {
        fprintf(stderr, "vprof diff: need --folded NORMAL BUGGY\n");
        diff_usage(stderr);
        return 2;
    }
    char err[1024];
    /* each recording with the processes it forked (FILE.<pid>) */
    struct vp_profile **p[2] = {NULL, NULL};
    size_t np[2] = {0, 0};
    struct vp_export_folded f[2];
    memset(f, 0, sizeof f);
    int status = 2;
    for (int k = 0; k < 2; k++)
        if (vp_profile_open_tree(files[k], &p[k], &np[k], err, sizeof err) != 0) {
            fprintf(stderr, "vprof diff: %s\n", err);
            goto out;
        }
    status = 1;
    for (int k = 0; k < 2; k++)
        vp_cmd_warn_changed("diff", p[k][0]);
    for (int k = 0; k < 2; k++)
        if (vp_export_fold_many((const struct vp_profile *const *)p[k], np[k], &f[k], err,
                                sizeof err) != 0) {
            fprintf(stderr, "vprof diff: %s\n", err);
            goto out;
        }
    struct pair pr = {&f[0], &f[1]};
    status = vp_cmd_write_text("diff", outpath, write_diff, &pr);
out:
    for (int k = 0; k < 2; k++) {
        vp_export_folded_free(&f[k]);
        vp_profile_close_tree(p[k], np[k]);
    }
    return status;
}
