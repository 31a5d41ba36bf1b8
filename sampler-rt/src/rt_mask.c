/*
 * rt_mask.c - the signals samples arrive by stay deliverable.
 *
 * A sample is a signal: SIGPROF (POSIX timer, perf fasync, itimer), SIGTRAP
 * (perf sigtrap), and the optional flush signal.  A program that blocks
 * every signal in its threads (servers that leave signals to one thread
 * calling sigwait; event loops that read them all through a signalfd) would
 * otherwise get no samples in those threads, and a signalfd over every
 * signal would hand our SIGTRAPs to the program as if they were its own
 * (found 2026-11-24: a systemd-style loop read "signal 5 code 6" and
 * failed; `vprof record` wrote 0 PC samples).
 *
 * So while the runtime is active, the mask-setting entry points take those
 * signals out of every set they are asked to block, and signalfd out of its
 * set: pthread_sigmask, sigprocmask, signalfd, and the sa_mask of the
 * actions passed to sigaction (a handler that leaves by longjmp keeps its
 * mask).  Start-up unblocks them in the first thread, in case the launcher
 * of this image had them blocked.  A mask the program reads back shows
 * SIGPROF as it asked (vp_rt_tls_prof_held); a kept SIGTRAP or flush
 * signal reads back unblocked.  Our handler touches no program
 * state, so running it where the program meant to hold signals off is
 * safe; that is the premise of every signal-based sampler.  Not covered:
 * raw rt_sigprocmask syscalls, setcontext (it restores a mask that
 * getcontext read, which never holds them), and glibc's internal callers
 * (sigblock, sigsetmask, sighold call sigprocmask without the PLT).
 *
 * The runtime's own blocking (rt_timer.c, rt_write.c, the sigaction
 * interposer) goes through vp_rt_sigmask_real.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt_internal.h"

typedef int (*vp_rt_mask_fn)(int, const sigset_t *, sigset_t *);
typedef int (*vp_rt_sfd_fn)(int, const sigset_t *, int);

static vp_rt_mask_fn vp_rt_real_pthread_sigmask, vp_rt_real_sigprocmask;
static vp_rt_sfd_fn vp_rt_real_signalfd;

/* Normal context (start-up, or a call before our constructor ran). */
static void vp_rt_mask_resolve(void)
{
    if (!vp_rt_real_pthread_sigmask)
        vp_rt_real_pthread_sigmask = (vp_rt_mask_fn)dlsym(RTLD_NEXT, "pthread_sigmask");
    if (!vp_rt_real_sigprocmask)
        vp_rt_real_sigprocmask = (vp_rt_mask_fn)dlsym(RTLD_NEXT, "sigprocmask");
    if (!vp_rt_real_signalfd)
        vp_rt_real_signalfd = (vp_rt_sfd_fn)dlsym(RTLD_NEXT, "signalfd");
}

/* Whether the calling thread's program code asked for SIGPROF to be
   blocked (its view, which the kernel mask may not show).  Copied to the
   threads it creates (rt_thread.c). */
VP_RT_TLS int vp_rt_tls_prof_held;
/* Set once a program's own SIGPROF reached a thread that holds it: from
   then on SIGPROF is the program's to block (vp_rt_mask_requeue). */
static _Atomic int vp_rt_prof_yielded;

/* The signals a sample (or a flush request) arrives by, while active.
   SIGPROF only when a timer of ours sends it and tells it apart from the
   program's (perf fasync, timer_create): with perf sigtrap (the default)
   it stays the program's own, so a program that blocks SIGPROF to read
   its own ITIMER_PROF through a signalfd still can; with the process
   itimer, the program's ITIMER_PROF *is* our timer.  Where the two uses
   meet, vp_rt_mask_requeue gives SIGPROF back to the program. */
