/*
 * vprof_loop.c - the `vprof-loop` command (`vprof loop`): argument parsing
 * only; the pipeline is vp_loopcmd_run (vprof/loopcmd.h).
 *
 *   vprof-loop (--top N (--rank RANK.json | --normal FILE... --buggy FILE...)
 *               | --function NAME...) [--normal-run 'CMD...']
 *              [--format text|json|md|sarif|html] [-o OUT] [--source-root DIR]
 *              [--color|--no-color] -- CMD [ARGS...]
 *
 * Exit status: 0 loops diagnosed, 1 nothing found (or the workload failed),
 * 2 usage or input error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/loopcmd.h"
#include "vprof/loopreport.h"

static void usage(FILE *out)
{
    fputs("usage: vprof-loop (--top N (--rank RANK.json | --normal FILE... --buggy FILE...)\n"
          "                   | --function NAME...) [options] -- CMD [ARGS...]\n"
          "\n"
          "Run CMD once with the loop probes of the chosen functions switched on, and tell\n"
          "for every loop that ran why it is slow (LDoctor's root causes 0*, 0*1?, [0|1]*,\n"
          "1*, cross-iteration, cross-loop) and how to fix it.  Loops are listed by their\n"
          "share of the slow run.  CMD's own output goes to stderr.\n"
          "\n"
          "options:\n"
          "  --top N                 probe the loops of the N top-ranked functions\n"
          "  --rank FILE             a `vprof rank --format json` file (vprof-rank/1)\n"
          "  --normal FILE...        normal-run profiles (ranked here with --buggy)\n"
          "  --buggy FILE...         slow-run profiles\n"
          "  --function NAME[,NAME]  also probe the loops of NAME (repeatable)\n"
          "  --normal-run 'CMD...'   also run the normal workload with probes, for its counts\n"
          "                          (split into words like a shell, without expansion;\n"
          "                          '< FILE', '> FILE' redirect its input and output)\n"
          "  --format FMT            text (default), json, md, sarif, html\n"
          "  -o OUT                  write the report to OUT (atomically)\n"
          "  --source-root DIR       make file names relative to DIR (default: git toplevel)\n"
          "  --color, --no-color     force colour on or off (default: on a tty without NO_COLOR)\n"
          "\n"
          "exit status: 0 loops diagnosed, 1 nothing found or the workload failed,\n"
          "2 usage or input error.  docs/vprof-loop.md\n",
          out);
}

int main(int argc, char **argv)
{
    const char **normal = calloc((size_t)argc + 1, sizeof *normal);
    const char **buggy = calloc((size_t)argc + 1, sizeof *buggy);
    /* --function a,b names two functions (the runtime's VPROF_LOOP_FUNCTIONS
       is a comma list, so no name can hold a comma): one slot per comma too */
    size_t nslots = (size_t)argc + 1;
    for (int i = 1; i < argc; i++)
        for (const char *p = argv[i]; *p; p++)
            nslots += *p == ',';
    const char **funcs = calloc(nslots, sizeof *funcs);
    if (!normal || !buggy || !funcs) {
        fprintf(stderr, "vprof-loop: out of memory\n");
        return 1;
    }
    struct vp_loopcmd_opts o = {.prog = "vprof-loop", .normal = normal, .buggy = buggy,
                                .functions = funcs, .color = -1};
    char **normal_cmd = NULL;
    int rc;
    size_t n_normal_cmd = 0;
    struct vp_loopcmd_io normal_io = {0}; /* --normal-run's `< FILE`, `> FILE` */
    int list = 0, have_top = 0, i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            { rc = 0; goto out; }
        }
        if (!strcmp(a, "--normal")) {
            list = 1;
        } else if (!strcmp(a, "--buggy")) {
            list = 2;
        } else if (!strcmp(a, "--color") || !strcmp(a, "--no-color")) {
            list = 0;
            o.color = !strcmp(a, "--color");
        } else if (!strcmp(a, "--top") || !strcmp(a, "--rank") || !strcmp(a, "--function") ||
                   !strcmp(a, "--format") || !strcmp(a, "-o") || !strcmp(a, "--source-root") ||
                   !strcmp(a, "--normal-run")) {
            list = 0;
            if (!val) {
                fprintf(stderr, "vprof-loop: %s needs a value\n", a);
                { rc = 2; goto out; }
            }
            i++;
            if (!strcmp(a, "--top")) {
                char *end;
                errno = 0;
                unsigned long long t = strtoull(val, &end, 10);
                if (errno || end == val || *end || val[0] == '-' || t == 0 || t > 1000) {
                    fprintf(stderr, "vprof-loop: --top needs a count 1..1000, not '%s'\n", val);
                    { rc = 2; goto out; }
                }
                o.top = (size_t)t;
                have_top = 1;
            } else if (!strcmp(a, "--rank")) {
                o.rank_json = val;
            } else if (!strcmp(a, "--function")) {
                for (char *name = argv[i], *next; name; name = next) { /* = val */
                    if ((next = strchr(name, ',')))
                        *next++ = '\0';
                    if (!*name) {
                        fprintf(stderr, "vprof-loop: --function has an empty function name "
                                        "(a stray comma?)\n");
                        { rc = 2; goto out; }
                    }
                    funcs[o.nfunctions++] = name;
                }
            } else if (!strcmp(a, "--format")) {
                if ((o.format = vp_lr_format_parse(val)) < 0) {
                    fprintf(stderr,
                            "vprof-loop: --format must be text, json, md, sarif or html, "
                            "not '%s'\n",
                            val);
                    { rc = 2; goto out; }
                }
            } else if (!strcmp(a, "-o")) {
                o.output = val;
            } else if (!strcmp(a, "--source-root")) {
                o.source_root = val;
            } else {
                char err[512];
                for (size_t k = 0; k < n_normal_cmd; k++) /* the last --normal-run wins */
                    free(normal_cmd[k]);
                free(normal_cmd);
                normal_cmd = NULL;
                n_normal_cmd = 0;
                vp_loopcmd_io_free(&normal_io);
                /* its files must open before the slow run */
                if (vp_loopcmd_split_io(val, &normal_cmd, &n_normal_cmd, &normal_io, err,
                                        sizeof err) != 0 ||
                    vp_loopcmd_io_check(&normal_io, err, sizeof err) != 0) {
                    fprintf(stderr, "vprof-loop: --normal-run: %s\n", err);
                    { rc = 2; goto out; }
                }
                o.normal_cmd = normal_cmd;
                o.normal_io = &normal_io;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vprof-loop: unknown option '%s' (see vprof-loop --help)\n", a);
            { rc = 2; goto out; }
        } else if (list == 1) {
            normal[o.nnormal++] = a;
        } else if (list == 2) {
            buggy[o.nbuggy++] = a;
        } else {
            fprintf(stderr, "vprof-loop: '%s': put the command after -- (vprof-loop [options] "
                            "-- CMD)\n", a);
            { rc = 2; goto out; }
        }
    }
    if (i >= argc) {
        fprintf(stderr, "vprof-loop: no command to run (vprof-loop [options] -- CMD [ARGS...])\n");
        { rc = 2; goto out; }
    }
    o.cmd = argv + i;
    int ranked = o.rank_json || o.nbuggy || o.nnormal;
    if (o.rank_json && (o.nbuggy || o.nnormal)) {
        fprintf(stderr, "vprof-loop: give --rank or --normal/--buggy, not both\n");
        { rc = 2; goto out; }
    }
    if (!o.rank_json && (!o.nbuggy != !o.nnormal)) {
        fprintf(stderr, "vprof-loop: ranking needs both --normal FILE... and --buggy FILE...\n");
        { rc = 2; goto out; }
    }
    if (have_top && !ranked) {
        fprintf(stderr, "vprof-loop: --top needs a ranking: --rank FILE or --normal/--buggy\n");
        { rc = 2; goto out; }
    }
    if (ranked && !have_top && !o.nfunctions) {
        fprintf(stderr, "vprof-loop: with a ranking, say how many functions: --top N\n");
        { rc = 2; goto out; }
    }
    if (!have_top && !o.nfunctions) {
        fprintf(stderr, "vprof-loop: nothing to diagnose: give --top N with a ranking, or "
                        "--function NAME\n");
        usage(stderr);
        { rc = 2; goto out; }
    }
    rc = vp_loopcmd_run(&o);
out: /* every exit frees what main allocated (clean under LeakSanitizer) */
    for (size_t k = 0; k < n_normal_cmd; k++)
        free(normal_cmd[k]);
    free(normal_cmd);
    vp_loopcmd_io_free(&normal_io);
    free(normal);
    free(buggy);
    free(funcs);
    return rc;
}
