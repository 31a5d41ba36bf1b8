/*
 * rt_timer.c - the timer sources that make SIGPROF arrive, chosen once.
 *
 * Three sources, tried in this order at start-up (VPROF_TIMER=perf|thread|
 * process picks where the chain starts; docs/runtime.md "Timers"):
 *
 *   1. VP_RT_TIMER_PERF: per-thread perf_event task-clock.  The kernel
 *      counts the thread's CPU time with an hrtimer, so overflows come at the
 *      nominal rate (997 per CPU second), not on the scheduler tick.  Two
 *      ways to turn an overflow into a signal to the owning thread:
 *        sigtrap: attr.sigtrap (Linux >= 5.13, with remove_on_exec): the
 *                 kernel sends a synchronous SIGTRAP, si_code TRAP_PERF,
 *                 carrying our sig_data, on the way back to user space.  No
 *                 ring, no wakeup: about half the delivery cost of fasync
 *                 (bench/results/record-overhead.md).  Not used when the
 *                 process is ptraced at start-up (a tracer stops the tracee
 *                 on every SIGTRAP) or with VPROF_PERF_SIGTRAP=0; a SIGTRAP
 *                 that is not ours goes to the target's disposition.
 *        fasync:  O_ASYNC + F_SETSIG SIGPROF + F_SETOWN_EX(F_OWNER_TID).
 *      fasync has two ways to get one signal per overflow, per thread:
 *        ring:    a read-only (overwrite-mode) 1-page ring with
 *                 wakeup_events = 1 and sample_type = 0; every overflow
 *                 writes one 8-byte record and wakes us with si_code POLL_IN.
 *                 Nothing to re-arm; data_head tells how many overflows a
 *                 (possibly coalesced) signal stands for.  Costs 2 pages of
 *                 perf_event_mlock_kb, which is limited per user.
 *        refresh: no ring; PERF_EVENT_IOC_REFRESH 1 disables the event after
 *                 one overflow (si_code POLL_HUP) and the handler re-arms it
 *                 with the same ioctl: one syscall per sample.  Used when the
 *                 ring cannot be mapped (mlock limit).
 *      Kernel time is counted when perf_event_paranoid allows it
 *      (exclude_kernel = 0); otherwise overflows landing in the kernel are
 *      lost (user-only), see docs/runtime.md.
 *   2. VP_RT_TIMER_THREAD: per-thread timer_create(CLOCK_THREAD_CPUTIME_ID),
 *      SIGEV_THREAD_ID.  Expires only on the scheduler tick: the overrun
 *      (si_overrun) is recorded as the sample's weight.
 *   3. VP_RT_TIMER_PROCESS: one setitimer(ITIMER_PROF) for the process.
 *
 * perf file descriptors belong to us, not to the target: created
 * O_CLOEXEC, moved to the lowest free number >= vp_rt.fd_floor (half the
 * RLIMIT_NOFILE soft limit, at most 1024) so they do not take the small
 * numbers a target expects from open(), recorded in the thread table so a
 * fork child can close its parent's, and closed on thread exit only after
 * PERF_EVENT_IOC_ID proves the number still names our event (the target may
 * have closed it and reused the number).
 *
 * Nothing here runs in the signal path except what rt_signal.c calls
 * (vp_rt_timer_weight is there, not here).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

/* Per-thread timer state (initial-exec TLS, first touched outside the
   handler).  vp_rt_tls_perf_* are read by the signal path. */
VP_RT_TLS int vp_rt_tls_perf_fd = -1;      /* our event, or -1                 */
VP_RT_TLS int vp_rt_tls_perf_retired = -1; /* last closed event fd (a signal
                                               may still be pending for it)  */
VP_RT_TLS struct perf_event_mmap_page *vp_rt_tls_perf_ring; /* NULL: refresh */
VP_RT_TLS uint64_t vp_rt_tls_perf_head;    /* data_head at the last signal     */
static VP_RT_TLS timer_t vp_rt_tls_timer;
static VP_RT_TLS int vp_rt_tls_armed;      /* 0, VP_RT_TIMER_PERF or _THREAD   */
VP_RT_TLS uint64_t vp_rt_tls_perf_id;         /* PERF_EVENT_IOC_ID of the event */

static long vp_rt_page_size;
#define VP_RT_RING_PAGES 2 /* user page + one data page (a power of two) */

/* Lowest fd number our perf descriptors are moved to: high enough to stay
   out of the target's way, low enough not to grow its fd table much.  The
   pipe reader's fds too (rt_init.c). */
void vp_rt_fd_floor_init(void)
{
    struct rlimit rl;
    long floor = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (long)(rl.rlim_cur / 2) < floor)
        floor = (long)(rl.rlim_cur / 2);
    vp_rt.fd_floor = floor < 3 ? 3 : (int)floor;
    vp_rt_page_size = sysconf(_SC_PAGESIZE);
}

