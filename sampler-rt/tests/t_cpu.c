/*
 * t_cpu.c - target program for the sampler-rt tests (no vprof code in it).
 *   t_cpu spin MS          burn MS ms of CPU, exit 3
 *   t_cpu nocfi MS         the same, called through a function assembled
 *                          without CFI that keeps a frame pointer (as
 *                          crtstuff's __do_global_dtors_aux calls
 *                          __cxa_finalize at exit)
 *   t_cpu nocfileaf MS     burn MS ms of CPU in a leaf assembled without CFI,
 *                          half of its calls with rbp pushed (an interrupted
 *                          PC no FDE covers, as in __do_global_dtors_aux)
 *   t_cpu threads          4 workers burning 1:2:3:4 x 150 ms; prints
 *                          "worker TID UNITS CPU_NS" (CPU_NS: the worker's own
 *                          CLOCK_THREAD_CPUTIME_ID at its end)
 *   t_cpu fds              lists the runtime's perf_event fds: at start, in a
 *                          thread, after the join, in a fork child
 *   t_cpu fork             parent and child both burn; prints "child PID"
 *   t_cpu forkheld [exec|dlopen]
 *                          a second thread holds glibc's loader lock (inside
 *                          dl_iterate_phdr) whenever the main thread forks;
 *                          the child burns and exits (or execs /bin/true);
 *                          with "dlopen" the parent loads libz.so.1 first;
 *                          prints "child PID" and exits 0 when the child
 *                          ended by itself within 10 s
 *   t_cpu dlopen [MS]      loads libz.so.1, burns MS ms (100)
 *   t_cpu forkdlopen       the child of a plain fork loads libz.so.1 and
 *                          burns; prints "child PID"
 *   t_cpu forever          burn until killed
 *   t_cpu termhandler      own SIGTERM handler that exits 7; burn until killed
 *   t_cpu handlers         own SIGPROF and SIGSEGV handlers, then SIG_DFL/SIG_IGN
 *   t_cpu exec SELF        burn, then execv(SELF, "spin", "200")
 *   t_cpu traps [die]      own SIGTRAP handler: raise(SIGTRAP) and int3 while
 *                          burning, each seen once; then SIG_IGN; with "die"
 *                          SIG_DFL and raise(SIGTRAP) (killed by it)
 *   t_cpu termtrap         own SIGTRAP and SIGTERM handlers; raise(SIGTERM),
 *                          whose handler hits an int3 and exits 7 if the
 *                          SIGTRAP handler saw it (else 1)
 *   t_cpu abort [handler]  burn, then abort(); with "handler" an own SIGABRT
 *                          handler exits 7
 *   t_cpu pipe             burn, then write to a pipe nobody reads (SIGPIPE)
 *   t_cpu ignexec SELF     set SIGINT to SIG_IGN, burn, exec SELF raiseint
 *   t_cpu raiseint         raise(SIGINT); prints "survived" if it did
 *   t_cpu ignrestore       SIGTERM to SIG_IGN, raise it (prints "ignored"),
 *                          back to SIG_DFL, burn, raise it (killed by it)
 *   t_cpu ignspawn SELF    set SIGINT and SIGPIPE to SIG_IGN, burn, then
 *                          posix_spawn SELF raiseint and system("SELF
 *                          raiseint"); exits 0 when both children survived
 *   t_cpu traced CMD...    runs CMD as a ptrace tracee, passing its signals
 *                          on; prints "trap_stops=N" (SIGTRAP stops but the
 *                          exec stop) and exits with CMD's status
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void burn(double ms)
{
    double end = cpu_ms() + ms;
    while (cpu_ms() < end)
        for (int i = 0; i < 20000; i++)
            sink += (unsigned long)i * i;
}

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    long units = (long)arg;
    burn(150.0 * units);
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    pthread_mutex_lock(&out_lock);
    printf("worker %ld %ld %lld\n", (long)syscall(SYS_gettid), units,
           (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
    return NULL;
}

/* Prints "WHERE perf_fds=N min=LOWEST cloexec=ALL" for the perf_event fds
   open in this process. */
