/*
 * rt_init.c - start-up and process life cycle of libvprof-rt.so.
 *
 * The library is injected with LD_PRELOAD; its constructor reads the
 * environment contract (docs/runtime.md), maps the buffers and the PC index,
 * records the unwind tables, installs the signal handlers, and arms the timers last.
 * It also owns: fork (pthread_atfork child: fresh buffers, own file), exit
 * (atexit, exit/_exit interposition), and the target's view of the signal
 * dispositions we keep (sigaction/signal interposition).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rt_internal.h"

struct vp_rt_state vp_rt = {.exit_status = -1};

/* rt_hooks.h */
uint64_t vp_rt_env_u64(const char *name, uint64_t def, uint64_t lo, uint64_t hi)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        fprintf(stderr, "vprof-rt: ignoring %s=%s (expected %llu..%llu)\n", name, s,
                (unsigned long long)lo, (unsigned long long)hi);
        return def;
    }
    return v;
}

static int (*vp_rt_real(const char *name))(void)
{
    return (int (*)(void))dlsym(RTLD_NEXT, name);
}

/* Component registry (rt_hooks.h).  Components register from constructors,
   which may run before ours, so this only appends. */
VP_RT_EXPORT int vp_rt_register_component(const struct vp_rt_component *c)
{
    int i = atomic_load(&vp_rt.component_count);
    if (i >= VP_RT_MAX_COMPONENTS || !c)
        return -1;
    vp_rt.components[i] = c;
    atomic_store(&vp_rt.component_count, i + 1);
    return 0;
}

void vp_rt_components_fork_child(void)
{
    int n = atomic_load(&vp_rt.component_count);
    for (int i = 0; i < n; i++)
        if (vp_rt.components[i]->after_fork_child)
            vp_rt.components[i]->after_fork_child();
}

/* Signal path too: does `fd` still name the pipe reader's pipe?  A target
   that closes its descriptors and opens files may get our numbers; then
   the reader must neither write target memory into its file nor read (or
   close) it.  fstat is async-signal-safe. */
int vp_rt_pipe_ours(int fd)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
           (uint64_t)st.st_dev == vp_rt.pipe_dev && (uint64_t)st.st_ino == vp_rt.pipe_ino;
}

/* Opens the pipe reader's pipe, both ends moved to >= vp_rt.fd_floor (out
   of the range a target's open() hands out), and records its identity. */
static void vp_rt_pipe_open(void)
{
    int p[2];
    struct stat st;
    vp_rt.pipe_fds[0] = vp_rt.pipe_fds[1] = -1;
    if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    for (int i = 0; i < 2; i++)
        if (p[i] < vp_rt.fd_floor) {
            int high = fcntl(p[i], F_DUPFD_CLOEXEC, vp_rt.fd_floor);
            if (high >= 0) {
                close(p[i]);
                p[i] = high;
            }
        }
    if (fstat(p[0], &st) != 0) {
        close(p[0]);
        close(p[1]);
        return;
    }
    vp_rt.pipe_dev = (uint64_t)st.st_dev;
    vp_rt.pipe_ino = (uint64_t)st.st_ino;
    vp_rt.pipe_fds[0] = p[0];
    vp_rt.pipe_fds[1] = p[1];
}

/* Picks process_vm_readv if it works on our own memory (it may be denied by
   seccomp or ptrace policy), else the pipe fallback. */
static void vp_rt_choose_reader(void)
{
    const char *force = getenv("VPROF_SAFE_READ");
    uint64_t probe = 0x1122334455667788ull, got = 0;
    struct iovec l = {&got, 8}, r = {&probe, 8};
    if (!(force && strcmp(force, "pipe") == 0) &&
        syscall(SYS_process_vm_readv, vp_rt.pid, &l, 1UL, &r, 1UL, 0UL) == 8 && got == probe) {
        vp_rt.read_mode = VP_RT_READ_VM;
        return;
    }
    vp_rt.read_mode = VP_RT_READ_PIPE;
    vp_rt_fd_floor_init();
    vp_rt_pipe_open();
    if (vp_rt.pipe_fds[0] < 0) { /* every read: unreadable */
        vp_rt_log("no safe reader (process_vm_readv and pipe failed); values unreadable", NULL);
    }
}

