/*
 * launch.c - run a command under the sampler runtime (vprof/launch.h): the
 * launcher of `vprof record`, shared with vprof-loop and vprof-diagnose.
 *
 * Before CMD starts, the launcher lists the modules CMD will load and builds
 * their PC index from DWARF into a private temporary directory; then CMD
 * runs with libvprof-rt.so preloaded and the runtime's environment
 * (docs/runtime.md).  Signals sent to the launcher by other processes are
 * forwarded to CMD.  Nothing here goes through a shell, and nothing prints:
 * errors come back as values, warnings through the caller's callback.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vprof/format.h"
#include "vprof/index.h"
#include "vprof/launch.h"
#include "vprof/progress.h"

void vp_launch_opts_init(struct vp_launch_opts *o)
{
    *o = (struct vp_launch_opts){.output = "vprof.out", .depth = -1, .stdout_fd = -1,
                                 .stdin_fd = -1};
}

static void warnf(const struct vp_launch_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void warnf(const struct vp_launch_opts *o, const char *fmt, ...)
{
    if (!o->warn)
        return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->warn(o->warn_ctx, msg);
}

/// Finds `name` like execvp does: as given if it contains '/', else in each
/// PATH directory (an empty entry is the current directory).  Returns a
/// malloc'ed path or NULL with errno set.
const char *vp_launch_no_profile_why(const char *output, time_t since)
{
    char path[PATH_MAX + 8];
    struct stat st;
    snprintf(path, sizeof path, "%s.exec0", output);
    if (stat(path, &st) == 0 && st.st_mtime >= since)
        return "CMD replaced itself by exec, and the last image ran without the runtime: "
               "statically linked, set-user-ID, or started by fexecve or execveat; the images "
               "before it were profiled (<profile>.exec<N>)";
    return "is CMD statically linked, or did the runtime fail to load?";
}

char *vp_launch_resolve(const char *name)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return NULL;
        return strdup(name);
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    int saw_eacces = 0;
    for (const char *p = path;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = malloc(len + strlen(name) + 3);
        if (!cand) {
            errno = ENOMEM;
            return NULL;
        }
        if (len)
            snprintf(cand, len + strlen(name) + 3, "%.*s/%s", (int)len, p, name);
        else
            snprintf(cand, strlen(name) + 3, "./%s", name);
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
            if (access(cand, X_OK) == 0)
                return cand;
            saw_eacces = 1;
        }
        free(cand);
        if (!colon)
            break;
        p = colon + 1;
    }
    errno = saw_eacces ? EACCES : ENOENT;
    return NULL;
}

/* What an ELF file offers the index. */
struct elf_facts {
    int is_elf;
    int has_schema;
    int has_dwarf;
    char interp[PATH_MAX]; /* PT_INTERP, "" if static */
};

static void inspect_elf(const char *path, struct elf_facts *f)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    if (e && elf_kind(e) == ELF_K_ELF) {
        f->is_elf = 1;
        size_t n = 0, shstrndx;
        if (elf_getphdrnum(e, &n) == 0) {
            for (size_t i = 0; i < n; i++) {
                GElf_Phdr ph;
                if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
                    continue;
                size_t len;
                const char *raw = elf_rawfile(e, &len);
                if (raw && ph.p_offset < len && ph.p_filesz <= len - ph.p_offset &&
                    ph.p_filesz < sizeof f->interp && ph.p_filesz > 0) {
                    memcpy(f->interp, raw + ph.p_offset, ph.p_filesz);
                    f->interp[ph.p_filesz] = '\0';
                }
            }
        }
        if (elf_getshdrstrndx(e, &shstrndx) == 0) {
            for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
                GElf_Shdr sh;
                const char *name;
                if (!gelf_getshdr(s, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
                    continue;
                if (strcmp(name, VP_SCHEMA_SECTION) == 0)
                    f->has_schema = 1;
                else if (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0)
                    f->has_dwarf = 1;
            }
        }
    }
    if (e)
        elf_end(e);
    close(fd);
}

/* A growable list of paths. */
struct paths {
    char **v;
    size_t n;
};