static void list_perf_fds(const char *where)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0, lowest = -1, cloexec = 1;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[64], target[256];
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(path, target, sizeof target - 1);
        if (k <= 0)
            continue;
        target[k] = 0;
        if (!strstr(target, "perf_event"))
            continue;
        int fd = atoi(e->d_name);
        n++;
        if (lowest < 0 || fd < lowest)
            lowest = fd;
        if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
            cloexec = 0;
    }
    if (d)
        closedir(d);
    printf("%s perf_fds=%d min=%d cloexec=%d\n", where, n, lowest, cloexec);
    fflush(stdout);
}

static void *fd_worker(void *arg)
{
    burn(50);
    list_perf_fds("thread");
    return NULL;
}

static int prof_count;
static void on_prof(int sig) { prof_count++; }
static sigjmp_buf segv_jmp;
static void on_segv(int sig) { siglongjmp(segv_jmp, 1); }
static void on_term(int sig) { exit(7); }
static volatile int trap_raised, trap_int3, trap_other;
static void on_trap(int sig, siginfo_t *si, void *uc)
{
    if (si->si_code == SI_TKILL || si->si_code == SI_USER)
        trap_raised++;
    else if (si->si_code == SI_KERNEL) /* int3 on x86-64 */
        trap_int3++;
    else
        trap_other++;
}

static void on_term_trap(int sig)
{
    (void)sig;
    __asm__ volatile("int3");
    _exit(trap_int3 == 1 ? 7 : 1);
}

/* t_cpu traced CMD...: a minimal tracer, as a debugger or strace would be. */
static int run_traced(char **cmd)
{
    pid_t c = fork();
    if (c < 0) {
        perror("fork");
        return 127;
    }
    if (c == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        execv(cmd[0], cmd);
        _exit(127);
    }
    int st, traps = 0;
    while (waitpid(c, &st, 0) == c) {
        if (WIFEXITED(st) || WIFSIGNALED(st))
            break;
        int sig = WSTOPSIG(st);
        siginfo_t si;
        if (sig == SIGTRAP && ptrace(PTRACE_GETSIGINFO, c, NULL, &si) == 0) {
            if (si.si_code == SI_USER)
                sig = 0; /* the stop after execv: not a signal to deliver */
            else
                traps++;
        }
        ptrace(PTRACE_CONT, c, NULL, (void *)(long)sig);
    }
    printf("trap_stops=%d\n", traps);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* forkheld: a thread that keeps glibc's loader lock (dl_iterate_phdr holds it
   while its callback runs) nearly all the time. */
static atomic_int held_once;
static int hold_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)info; (void)size; (void)data;
    atomic_store(&held_once, 1);
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return 1; /* one module per call: the lock is let go only between calls */
}
static void *lock_holder(void *arg)
{
    (void)arg;
    for (;;)
        dl_iterate_phdr(hold_cb, NULL);
    return NULL;
}

/* nocfi_call(ms, fn): fn(ms) in a frame that no FDE covers (no .cfi_*
   directives), with rbp as its frame pointer. */
void nocfi_call(double ms, void (*fn)(double));
__asm__(".text\n"
        ".globl nocfi_call\n"
        ".type nocfi_call, @function\n"
        "nocfi_call:\n"
        "  pushq %rbp\n"
        "  movq %rsp, %rbp\n"
        "  callq *%rdi\n"
        "  popq %rbp\n"
        "  retq\n"
        ".size nocfi_call, .-nocfi_call\n");

/* nocfi_leaf(n, pushed): counts n down, with rbp pushed when `pushed`;
   no FDE covers it (no .cfi_* directives). */
void nocfi_leaf(unsigned long n, unsigned long pushed);
__asm__(".text\n"
        ".globl nocfi_leaf\n"
        ".type nocfi_leaf, @function\n"
        "nocfi_leaf:\n"
        "  testq %rsi, %rsi\n"
        "  jz 2f\n"
        "  pushq %rbp\n"
        "  movq %rdi, %rax\n"
        "1:\n"
        "  decq %rax\n"
        "  jnz 1b\n"
        "  popq %rbp\n"
        "  retq\n"
        "2:\n"
        "  movq %rdi, %rax\n"
        "3:\n"
        "  decq %rax\n"
        "  jnz 3b\n"
        "  retq\n"
        ".size nocfi_leaf, .-nocfi_leaf\n");

