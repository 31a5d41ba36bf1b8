/*
 * rt_thread.c - the thread table and pthread_create interposition.
 *
 * Each thread gets its own CPU-time timer (rt_timer.c) whose SIGPROF is
 * directed at that thread, so a thread is sampled in proportion to the CPU
 * it burns, whatever the scheduler does with process-wide signals.
 * pthread_create is interposed: the new thread first registers itself
 * (thread table row, initial-exec TLS touched here, outside any handler),
 * arms its timer, then runs the target's start routine.  A pthread key
 * destructor disarms and records the thread's CPU time on every exit path
 * (return, pthread_exit, cancellation).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_hooks.h"
#include "rt_internal.h"

static pthread_key_t vp_rt_exit_key;

/* CPU time of thread `tid` of this process (Linux CPU-clock id encoding:
   CPUCLOCK_SCHED of a thread), 0 if it is gone. */
uint64_t vp_rt_thread_cpu_ns(uint32_t tid)
{
    clockid_t clk = (clockid_t)((~(unsigned)tid << 3) | 6);
    return vp_rt_now_ns(clk);
}

/* Takes a thread table row for the calling thread and fills its TLS (the
   first touch of our TLS happens here, not in the handler).  Returns the row,
   or -1 when the table is full (the thread is still sampled; its samples
   just have no THREADS row). */
/* Records the calling thread's stack bounds for the signal path's direct
   stack reads (pthread_getattr_np reads /proc/self/maps for the main thread
   and may allocate: never called from the handler).  Unknown bounds leave
   0: stack reads then go through the syscall. */
static void vp_rt_thread_stack(void)
{
    pthread_attr_t a;
    void *addr = NULL;
    size_t size = 0;
    vp_rt_tls_stack_lo = vp_rt_tls_stack_hi = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0)
        return;
    if (pthread_attr_getstack(&a, &addr, &size) == 0 && addr && size) {
        vp_rt_tls_stack_lo = (uint64_t)(uintptr_t)addr;
        vp_rt_tls_stack_hi = (uint64_t)(uintptr_t)addr + size;
    }
    pthread_attr_destroy(&a);
}

int vp_rt_thread_register(void)
{
    vp_rt_tls_tid = (uint32_t)syscall(SYS_gettid);
    if (!vp_rt_tls_stack_hi) /* a fork child keeps the parent thread's stack */
        vp_rt_thread_stack();
    vp_rt_tls_in_handler = 0;
    uint32_t i = atomic_fetch_add(&vp_rt.thread_next, 1);
    if (i >= vp_rt.max_threads) {
        /* No row, but still sampled: the exit destructor must disarm its
           timer (a perf fd or a POSIX timer per thread; threads past the
           table leaked one each until the program ran out of fds). */
        vp_rt_tls_slot = -1;
        pthread_setspecific(vp_rt_exit_key, (void *)(uintptr_t)((uint64_t)i + 1));
        return -1;
    }
    struct vp_rt_thread *t = &vp_rt.threads[i];
    atomic_store(&t->pc_samples, 0);
    atomic_store(&t->exited, 0);
    atomic_store(&t->perf_fd, -1);
    atomic_store(&t->tid, vp_rt_tls_tid);
    vp_rt_tls_slot = (int)i;
    pthread_setspecific(vp_rt_exit_key, (void *)(uintptr_t)(i + 1));
    return (int)i;
}

static int vp_rt_claim_exited(uint32_t *owner, uint32_t tid)
{
    uint32_t old = __atomic_load_n(owner, __ATOMIC_ACQUIRE);
    if (old == 0 || old == tid || syscall(SYS_tgkill, getpid(), (pid_t)old, 0) == 0 ||
        errno != ESRCH)
        return 0;
    return __atomic_compare_exchange_n(owner, &old, tid, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_RELAXED);
}

void *vp_rt_claim_record(void **head, void **cursor, size_t next_off, size_t owner_off,
                         uint32_t tid)
{
    char *r = __atomic_load_n((char **)cursor, __ATOMIC_ACQUIRE);
    for (int k = 0; k < VP_RT_CLAIM_PROBES; k++) {
        if (!r)
            r = __atomic_load_n((char **)head, __ATOMIC_ACQUIRE);
        if (!r)
            break;
        char *next = *(char **)(r + next_off);
        if (vp_rt_claim_exited((uint32_t *)(r + owner_off), tid)) {
            __atomic_store_n((char **)cursor, next, __ATOMIC_RELEASE);
            return r;
        }
        r = next;
    }
    __atomic_store_n((char **)cursor, r, __ATOMIC_RELEASE);
    return NULL;
}

/* pthread key destructor: the thread is exiting. */
static void vp_rt_thread_exit(void *arg)
{
    int slot = (int)(uintptr_t)arg - 1;
    vp_rt_thread_disarm();
    if (slot >= 0 && (uint32_t)slot < vp_rt.max_threads) {
        vp_rt.threads[slot].cpu_ns = vp_rt_now_ns(CLOCK_THREAD_CPUTIME_ID);
        atomic_store(&vp_rt.threads[slot].exited, 1);
    }
}

/* In a fork child: the only thread is the caller.  Closes the parent's perf
   fds, clears the table, takes row 0 and arms a fresh timer (neither POSIX
   timers nor perf events follow the child). */
void vp_rt_thread_reset_after_fork(void)
{
    vp_rt_timer_after_fork();
    memset(vp_rt.threads, 0, sizeof(struct vp_rt_thread) * vp_rt.max_threads);
    atomic_store(&vp_rt.thread_next, 0);
    vp_rt_thread_register();
    vp_rt_thread_arm();
}

void vp_rt_thread_init(void)
{
    pthread_key_create(&vp_rt_exit_key, vp_rt_thread_exit);
}

struct vp_rt_start {
    void *(*fn)(void *);
    void *arg;
    int prof_held; /* the creator's view of its mask (rt_mask.c) */
};

static void *vp_rt_thread_start(void *p)
{
    struct vp_rt_start st = *(struct vp_rt_start *)p;
    free(p);
    vp_rt_tls_prof_held = st.prof_held;
    /* No cancellation point may act before the target's code runs: the
       timer's set-up closes a descriptor (close is one), and a deferred
       cancel there ended the thread without running its start routine or
       its cleanup handlers, leaking the thread's perf fds. */
    int cancel;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
    vp_rt_thread_register();
    if (atomic_load(&vp_rt.active))
        vp_rt_thread_arm();
    pthread_setcancelstate(cancel, NULL);
    return st.fn(st.arg);
}

/* Interposed pthread_create: wraps the start routine so the new thread is
   registered and its timer armed before the target's code runs.  On
   allocation failure the thread is created unwrapped (unsampled, counted). */
VP_RT_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
                                void *arg)
{
    static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (!real)
        real = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(
            RTLD_NEXT, "pthread_create");
    struct vp_rt_start *st = malloc(sizeof *st);
    if (!st) {
        atomic_fetch_add(&vp_rt.timer_failures, 1);
        return real(th, attr, fn, arg);
    }
    st->fn = fn;
    st->arg = arg;
    st->prof_held = vp_rt_tls_prof_held;
    int rc = real(th, attr, vp_rt_thread_start, st);
    if (rc != 0)
        free(st);
    return rc;
}
