/*
 * vprof_diagnose.c - `vprof diagnose` (`vprof-diagnose`): the whole
 * pipeline in one command.  Records each normal and each slow command (in
 * a private temporary directory, or in --keep DIR), ranks them all
 * (vprof/rank.h), then runs the vprof-loop pipeline (vprof/loopcmd.h) on
 * the top-N functions with probes for the first slow command and the first
 * normal command, and prints the combined report (rank table + loop
 * diagnosis).
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vprof/launch.h"
#include "vprof/loopcmd.h"
#include "vprof/loopreport.h"
#include "vprof/rank.h"

static void usage(FILE *out)
{
    fputs("usage: vprof diagnose --normal 'CMD...' [--normal ...] --buggy 'CMD...' [--buggy ...]\n"
          "                      [--top N] [-F HZ] [--depth N] [--keep DIR]\n"
          "                      [--format text|json|md|sarif|html] [-o OUT] [--source-root DIR]\n"
          "\n"
          "Record a normal and a slow run of a program built with vprof-cc, rank the\n"
          "functions most likely to cause the slowdown, and diagnose the loops of the top N\n"
          "(default 5): root cause and fix strategy for each.  The commands are split into\n"
          "words like a shell would, with '...' and \"...\" quoting, but nothing is expanded\n"
          "and no shell runs; '< FILE' and '> FILE' redirect a command's input and output\n"
          "(each run opens them anew).  The workloads' own output goes to stderr.\n"
          "  --normal, --buggy: repeat for several runs; all are ranked, the first of each\n"
          "  runs again with the loop probes.  -F HZ, --depth N: as vprof record.\n"
          "  --keep DIR: keep the profiles there (normal.vprof, slow.vprof; normal2.vprof\n"
          "  ... for further runs) for vprof rank or vprof report, instead of deleting them.\n"
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

/* Records argv into `out` (sampling at `freq`, `depth` callers: the
   launcher's defaults when 0 and -1); returns 0, or the exit status to use. */