static int vp_rt_kept_signals(sigset_t *s)
{
    sigemptyset(s);
    if (!atomic_load(&vp_rt.active))
        return 0;
    if (vp_rt.perf_sigtrap)
        sigaddset(s, SIGTRAP);
    if (vp_rt.hooked_prof && !atomic_load(&vp_rt_prof_yielded) &&
        (vp_rt.timer_mode == VP_RT_TIMER_THREAD ||
         (vp_rt.timer_mode == VP_RT_TIMER_PERF &&
          (!vp_rt.perf_sigtrap || atomic_load(&vp_rt.timer_failures)))))
        sigaddset(s, SIGPROF);
    if (vp_rt.flush_signal)
        sigaddset(s, vp_rt.flush_signal);
    return 1;
}

/* `s` without the kept signals: `s` itself, or `copy` holding the result. */
const sigset_t *vp_rt_mask_strip(const sigset_t *s, sigset_t *copy)
{
    sigset_t keep;
    if (!s || !vp_rt_kept_signals(&keep))
        return s;
    const int cand[] = {SIGPROF, SIGTRAP, vp_rt.flush_signal};
    *copy = *s;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++)
        if (cand[i] && sigismember(&keep, cand[i]) == 1)
            sigdelset(copy, cand[i]);
    return copy;
}

/* The runtime's own masking, never stripped (pthread_sigmask's
   convention: 0 or an error number). */
int vp_rt_sigmask_real(int how, const sigset_t *set, sigset_t *old)
{
    if (!vp_rt_real_pthread_sigmask)
        vp_rt_mask_resolve();
    if (!vp_rt_real_pthread_sigmask) /* no libc symbol: the system call itself */
        return syscall(SYS_rt_sigprocmask, how, set, old, _NSIG / 8) ? errno : 0;
    return vp_rt_real_pthread_sigmask(how, set, old);
}

/* Start-up, first thing: the real functions are looked up in normal
   context (dlsym is not async-signal-safe; the chain to a target handler
   masks from inside ours). */
void vp_rt_mask_init(void)
{
    vp_rt_mask_resolve();
}

/* Start-up, after the timers: the first thread may have inherited a mask
   that holds them. */
void vp_rt_mask_unblock(void)
{
    sigset_t keep;
    if (vp_rt_kept_signals(&keep))
        vp_rt_sigmask_real(SIG_UNBLOCK, &keep, NULL);
}

/* The program's view around a mask change: `held` follows what it asked
   for, and the old mask it reads back shows SIGPROF as it asked (the
   kernel's may not hold it). */
static void vp_rt_mask_track(int how, const sigset_t *set)
{
    if (!set || sigismember(set, SIGPROF) != 1) {
        if (how == SIG_SETMASK && set)
            vp_rt_tls_prof_held = 0;
        return;
    }
    vp_rt_tls_prof_held = how != SIG_UNBLOCK;
}

static void vp_rt_mask_report(sigset_t *old, int held)
{
    if (old && held)
        sigaddset(old, SIGPROF);
}

VP_RT_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    sigset_t copy;
    const sigset_t *asked = set;
    int held = vp_rt_tls_prof_held;
    if (how != SIG_UNBLOCK)
        set = vp_rt_mask_strip(set, &copy);
    int rc = vp_rt_sigmask_real(how, set, old);
    if (rc == 0) {
        vp_rt_mask_track(how, asked);
        vp_rt_mask_report(old, held);
    }
    return rc;
}

VP_RT_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    if (!vp_rt_real_sigprocmask)
        vp_rt_mask_resolve();
    sigset_t copy;
    const sigset_t *asked = set;
    int held = vp_rt_tls_prof_held, rc;
    if (how != SIG_UNBLOCK)
        set = vp_rt_mask_strip(set, &copy);
    if (!vp_rt_real_sigprocmask) {
        int e = vp_rt_sigmask_real(how, set, old); /* an error number, not -1 */
        rc = e ? (errno = e, -1) : 0;
    } else {
        rc = vp_rt_real_sigprocmask(how, set, old);
    }
    if (rc == 0) {
        vp_rt_mask_track(how, asked);
        vp_rt_mask_report(old, held);
    }
    return rc;
}

/* signalfds whose SIGPROF we took out, to give it back on yielding.
   Written in normal context (a slot is claimed 0 -> -1, filled, then
   gets fd + 1), read by the handler (entries > 0 only). */
