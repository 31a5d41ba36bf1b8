/*
 * cmd_record.c - `vprof record [-o FILE] [-F HZ] [--depth N]
 * [--max-samples N] -- CMD [ARGS...]`: run CMD under the sampler runtime.
 *
 * The launcher (vprof/launch.h, src/record/launch.c) does the heavy work
 * before the target starts, never in it: it lists the modules CMD will
 * load, builds the PC index from their DWARF into a private temporary
 * directory, then runs CMD with libvprof-rt.so preloaded and the runtime's
 * environment (docs/runtime.md), forwarding SIGINT/SIGTERM/SIGHUP sent to
 * it.  This command passes CMD's exit status through and reads the profile
 * back to print a summary.
 *
 * Exit status: CMD's own status when CMD ran (a CMD killed by signal N
 * kills vprof with the same signal, core dumps disabled; if that signal
 * does not terminate vprof, the status is 128+N); 1 when CMD succeeded but
 * no valid profile was written; 2 for usage errors or a CMD that cannot be
 * run.  Nothing here goes through a shell.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "vprof/launch.h"
#include "vprof/profile.h"

struct record_opts {
    const char *output;   /* -o, default "vprof.out"           */
    long long freq;       /* -F, 0 = runtime default           */
    long long depth;      /* --depth, -1 = runtime default     */
    long long max_samples;/* --max-samples, 0 = runtime default */
    char **cmd;           /* CMD and its arguments             */
    int force;            /* --force: replace a non-profile -o */
};

static void record_usage(FILE *out)
{
    fputs("usage: vprof record [-o FILE] [-F HZ] [--depth N] [--max-samples N] [--force] -- CMD "
          "[ARGS...]\n"
          "  run CMD, sampling its PCs and the values of the variables vprof-cc chose\n"
          "  to watch.  -o FILE: profile to write (default vprof.out; processes CMD forks\n"
          "  write FILE.<pid>).  -F HZ: samples per second of CPU time per thread\n"
          "  (each period drawn from 1/2 to 3/2 of 1/HZ, so a program that repeats\n"
          "  itself is not sampled at one phase; VPROF_JITTER=0: fixed periods).\n"
          "  --depth N: callers whose variables are read (default 3; library frames\n"
          "  between them do not count; the stacks are recorded to VPROF_STACK_DEPTH\n"
          "  callers, default 32).\n"
          "  --max-samples N: buffer size.\n"
          "  An existing FILE is replaced only if it is a vprof profile (or empty);\n"
          "  --force replaces any other file.\n"
          "  The exit status is CMD's (128+N, or the same signal, if CMD was killed).\n",
          out);
}

/* "2,931" */
static void with_commas(char *buf, size_t n, unsigned long long v)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", v);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < n; i++) {
        if (i && (len - i) % 3 == 0 && o + 2 < n)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
}

