/*
 * cmd_record.c - `vprof record [-o FILE] [-F HZ] [--depth N]
 * [--max-samples N] -- CMD [ARGS...]`: run CMD under the sampler runtime.
 *
 * The launcher does the heavy work before the target starts, never in it:
 * it lists the modules CMD will load (the executable and the shared
 * libraries the dynamic loader resolves for it), builds the PC index from
 * their DWARF (vp_index_build) into a private temporary directory, then runs
 * CMD with libvprof-rt.so preloaded and the runtime's environment
 * (docs/runtime.md).  It forwards SIGINT/SIGTERM/SIGHUP sent to it, passes
 * CMD's exit status through, and reads the profile back to print a summary.
 *
 * Exit status: CMD's own status when CMD ran (a CMD killed by signal N
 * kills vprof with the same signal, core dumps disabled; if that signal
 * does not terminate vprof, the status is 128+N); 1 when CMD succeeded but
 * no valid profile was written; 2 for usage errors or a CMD that cannot be
 * run.  Nothing here goes through a shell.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
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
#include "vprof/index.h"
#include "vprof/profile.h"

extern char **environ;

struct record_opts {
    const char *output;   /* -o, default "vprof.out"           */
    long long freq;       /* -F, 0 = runtime default           */
    long long depth;      /* --depth, -1 = runtime default     */
    long long max_samples;/* --max-samples, 0 = runtime default */
    char **cmd;           /* CMD and its arguments             */
};

static void record_usage(FILE *out)
{
    fputs("usage: vprof record [-o FILE] [-F HZ] [--depth N] [--max-samples N] -- CMD [ARGS...]\n"
          "  run CMD, sampling its PCs and the values of the variables vprof-cc chose\n"
          "  to watch.  -o FILE: profile to write (default vprof.out; processes CMD forks\n"
          "  write FILE.<pid>).  -F HZ: samples per second of CPU time per thread.\n"
          "  --depth N: callers recorded per sample.  --max-samples N: buffer size.\n"
          "  The exit status is CMD's (128+N, or the same signal, if CMD was killed).\n",
          out);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "vprof: out of memory\n");
        exit(1);
    }
    return p;
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
            if (o->freq < 1 || o->freq > 100000) {
                fprintf(stderr, "vprof: record: -F wants a frequency 1..100000 Hz, not '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'd':
            o->depth = vp_cmd_parse_count(optarg);
            if (o->depth < 0 || o->depth > 1024) {
                fprintf(stderr, "vprof: record: --depth wants 0..1024, not '%s'\n", optarg);
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

/// Finds `name` like execvp does: as given if it contains '/', else in each
/// PATH directory (an empty entry is the current directory).  Returns a
/// malloc'ed path or NULL with errno set.
static char *resolve_command(const char *name)
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
        char *cand = xmalloc(len + strlen(name) + 3);
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
    char *d = strdup(p);
    if (!v || !d) {
        fprintf(stderr, "vprof: out of memory\n");
        exit(1);
    }
    ps->v = v;
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

/// The runtime library next to this vprof: <dir of vprof>/../lib/libvprof-rt.so.
static int runtime_path(char *buf, size_t n)
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

static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || base[0] != '/')
        base = "/tmp";
    size_t n = strlen(base) + 32;
    char *dir = xmalloc(n);
    snprintf(dir, n, "%s/vprof-record.XXXXXX", base);
    if (!mkdtemp(dir)) {
        free(dir);
        return NULL;
    }
    return dir;
}

/// Builds the PC index for CMD's modules into `index_path`.  Returns 1 if an
/// index was written, 0 if not (with the reason already printed as a
/// warning).  Never fatal: PC profiling works without an index.
static int build_index(const char *exe, const char *index_path)
{
    struct elf_facts ef;
    inspect_elf(exe, &ef);
    if (!ef.is_elf) {
        fprintf(stderr,
                "vprof: warning: %s is not an ELF executable (a script?): no variable index, "
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
    int rc = vp_index_build((const char *const *)mods.v, mods.n, index_path, &stats, err,
                            sizeof err);
    paths_free(&mods);
    if (rc == 1) {
        fprintf(stderr,
                "vprof: warning: %s was not built with vprof-cc (no %s section): no variable "
                "values will be sampled; PC profiling still works\n",
                exe, VP_SCHEMA_SECTION);
        return 0;
    }
    if (rc != 0) {
        fprintf(stderr, "vprof: warning: cannot build the variable index: %s; "
                        "PC profiling still works\n", err);
        return 0;
    }
    if (ef.has_schema && !ef.has_dwarf)
        fprintf(stderr,
                "vprof: warning: %s has no DWARF debug info (build with -g): its variables "
                "cannot be located and will not be sampled; PC profiling still works\n",
                exe);
    return 1;
}

/// Runs CMD with the runtime preloaded; returns its wait status, -1 on a
/// launcher error, or -2 if CMD could not be executed (already reported).
static int run_child(const struct record_opts *o, const char *exe, const char *rt,
                     const char *output, const char *index_path, pid_t *child)
{
    /* The child reports a failed exec through a close-on-exec pipe: EOF
       without data means CMD is running. */
    int epipe[2];
    if (pipe2(epipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "vprof: record: pipe: %s\n", strerror(errno));
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
        fprintf(stderr, "vprof: record: fork: %s\n", strerror(errno));
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
        execv(exe, o->cmd);
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
            fprintf(stderr, "vprof: record: waitpid: %s\n", strerror(errno));
            status = -1;
            break;
        }
    }
    g_child = 0;
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaction(forwarded[i], &dfl, NULL);
    if (got == (ssize_t)sizeof exec_errno) {
        fprintf(stderr, "vprof: record: cannot run %s: %s\n", exe, strerror(exec_errno));
        return -2;
    }
    return status;
}

/// Counts "<output>.<digits>" files (profiles of forked children) written
/// since `since`.
static size_t count_child_profiles(const char *output, time_t since)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", output);
    char *slash = strrchr(dir, '/');
    const char *base = slash ? slash + 1 : output;
    if (slash)
        *slash = '\0';
    DIR *d = opendir(slash ? (dir[0] ? dir : "/") : ".");
    if (!d)
        return 0;
    size_t blen = strlen(base), n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *nm = de->d_name;
        if (strncmp(nm, base, blen) != 0 || nm[blen] != '.' || !nm[blen + 1])
            continue;
        if (strspn(nm + blen + 1, "0123456789") != strlen(nm + blen + 1))
            continue;
        struct stat st;
        if (fstatat(dirfd(d), nm, &st, 0) == 0 && st.st_mtime >= since)
            n++;
    }
    closedir(d);
    return n;
}

