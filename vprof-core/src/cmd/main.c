/*
 * main.c - the `vprof` command: dispatch to the subcommands it owns
 * (record, report, dump, rank, export, diff) and hand any other NAME to a
 * `vprof-NAME` executable in the same directory as `vprof` (git-style), so tools built
 * on top of vprof-core (vprof-loop, vprof-diagnose) plug in without the core
 * knowing them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"

#ifndef VPROF_VERSION
#define VPROF_VERSION "0.1.0"
#endif

/* `vprof rank` lives in cmd_rank.c, owned by the ranking code; a build
   without it still links and says so. */
extern int vp_cmd_rank(int argc, char **argv) __attribute__((weak));

static void usage(FILE *out)
{
    fputs("usage: vprof <command> [args...]\n"
          "\n"
          "commands:\n"
          "  record [-o FILE] [-F HZ] [--depth N] [--max-samples N] -- CMD [ARGS...]\n"
          "                 run CMD and sample its PCs and variable values\n"
          "  report FILE [--format text|json] [--top N]\n"
          "                 flat profile of one run, with the monitored variables\n"
          "  dump FILE | dump --index INDEXFILE\n"
          "                 print a profile or PC index file record by record\n"
          "  rank --normal FILE... --buggy FILE... [--format text|json|md|html] [-o OUT]\n"
          "                 rank the functions most likely to cause the slowdown\n"
          "  export --pprof FILE -o OUT.pb.gz [--normal-diff NORMAL] | export --folded FILE\n"
          "                 PC samples as pprof profile.proto or folded stacks\n"
          "  diff --folded NORMAL BUGGY [-o OUT]\n"
          "                 two-column folded stacks for a differential flame graph\n"
          "  NAME ...       run vprof-NAME from the directory of vprof (e.g. loop)\n"
          "\n"
          "options: --help, --version; `vprof <command> --help` for each command.\n"
          "exit status: 0 success, 1 failed or found nothing, 2 usage or input error.\n",
          out);
}

/// A subcommand name may only name a sibling executable: letters, digits,
/// '-' and '_', not starting with '-'.
static int valid_name(const char *name)
{
    if (!*name || *name == '-' || strlen(name) > 64)
        return 0;
    for (const char *c = name; *c; c++)
        if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') &&
            !(*c >= '0' && *c <= '9') && *c != '-' && *c != '_')
            return 0;
    return 1;
}

/// Execs "<dir of /proc/self/exe>/vprof-NAME" with the remaining arguments.
/// Returns only on failure, with the exit status to use.
static int exec_external(const char *name, int argc, char **argv)
{
    if (!valid_name(name)) {
        fprintf(stderr, "vprof: '%s' is not a vprof command (see vprof --help)\n", name);
        return 2;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "vprof: cannot locate the vprof binary: %s\n", strerror(errno));
        return 1;
    }
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    char path[PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/vprof-%s", self, name);
    if (access(path, X_OK) != 0) {
        fprintf(stderr, "vprof: '%s' is not a vprof command (no %s; see vprof --help)\n", name,
                path);
        return 2;
    }
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) {
        fprintf(stderr, "vprof: out of memory\n");
        return 1;
    }
    char arg0[80];
    snprintf(arg0, sizeof arg0, "vprof-%s", name);
    args[0] = arg0;
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    execv(path, args);
    fprintf(stderr, "vprof: cannot run %s: %s\n", path, strerror(errno));
    free(args);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("vprof %s\n", VPROF_VERSION);
        return 0;
    }
    if (cmd[0] == '-') {
        fprintf(stderr, "vprof: unknown option '%s' (see vprof --help)\n", cmd);
        return 2;
    }
    if (strcmp(cmd, "record") == 0)
        return vp_cmd_record(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return vp_cmd_report(argc - 1, argv + 1);
    if (strcmp(cmd, "dump") == 0)
        return vp_cmd_dump(argc - 1, argv + 1);
    if (strcmp(cmd, "rank") == 0) {
        if (!vp_cmd_rank) {
            fprintf(stderr, "vprof: rank is not built in this version\n");
            return 1;
        }
        return vp_cmd_rank(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "export") == 0)
        return vp_cmd_export(argc - 1, argv + 1);
    if (strcmp(cmd, "diff") == 0)
        return vp_cmd_diff(argc - 1, argv + 1);
    return exec_external(cmd, argc - 1, argv + 1);
}