/* Closes `fd` if it still names the perf event `id`.  Can't fail. */
static void vp_rt_perf_close(int fd, uint64_t id)
{
    uint64_t cur = 0;
    if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ID, &cur) == 0 && cur == id)
        close(fd);
}

/* Opens and arms the calling thread's task-clock event.  Returns 0, or -1
   with nothing left open (errno from the failing step). */
static int vp_rt_perf_arm(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.sample_period = vp_rt.period_ns; /* task-clock counts ns */
    a.sample_type = 0;                                 /* 8-byte records      */
    a.disabled = 1;
    a.exclude_hv = 1;
    a.exclude_kernel = (unsigned)vp_rt.perf_user_only;
    if (vp_rt.perf_sigtrap) {
        a.sigtrap = 1;
        a.remove_on_exec = 1; /* required with sigtrap */
        a.sig_data = VP_RT_SIGTRAP_DATA;
    } else {
        a.wakeup_events = 1;
    }
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && !vp_rt.perf_user_only && (errno == EACCES || errno == EPERM)) {
        /* perf_event_paranoid >= 2: only user-space counting is allowed */
        a.exclude_kernel = 1;
        fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0)
            vp_rt.perf_user_only = 1; /* start-up (main thread) or same answer */
    }
    if (fd < 0)
        return -1;
    if (fd < vp_rt.fd_floor) {
        int high = fcntl(fd, F_DUPFD_CLOEXEC, vp_rt.fd_floor);
        if (high >= 0) {
            close(fd);
            fd = high;
        }
    }
    uint64_t id = 0;
    if (ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0) {
        close(fd);
        return -1;
    }
    void *ring = MAP_FAILED;
    if (!vp_rt.perf_sigtrap) {
        struct f_owner_ex own = {F_OWNER_TID, (pid_t)vp_rt_tls_tid};
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETOWN_EX, &own) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
            fcntl(fd, F_SETFL, fl | O_ASYNC) != 0) {
            close(fd);
            return -1;
        }
        /* Read-only mapping = overwrite mode: the kernel never stops writing
           for lack of room, so nothing in the handler has to consume records. */
        if (!vp_rt.perf_no_ring)
            ring = mmap(NULL, VP_RT_RING_PAGES * vp_rt_page_size, PROT_READ, MAP_SHARED, fd, 0);
    }
    vp_rt_tls_perf_head = 0;
    vp_rt_tls_perf_id = id;
    vp_rt_tls_perf_ring = ring == MAP_FAILED ? NULL : ring;
    vp_rt_tls_perf_fd = fd; /* from here on a signal from fd is ours */
    int rc = vp_rt_tls_perf_ring || vp_rt.perf_sigtrap ? ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)
                                                       : ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
    if (rc != 0) {
        vp_rt_tls_perf_fd = -1;
        if (vp_rt_tls_perf_ring)
            munmap(vp_rt_tls_perf_ring, VP_RT_RING_PAGES * vp_rt_page_size);
        vp_rt_tls_perf_ring = NULL;
        close(fd);
        return -1;
    }
    atomic_fetch_add(vp_rt.perf_sigtrap     ? &vp_rt.perf_trap_threads
                     : vp_rt_tls_perf_ring ? &vp_rt.perf_ring_threads
                                           : &vp_rt.perf_refresh_threads,
                     1);
    if (vp_rt_tls_slot >= 0) {
        vp_rt.threads[vp_rt_tls_slot].perf_id = id;
        atomic_store(&vp_rt.threads[vp_rt_tls_slot].perf_fd, fd);
    }
    vp_rt_tls_armed = VP_RT_TIMER_PERF;
    return 0;
}

/* The signals our sampling handler runs on: SIGPROF, and SIGTRAP when the
   perf events signal with it.  Blocked by whoever must not be interrupted by
   a sample (the writer, a thread closing its event). */
void vp_rt_sample_signals(sigset_t *set)
{
    sigaddset(set, SIGPROF);
    if (vp_rt.perf_sigtrap)
        sigaddset(set, SIGTRAP);
}

/* Stops and closes the calling thread's event.  The sampling signals are
   blocked around it so the handler never sees the ring half-unmapped; a
   signal still pending afterwards is recognised through
   vp_rt_tls_perf_retired (fasync) or its sig_data (sigtrap). */