/// Reads the profile back and prints the one-line summary.  Returns 0 if the
/// profile is valid and was written by this run, else 1.
static int summarize(const char *shown, const char *output, pid_t root, time_t start)
{
    struct vp_profile *p;
    char err[1024];
    static const char *const why = "is CMD statically linked, or did the runtime fail to load?";
    if (access(output, F_OK) != 0) {
        fprintf(stderr, "vprof: no profile was written to %s (%s)\n", shown, why);
        return 1;
    }
    if (vp_profile_open(output, &p, err, sizeof err) != 0) {
        fprintf(stderr, "vprof: the profile is not valid: %s\n", err);
        return 1;
    }
    if (p->hdr.root_pid != (uint32_t)root) {
        fprintf(stderr, "vprof: %s is from an earlier run (root pid %u, this run %d): no "
                        "profile was written (%s)\n",
                shown, p->hdr.root_pid, (int)root, why);
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
    vp_profile_close(p);
    return 0;
}

static void remove_tmpdir(char *dir)
{
    if (!dir)
        return;
    /* The index file and any leftover of the builder's atomic write; the
       directory is ours alone (mkdtemp, mode 0700). */
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

int vp_cmd_record(int argc, char **argv)
{
    struct record_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    char *exe = resolve_command(o.cmd[0]);
    if (!exe) {
        fprintf(stderr, "vprof: record: %s: %s\n", o.cmd[0],
                errno == ENOENT ? "command not found" : strerror(errno));
        return 2;
    }
    char rt[PATH_MAX];
    if (runtime_path(rt, sizeof rt) != 0) {
        fprintf(stderr, "vprof: record: the runtime lib/libvprof-rt.so is not installed next to "
                        "this vprof\n");
        free(exe);
        return 1;
    }
    char output[PATH_MAX];
    if (o.output[0] == '/') {
        snprintf(output, sizeof output, "%s", o.output);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) {
            fprintf(stderr, "vprof: record: getcwd: %s\n", strerror(errno));
            free(exe);
            return 1;
        }
        if ((size_t)snprintf(output, sizeof output, "%s/%s", cwd, o.output) >= sizeof output) {
            fprintf(stderr, "vprof: record: output path too long\n");
            free(exe);
            return 2;
        }
    }

    char *dir = make_tmpdir();
    if (!dir)
        fprintf(stderr, "vprof: warning: cannot create a temporary directory (%s): no variable "
                        "index; PC profiling still works\n", strerror(errno));
    char index_path[PATH_MAX + 16] = "";
    int have_index = 0;
    if (dir) {
        snprintf(index_path, sizeof index_path, "%s/index.vpx", dir);
        have_index = build_index(exe, index_path);
    }

    time_t start = time(NULL);
    pid_t root = 0;
    int status = run_child(&o, exe, rt, output, have_index ? index_path : NULL, &root);
    remove_tmpdir(dir);
    if (status < 0) {
        free(exe);
        return status == -2 ? 2 : 1;
    }
    int ok = summarize(o.output, output, root, start);
    free(exe);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return ok == 0 ? 0 : 1;
    return pass_through(status);
}