static void vp_rt_atexit(void)
{
    if (!atomic_load(&vp_rt.active) || getpid() != vp_rt.pid || atomic_load(&vp_rt.final_written))
        return;
    if (vp_rt_write_profile(VP_RT_WRITE_EXIT) == 0)
        atomic_store(&vp_rt.final_written, 1);
}

/* fork: no thread may be inside a sampling handler when the process is
   copied.  Until 2026-11-24 a handler held a lock while it unwound
   (libunwind's mempool lock, taken with every signal blocked, when it parsed
   an FDE); a child inheriting it locked would wait forever at its first
   sample needing it, deaf to SIGTERM: a fork child hung that way under a
   loaded CI run (stress.fork, 2026-11-22).  The runtime's own stepper
   (rt_unwind.c) takes no lock; the pause stays so a child never starts from
   a half-made sample (a shared scratch slice held, say).  So the prepare handler
   makes the handlers stand off and waits for those running (as a write
   does, at most ~0.5 s), and the parent resumes after the fork; the child
   starts afresh below.  Only a pause the prepare handler began is undone: a
   write in progress keeps its own. */
static _Atomic int vp_rt_fork_paused;

static void vp_rt_fork_prepare(void)
{
    if (!atomic_load(&vp_rt.active) || atomic_load(&vp_rt.paused))
        return;
    vp_rt_pause_sampling();
    atomic_store(&vp_rt_fork_paused, 1);
}

static void vp_rt_fork_parent(void)
{
    if (atomic_exchange(&vp_rt_fork_paused, 0))
        vp_rt_resume_sampling();
}

/* fork child: a new process with one thread; profile it into its own file. */
static void vp_rt_fork_child(void)
{
    atomic_store(&vp_rt_fork_paused, 0);
    if (!atomic_load(&vp_rt.active))
        return;
    vp_rt.pid = getpid();
    vp_rt.ppid = getppid();
    vp_rt.flags = VP_PROFF_FORKED;
    vp_rt.modules_stale = 0;
    vp_rt_modules_after_fork();
    vp_rt.exec_seq = 0;
    vp_rt.exit_status = -1;
    vp_rt.start_ns = vp_rt_now_ns(CLOCK_REALTIME);
    vp_rt_tls_jitter_state = 0; /* not the parent's sequence of periods */
    madvise(vp_rt.pc_buf, vp_rt.max_samples * vp_rt.pc_slot_size, MADV_DONTNEED);
    madvise(vp_rt.val_buf, vp_rt.max_values * sizeof(struct vp_rt_value), MADV_DONTNEED);
    madvise(vp_rt.vframes, vp_rt.max_vframes * sizeof(struct vp_rt_vframe), MADV_DONTNEED);
    atomic_store(&vp_rt.scratch_busy, 0);
    _Atomic uint64_t *counters[] = {&vp_rt.pc_next, &vp_rt.val_next, &vp_rt.vframe_next,
                                    &vp_rt.seq, &vp_rt.signals,
                                    &vp_rt.pc_samples, &vp_rt.pc_dropped, &vp_rt.value_samples,
                                    &vp_rt.values_dropped, &vp_rt.values_unreadable,
                                    &vp_rt.unwind_errors, &vp_rt.reentrant, &vp_rt.nthreads,
                                    &vp_rt.timer_failures, &vp_rt.in_flight_skipped,
                                    &vp_rt.foreign_signals, &vp_rt.handler_ns,
                                    &vp_rt.handler_calls, &vp_rt.dl_iterate_in_handler};
    for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
        atomic_store(counters[i], 0);
    atomic_store(&vp_rt.in_flight, 0);
    atomic_store(&vp_rt.writing, 0);
    atomic_store(&vp_rt.final_written, 0);
    atomic_store(&vp_rt.pipe_busy, 0);
    if (vp_rt.read_mode == VP_RT_READ_PIPE) { /* the parent's pipe is shared */
        for (int i = 0; i < 2; i++) /* unless the target reused the numbers */
            if (vp_rt_pipe_ours(vp_rt.pipe_fds[i]))
                close(vp_rt.pipe_fds[i]);
        vp_rt_pipe_open();
    }
    vp_rt_components_fork_child();
    atomic_store(&vp_rt.paused, 0);
    vp_rt_thread_reset_after_fork();
    if (vp_rt.timer_mode == VP_RT_TIMER_PROCESS)
        vp_rt_arm_process_timer(1); /* itimers are not inherited by fork */
}

