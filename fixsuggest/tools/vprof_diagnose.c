/*
 * vprof_diagnose.c - `vprof diagnose` (`vprof-diagnose`): the whole
 * pipeline in one command.  Records the normal and the slow command in a
 * private temporary directory, ranks them (vprof/rank.h), then runs the
 * vprof-loop pipeline (vprof/loopcmd.h) on the top-N functions with probes
 * for the slow command and for the normal command, and prints the combined
 * report (rank table + loop diagnosis).
 *
 * The command strings are split into words without a shell
 * (vp_loopcmd_split: quotes, no expansion).
 * Exit status: as vprof-loop (0 found, 1 nothing found or a workload failed,
 * 2 usage or input error).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vprof/launch.h"
#include "vprof/loopcmd.h"
#include "vprof/loopreport.h"
#include "vprof/rank.h"

static void usage(FILE *out)
{
    fputs("usage: vprof diagnose --normal 'CMD...' --buggy 'CMD...' [--top N]\n"
          "                      [--format text|json|md|sarif|html] [-o OUT] [--source-root DIR]\n"
          "\n"
          "Record a normal and a slow run of a program built with vprof-cc, rank the\n"
          "functions most likely to cause the slowdown, and diagnose the loops of the top N\n"
          "(default 5): root cause and fix strategy for each.  The commands are split into\n"
          "words like a shell would, with '...' and \"...\" quoting, but nothing is expanded\n"
          "and no shell runs.  The workloads' own output goes to stderr.\n"
          "\n"
          "exit status: 0 loops diagnosed, 1 nothing found or a workload failed,\n"
          "2 usage or input error.  docs/vprof-loop.md\n",
          out);
}

static void print_warning(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "vprof-diagnose: warning: %s\n", msg);
}

/* Records argv into `out`; returns 0, or the exit status to use. */
static int record(char **argv, const char *out, const char *label)
{
    struct vp_launch_opts lo;
    vp_launch_opts_init(&lo);
    lo.argv = argv;
    lo.output = out;
    lo.stdout_fd = 2;
    lo.warn = print_warning;
    struct vp_launch_result r;
    char err[2048];
    int rc = vp_launch_run(&lo, &r, err, sizeof err);
    if (rc != VP_LAUNCH_OK) {
        fprintf(stderr, "vprof-diagnose: %s run: %s\n", label, err);
        return rc == VP_LAUNCH_USAGE ? 2 : 1;
    }
    if (!(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)) {
        if (WIFEXITED(r.status))
            fprintf(stderr, "vprof-diagnose: the %s workload exited with status %d\n", label,
                    WEXITSTATUS(r.status));
        else
            fprintf(stderr, "vprof-diagnose: the %s workload was killed by signal %d\n", label,
                    WTERMSIG(r.status));
        return 1;
    }
    if (access(r.output, R_OK) != 0) {
        fprintf(stderr, "vprof-diagnose: the %s run wrote no profile (%s)\n", label,
                vp_launch_no_profile_why(r.output, 0));
        return 1;
    }
    return 0;
}


static void free_words(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

int main(int argc, char **argv)
{
    const char *normal_line = NULL, *buggy_line = NULL;
    struct vp_loopcmd_opts o = {.prog = "vprof-diagnose", .top = 5, .color = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--color") || !strcmp(a, "--no-color")) {
            o.color = !strcmp(a, "--color");
            continue;
        }
        if (strcmp(a, "--normal") && strcmp(a, "--buggy") && strcmp(a, "--top") &&
            strcmp(a, "--format") && strcmp(a, "-o") && strcmp(a, "--source-root")) {
            fprintf(stderr, "vprof-diagnose: unknown argument '%s' (see vprof diagnose --help)\n",
                    a);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "vprof-diagnose: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--normal")) {
            normal_line = val;
        } else if (!strcmp(a, "--buggy")) {
            buggy_line = val;
        } else if (!strcmp(a, "--top")) {
            char *end;
            errno = 0;
            unsigned long long t = strtoull(val, &end, 10);
            if (errno || end == val || *end || val[0] == '-' || t == 0 || t > 1000) {
                fprintf(stderr, "vprof-diagnose: --top needs a count 1..1000, not '%s'\n", val);
                return 2;
            }
            o.top = (size_t)t;
        } else if (!strcmp(a, "--format")) {
            if ((o.format = vp_lr_format_parse(val)) < 0) {
                fprintf(stderr,
                        "vprof-diagnose: --format must be text, json, md, sarif or html, "
                        "not '%s'\n",
                        val);
                return 2;
            }
        } else if (!strcmp(a, "-o")) {
            o.output = val;
        } else {
            o.source_root = val;
        }
    }
    if (!normal_line || !buggy_line) {
        fprintf(stderr, "vprof-diagnose: need --normal 'CMD...' and --buggy 'CMD...'\n");
        usage(stderr);
        return 2;
    }
    char **ncmd = NULL, **bcmd = NULL;
    size_t nn = 0, nb = 0;
    char err[1024];
    if (vp_loopcmd_split(normal_line, &ncmd, &nn, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-diagnose: --normal: %s\n", err);
        return 2;
    }
    if (vp_loopcmd_split(buggy_line, &bcmd, &nb, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-diagnose: --buggy: %s\n", err);
        free_words(ncmd, nn);
        return 2;
    }

    int status = 1;
    char npath[PATH_MAX + 16], bpath[PATH_MAX + 16];
    char *dir = vp_launch_mkdtemp("vprof-diagnose");
    if (!dir) {
        fprintf(stderr, "vprof-diagnose: cannot create a temporary directory: %s\n",
                strerror(errno));
        goto out;
    }
    snprintf(npath, sizeof npath, "%s/normal.vprof", dir);
    snprintf(bpath, sizeof bpath, "%s/buggy.vprof", dir);
    fprintf(stderr, "vprof-diagnose: recording the normal run\n");
    if ((status = record(ncmd, npath, "normal")) != 0)
        goto out_dir;
    fprintf(stderr, "vprof-diagnose: recording the slow run\n");
    if ((status = record(bcmd, bpath, "slow")) != 0)
        goto out_dir;

    struct vp_rank_model *m = vp_rank_model_new();
    struct vp_rank_result *res = NULL;
    status = 2;
    if (!m) {
        fprintf(stderr, "vprof-diagnose: out of memory\n");
        status = 1;
        goto out_dir;
    }
    if (vp_rank_load_profile(m, npath, 0, err, sizeof err) != 0 ||
        vp_rank_load_profile(m, bpath, 1, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-diagnose: %s\n", err);
        vp_rank_model_free(m);
        goto out_dir;
    }
    struct vp_rank_params prm;
    vp_rank_params_default(&prm);
    if (vp_rank_run(m, &prm, &res, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-diagnose: rank: %s\n", err);
        vp_rank_model_free(m);
        goto out_dir;
    }
    const char *np[] = {npath}, *bp[] = {bpath};
    o.rank = res;
    o.normal = np;
    o.nnormal = 1;
    o.buggy = bp;
    o.nbuggy = 1;
    o.cmd = bcmd;
    o.normal_cmd = ncmd;
    fprintf(stderr, "vprof-diagnose: probing the loops of the top %zu functions\n", o.top);
    status = vp_loopcmd_run(&o);
    vp_rank_result_free(res);
    vp_rank_model_free(m);
out_dir:
    vp_launch_rmtemp(dir);
out:
    free_words(ncmd, nn);
    free_words(bcmd, nb);
    return status;
}