static void paths_add(struct paths *ps, const char *p)
{
    for (size_t i = 0; i < ps->n; i++)
        if (strcmp(ps->v[i], p) == 0)
            return;
    char **v = realloc(ps->v, (ps->n + 1) * sizeof *v);
    if (!v)
        return; /* best effort: the module is simply not indexed */
    ps->v = v;
    char *d = strdup(p);
    if (!d)
        return;
    ps->v[ps->n++] = d;
}

static void paths_free(struct paths *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        free(ps->v[i]);
    free(ps->v);
}

/// Parses one line of `ld.so --list` output:
///   "\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x...)"
///   "\t/lib64/ld-linux-x86-64.so.2 (0x...)"
///   "\tlinux-vdso.so.1 (0x...)"        (no file: skipped)
///   "\tlibfoo.so => not found"          (skipped)
static void parse_ldd_line(char *line, struct paths *out)
{
    char *p = line;
    while (*p == '\t' || *p == ' ')
        p++;
    char *arrow = strstr(p, " => ");
    if (arrow)
        p = arrow + 4;
    if (*p != '/')
        return;
    char *end = strstr(p, " (0x");
    if (end)
        *end = '\0';
    else
        p[strcspn(p, "\n")] = '\0';
    out->n < 4096 ? paths_add(out, p) : (void)0;
}

/// Lists the shared libraries `exe` loads by running its dynamic loader
/// with --list (fork + exec, no shell).  Best effort: on any failure the
/// list simply has no libraries.
static void list_libraries(const char *interp, const char *exe, struct paths *out)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return;
    pid_t pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return;
    }
    if (pid == 0) {
        dup2(pfd[1], 1);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        char *args[] = {(char *)interp, "--list", (char *)exe, NULL};
        execv(interp, args);
        _exit(127);
    }
    close(pfd[1]);
    FILE *f = fdopen(pfd[0], "r");
    if (f) {
        char *line = NULL;
        size_t cap = 0;
        while (getline(&line, &cap, f) > 0)
            parse_ldd_line(line, out);
        free(line);
        fclose(f);
    } else {
        close(pfd[0]);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
}

size_t vp_launch_libraries(const char *exe, char ***paths)
{
    struct elf_facts ef;
    struct paths ps = {0};
    *paths = NULL;
    inspect_elf(exe, &ef);
    if (!ef.is_elf || !ef.interp[0])
        return 0;
    list_libraries(ef.interp, exe, &ps);
    *paths = ps.v;
    return ps.n;
}

void vp_launch_free_paths(char **paths, size_t n)
{
    struct paths ps = {paths, n};
    paths_free(&ps);
}

/* Whether the ELF file at `path` imports (an undefined .dynsym entry) one
   of `names`: 1 yes, 0 no, -1 unreadable or not ELF. */
static int imports_any(const char *path, const char *const *names)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    int r = -1;
    if (e && elf_kind(e) == ELF_K_ELF) {
        r = 0;
        for (Elf_Scn *s = elf_nextscn(e, NULL); s && r == 0; s = elf_nextscn(e, s)) {
            GElf_Shdr sh;
            if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
                continue;
            Elf_Data *d = elf_getdata(s, NULL);
            size_t n = d ? d->d_size / sh.sh_entsize : 0;
            for (size_t i = 1; i < n && r == 0; i++) {
                GElf_Sym sym;
                const char *name;
                if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != SHN_UNDEF ||
                    !(name = elf_strptr(e, sh.sh_link, sym.st_name)))
                    continue;
                for (size_t k = 0; names[k]; k++)
                    if (strcmp(name, names[k]) == 0)
                        r = 1;
            }
        }
    }
    if (e)
        elf_end(e);
    close(fd);
    return r;
}

int vp_launch_may_load_code(const char *exe)
{
    static const char *const loaders[] = {"dlopen",  "dlmopen", "execve",  "execv",
                                          "execvp",  "execvpe", "execl",   "execlp",
                                          "execle",  "fexecve", "execveat", NULL};
    if (imports_any(exe, loaders) != 0)
        return 1;
    char **libs;
    size_t n = vp_launch_libraries(exe, &libs);
    int r = 0;
    if (!n) { /* dynamic, but its loader could not list them: cannot tell */
        struct elf_facts ef;
        inspect_elf(exe, &ef);
        r = ef.interp[0] != 0;
    }
    for (size_t i = 0; i < n && !r; i++)
        r = imports_any(libs[i], loaders) != 0;
    vp_launch_free_paths(libs, n);
    return r;
}

