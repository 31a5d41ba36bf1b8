/*
 * launch.h - run a command under the sampler runtime (what `vprof record`
 * does), as a library for every tool that needs a recorded run
 * (`vprof record`, `vprof-loop`, `vprof-diagnose`).
 *
 * vp_launch_run() does the heavy work before the target starts, never in
 * it: it finds CMD like execvp, lists the modules CMD will load (the
 * executable and the shared libraries its dynamic loader resolves), builds
 * the PC index from their DWARF into a private temporary directory, then
 * runs CMD with libvprof-rt.so (from <dir of this executable>/../lib)
 * preloaded and the runtime's environment (docs/runtime.md), forwards
 * SIGINT/SIGTERM/SIGHUP sent to the caller, waits for CMD and removes the
 * temporary directory.  Nothing goes through a shell.
 *
 * Usage:
 *     char *argv[] = {"./app", "big-input", NULL};
 *     const char *env[] = {"VPROF_LOOP_FUNCTIONS=f,g", NULL};
 *     struct vp_launch_opts o;
 *     vp_launch_opts_init(&o);
 *     o.argv = argv; o.output = "slow.vprof"; o.env = env;
 *     struct vp_launch_result r;
 *     char err[1024];
 *     int rc = vp_launch_run(&o, &r, err, sizeof err);
 *     if (rc != VP_LAUNCH_OK) fail(rc == VP_LAUNCH_USAGE ? 2 : 1, err);
 *     else if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0) read(r.output);
 */
#ifndef VPROF_LAUNCH_H
#define VPROF_LAUNCH_H

#include <limits.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ranges `vprof record` and `vprof diagnose` accept for -F and --depth. */
#define VP_LAUNCH_FREQ_MAX 100000
#define VP_LAUNCH_DEPTH_MAX 1024

struct vp_launch_opts {
    char *const *argv;        /* CMD and its arguments, NULL-terminated         */
    const char *output;       /* profile to write; relative to the cwd if not
                                 absolute (the runtime gets an absolute path)   */
    long long freq;           /* VPROF_FREQ, 0 = runtime default                */
    long long depth;          /* VPROF_DEPTH, -1 = runtime default              */
    long long max_samples;    /* VPROF_MAX_SAMPLES, 0 = runtime default         */
    const char *const *env;   /* extra "NAME=VALUE" for CMD, NULL-terminated;
                                 may be NULL                                    */
    int stdout_fd;            /* -1: CMD inherits stdout; else CMD's stdout is
                                 a dup of this descriptor                       */
    int stdin_fd;             /* -1: CMD inherits stdin; else CMD's stdin is a
                                 dup of this descriptor                         */
    /* Called for each warning (no variable index, no DWARF, ...): the
       message has no prefix and no newline.  NULL: warnings are dropped. */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
    /* 0: refuse (VP_LAUNCH_USAGE) when `output` exists and is not a vprof
       profile (nor an empty file); 1: remove it first (--force). */
    int force;
    /* The refusal's advice: NULL = "choose another -o, or --force to
       replace it" (vprof record's flags). */
    const char *output_advice;
};

struct vp_launch_result {
    int status;               /* CMD's wait status (waitpid)                    */
    pid_t pid;                /* the pid started (the profile's root_pid)       */
    time_t start;             /* time(NULL) just before CMD started             */
    int have_index;           /* a variable index was built and used            */
    char exe[PATH_MAX];       /* CMD's executable as resolved                   */
    char output[PATH_MAX];    /* absolute path of the profile                   */
    uint64_t start_ns;        /* CLOCK_REALTIME just before CMD started (tells a
                                 profile written during the run from an older one) */
};

enum vp_launch_status {
    VP_LAUNCH_OK = 0,
    VP_LAUNCH_FAILED = -1,    /* launcher error (runtime missing, fork, ...)    */
    VP_LAUNCH_USAGE = -2,     /* CMD not found or cannot be executed, bad path  */
};

/* Defaults: output "vprof.out", depth -1, stdout_fd and stdin_fd -1, everything else 0.
 * Can't fail. */
void vp_launch_opts_init(struct vp_launch_opts *o);

/* Runs CMD to completion.  Returns VP_LAUNCH_OK with `r` filled (CMD ran;
 * its status is r->status, whatever it is), or VP_LAUNCH_FAILED /
 * VP_LAUNCH_USAGE with `err` set to a one-line message without prefix
 * ("./app: command not found", "cannot run ./app: Permission denied").
 * Installs handlers for SIGINT/SIGTERM/SIGHUP while CMD runs and restores
 * the defaults afterwards. */
int vp_launch_run(const struct vp_launch_opts *o, struct vp_launch_result *r, char *err,
                  size_t errlen);

/* Finds `name` like execvp does: as given if it contains '/', else in each
 * PATH directory (an empty entry is the current directory).  Returns a
 * malloc'ed path, or NULL with errno set (ENOENT, EACCES, ENOMEM). */
/* A private temporary directory "<$TMPDIR, or /tmp>/<prefix>.XXXXXX"
 * (mkdtemp: mode 0700, a fresh name).  Returns a malloc'd path, or NULL with
 * errno set. */
char *vp_launch_mkdtemp(const char *prefix);

/* Remove a directory made by vp_launch_mkdtemp with every file in it (the
 * profiles of forked children included) and free `dir`.  NULL is a no-op.
 * Can't fail visibly: what cannot be removed is left. */
void vp_launch_rmtemp(char *dir);

char *vp_launch_resolve(const char *name);

/* Why a run wrote no profile at `output`, as a clause for a message: the
 * program replaced itself by exec and the last image ran without the
 * runtime (when "<output>.exec0", the earlier image's profile, was written
 * at or after `since`; 0: any time), else the usual suspects. */
const char *vp_launch_no_profile_why(const char *output, time_t since);

/* The shared libraries `exe` loads at start-up, as its own dynamic loader
 * lists them (`PT_INTERP --list exe`, which maps them and runs none of the
 * program's code): absolute paths, each once, into *paths (malloc'd, free
 * with vp_launch_free_paths).  Returns how many; 0 for a static or non-ELF
 * file or when the loader cannot be run (best effort). */
size_t vp_launch_libraries(const char *exe, char ***paths);
void vp_launch_free_paths(char **paths, size_t n);

/* Whether running `exe` may bring in code that is not among its start-up
 * modules: 1 when the executable or a library it loads at start-up imports
 * dlopen, dlmopen or an exec function (an undefined symbol of that name in
 * its .dynsym), or when one of them cannot be read; 0 otherwise.  A static
 * executable imports nothing: 0. */
int vp_launch_may_load_code(const char *exe);

/* The runtime library next to the running executable:
 * <dir of /proc/self/exe>/../lib/libvprof-rt.so, resolved.  Returns 0, or -1
 * if it is not there. */
int vp_launch_runtime_path(char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_LAUNCH_H */
