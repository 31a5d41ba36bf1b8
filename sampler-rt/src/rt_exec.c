/*
 * rt_exec.c - exec of another program is *followed*.
 *
 * The new image gets our LD_PRELOAD and VPROF_* entries back if the
 * program's environment for it lacks them (vp_rt_env_with_seq), so it
 * loads the runtime again and writes its own profile.  Before the old image is replaced, the
 * interposed exec functions:
 *   1. stop this thread's timer (and ITIMER_PROF in fallback mode, which
 *      would survive exec and kill the new image before its handler exists);
 *   2. write everything sampled so far to "<name>.exec<N>" (N = how many
 *      images of this pid came before), so the pre-exec samples are kept;
 *   3. pass VPROF_EXEC_SEQ=<pid>:<N+1> to the new image, which sets
 *      VP_PROFF_EXECED and writes the plain name at its end.
 * If exec fails, the ".exec<N>" file is removed and sampling resumes: the
 * samples stay in the buffers and go into the normal file later.
 *
 * Not interposed: fexecve, execveat, posix_spawn (its child is a new pid
 * whose image loads the runtime and writes "<path>.<pid>" like a fork
 * child), and the internal calls glibc makes between its own functions.
 * A vfork child (getpid() != vp_rt.pid; it shares our memory) is left alone.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_internal.h"

extern char **environ;

static char vp_rt_exec_var[64]; /* "VPROF_EXEC_SEQ=<pid>:<n>" */
static char vp_rt_exec_file[VP_RT_PATH_MAX + 64];

static void *vp_rt_next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

static void vp_rt_fmt_env(void)
{
    char *p = vp_rt_exec_var;
    const char *k = "VPROF_EXEC_SEQ=";
    while (*k)
        *p++ = *k++;
    char tmp[24];
    int n = 0;
    unsigned long v = (unsigned long)vp_rt.pid;
    do tmp[n++] = (char)('0' + v % 10); while ((v /= 10));
    while (n) *p++ = tmp[--n];
    *p++ = ':';
    v = vp_rt.exec_seq + 1;
    do tmp[n++] = (char)('0' + v % 10); while ((v /= 10));
    while (n) *p++ = tmp[--n];
    *p = 0;
}

/* Flushes the pre-exec profile; returns 1 if exec_failed() must undo it. */
static int vp_rt_exec_prepare(void)
{
    if (!atomic_load(&vp_rt.active) || getpid() != vp_rt.pid)
        return 0;
    vp_rt_thread_disarm();
    if (vp_rt.timer_mode == VP_RT_TIMER_PROCESS)
        vp_rt_arm_process_timer(0);
    if (vp_rt_write_profile(VP_RT_WRITE_EXEC) == 0)
        vp_rt_output_name(vp_rt_exec_file, sizeof vp_rt_exec_file, 1);
    else
        vp_rt_exec_file[0] = 0;
    vp_rt_fmt_env();
    return 1;
}

static void vp_rt_exec_failed(int prepared)
{
    if (!prepared)
        return;
    int e = errno;
    if (vp_rt_exec_file[0])
        unlink(vp_rt_exec_file);
    vp_rt_resume_sampling();
    if (vp_rt.timer_mode == VP_RT_TIMER_PROCESS)
        vp_rt_arm_process_timer(1);
    else
        vp_rt_thread_arm();
    errno = e;
}

/* Our part of the environment, copied at start-up (the program may change
   its own later): the VPROF_* entries, and this library's path for
   LD_PRELOAD.  A program that execs with an environment of its own making
   (a sanitising wrapper passing only PATH; `env -i`; a program that unsets
   LD_PRELOAD in itself) would otherwise run the new image unprofiled, and
   `vprof record` found no profile at the name it was given. */
#define VP_RT_ENV_MAX 32
static char vp_rt_env_buf[8192];
static const char *vp_rt_env_ours[VP_RT_ENV_MAX];
static size_t vp_rt_env_n;
static char vp_rt_self[VP_RT_PATH_MAX];

void vp_rt_exec_init(void)
{
    size_t used = 0;
    for (char **e = environ; e && *e && vp_rt_env_n < VP_RT_ENV_MAX; e++) {
        size_t len = strlen(*e) + 1;
        if (strncmp(*e, "VPROF_", 6) != 0 || strncmp(*e, "VPROF_EXEC_SEQ=", 15) == 0 ||
            !strchr(*e, '=') || used + len > sizeof vp_rt_env_buf)
            continue;
        memcpy(vp_rt_env_buf + used, *e, len);
        vp_rt_env_ours[vp_rt_env_n++] = vp_rt_env_buf + used;
        used += len;
    }
    Dl_info info;
    if (dladdr((void *)vp_rt_exec_init, &info) && info.dli_fname && info.dli_fname[0] == '/' &&
        strlen(info.dli_fname) < sizeof vp_rt_self)
        strcpy(vp_rt_self, info.dli_fname);
}

/* Whether `envp` has an entry for the name of `entry` ("NAME=..."). */
static int vp_rt_env_has(char *const envp[], size_t n, const char *entry)
{
    size_t k = (size_t)(strchr(entry, '=') - entry) + 1;
    for (size_t i = 0; i < n; i++)
        if (strncmp(envp[i], entry, k) == 0)
            return 1;
    return 0;
}