/* The signals whose default action ends the process (with or without a
   core dump) and that a run may well end by: a kill or ^C, abort() (an
   assertion, a watchdog), a write to a closed pipe (`| head`), alarm(),
   the CPU or file-size limit, a hang-up, ^\.  While the target leaves one
   at SIG_DFL, our handler writes the profile and then dies by it; a
   handler the target installs is recorded and called instead, SIG_IGN
   ignores it.  Not hooked: the faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL),
   after which writing is not safe, and SIGKILL/SIGSTOP, which cannot be. */
const int vp_rt_fatal_signals[VP_RT_NFATAL] = {SIGTERM, SIGINT,  SIGHUP,  SIGQUIT, SIGABRT,
                                               SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ};

int vp_rt_fatal_index(int sig)
{
    for (int i = 0; i < VP_RT_NFATAL; i++)
        if (vp_rt_fatal_signals[i] == sig)
            return i;
    return -1;
}

/* Installs our handler for `sig`, remembering the disposition we replace as
   the target's own (so it keeps being honoured). */
static int vp_rt_hook(int sig, void (*fn)(int, siginfo_t *, void *), struct sigaction *target)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    /* Every asynchronous signal is blocked while our handler runs.  A
       writer running in a signal handler must never interrupt our SIGPROF
       handler on the same thread (it would wait for it), and a target's
       handler that leaves by siglongjmp (a SIGUSR1 or SIGALRM timeout)
       must not leave ours halfway: the thread's in-handler mark stayed set
       and every later sample was refused as re-entrant, and each fork then
       waited its full 0.5 s for the sampler to pause (found dogfooding,
       2026-11-24; stress test sigjmp.sh).  They are delivered when it
       returns.  The synchronous ones are not blocked: SIGTRAP (these
       handlers chain to the target's own, and a breakpoint (int3) hit while
       SIGTRAP is blocked makes the kernel reset SIGTRAP to SIG_DFL, after
       which the next sample would kill the process; the writer blocks the
       sampling signals itself, vp_rt_sample_signals, and a SIGTRAP sampling
       handler blocks SIGTRAP while it runs, as any handler blocks its own
       signal), nor a fault in a chained handler (blocked, the kernel would
       kill the process instead of running the target's handler). */
    sigfillset(&sa.sa_mask);
    static const int sync_signals[] = {SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS};
    for (size_t i = 0; i < sizeof sync_signals / sizeof *sync_signals; i++)
        sigdelset(&sa.sa_mask, sync_signals[i]);
    return vp_rt.real_sigaction(sig, &sa, target);
}

/* Hooks each fatal signal the target does not ignore (an ignored one stays
   ignored: `nohup`, a shell's background job). */