static int record(char **argv, const struct vp_loopcmd_io *io, const char *out,
                  const char *label, long long freq, long long depth)
{
    struct vp_launch_opts lo;
    vp_launch_opts_init(&lo);
    lo.argv = argv;
    lo.output = out;
    lo.freq = freq;
    lo.depth = depth;
    lo.output_advice = "choose another --keep DIR, or remove it";
    lo.stdout_fd = 2;
    lo.warn = print_warning;
    struct vp_launch_result r;
    char err[2048];
    int in_fd, out_fd; /* the command line's `< FILE`, `> FILE` */
    if (vp_loopcmd_io_open(io, &in_fd, &out_fd, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-diagnose: %s run: %s\n", label, err);
        return 2;
    }
    lo.stdin_fd = in_fd;
    if (out_fd >= 0)
        lo.stdout_fd = out_fd;
    int rc = vp_launch_run(&lo, &r, err, sizeof err);
    if (in_fd >= 0)
        close(in_fd);
    if (out_fd >= 0)
        close(out_fd);
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
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* A whole decimal number in [lo, hi] from `val`, or -1. */
static long long parse_count(const char *val, long long lo, long long hi)
{
    char *end;
    errno = 0;
    long long t = strtoll(val, &end, 10);
    if (errno || end == val || *end || val[0] == '-' || val[0] == '+' || t < lo || t > hi)
        return -1;
    return t;
}

#define MAX_RUNS 16 /* per kind: each is a whole run of the workload */

/* One kind of run (normal or slow): the command lines, split, and the
   profiles recorded from them. */
struct runs {
    const char *line[MAX_RUNS];
    char **cmd[MAX_RUNS];
    size_t words[MAX_RUNS];
    struct vp_loopcmd_io io[MAX_RUNS]; /* `< FILE`, `> FILE` */
    char path[MAX_RUNS][PATH_MAX + 32];
    const char *paths[MAX_RUNS];
    size_t n;
};

/* Splits each command line of `r` (`opt`: the flag, for messages) and
   checks that its redirections' files open, before any run is recorded;
   returns 0 or 2. */
static int split_runs(struct runs *r, const char *opt)
{
    char err[1024];
    for (size_t i = 0; i < r->n; i++)
        if (vp_loopcmd_split_io(r->line[i], &r->cmd[i], &r->words[i], &r->io[i], err,
                                sizeof err) != 0 ||
            vp_loopcmd_io_check(&r->io[i], err, sizeof err) != 0) {
            fprintf(stderr, "vprof-diagnose: %s '%s': %s\n", opt, r->line[i], err);
            return 2;
        }
    return 0;
}

/* Records every run of `r` into `dir` as <kind>.vprof, <kind>2.vprof, ...;
   returns 0, or the exit status to use. */
static int record_runs(struct runs *r, const char *dir, const char *kind, long long freq,
                       long long depth)
{
    for (size_t i = 0; i < r->n; i++) {
        char label[64];
        if (i)
            snprintf(label, sizeof label, "%s%zu", kind, i + 1);
        else
            snprintf(label, sizeof label, "%s", kind);
        snprintf(r->path[i], sizeof r->path[i], "%s/%s.vprof", dir, label);
        r->paths[i] = r->path[i];
        fprintf(stderr, "vprof-diagnose: recording the %s run%s%s\n", kind, i ? " " : "",
                i ? label + strlen(kind) : "");
        int status = record(r->cmd[i], &r->io[i], r->path[i], label, freq, depth);
        if (status)
            return status;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct runs normal = {0}, slow = {0};
    long long freq = 0, depth = -1;
    const char *keep = NULL;
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
        static const char *const valued[] = {"--normal", "--buggy", "--top", "--format", "-o",
                                             "--source-root", "-F", "--depth", "--keep", NULL};
        size_t v = 0;
        while (valued[v] && strcmp(a, valued[v]))
            v++;
        if (!valued[v]) {
            fprintf(stderr, "vprof-diagnose: unknown argument '%s' (see vprof diagnose --help)\n",
                    a);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "vprof-diagnose: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--normal") || !strcmp(a, "--buggy")) {
            struct runs *r = a[2] == 'n' ? &normal : &slow;
            if (r->n == MAX_RUNS) {
                fprintf(stderr, "vprof-diagnose: at most %d %s runs\n", MAX_RUNS, a + 2);
                return 2;
            }
            r->line[r->n++] = val;
        } else if (!strcmp(a, "--top")) {
            long long t = parse_count(val, 1, 1000);
            if (t < 0) {
                fprintf(stderr, "vprof-diagnose: --top needs a count 1..1000, not '%s'\n", val);
                return 2;
            }
            o.top = (size_t)t;
        } else if (!strcmp(a, "-F")) {
            if ((freq = parse_count(val, 1, VP_LAUNCH_FREQ_MAX)) < 0) {
                fprintf(stderr, "vprof-diagnose: -F wants a frequency 1..%d Hz, not '%s'\n",
                        VP_LAUNCH_FREQ_MAX, val);
                return 2;
            }
        } else if (!strcmp(a, "--depth")) {
            if ((depth = parse_count(val, 0, VP_LAUNCH_DEPTH_MAX)) < 0) {
                fprintf(stderr, "vprof-diagnose: --depth wants 0..%d, not '%s'\n",
                        VP_LAUNCH_DEPTH_MAX, val);
                return 2;
            }
        } else if (!strcmp(a, "--keep")) {
            keep = val;
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
    if (!normal.n || !slow.n) {
        fprintf(stderr, "vprof-diagnose: need --normal 'CMD...' and --buggy 'CMD...'\n");
        usage(stderr);
        return 2;
    }
    int status = 2;
    char *dir = NULL;
    if (split_runs(&normal, "--normal") || split_runs(&slow, "--buggy"))
        goto out;
    if (keep) {
        struct stat st;
        if (mkdir(keep, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "vprof-diagnose: --keep %s: %s\n", keep, strerror(errno));
            goto out;
        }
        int bad = stat(keep, &st) != 0;
        if (bad || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "vprof-diagnose: --keep %s: %s\n", keep,
                    bad ? strerror(errno) : "not a directory");
            goto out;
        }
    } else if (!(dir = vp_launch_mkdtemp("vprof-diagnose"))) {
        fprintf(stderr, "vprof-diagnose: cannot create a temporary directory: %s\n",
                strerror(errno));
        status = 1;
        goto out;
    }
    const char *where = keep ? keep : dir;
    if ((status = record_runs(&normal, where, "normal", freq, depth)) != 0 ||
        (status = record_runs(&slow, where, "slow", freq, depth)) != 0)
        goto out_dir;

    struct vp_rank_model *m = vp_rank_model_new();
    struct vp_rank_result *res = NULL;
    char err[1024];
    status = 2;
    if (!m) {
        fprintf(stderr, "vprof-diagnose: out of memory\n");
        status = 1;
        goto out_dir;
    }
    for (size_t i = 0; i < normal.n + slow.n; i++) {
        int buggy = i >= normal.n;
        const char *path = buggy ? slow.path[i - normal.n] : normal.path[i];
        if (vp_rank_load_profile(m, path, buggy, err, sizeof err) != 0) {
            size_t pl = strlen(path);
            if (!keep && strncmp(err, path, pl) == 0) /* a deleted file: the run's command */
                fprintf(stderr, "vprof-diagnose: the %s run '%s'%s\n", buggy ? "slow" : "normal",
                        buggy ? slow.line[i - normal.n] : normal.line[i], err + pl);
            else
                fprintf(stderr, "vprof-diagnose: %s\n", err);
            vp_rank_model_free(m);
            goto out_dir;
        }
    }
    struct vp_rank_params prm;
    vp_rank_params_default(&prm);
    if (vp_rank_run(m, &prm, &res, err, sizeof err) != 0) {
        fprintf(stderr, "vprof-diagnose: rank: %s\n", err);
        vp_rank_model_free(m);
        goto out_dir;
    }
    o.rank = res;
    o.normal = normal.paths;
    o.nnormal = normal.n;
    o.buggy = slow.paths;
    o.nbuggy = slow.n;
    o.cmd = slow.cmd[0];
    o.normal_cmd = normal.cmd[0];
    o.cmd_io = &slow.io[0];
    o.normal_io = &normal.io[0];
    fprintf(stderr, "vprof-diagnose: probing the loops of the top %zu functions\n", o.top);
    status = vp_loopcmd_run(&o);
    vp_rank_result_free(res);
    vp_rank_model_free(m);
out_dir:
    if (keep) /* those recorded, whatever failed after */
        fprintf(stderr, "vprof-diagnose: the profiles are in %s\n", keep);
    if (dir)
        vp_launch_rmtemp(dir);
out:
    for (size_t i = 0; i < MAX_RUNS; i++) {
        free_words(normal.cmd[i], normal.words[i]);
        free_words(slow.cmd[i], slow.words[i]);
        vp_loopcmd_io_free(&normal.io[i]);
        vp_loopcmd_io_free(&slow.io[i]);
    }
    return status;
}