static void vp_rt_perf_disarm(void)
{
    sigset_t prof, old;
    sigemptyset(&prof);
    vp_rt_sample_signals(&prof);
    vp_rt_sigmask_real(SIG_BLOCK, &prof, &old);
    int fd = vp_rt_tls_perf_fd;
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    if (vp_rt_tls_slot >= 0)
        atomic_store(&vp_rt.threads[vp_rt_tls_slot].perf_fd, -1);
    vp_rt_tls_perf_retired = fd;
    vp_rt_tls_perf_fd = -1;
    if (vp_rt_tls_perf_ring)
        munmap(vp_rt_tls_perf_ring, VP_RT_RING_PAGES * vp_rt_page_size);
    vp_rt_tls_perf_ring = NULL;
    vp_rt_perf_close(fd, vp_rt_tls_perf_id);
    vp_rt_sigmask_real(SIG_SETMASK, &old, NULL);
}

/* Creates and arms the calling thread's timer_create CPU-time timer.
   Returns 0 or -1. */
static int vp_rt_posix_arm(void)
{
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGPROF;
    sev.sigev_value.sival_int = VP_RT_TIMER_COOKIE;
    sev._sigev_un._tid = (pid_t)vp_rt_tls_tid;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &vp_rt_tls_timer) != 0)
        return -1;
    struct itimerspec its;
    long ns = (long)vp_rt.period_ns;
    its.it_interval.tv_sec = ns / 1000000000L;
    its.it_interval.tv_nsec = ns % 1000000000L;
    its.it_value = its.it_interval;
    if (timer_settime(vp_rt_tls_timer, 0, &its, NULL) != 0) {
        timer_delete(vp_rt_tls_timer);
        return -1;
    }
    vp_rt_tls_armed = VP_RT_TIMER_THREAD;
    return 0;
}

/* Arms (on = 1) or stops (on = 0) the process-wide ITIMER_PROF fallback.
   Returns setitimer's result. */
int vp_rt_arm_process_timer(int on)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (on) {
        long us = 1000000L / vp_rt.freq_hz;
        if (us < 1)
            us = 1;
        it.it_interval.tv_sec = us / 1000000L;
        it.it_interval.tv_usec = us % 1000000L;
        it.it_value = it.it_interval;
    }
    return setitimer(ITIMER_PROF, &it, NULL);
}

/* Arms the calling (registered) thread with the source chosen at start-up.
   In perf mode a thread whose event cannot be opened (fd or mlock limits)
   falls back to a timer_create timer and counts in vp_loss.timer_failures,
   since its rate is then tick-limited.  Returns 0, or -1 (counted). */
int vp_rt_thread_arm(void)
{
    atomic_fetch_add(&vp_rt.nthreads, 1);
    switch (vp_rt.timer_mode) {
    case VP_RT_TIMER_PERF:
        if (vp_rt_perf_arm() == 0)
            return 0;
        atomic_fetch_add(&vp_rt.timer_failures, 1);
        return vp_rt_posix_arm();
    case VP_RT_TIMER_THREAD:
        if (vp_rt_posix_arm() == 0)
            return 0;
        atomic_fetch_add(&vp_rt.timer_failures, 1);
        return -1;
    default:
        return 0; /* the process timer covers every thread */
    }
}

/* Stops the calling thread's timer.  No new SIGPROF is generated for it; one
   may still be pending, and the handler still recognises it as ours. */
void vp_rt_thread_disarm(void)
{
    if (vp_rt_tls_armed == VP_RT_TIMER_PERF)
        vp_rt_perf_disarm();
    else if (vp_rt_tls_armed == VP_RT_TIMER_THREAD)
        timer_delete(vp_rt_tls_timer);
    vp_rt_tls_armed = 0;
}

/* In a fork child, before the thread table is cleared: the child inherited
   the descriptors of every parent thread's event (not their rings: perf
   mappings are VM_DONTCOPY, nor their POSIX timers).  Close those fds and
   forget this thread's parent state.  A parent thread that was between
   perf_event_open and recording its fd at fork time leaks one fd into the
   child (O_CLOEXEC still applies). */
void vp_rt_timer_after_fork(void)
{
    uint32_t n = atomic_load(&vp_rt.thread_next);
    if (n > vp_rt.max_threads)
        n = vp_rt.max_threads;
    for (uint32_t i = 0; i < n; i++) {
        int fd = atomic_load(&vp_rt.threads[i].perf_fd);
        if (fd >= 0)
            vp_rt_perf_close(fd, vp_rt.threads[i].perf_id);
    }
    vp_rt_tls_perf_fd = -1;
    vp_rt_tls_perf_retired = -1;
    vp_rt_tls_perf_ring = NULL; /* not mapped in the child */
    vp_rt_tls_armed = 0;
    atomic_store(&vp_rt.perf_ring_threads, 0);
    atomic_store(&vp_rt.perf_refresh_threads, 0);
    atomic_store(&vp_rt.perf_trap_threads, 0);
}