/* A copy of `envp` for the new image: our VPROF_EXEC_SEQ entry replacing
   any old one, the VPROF_* entries it lacks, and this library first in
   LD_PRELOAD (mmap'd: exec may follow a fork of a threaded program).  An
   entry the program set itself wins over ours.  NULL on failure, then the
   original envp is used. */
static char **vp_rt_env_with_seq(char *const envp[], size_t *bytes)
{
    size_t n = 0;
    while (envp && envp[n])
        n++;
    const char *pre = NULL; /* the program's LD_PRELOAD value, if any */
    for (size_t i = 0; i < n; i++)
        if (strncmp(envp[i], "LD_PRELOAD=", 11) == 0)
            pre = envp[i] + 11;
    size_t self = strlen(vp_rt_self);
    int add_self = self && !(pre && strstr(pre, vp_rt_self));
    size_t ptrs = (n + vp_rt_env_n + 3) * sizeof(char *);
    size_t text = add_self ? 11 + self + 1 + (pre ? strlen(pre) : 0) + 1 : 0;
    *bytes = ptrs + text;
    char **e = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (e == MAP_FAILED)
        return NULL;
    char *preload = (char *)e + ptrs;
    if (add_self) {
        char *p = preload;
        memcpy(p, "LD_PRELOAD=", 11);
        p += 11;
        memcpy(p, vp_rt_self, self);
        p += self;
        if (pre && *pre) {
            *p++ = ':';
            strcpy(p, pre);
        } else {
            *p = 0;
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(envp[i], "VPROF_EXEC_SEQ=", 15) == 0)
            continue;
        if (add_self && strncmp(envp[i], "LD_PRELOAD=", 11) == 0)
            continue;
        e[k++] = envp[i];
    }
    for (size_t i = 0; i < vp_rt_env_n; i++)
        if (!vp_rt_env_has(envp, n, vp_rt_env_ours[i]))
            e[k++] = (char *)vp_rt_env_ours[i];
    if (add_self)
        e[k++] = preload;
    e[k++] = vp_rt_exec_var;
    e[k] = NULL;
    return e;
}

typedef int (*vp_rt_execve_fn)(const char *, char *const[], char *const[]);

/* Common path of the exec functions taking an explicit environment. */
static int vp_rt_exec_env(const char *sym, const char *file, char *const argv[], char *const envp[])
{
    vp_rt_execve_fn real = (vp_rt_execve_fn)vp_rt_next(sym);
    int prepared = vp_rt_exec_prepare();
    size_t bytes = 0;
    char **e = prepared ? vp_rt_env_with_seq(envp, &bytes) : NULL;
    vp_rt_signals_for_exec();
    int rc = real(file, argv, e ? e : envp);
    int err = errno;
    vp_rt_signals_after_exec();
    errno = err;
    if (e)
        munmap(e, bytes);
    vp_rt_exec_failed(prepared);
    return rc;
}

VP_RT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    return vp_rt_exec_env("execve", path, argv, envp);
}

VP_RT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    return vp_rt_exec_env("execvpe", file, argv, envp);
}

VP_RT_EXPORT int execv(const char *path, char *const argv[])
{
    return vp_rt_exec_env("execve", path, argv, environ);
}

VP_RT_EXPORT int execvp(const char *file, char *const argv[])
{
    return vp_rt_exec_env("execvpe", file, argv, environ);
}

/* Collects execl-style arguments into argv (at most 4096). */
#define VP_RT_COLLECT(first, ap, argv, n)                                                  \
    do {                                                                                   \
        argv[0] = (char *)(first);                                                         \
        n = 1;                                                                             \
        while (argv[n - 1] && n < 4096)                                                    \
            argv[n++] = va_arg(ap, char *);                                                \
        if (argv[n - 1])                                                                   \
            n = -1;                                                                        \
    } while (0)

VP_RT_EXPORT int execl(const char *path, const char *arg, ...)
{
    char *argv[4096];
    int n;
    va_list ap;
    va_start(ap, arg);
    VP_RT_COLLECT(arg, ap, argv, n);
    va_end(ap);
    if (n < 0)
        return errno = E2BIG, -1;
    return execv(path, argv);
}

VP_RT_EXPORT int execlp(const char *file, const char *arg, ...)
{
    char *argv[4096];
    int n;
    va_list ap;
    va_start(ap, arg);
    VP_RT_COLLECT(arg, ap, argv, n);
    va_end(ap);
    if (n < 0)
        return errno = E2BIG, -1;
    return execvp(file, argv);
}

VP_RT_EXPORT int execle(const char *path, const char *arg, ...)
{
    char *argv[4096];
    int n;
    va_list ap;
    va_start(ap, arg);
    VP_RT_COLLECT(arg, ap, argv, n);
    char *const *envp = n < 0 ? NULL : va_arg(ap, char *const *);
    va_end(ap);
    if (n < 0)
        return errno = E2BIG, -1;
    return execve(path, argv, envp);
}
