/*
 * cmd_rank.c - `vprof rank --normal FILE... --buggy FILE...`: rank the
 * functions most likely to cause a slowdown (vprof/rank.h, docs/rank.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "vprof/progress.h"
#include "vprof/looptable.h"
#include "vprof/rank.h"
#include "vprof/outfile.h"

static void rank_usage(FILE *out)
{
    fputs("usage: vprof rank --normal FILE... --buggy FILE... [options]\n"
          "\n"
          "Compare normal and slow (buggy) profiles and rank functions by\n"
          "value-calibrated cost; infer the bug pattern of each.\n"
          "\n"
          "options:\n"
          "  --normal FILE...        profiles of normal runs (one or more)\n"
          "  --buggy FILE...         profiles of slow runs (one or more)\n"
          "  --format text|json|md|html  output format (default text; html: one\n"
          "                        self-contained page with charts)\n"
          "  -o OUT                  write to OUT (atomically) instead of stdout\n"
          "  --top N                 show the first N functions (default all)\n"
          "  --default-discount R    DefaultDiscount (default 0.8)\n"
          "  --valid-discount R      ValidDiscount (default 0.1)\n"
          "  --alpha A               Anderson-Darling rejection level (default 0.05)\n",
          out);
}

static int parse_ratio(const char *flag, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi)) {
        fprintf(stderr, "vprof rank: %s needs a number in [%g, %g], got '%s'\n", flag, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

int vp_cmd_rank(int argc, char **argv)
{
    const char **normal = calloc((size_t)argc + 1, sizeof *normal);
    const char **buggy = calloc((size_t)argc + 1, sizeof *buggy);
    size_t nn = 0, nb = 0;
    const char *outpath = NULL;
    int format = VP_RANK_TEXT;
    size_t top = 0;
    struct vp_rank_params prm;
    vp_rank_params_default(&prm);
    int status = 2, list = 0; /* 1: --normal list, 2: --buggy list */
    struct vp_rank_model *m = NULL;
    struct vp_rank_result *res = NULL;
    char err[1024];
    char *tmp = NULL;
    if (!normal || !buggy) {
        fprintf(stderr, "vprof rank: out of memory\n");
        goto done;
    }

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            rank_usage(stdout);
            status = 0;
            goto done;
        } else if (!strcmp(a, "--normal")) {
            list = 1;
        } else if (!strcmp(a, "--buggy")) {
            list = 2;
        } else if (!strcmp(a, "--format") || !strcmp(a, "-o") || !strcmp(a, "--top") ||
                   !strcmp(a, "--default-discount") || !strcmp(a, "--valid-discount") ||
                   !strcmp(a, "--alpha")) {
            list = 0;
            if (!val) {
                fprintf(stderr, "vprof rank: %s needs a value\n", a);
                goto done;
            }
            i++;
            if (!strcmp(a, "--format")) {
                if (!strcmp(val, "text"))
                    format = VP_RANK_TEXT;
                else if (!strcmp(val, "json"))
                    format = VP_RANK_JSON;
                else if (!strcmp(val, "md"))
                    format = VP_RANK_MD;
                else if (!strcmp(val, "html"))
                    format = VP_RANK_HTML;
                else {
                    fprintf(stderr,
                            "vprof rank: --format must be text, json, md or html, not '%s'\n",
                            val);
                    goto done;
                }
            } else if (!strcmp(a, "-o")) {
                outpath = val;
            } else if (!strcmp(a, "--top")) {
                char *end;
                errno = 0;
                unsigned long long t = strtoull(val, &end, 10);
                if (errno || end == val || *end || val[0] == '-') {
                    fprintf(stderr, "vprof rank: --top needs a count, got '%s'\n", val);
                    goto done;
                }
                top = (size_t)t;
            } else if (!strcmp(a, "--default-discount")) {
                if (parse_ratio(a, val, 0, 1, &prm.default_discount))
                    goto done;
            } else if (!strcmp(a, "--valid-discount")) {
                if (parse_ratio(a, val, 0, 1, &prm.valid_discount))
                    goto done;
            } else if (parse_ratio(a, val, 0, 1, &prm.alpha)) {
                goto done;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vprof rank: unknown option '%s' (see vprof rank --help)\n", a);
            goto done;
        } else if (list == 1) {
            normal[nn++] = a;
        } else if (list == 2) {
            buggy[nb++] = a;
        } else {
            fprintf(stderr, "vprof rank: '%s': say whether it is --normal or --buggy\n", a);
            goto done;
        }
    }
    if (!nn || !nb) {
        fprintf(stderr, "vprof rank: need --normal FILE... and --buggy FILE...\n");
        rank_usage(stderr);
        goto done;
    }

    m = vp_rank_model_new();
    if (!m) {
        fprintf(stderr, "vprof rank: out of memory\n");
        goto done;
    }
    struct vp_progress *pg = vp_progress_start("vprof rank: loading", nn + nb);
    for (size_t i = 0; i < nn + nb; i++) {
        const char *path = i < nn ? normal[i] : buggy[i - nn];
        vp_progress_label(pg, path);
        if (vp_rank_load_profile(m, path, i >= nn, err, sizeof err)) {
            vp_progress_end(pg);
            fprintf(stderr, "vprof rank: %s\n", err);
            goto done;
        }
        vp_progress_update(pg, i + 1);
    }
    vp_progress_end(pg);
    pg = vp_progress_start("vprof rank: ranking", 0);
    /* anomalous lines get their enclosing loop from the modules' tables */
    struct vp_loop_locator *loops = vp_rank_use_loop_tables(m);
    int rrc = vp_rank_run(m, &prm, &res, err, sizeof err);
    vp_loop_locator_free(loops);
    vp_progress_end(pg);
    if (rrc) {
        fprintf(stderr, "vprof rank: %s\n", err);
        goto done;
    }

    FILE *out = stdout;
    if (outpath) {
        size_t len = strlen(outpath) + 32;
        tmp = malloc(len);
        if (!tmp) {
            fprintf(stderr, "vprof rank: out of memory\n");
            status = 1;
            goto done;
        }
        snprintf(tmp, len, "%s.tmp.%ld", outpath, (long)getpid());
        out = vp_fopen_new(tmp);
        if (!out) {
            fprintf(stderr, "vprof rank: %s: %s\n", tmp, strerror(errno));
            goto done;
        }
    }
    int wrc = vp_rank_write(out, res, format, top);
    if (outpath) {
        if (fclose(out) != 0)
            wrc = -1;
        if (wrc == 0 && rename(tmp, outpath) != 0) {
            fprintf(stderr, "vprof rank: %s: %s\n", outpath, strerror(errno));
            unlink(tmp);
            status = 1;
            goto done;
        }
        if (wrc != 0)
            unlink(tmp);
    }
    if (wrc != 0) {
        fprintf(stderr, "vprof rank: writing %s failed\n", outpath ? outpath : "output");
        status = 1;
        goto done;
    }
    status = 0;
done:
    vp_rank_result_free(res);
    vp_rank_model_free(m);
    free(normal);
    free(buggy);
    free(tmp);
    return status;
}