__attribute__((noinline)) static void burn_leaf(double ms)
{
    double end = cpu_ms() + ms;
    for (unsigned long i = 0; cpu_ms() < end; i++)
        nocfi_leaf(200000, i & 1);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "spin";
    if (!strcmp(mode, "spin")) {
        burn(argc > 2 ? atof(argv[2]) : 300);
        return 3;
    }
    if (!strcmp(mode, "nocfileaf")) {
        burn_leaf(argc > 2 ? atof(argv[2]) : 300);
        return 3;
    }
    if (!strcmp(mode, "nocfi")) {
        nocfi_call(argc > 2 ? atof(argv[2]) : 300, burn);
        return 3;
    }
    if (!strcmp(mode, "threads")) {
        pthread_t t[4];
        for (long i = 0; i < 4; i++)
            pthread_create(&t[i], NULL, worker, (void *)(i + 1));
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        return 0;
    }
    if (!strcmp(mode, "fds")) {
        list_perf_fds("main");
        int fd = open("/dev/null", O_RDONLY);
        printf("open %d\n", fd); /* the target's first fd is still the lowest free */
        close(fd);
        pthread_t t;
        pthread_create(&t, NULL, fd_worker, NULL);
        pthread_join(t, NULL);
        list_perf_fds("joined");
        fflush(stdout);
        pid_t c = fork();
        if (c == 0) {
            burn(50);
            list_perf_fds("child");
            exit(0);
        }
        int st;
        waitpid(c, &st, 0);
        burn(50);
        return 0;
    }
    if (!strcmp(mode, "fork")) {
        burn(200);
        fflush(stdout);
        pid_t c = fork();
        if (c == 0) {
            burn(300);
            exit(0);
        }
        printf("child %d\n", (int)c);
        int st;
        waitpid(c, &st, 0);
        burn(100);
        return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
    }
    if (!strcmp(mode, "forkheld")) {
        if (argc > 2 && !strcmp(argv[2], "dlopen") && !dlopen("libz.so.1", RTLD_NOW)) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        pthread_t t;
        pthread_create(&t, NULL, lock_holder, NULL);
        while (!atomic_load(&held_once))
            burn(1);
        burn(50);
        fflush(stdout);
        pid_t c = fork();
        if (c == 0) {
            burn(100);
            if (argc > 2 && !strcmp(argv[2], "exec"))
                execl("/bin/true", "true", (char *)NULL);
            _exit(0);
        }
        printf("child %d\n", (int)c);
        fflush(stdout);
        int st = 0;
        for (int i = 0; i < 1000; i++) { /* 10 s */
            if (waitpid(c, &st, WNOHANG) == c)
                return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        fprintf(stderr, "fork child %d hung\n", (int)c);
        kill(c, SIGKILL);
        waitpid(c, &st, 0);
        return 2;
    }
    if (!strcmp(mode, "dlopen")) { /* a module the runtime's start-up scan missed */
        if (!dlopen("libz.so.1", RTLD_NOW)) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        burn(argc > 2 ? atof(argv[2]) : 100);
        return 0;
    }
    if (!strcmp(mode, "forkdlopen")) {
        burn(50);
        fflush(stdout);
        pid_t c = fork();
        if (c == 0) {
            if (!dlopen("libz.so.1", RTLD_NOW))
                _exit(1);
            burn(100);
            exit(0);
        }
        printf("child %d\n", (int)c);
        int st;
        waitpid(c, &st, 0);
        return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
    }
    if (!strcmp(mode, "forever")) {
        for (;;)
            burn(10);
    }
    if (!strcmp(mode, "termhandler")) {
        signal(SIGTERM, on_term);
        for (;;)
            burn(10);
    }
    if (!strcmp(mode, "handlers")) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_prof;
        if (sigaction(SIGPROF, &sa, &old) != 0 || old.sa_handler != SIG_DFL) {
            fprintf(stderr, "unexpected old SIGPROF action\n");
            return 1;
        }
        for (int i = 0; i < 5; i++)
            raise(SIGPROF);
        burn(200);
        if (prof_count != 5) {
            fprintf(stderr, "own SIGPROF handler ran %d times, expected 5\n", prof_count);
            return 1;
        }
        signal(SIGSEGV, on_segv);
        int recovered = 0;
        for (int i = 0; i < 3; i++)
            if (sigsetjmp(segv_jmp, 1) == 0)
                *(volatile int *)(uintptr_t)8 = 1;
            else
                recovered++;
        if (recovered != 3)
            return 1;
        signal(SIGPROF, SIG_DFL); /* our timers must not kill the process now */
        burn(200);
        signal(SIGPROF, SIG_IGN);
        raise(SIGPROF);
        burn(100);
        printf("handlers ok\n");
        return 0;
    }
    if (!strcmp(mode, "traps")) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_trap;
        sa.sa_flags = SA_SIGINFO;
        if (sigaction(SIGTRAP, &sa, NULL) != 0 || sigaction(SIGTRAP, NULL, &old) != 0 ||
            old.sa_sigaction != on_trap) {
            fprintf(stderr, "SIGTRAP action not reported back\n");
            return 1;
        }
        for (int i = 0; i < 5; i++) {
            burn(40);
            raise(SIGTRAP);
            burn(40);
            __asm__ volatile("int3");
        }
        if (trap_raised != 5 || trap_int3 != 5 || trap_other != 0) {
            fprintf(stderr, "own SIGTRAP handler saw raised=%d int3=%d other=%d, expected 5 5 0\n",
                    trap_raised, trap_int3, trap_other);
            return 1;
        }
        signal(SIGTRAP, SIG_IGN);
        raise(SIGTRAP);
        burn(100);
        printf("traps ok\n");
        fflush(stdout);
        if (argc > 2 && !strcmp(argv[2], "die")) {
            signal(SIGTRAP, SIG_DFL);
            burn(50);
            raise(SIGTRAP);
            return 1;
        }
        return 0;
    }
    if (!strcmp(mode, "termtrap")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_trap;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGTRAP, &sa, NULL);
        signal(SIGTERM, on_term_trap);
        burn(100);
        raise(SIGTERM);
        return 2; /* not reached: the SIGTERM handler exits */
    }
    if (!strcmp(mode, "abort")) {
        if (argc > 2 && !strcmp(argv[2], "handler"))
            signal(SIGABRT, on_term);
        burn(200);
        abort();
    }
    if (!strcmp(mode, "pipe")) {
        int fds[2];
        if (pipe(fds) != 0)
            return 1;
        close(fds[0]);
        burn(200);
        ssize_t n = write(fds[1], "x", 1); /* SIGPIPE */
        fprintf(stderr, "write returned %zd\n", n);
        return 1;
    }
    if (!strcmp(mode, "ignexec") && argc > 2) {
        signal(SIGINT, SIG_IGN);
        burn(100);
        char *args[] = {argv[2], "raiseint", NULL};
        execv(argv[2], args);
        perror("execv");
        return 1;
    }
    if (!strcmp(mode, "ignspawn") && argc > 2) {
        signal(SIGINT, SIG_IGN);
        signal(SIGPIPE, SIG_IGN);
        burn(100);
        fflush(stdout);
        char *args[] = {argv[2], "raiseint", NULL};
        extern char **environ;
        pid_t c;
        int st;
        if (posix_spawn(&c, argv[2], NULL, NULL, args, environ) != 0 || waitpid(c, &st, 0) != c)
            return 1;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "posix_spawn child: status 0x%x\n", st);
            return 1;
        }
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "'%s' raiseint", argv[2]);
        st = system(cmd);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "system child: status 0x%x\n", st);
            return 1;
        }
        return 0;
    }
    if (!strcmp(mode, "ignrestore")) {
        signal(SIGTERM, SIG_IGN);
        raise(SIGTERM);
        printf("ignored\n");
        fflush(stdout);
        signal(SIGTERM, SIG_DFL);
        burn(100);
        raise(SIGTERM);
        return 0;
    }
    if (!strcmp(mode, "raiseint")) {
        raise(SIGINT);
        printf("survived\n");
        return 0;
    }
    if (!strcmp(mode, "traced") && argc > 2)
        return run_traced(argv + 2);
    if (!strcmp(mode, "exec") && argc > 2) {
        burn(200);
        char *args[] = {argv[2], "spin", "200", NULL};
        execv(argv[2], args);
        perror("execv");
        return 1;
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