static void vp_rt_hook_fatal(void)
{
    for (int i = 0; i < VP_RT_NFATAL; i++) {
        struct sigaction cur;
        int sig = vp_rt_fatal_signals[i];
        vp_rt.hooked_fatal[i] = 0;
        if (vp_rt.real_sigaction(sig, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
            vp_rt.hooked_fatal[i] =
                vp_rt_hook(sig, vp_rt_terminate_handler, &vp_rt.target_fatal[i]) == 0;
    }
}

/* Before exec: the kernel gets the target's own disposition of each fatal
   signal we hooked, which is what the new image inherits (a handler
   becomes SIG_DFL, SIG_IGN stays).  Before 2026-11-22 our handler was in
   place, so a signal the target had set to SIG_IGN after start-up reached
   the new image as SIG_DFL.  SIGPROF and SIGTRAP keep our handler: another
   thread's timer may still fire before the exec completes, and SIG_DFL
   would end the process (an ignored SIGPROF/SIGTRAP still reaches the new
   image as SIG_DFL). */
void vp_rt_signals_for_exec(void)
{
    for (int i = 0; i < VP_RT_NFATAL; i++)
        if (vp_rt.hooked_fatal[i])
            vp_rt.real_sigaction(vp_rt_fatal_signals[i], &vp_rt.target_fatal[i], NULL);
}

/* The kernel disposition of hooked fatal signal `i` for the target's
   recorded action: SIG_IGN when the target ignores it, else our handler.
   An ignored signal cannot end the process, so there is nothing to write
   for it, and a real SIG_IGN is what children inherit: posix_spawn (and so
   system and popen) resets every handled signal to SIG_DFL in the child and
   keeps ignored ones ignored.  Before 2026-11-22 our handler stayed in
   place, and a SIGINT or SIGPIPE the target had ignored killed its spawned
   children (rt test `fatal`, t_cpu ignspawn). */
static void vp_rt_fatal_install(int i)
{
    if (vp_rt.target_fatal[i].sa_handler == SIG_IGN)
        vp_rt.real_sigaction(vp_rt_fatal_signals[i], &vp_rt.target_fatal[i], NULL);
    else
        vp_rt_hook(vp_rt_fatal_signals[i], vp_rt_terminate_handler, NULL);
}

/* exec failed: our handlers again, the target's dispositions kept as they
   were. */
void vp_rt_signals_after_exec(void)
{
    for (int i = 0; i < VP_RT_NFATAL; i++)
        if (vp_rt.hooked_fatal[i])
            vp_rt_fatal_install(i);
}

__attribute__((constructor(101))) static void vp_rt_init(void)
{
    vp_rt.real_sigaction =
        (int (*)(int, const struct sigaction *, struct sigaction *))vp_rt_real("sigaction");
    vp_rt_mask_init();
    /* A set-user-ID / set-group-ID (or file-capability) process: its
       environment came from a less privileged user, so do nothing at all:
       no timers, no files, no environment changes (the interposers pass
       through while vp_rt.active is 0).  The dynamic loader normally does
       not preload us into such a process anyway; this covers a runtime
       installed where it does.  VPROF_ALLOW_SETUID=1 overrides. */
    if (getauxval(AT_SECURE)) {
        const char *allow = getenv("VPROF_ALLOW_SETUID");
        if (!allow || strcmp(allow, "1") != 0)
            return;
    }
    vp_rt.pid = getpid();
    vp_rt.ppid = getppid();
    vp_rt.start_ns = vp_rt_now_ns(CLOCK_REALTIME);
    vp_rt.exit_status = -1;

    /* environment contract (docs/runtime.md) */
    const char *out = getenv("VPROF_OUTPUT");
    if (!out || !*out)
        out = "vprof.out";
    if (out[0] == '/') {
        snprintf(vp_rt.output, sizeof vp_rt.output, "%s", out);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            snprintf(cwd, sizeof cwd, ".");
        snprintf(vp_rt.output, sizeof vp_rt.output, "%s/%s", cwd, out);
    }
    const char *um = getenv("VPROF_UNLOCKED_MODULES"); /* 0: testing, docs/runtime.md */
    vp_rt.locked_modules_only = um && um[0] == '0';
    const char *ix = getenv("VPROF_INDEX");
    if (ix && *ix)
        snprintf(vp_rt.index_path, sizeof vp_rt.index_path, "%s", ix);
    vp_rt.freq_hz = (uint32_t)vp_rt_env_u64("VPROF_FREQ", VP_RT_DEFAULT_FREQ, 1, 100000);
    vp_rt.period_ns = 1000000000ull / vp_rt.freq_hz;
    vp_rt.depth = (uint32_t)vp_rt_env_u64("VPROF_DEPTH", VP_RT_DEFAULT_DEPTH, 0, VP_RT_MAX_DEPTH);
    /* the stacks go deeper than the variables read: a loop's share of the
       run (vprof-loop) and a flame graph need the callers beyond the
       third, reading variables there would cost more (docs/runtime.md) */
    vp_rt.stack_depth = (uint32_t)vp_rt_env_u64("VPROF_STACK_DEPTH", VP_RT_DEFAULT_STACK_DEPTH, 0,
                                                VP_RT_MAX_DEPTH);
    if (vp_rt.stack_depth < vp_rt.depth)
        vp_rt.stack_depth = vp_rt.depth;
    vp_rt.max_samples = vp_rt_env_u64("VPROF_MAX_SAMPLES", VP_RT_DEFAULT_MAX_SAMPLES, 1, 1ull << 32);
    vp_rt.max_values = vp_rt_env_u64("VPROF_MAX_VALUES", vp_rt.max_samples * VP_RT_VALUES_PER_SAMPLE,
                                     0, 1ull << 34);
    vp_rt.max_threads = (uint32_t)vp_rt_env_u64("VPROF_MAX_THREADS", VP_RT_MAX_THREADS, 1, 1u << 20);
    vp_rt.flush_signal = (int)vp_rt_env_u64("VPROF_FLUSH_SIGNAL", 0, 0, 64);
    if (vp_rt.flush_signal && (vp_rt.flush_signal < SIGRTMIN || vp_rt.flush_signal > SIGRTMAX)) {
        fprintf(stderr, "vprof-rt: VPROF_FLUSH_SIGNAL=%d is not a real-time signal; ignored\n",
                vp_rt.flush_signal);
        vp_rt.flush_signal = 0;
    }
    vp_rt.debug = vp_rt_env_u64("VPROF_DEBUG", 0, 0, 1) != 0;
    /* VPROF_VALUES=0: PC samples and callers only, the index is loaded (and
       written) but never evaluated: the cost floor of a sample. */
    vp_rt.no_values = vp_rt_env_u64("VPROF_VALUES", 1, 0, 1) == 0;
    /* VPROF_JITTER=0: a fixed perf period (docs/runtime.md, "Jittered
       periods") */
    vp_rt.jitter = vp_rt_env_u64("VPROF_JITTER", 1, 0, 1) != 0;
    vp_rt.root_pid = (pid_t)vp_rt_env_u64("VPROF_ROOT_PID", 0, 0, INT_MAX);
    if (vp_rt.root_pid == 0) { /* preloaded by hand: we are the root */
        char buf[16];
        vp_rt.root_pid = vp_rt.pid;
        snprintf(buf, sizeof buf, "%d", (int)vp_rt.pid);
        setenv("VPROF_ROOT_PID", buf, 1);
    }
    const char *es = getenv("VPROF_EXEC_SEQ"); /* "<pid>:<n>", set by rt_exec.c */
    if (es) {
        long p = strtol(es, NULL, 10);
        const char *colon = strchr(es, ':');
        if (p == vp_rt.pid && colon) {
            vp_rt.exec_seq = (uint32_t)strtoul(colon + 1, NULL, 10);
            vp_rt.flags |= VP_PROFF_EXECED;
        }
    }
    if (vp_rt.pid != vp_rt.root_pid && !(vp_rt.flags & VP_PROFF_EXECED))
        vp_rt.flags |= VP_PROFF_FORKED; /* a child (fork + exec) of the traced process */
    vp_rt_exec_init(); /* our environment, for the images we exec */

    /* buffers: reserved now, backed lazily (MAP_NORESERVE) */
    vp_rt.pc_slot_size = (uint32_t)(sizeof(struct vp_pc_sample) + 8 * vp_rt.stack_depth);
    int prot = PROT_READ | PROT_WRITE, fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    vp_rt.pc_buf = mmap(NULL, vp_rt.max_samples * vp_rt.pc_slot_size, prot, fl, -1, 0);
    vp_rt.val_buf = vp_rt.max_values
                        ? mmap(NULL, vp_rt.max_values * sizeof(struct vp_rt_value), prot, fl, -1, 0)
                        : NULL;
    /* every frame entry carries at least one value */
    vp_rt.max_vframes = vp_rt.max_values < VP_RT_MAX_VFRAMES ? vp_rt.max_values : VP_RT_MAX_VFRAMES;
    vp_rt.vframes = vp_rt.max_vframes
                        ? mmap(NULL, vp_rt.max_vframes * sizeof(struct vp_rt_vframe), prot, fl, -1, 0)
                        : NULL;
    vp_rt.threads = mmap(NULL, sizeof(struct vp_rt_thread) * vp_rt.max_threads, prot, fl, -1, 0);
    vp_rt.scratch = mmap(NULL, (size_t)VP_RT_SCRATCH_SLOT * (vp_rt.max_threads + 1), prot, fl, -1, 0);
    vp_rt.modlists[0] = mmap(NULL, sizeof(struct vp_rt_modlist), prot, fl, -1, 0);
    vp_rt.modlists[1] = mmap(NULL, sizeof(struct vp_rt_modlist), prot, fl, -1, 0);
    if (vp_rt.pc_buf == MAP_FAILED || vp_rt.val_buf == MAP_FAILED ||
        vp_rt.vframes == MAP_FAILED || vp_rt.threads == MAP_FAILED || vp_rt.scratch == MAP_FAILED ||
        vp_rt.modlists[0] == MAP_FAILED || vp_rt.modlists[1] == MAP_FAILED) {
        vp_rt_log("cannot map the sample buffers; profiling disabled", NULL);
        return;
    }

    if (vp_rt.index_path[0])
        vp_rt.have_index = vp_rt_index_load(vp_rt.index_path, &vp_rt.index) == 0;
    vp_rt_modules_scan(vp_rt.modlists[0]);
    vp_rt_choose_reader();
    vp_rt_thread_init();
    vp_rt_unwind_prepare();
    vp_rt_direct_init();

    int nc = atomic_load(&vp_rt.component_count);
    for (int i = 0; i < nc; i++)
        if (vp_rt.components[i]->init)
            vp_rt.components[i]->init();

    /* signals: SIGPROF always ours, SIGTRAP when perf events signal with
       it (undone by vp_rt_timer_start if the kernel refuses sigtrap);
       SIGTERM/SIGINT unless ignored */
    vp_rt_timer_prepare();
    memset(&vp_rt.target_prof, 0, sizeof vp_rt.target_prof);
    vp_rt_hook(SIGPROF, vp_rt_signal_handler, &vp_rt.target_prof);
    vp_rt.hooked_prof = 1;
    if (vp_rt.perf_sigtrap)
        vp_rt.hooked_trap = vp_rt_hook(SIGTRAP, vp_rt_signal_handler, &vp_rt.target_trap) == 0;
    vp_rt.perf_sigtrap = vp_rt.hooked_trap;
    vp_rt_hook_fatal();
    if (vp_rt.flush_signal)
        vp_rt_hook(vp_rt.flush_signal, vp_rt_flush_handler, NULL);

    atexit(vp_rt_atexit);
    at_quick_exit(vp_rt_atexit); /* registered first: runs after the program's */
    pthread_atfork(vp_rt_fork_prepare, vp_rt_fork_parent, vp_rt_fork_child);

    /* timers last, chosen once (rt_timer.c): perf task-clock per thread,
       else timer_create per thread, else the process-wide itimer */
    atomic_store(&vp_rt.active, 1);
    vp_rt_thread_register();
    vp_rt_timer_start();
    vp_rt_mask_unblock();
}

/* ---- interposed libc entry points (normal context) ---------------------- */

static struct sigaction *vp_rt_kept(int sig)
{
    if (sig == SIGPROF && vp_rt.hooked_prof)
        return &vp_rt.target_prof;
    int f = vp_rt_fatal_index(sig);
    if (f >= 0 && vp_rt.hooked_fatal[f])
        return &vp_rt.target_fatal[f];
    if (sig == SIGTRAP && vp_rt.hooked_trap)
        return &vp_rt.target_trap;
    return NULL;
}

/* Start-up, no other thread yet: perf events will not signal with SIGTRAP
   after all; give the target's SIGTRAP disposition back. */
void vp_rt_unhook_trap(void)
{
    if (!vp_rt.hooked_trap)
        return;
    vp_rt.hooked_trap = 0;
    vp_rt.real_sigaction(SIGTRAP, &vp_rt.target_trap, NULL);
}

/* sigaction: for SIGPROF (and the fatal signals we hooked) the
   target's action is recorded and honoured by our handler instead of
   replacing it; `old` reports the target's previous action. */
VP_RT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (!vp_rt.real_sigaction)
        vp_rt.real_sigaction =
            (int (*)(int, const struct sigaction *, struct sigaction *))vp_rt_real("sigaction");
    struct sigaction *kept = vp_rt_kept(sig);
    if (!kept) {
        /* a handler's mask never holds our sampling signals (rt_mask.c) */
        struct sigaction mine;
        if (act && vp_rt_mask_strip(&act->sa_mask, &mine.sa_mask) != &act->sa_mask) {
            sigset_t m = mine.sa_mask;
            mine = *act;
            mine.sa_mask = m;
            act = &mine;
        }
        return vp_rt.real_sigaction(sig, act, old);
    }
    sigset_t all, saved;
    sigfillset(&all);
    vp_rt_sigmask_real(SIG_BLOCK, &all, &saved);
    if (old)
        *old = *kept;
    if (act) {
        int was_ignored = kept->sa_handler == SIG_IGN;
        *kept = *act;
        int f = vp_rt_fatal_index(sig);
        if (f >= 0 && was_ignored != (act->sa_handler == SIG_IGN))
            vp_rt_fatal_install(f);
    }
    vp_rt_sigmask_real(SIG_SETMASK, &saved, NULL);
    return 0;
}

VP_RT_EXPORT sighandler_t signal(int sig, sighandler_t fn)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

/* Remembers the status for the header, then calls the real function
   `name` (resolved once into *real), which writes the profile through its
   handlers. */
static __attribute__((noreturn)) void exit_through(void (**real)(int), const char *name,
                                                   int status)
{
    if (!*real)
        *real = (void (*)(int))vp_rt_real(name);
    if (getpid() == vp_rt.pid)
        vp_rt.exit_status = status;
    (*real)(status);
    __builtin_unreachable();
}

/* exit: its atexit handlers write the profile. */
VP_RT_EXPORT void exit(int status)
{
    static void (*real)(int);
    exit_through(&real, "exit", status);
}

/* quick_exit: its at_quick_exit handlers (ours last) write the profile;
   then glibc's internal _exit. */
VP_RT_EXPORT void quick_exit(int status)
{
    static void (*real)(int);
    exit_through(&real, "quick_exit", status);
}

/* _exit / _Exit skip atexit: write here, unless this is a vfork child
   (shares our memory: getpid() differs from vp_rt.pid) or already written. */
static void vp_rt_before_exit(int status)
{
    if (getpid() != vp_rt.pid || !atomic_load(&vp_rt.active))
        return;
    vp_rt.exit_status = status;
    vp_rt_atexit();
}

VP_RT_EXPORT void _exit(int status)
{
    vp_rt_before_exit(status);
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

VP_RT_EXPORT void _Exit(int status)
{
    vp_rt_before_exit(status);
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}