/// The runtime library next to this vprof: <dir of vprof>/../lib/libvprof-rt.so.
int vp_launch_runtime_path(char *buf, size_t n)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return -1;
    self[len] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    int w = snprintf(buf, n, "%s/../lib/libvprof-rt.so", self);
    if (w < 0 || (size_t)w >= n)
        return -1;
    char real[PATH_MAX];
    if (!realpath(buf, real))
        return -1;
    snprintf(buf, n, "%s", real);
    return 0;
}

/* ---- signals ------------------------------------------------------------ */

static volatile sig_atomic_t g_child = 0;

/// Forwards a signal sent to vprof by another process (kill, systemd, a
/// supervisor) to CMD.  Signals from the terminal (si_code SI_KERNEL) reach
/// CMD directly through the process group, so they are not sent twice.
static void forward_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    pid_t child = (pid_t)g_child;
    if (child > 0 && (!si || si->si_code <= 0))
        kill(child, sig);
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};

/* ---- the run ------------------------------------------------------------ */

char *vp_launch_mkdtemp(const char *prefix)
{
    const char *base = getenv("TMPDIR");
    if (!base || base[0] != '/')
        base = "/tmp";
    size_t n = strlen(base) + strlen(prefix) + 16;
    char *dir = malloc(n);
    if (!dir)
        return NULL;
    snprintf(dir, n, "%s/%s.XXXXXX", base, prefix);
    if (!mkdtemp(dir)) {
        int e = errno;
        free(dir);
        errno = e;
        return NULL;
    }
    return dir;
}

/// Builds the PC index for CMD's modules into `index_path`.  Returns 1 if an
/// index was written, 0 if not (with the reason already printed as a
/// warning).  Never fatal: PC profiling works without an index.
static int build_index(const struct vp_launch_opts *o, const char *exe, const char *index_path)
{
    struct elf_facts ef;
    inspect_elf(exe, &ef);
    if (!ef.is_elf) {
        warnf(o,
                "%s is not an ELF executable (a script?): no variable index, "
                "only PC samples of processes that load the runtime\n",
                exe);
        return 0;
    }
    struct paths mods = {0};
    paths_add(&mods, exe);
    if (ef.interp[0])
        list_libraries(ef.interp, exe, &mods);
    struct vp_index_stats stats;
    char err[1024];
    /* DWARF of a big binary takes seconds: say so on a terminal, when the
       caller shows messages at all (o->warn). */
    struct vp_progress *pg =
        o->warn ? vp_progress_start("vprof: reading DWARF for the variable index", 0) : NULL;
    vp_progress_label(pg, exe);
    /* VPROF_GLOBALS=everywhere: every global at every sample (vProf's
       original placement); default: globals only where they are used. */
    struct vp_index_options io = {0};
    const char *g = getenv("VPROF_GLOBALS");
    if (g && strcmp(g, "everywhere") == 0)
        io.flags |= VP_INDEX_GLOBALS_EVERYWHERE;
    else if (g && g[0] && strcmp(g, "used") != 0)
        warnf(o, "VPROF_GLOBALS=%s is not 'used' or 'everywhere': using 'used'", g);
    int rc = vp_index_build_opts((const char *const *)mods.v, mods.n, index_path, &io, &stats,
                                 err, sizeof err);
    vp_progress_end(pg);
    paths_free(&mods);
    if (rc == 1) {
        warnf(o,
                "%s was not built with vprof-cc (no %s section): no variable "
                "values will be sampled; PC profiling still works",
                exe, VP_SCHEMA_SECTION);
        return 0;
    }
    if (rc != 0) {
        warnf(o, "cannot build the variable index: %s; "
                        "PC profiling still works", err);
        return 0;
    }
    if (ef.has_schema && !ef.has_dwarf)
        warnf(o,
                "%s has no DWARF debug info (build with -g): its variables "
                "cannot be located and will not be sampled; PC profiling still works",
                exe);
    return 1;
}

/// Runs CMD with the runtime preloaded; returns its wait status, -1 on a