#define VP_RT_SFDS 16
static struct {
    _Atomic int fd1;
    sigset_t asked;
} vp_rt_sfds[VP_RT_SFDS];

/* Signalfd `fd` was made or changed through us: remember its mask if
   `asked` (we took SIGPROF out of it), else forget any old entry for that
   number (a closed signalfd's number reused must not get the old mask). */
static void vp_rt_sfd_note(int fd, const sigset_t *asked)
{
    for (int i = 0; i < VP_RT_SFDS; i++) {
        int f = fd + 1;
        if (atomic_load(&vp_rt_sfds[i].fd1) != f)
            continue;
        if (!atomic_compare_exchange_strong(&vp_rt_sfds[i].fd1, &f, -1))
            continue;
        if (asked) {
            vp_rt_sfds[i].asked = *asked;
            atomic_store(&vp_rt_sfds[i].fd1, fd + 1);
        } else {
            atomic_store(&vp_rt_sfds[i].fd1, 0);
        }
        return;
    }
    if (!asked)
        return;
    for (int i = 0; i < VP_RT_SFDS; i++) {
        int f = 0;
        if (atomic_compare_exchange_strong(&vp_rt_sfds[i].fd1, &f, -1)) {
            vp_rt_sfds[i].asked = *asked;
            atomic_store(&vp_rt_sfds[i].fd1, fd + 1);
            return;
        }
    }
    /* full: that signalfd keeps SIGPROF out after yielding */
}

/* Signal path: every remembered signalfd gets its own mask back (a number
   since closed fails with EBADF, or EINVAL if it is no signalfd now). */
static void vp_rt_sfd_restore(void)
{
    for (int i = 0; i < VP_RT_SFDS; i++) {
        int f = atomic_load(&vp_rt_sfds[i].fd1);
        if (f > 0)
            syscall(SYS_signalfd4, f - 1, &vp_rt_sfds[i].asked, _NSIG / 8, 0);
    }
}

/* signalfd never takes our signals either: one of ours that fired while a
   thread was inside its read would otherwise be read as the program's. */
VP_RT_EXPORT int signalfd(int fd, const sigset_t *mask, int flags)
{
    if (!vp_rt_real_signalfd)
        vp_rt_mask_resolve();
    if (!vp_rt_real_signalfd)
        return errno = ENOSYS, -1;
    sigset_t copy;
    const sigset_t *m = vp_rt_mask_strip(mask, &copy);
    int rc = vp_rt_real_signalfd(fd, m, flags);
    if (rc >= 0)
        vp_rt_sfd_note(rc, m == &copy && sigismember(mask, SIGPROF) == 1 &&
                                   sigismember(&copy, SIGPROF) == 0
                               ? mask
                               : NULL);
    return rc;
}

/* Signal path, a SIGPROF that is not ours, in a thread whose program code
   holds SIGPROF while the kernel mask does not (we took it out): the
   kernel would have kept it pending for the program (a sigwait, a
   signalfd, a later unblock).  So it is queued again to this thread with
   the same siginfo, and SIGPROF is blocked for real when our handler
   returns (uc_sigmask); from then on SIGPROF is the program's to block,
   and samples in threads that hold it are lost (they stay pending, and a
   signalfd reads them as it did before rt_mask.c existed).  Returns 1 if
   it did that.  A signal re-queued from a thread other than the one the
   program reads it in stays in this thread's queue. */
int vp_rt_mask_requeue(int sig, siginfo_t *si, void *ucv)
{
    if (sig != SIGPROF || !vp_rt_tls_prof_held || !ucv)
        return 0;
    ucontext_t *uc = ucv;
    if (sigismember(&uc->uc_sigmask, SIGPROF) == 1)
        return 0;
    if (syscall(SYS_rt_tgsigqueueinfo, getpid(), (pid_t)syscall(SYS_gettid), SIGPROF, si) != 0)
        return 0; /* not queued: handled now, as before */
    if (!atomic_exchange(&vp_rt_prof_yielded, 1))
        vp_rt_sfd_restore();
    sigaddset(&uc->uc_sigmask, SIGPROF);
    return 1;
}