static const char *const vp_rt_timer_names[] = {"", "thread", "process", "perf"};

/* Name of a timer mode for VPROF_DEBUG and VPROF_TIMER. */
const char *vp_rt_timer_name(int mode)
{
    return mode >= 1 && mode <= 3 ? vp_rt_timer_names[mode] : "none";
}

/* Is this process being ptraced?  (TracerPid in /proc/self/status; 0 when
   it cannot be read.) */
static int vp_rt_traced(void)
{
    char buf[2048];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    const char *t = strstr(buf, "\nTracerPid:");
    return t && strtol(t + 11, NULL, 10) != 0;
}

/* Is this process running under valgrind?  Its core is preloaded
   (vgpreload_core-<arch>.so in LD_PRELOAD).  valgrind runs the program on
   its own CPU emulation and cannot take a perf event's synchronous SIGTRAP:
   it stops the program at the first sample ("Valgrind received a signal
   5", valgrind 3.19; docs/runtime.md). */
static int vp_rt_under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload_core") != NULL;
}

static int vp_rt_first_timer = VP_RT_TIMER_PERF;

/* Start-up, before the signal handlers are installed: reads the timer
   settings (VPROF_TIMER, VPROF_PERF_RING, VPROF_PERF_SIGTRAP) and decides
   whether perf events will signal with SIGTRAP, so that SIGTRAP is hooked
   before any event exists.  VPROF_PERF_SIGTRAP: unset = where the
   kernel allows, no tracer is attached and valgrind is not running the
   program, 0 = never (fasync), 1 = even under ptrace or valgrind
   (testing). */
void vp_rt_timer_prepare(void)
{
    const char *force = getenv("VPROF_TIMER");
    if (force && strcmp(force, "thread") == 0)
        vp_rt_first_timer = VP_RT_TIMER_THREAD;
    else if (force && strcmp(force, "process") == 0)
        vp_rt_first_timer = VP_RT_TIMER_PROCESS;
    else if (force && *force && strcmp(force, "perf") != 0)
        vp_rt_log("ignoring VPROF_TIMER (expected perf, thread or process): ", force);
    vp_rt.perf_no_ring = getenv("VPROF_PERF_RING") && strcmp(getenv("VPROF_PERF_RING"), "0") == 0;
    const char *trap = getenv("VPROF_PERF_SIGTRAP");
    if (trap && *trap && strcmp(trap, "0") != 0 && strcmp(trap, "1") != 0) {
        vp_rt_log("ignoring VPROF_PERF_SIGTRAP (expected 0 or 1): ", trap);
        trap = NULL;
    }
    int want = vp_rt_first_timer == VP_RT_TIMER_PERF;
    if (trap && strcmp(trap, "0") == 0)
        want = 0;
    else if (!(trap && strcmp(trap, "1") == 0) && want)
        want = !vp_rt_traced() && !vp_rt_under_valgrind();
    vp_rt.perf_sigtrap = want;
}

/* Start-up, main thread registered, before any other thread exists: picks the
   source (perf with sigtrap, perf with fasync, else timer_create, else
   setitimer; VPROF_TIMER says where to start) and arms the main thread with
   it.  Never called again: threads created later use vp_rt.timer_mode.
   Returns 0, or -1 when no timer works (logged; the run is then not
   sampled). */
int vp_rt_timer_start(void)
{
    vp_rt_fd_floor_init();
    int first = vp_rt_first_timer;
    if (first == VP_RT_TIMER_PERF) {
        vp_rt.timer_mode = VP_RT_TIMER_PERF;
        if (vp_rt.perf_sigtrap) {
            if (vp_rt_perf_arm() == 0) {
                atomic_store(&vp_rt.nthreads, 1);
                return 0;
            }
            vp_rt.perf_sigtrap = 0; /* kernel before 5.13: fasync */
            vp_rt_unhook_trap();
        }
        if (vp_rt_perf_arm() == 0) {
            atomic_store(&vp_rt.nthreads, 1);
            return 0;
        }
        first = VP_RT_TIMER_THREAD;
    }
    if (first == VP_RT_TIMER_THREAD) {
        vp_rt.timer_mode = VP_RT_TIMER_THREAD;
        if (vp_rt_posix_arm() == 0) {
            atomic_store(&vp_rt.nthreads, 1);
            return 0;
        }
    }
    vp_rt.timer_mode = VP_RT_TIMER_PROCESS;
    atomic_store(&vp_rt.nthreads, 1);
    if (vp_rt_arm_process_timer(1) != 0) {
        vp_rt_log("cannot arm any profiling timer; no samples will be taken", NULL);
        atomic_store(&vp_rt.timer_failures, 1);
        return -1;
    }
    return 0;
}