/// launcher error, or -2 if CMD could not be executed (already reported).
static int run_child(const struct vp_launch_opts *o, const char *exe, const char *rt,
                     const char *output, const char *index_path, pid_t *child, char *err,
                     size_t errlen)
{
    /* The child reports a failed exec through a close-on-exec pipe: EOF
       without data means CMD is running. */
    int epipe[2];
    if (pipe2(epipe, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    /* Block the forwarded signals until the child's pid is known. */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaddset(&block, forwarded[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct sigaction sa = {.sa_sigaction = forward_signal, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaction(forwarded[i], &sa, NULL);

    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(epipe[0]);
        close(epipe[1]);
        return -1;
    }
    if (pid == 0) {
        struct sigaction dfl = {.sa_handler = SIG_DFL};
        for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
            sigaction(forwarded[i], &dfl, NULL);
        sigprocmask(SIG_SETMASK, &old, NULL);

        char buf[64];
        const char *pre = getenv("LD_PRELOAD");
        size_t n = strlen(rt) + (pre ? strlen(pre) : 0) + 2;
        char *preload = malloc(n);
        if (!preload)
            _exit(127);
        snprintf(preload, n, "%s%s%s", rt, pre && *pre ? ":" : "", pre && *pre ? pre : "");
        setenv("LD_PRELOAD", preload, 1);
        setenv("VPROF_OUTPUT", output, 1);
        if (index_path)
            setenv("VPROF_INDEX", index_path, 1);
        else
            unsetenv("VPROF_INDEX");
        snprintf(buf, sizeof buf, "%d", (int)getpid());
        setenv("VPROF_ROOT_PID", buf, 1);
        unsetenv("VPROF_EXEC_SEQ");
        if (o->freq) {
            snprintf(buf, sizeof buf, "%lld", o->freq);
            setenv("VPROF_FREQ", buf, 1);
        }
        if (o->depth >= 0) {
            snprintf(buf, sizeof buf, "%lld", o->depth);
            setenv("VPROF_DEPTH", buf, 1);
        }
        if (o->max_samples) {
            snprintf(buf, sizeof buf, "%lld", o->max_samples);
            setenv("VPROF_MAX_SAMPLES", buf, 1);
        }
        for (const char *const *e = o->env; e && *e; e++) {
            const char *eq = strchr(*e, '=');
            if (!eq || eq == *e)
                continue;
            char *name = strndup(*e, (size_t)(eq - *e));
            if (name)
                setenv(name, eq + 1, 1);
            free(name);
        }
        if (o->stdout_fd >= 0 && o->stdout_fd != 1)
            dup2(o->stdout_fd, 1);
        if (o->stdin_fd >= 0 && o->stdin_fd != 0)
            dup2(o->stdin_fd, 0);
        execv(exe, o->argv);
        int e = errno;
        ssize_t w = write(epipe[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    g_child = pid;
    *child = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(epipe[1]);
    int exec_errno = 0;
    ssize_t got;
    while ((got = read(epipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
        ;
    close(epipe[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, errlen, "waitpid: %s", strerror(errno));
            status = -1;
            break;
        }
    }
    g_child = 0;
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaction(forwarded[i], &dfl, NULL);
    if (got == (ssize_t)sizeof exec_errno) {
        snprintf(err, errlen, "cannot run %s: %s", exe, strerror(exec_errno));
        return -2;
    }
    return status;
}

/// The profile path may be replaced when nothing is there, an empty file,
/// a vprof profile (an earlier run) or a symlink (the runtime's rename
/// replaces the link itself and never writes through it).  Anything else (a
/// source file given to -o by mistake, a directory, a device) is refused
/// unless `force`, which removes it first (never a directory).  The runtime
/// checks the same before its final rename.  Returns 0 or -1 with `err` set.
static int check_output(const char *path, int force, const char *advice, char *err,
                        size_t errlen)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot check the output %s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(st.st_mode))
        return 0;
    if (S_ISREG(st.st_mode)) {
        if (st.st_size == 0)
            return 0;
        char magic[8];
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        int ours = fd >= 0 && read(fd, magic, sizeof magic) == (ssize_t)sizeof magic &&
                   memcmp(magic, VP_PROFILE_MAGIC, sizeof magic) == 0;
        if (fd >= 0)
            close(fd);
        if (ours)
            return 0;
    }
    const char *what = S_ISREG(st.st_mode)   ? "a file that is not a vprof profile"
                       : S_ISDIR(st.st_mode) ? "a directory"
                                             : "not a regular file";
    if (force && !S_ISDIR(st.st_mode)) {
        if (unlink(path) == 0)
            return 0;
        snprintf(err, errlen, "cannot remove %s: %s", path, strerror(errno));
        return -1;
    }
    if (advice)
        snprintf(err, errlen, "%s is %s: not overwriting it (%s)", path, what, advice);
    else
        snprintf(err, errlen, "%s is %s: not overwriting it (choose another -o%s)", path, what,
                 S_ISDIR(st.st_mode) ? "" : ", or --force to replace it");
    return -1;
}

void vp_launch_rmtemp(char *dir)
{
    if (!dir)
        return;
    /* Ours alone (mkdtemp, mode 0700): only files we or the target's
       runtime wrote (index, profiles, children's profiles, temp files of
       atomic writes).  unlinkat never follows a symlink. */
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)))
            if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, ".."))
                unlinkat(dirfd(d), de->d_name, 0);
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

int vp_launch_run(const struct vp_launch_opts *o, struct vp_launch_result *r, char *err,
                  size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (!o->argv || !o->argv[0]) {
        snprintf(err, errlen, "no command to run");
        return VP_LAUNCH_USAGE;
    }
    char *exe = vp_launch_resolve(o->argv[0]);
    if (!exe) {
        snprintf(err, errlen, "%s: %s", o->argv[0],
                 errno == ENOENT ? "command not found" : strerror(errno));
        return VP_LAUNCH_USAGE;
    }
    snprintf(r->exe, sizeof r->exe, "%s", exe);
    char rt[PATH_MAX];
    if (vp_launch_runtime_path(rt, sizeof rt) != 0) {
        snprintf(err, errlen, "the runtime lib/libvprof-rt.so is not installed next to this %s",
                 program_invocation_short_name);
        free(exe);
        return VP_LAUNCH_FAILED;
    }
    const char *out = o->output ? o->output : "vprof.out";
    if (out[0] == '/') {
        snprintf(r->output, sizeof r->output, "%s", out);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) {
            snprintf(err, errlen, "getcwd: %s", strerror(errno));
            free(exe);
            return VP_LAUNCH_FAILED;
        }
        if ((size_t)snprintf(r->output, sizeof r->output, "%s/%s", cwd, out) >=
            sizeof r->output) {
            snprintf(err, errlen, "output path too long");
            free(exe);
            return VP_LAUNCH_USAGE;
        }
    }

    if (check_output(r->output, o->force, o->output_advice, err, errlen) != 0) {
        free(exe);
        return VP_LAUNCH_USAGE;
    }
    /* The dynamic loader ignores LD_PRELOAD paths in a setuid/setgid
       program (AT_SECURE) and the runtime refuses them on its own
       (VPROF_ALLOW_SETUID=1 to override): say so instead of a bare "no
       profile was written".  Root running its own setuid-root file gets no
       AT_SECURE, so only a set-id bit for another identity counts. */
    struct stat xst;
    if (stat(exe, &xst) == 0 &&
        (((xst.st_mode & S_ISUID) && xst.st_uid != geteuid()) ||
         ((xst.st_mode & S_ISGID) && xst.st_gid != getegid())))
        warnf(o,
              "%s is set-user-ID or set-group-ID: the dynamic loader does not preload the "
              "runtime into it (and the runtime refuses such programs unless "
              "VPROF_ALLOW_SETUID=1), so no profile will be written; profile a copy "
              "without the set-ID bit",
              exe);

    char *dir = vp_launch_mkdtemp("vprof-record");
    if (!dir)
        warnf(o, "cannot create a temporary directory (%s): no variable index; PC profiling "
                 "still works", strerror(errno));
    char index_path[PATH_MAX + 16] = "";
    if (dir) {
        snprintf(index_path, sizeof index_path, "%s/index.vpx", dir);
        r->have_index = build_index(o, exe, index_path);
    }

    r->start = time(NULL);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r->start_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    int status = run_child(o, exe, rt, r->output, r->have_index ? index_path : NULL, &r->pid,
                           err, errlen);
    vp_launch_rmtemp(dir);
    free(exe);
    if (status < 0)
        return status == -2 ? VP_LAUNCH_USAGE : VP_LAUNCH_FAILED;
    r->status = status;
    return VP_LAUNCH_OK;
}