static int parse_args(int argc, char **argv, struct record_opts *o)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"freq", required_argument, NULL, 'F'},
        {"depth", required_argument, NULL, 'd'},
        {"max-samples", required_argument, NULL, 'm'},
        {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (struct record_opts){.output = "vprof.out", .depth = -1};
    optind = 1;
    opterr = 0;
    int c;
    /* "+": stop at CMD, so CMD's own options are left alone. */
    while ((c = getopt_long(argc, argv, "+o:F:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (!*optarg) {
                fprintf(stderr, "vprof: record: -o wants a file name\n");
                return 2;
            }
            o->output = optarg;
            break;
        case 'F':
            o->freq = vp_cmd_parse_count(optarg);
            if (o->freq < 1 || o->freq > VP_LAUNCH_FREQ_MAX) {
                fprintf(stderr, "vprof: record: -F wants a frequency 1..%d Hz, not '%s'\n",
                        VP_LAUNCH_FREQ_MAX, optarg);
                return 2;
            }
            break;
        case 'd':
            o->depth = vp_cmd_parse_count(optarg);
            if (o->depth < 0 || o->depth > VP_LAUNCH_DEPTH_MAX) {
                fprintf(stderr, "vprof: record: --depth wants 0..%d, not '%s'\n",
                        VP_LAUNCH_DEPTH_MAX, optarg);
                return 2;
            }
            break;
        case 'm':
            o->max_samples = vp_cmd_parse_count(optarg);
            if (o->max_samples < 1) {
                fprintf(stderr, "vprof: record: --max-samples wants a positive count, not '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'f':
            o->force = 1;
            break;
        case 'h':
            record_usage(stdout);
            return 0;
        default:
            if (optopt && strchr("oF", optopt))
                fprintf(stderr, "vprof: record: -%c needs a value\n", optopt);
            else
                fprintf(stderr, "vprof: record: bad option '%s' (see vprof record --help)\n",
                        argv[optind - 1]);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "vprof: record: no command to run (vprof record [options] -- CMD)\n");
        return 2;
    }
    o->cmd = argv + optind;
    return -1; /* go on */
}

/// Counts "<output>.<digits>" files (profiles of forked children) written
/// since `since`.
static size_t count_child_profiles(const char *output, time_t since)
{
    char **names;
    size_t n, kids = 0;
    if (vp_profile_forked_files(output, &names, &n) != 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && st.st_mtime >= since)
            kids++;
    }
    vp_profile_free_names(names, n);
    return kids;
}

/// Reads the profile back and prints the one-line summary.  Returns 0 if the
/// profile is valid and was written by this run, else 1.
static int summarize(const char *shown, const char *output, pid_t root, time_t start,
                     uint64_t start_ns, int status)
{
    struct vp_profile *p;
    char err[1024];
    if (access(output, F_OK) != 0) {
        if (WIFSIGNALED(status)) /* the runtime writes before the signals it can catch */
            fprintf(stderr,
                    "vprof: no profile was written to %s: CMD was killed by signal %d (%s); "
                    "a crash or SIGKILL leaves no profile\n",
                    shown, WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            fprintf(stderr, "vprof: no profile was written to %s (%s)\n", shown,
                    vp_launch_no_profile_why(output, start));
        return 1;
    }
    if (vp_profile_open(output, &p, err, sizeof err) != 0) {
        fprintf(stderr, "vprof: the profile is not valid: %s\n", err);
        return 1;
    }
    if (p->hdr.root_pid != (uint32_t)root) {
        if (p->hdr.end_ns >= start_ns)
            /* written while we ran: another process wrote the same path
               (two `vprof record -o same` at once; the last rename wins) */
            fprintf(stderr, "vprof: %s was replaced by the profile of another run writing the "
                            "same path at the same time (root pid %u, this run %d); this "
                            "run's profile is lost\n",
                    shown, p->hdr.root_pid, (int)root);
        else
            fprintf(stderr, "vprof: %s is from an earlier run (root pid %u, this run %d): no "
                            "profile was written (%s)\n",
                    shown, p->hdr.root_pid, (int)root, vp_launch_no_profile_why(output, start));
        vp_profile_close(p);
        return 1;
    }
    char pcs[32], vals[32], line[1024];
    with_commas(pcs, sizeof pcs, p->pc_count);
    with_commas(vals, sizeof vals, p->value_count);
    int n = snprintf(line, sizeof line, "vprof: wrote %s: %s PC samples, %s value samples", shown,
                     pcs, vals);
    if (p->has_coverage && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, "; %u/%u variables located",
                      p->coverage.located, p->coverage.schema_vars);
    if (p->loss.pc_dropped && n > 0 && (size_t)n < sizeof line) {
        char lost[32];
        with_commas(lost, sizeof lost, p->loss.pc_dropped);
        n += snprintf(line + n, sizeof line - (size_t)n,
                      "; %s PC samples dropped (raise --max-samples)", lost);
    }
    size_t kids = count_child_profiles(output, start);
    if (kids && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "; %zu child profile%s %s.<pid>", kids,
                 kids == 1 ? "" : "s", shown);
    fprintf(stderr, "%s\n", line);
    /* a wrapper script's work is in the program it ran: the analysis of
       this recording reads CMD's processes only, so most of the run would
       be missing without a word */
    char other[2048];
    uint64_t ours; /* the tree's PC samples, counted in the same pass */
    if (vp_profile_other_programs(p, output, other, sizeof other, &ours) > ours)
        fprintf(stderr, "vprof: note: the analysis of %s leaves out most of the run: %s\n", shown,
                other);
    vp_profile_close(p);
    return 0;
}


/// Ends vprof the way CMD ended: the same exit code, or the same signal.
static int pass_through(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        signal(sig, SIG_DFL);
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, sig);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        fflush(NULL);
        raise(sig);
        return 128 + sig; /* a signal that does not terminate */
    }
    return 1;
}


static void print_warning(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "vprof: warning: %s\n", msg);
}

int vp_cmd_record(int argc, char **argv)
{
    struct record_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    struct vp_launch_opts lo;
    vp_launch_opts_init(&lo);
    lo.argv = o.cmd;
    lo.output = o.output;
    lo.freq = o.freq;
    lo.depth = o.depth;
    lo.max_samples = o.max_samples;
    lo.warn = print_warning;
    lo.force = o.force;
    struct vp_launch_result r;
    char err[2048];
    rc = vp_launch_run(&lo, &r, err, sizeof err);
    if (rc != VP_LAUNCH_OK) {
        fprintf(stderr, "vprof: record: %s\n", err);
        return rc == VP_LAUNCH_USAGE ? 2 : 1;
    }
    int ok = summarize(o.output, r.output, r.pid, r.start, r.start_ns, r.status);
    if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
        return ok == 0 ? 0 : 1;
    return pass_through(r.status);
}
