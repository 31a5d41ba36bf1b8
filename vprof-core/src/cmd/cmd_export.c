/*
 * cmd_export.c - `vprof export --pprof FILE -o OUT.pb.gz [--normal-diff
 * NORMAL]` and `vprof export --folded FILE [-o OUT]`: a profile in pprof's
 * or flame graphs' format (vprof/export.h); and `vprof diff --folded NORMAL
 * BUGGY [-o OUT]` (cmd_diff.c) shares the output helper below.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "vprof/export.h"
#include "vprof/profile.h"
#include "vprof/outfile.h"

static void export_usage(FILE *out)
{
    fputs("usage: vprof export --pprof FILE -o OUT.pb.gz [--normal-diff NORMAL]\n"
          "       vprof export --folded FILE [-o OUT]\n"
          "\n"
          "Convert a profile's PC samples (with their recorded callers) for other tools.\n"
          "\n"
          "  --pprof FILE          gzip-compressed pprof profile.proto, for go tool pprof\n"
          "                        (sample types samples/count and cpu/nanoseconds)\n"
          "  --normal-diff NORMAL  with --pprof: add NORMAL's samples negated (label\n"
          "                        run=normal), so pprof shows buggy minus normal\n"
          "  --folded FILE         folded stacks for flame graphs: 'main;outer;work 123',\n"
          "                        root first, one line per distinct stack, sorted\n"
          "  -o OUT                output file (written atomically; --folded: default\n"
          "                        stdout)\n",
          out);
}

int vp_cmd_write_text(const char *cmd, const char *outpath,
                      int (*fn)(FILE *out, const void *ctx), const void *ctx)
{
    if (!outpath) {
        if (fn(stdout, ctx) != 0) {
            fprintf(stderr, "vprof %s: writing the output failed\n", cmd);
            return 1;
        }
        return 0;
    }
    size_t len = strlen(outpath) + 32;
    char *tmp = malloc(len);
    if (!tmp) {
        fprintf(stderr, "vprof %s: out of memory\n", cmd);
        return 1;
    }
    snprintf(tmp, len, "%s.tmp.%ld", outpath, (long)getpid());
    FILE *out = vp_fopen_new(tmp);
    if (!out) {
        fprintf(stderr, "vprof %s: %s: %s\n", cmd, tmp, strerror(errno));
        free(tmp);
        return 1;
    }
    int rc = fn(out, ctx);
    if (fclose(out) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, outpath) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "vprof %s: writing %s failed: %s\n", cmd, outpath, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return rc ? 1 : 0;
}

static int write_folded(FILE *out, const void *ctx)
{
    return vp_export_write_folded(out, ctx);
}

int vp_cmd_export(int argc, char **argv)
{
    const char *pprof = NULL, *folded = NULL, *outpath = NULL, *normal = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            export_usage(stdout);
            return 0;
        }
        const char **slot = !strcmp(a, "--pprof")         ? &pprof
                            : !strcmp(a, "--folded")      ? &folded
                            : !strcmp(a, "-o")            ? &outpath
                            : !strcmp(a, "--normal-diff") ? &normal
                                                          : NULL;
        if (!slot) {
            fprintf(stderr, "vprof export: unknown argument '%s' (see vprof export --help)\n", a);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "vprof export: %s needs a value\n", a);
            return 2;
        }
        *slot = argv[++i];
    }
    if (!pprof == !folded) {
        fprintf(stderr, "vprof export: say --pprof FILE or --folded FILE (one of them)\n");
        export_usage(stderr);
        return 2;
    }
    if (pprof && !outpath) {
        fprintf(stderr, "vprof export: --pprof needs -o OUT.pb.gz (the output is binary)\n");
        return 2;
    }
    if (normal && !pprof) {
        fprintf(stderr, "vprof export: --normal-diff goes with --pprof; for flame graphs use "
                        "vprof diff --folded NORMAL BUGGY\n");
        return 2;
    }
    char err[1024];
    /* each recording with the processes it forked (FILE.<pid>) */
    struct vp_profile **p = NULL, **base = NULL;
    size_t np = 0, nbase = 0;
    if (vp_profile_open_tree(pprof ? pprof : folded, &p, &np, err, sizeof err) != 0 ||
        (normal && vp_profile_open_tree(normal, &base, &nbase, err, sizeof err) != 0)) {
        fprintf(stderr, "vprof export: %s\n", err);
        vp_profile_close_tree(p, np);
        return 2;
    }
    int status = 0;
    vp_cmd_warn_changed("export", p[0]);
    size_t samples = 0;
    for (size_t k = 0; k < np; k++)
        samples += p[k]->pc_count;
    if (!samples) {
        char other[2048];
        const char *in = pprof ? pprof : folded;
        vp_profile_why_no_samples(p[0], in, other, sizeof other);
        fprintf(stderr, "vprof export: %s has no PC samples%s%s\n", in, *other ? "; " : "",
                other);
    }
    if (base)
        vp_cmd_warn_changed("export", base[0]);
    if (pprof) {
        if (vp_export_pprof_many((const struct vp_profile *const *)p, np,
                                 (const struct vp_profile *const *)base, nbase, outpath, err,
                                 sizeof err) != 0) {
            fprintf(stderr, "vprof export: %s\n", err);
            status = 1;
        }
    } else {
        struct vp_export_folded f;
        if (vp_export_fold_many((const struct vp_profile *const *)p, np, &f, err, sizeof err) !=
            0) {
            fprintf(stderr, "vprof export: %s\n", err);
            status = 1;
        } else {
            status = vp_cmd_write_text("export", outpath, write_folded, &f);
            vp_export_folded_free(&f);
        }
    }
    vp_profile_close_tree(p, np);
    vp_profile_close_tree(base, nbase);
    return status;
}
