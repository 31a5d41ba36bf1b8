/* Event-loop style signal handling (systemd, many servers): every signal
 * blocked in every thread and read through a signalfd.
 *   all:  the signalfd takes every signal; the program expects only the
 *         SIGUSR1s it sends itself and counts anything else it reads.
 *   prof: only SIGPROF is blocked, and the program's own ITIMER_PROF
 *         (every 2 ms of CPU) is counted through the signalfd; it must
 *         see kernel SIGPROFs and nothing else.
 *   view: the program's view of its mask: SIGPROF blocked and unblocked
 *         by each call, read back, and in a thread created while held.
 * Two worker threads compute in hot() meanwhile; they inherit the mask. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include "common.h"

static volatile int stop;

static void *worker(void *a)
{
    volatile long s = 0;
    while (!stop)
        s += hot(20000 + (long)a);
    return NULL;
}

/* Reads what is pending; counts `want` signals (with si_code `code`, or
   any code if code is 1) and the others. */
static void drain(int sfd, int want, int code, int *got, int *other)
{
    struct pollfd p = {sfd, POLLIN, 0};
    while (poll(&p, 1, 0) == 1) {
        struct signalfd_siginfo si;
        if (read(sfd, &si, sizeof si) != sizeof si)
            break;
        if ((int)si.ssi_signo == want && (code == 1 || si.ssi_code == code))
            ++*got;
        else if (++*other <= 3)
            fprintf(stderr, "unexpected signal %u code %d\n", si.ssi_signo, si.ssi_code);
    }
}

static int prof_held(void)
{
    sigset_t cur;
    pthread_sigmask(SIG_BLOCK, NULL, &cur);
    return sigismember(&cur, SIGPROF);
}

static void *held_in_thread(void *a)
{
    (void)a;
    return (void *)(long)prof_held();
}

static int view(void)
{
    sigset_t p, all, none;
    sigemptyset(&p);
    sigaddset(&p, SIGPROF);
    sigfillset(&all);
    sigemptyset(&none);
    pthread_sigmask(SIG_BLOCK, &p, NULL);
    int a = prof_held();
    pthread_t t;
    void *r;
    pthread_create(&t, NULL, held_in_thread, NULL);
    pthread_join(t, &r);
    volatile long sink = hot(200000);
    pthread_sigmask(SIG_UNBLOCK, &p, NULL);
    int b = prof_held();
    sigprocmask(SIG_SETMASK, &all, NULL);
    int c = prof_held();
    sink += hot(200000);
    sigset_t old;
    sigprocmask(SIG_SETMASK, &none, &old);
    int d = prof_held();
    printf("view: blocked %d, in a thread %d, unblocked %d, all %d, read back %d, none %d\n", a,
           (int)(long)r, b, c, sigismember(&old, SIGPROF), d);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "view") == 0)
        return view();
    int prof = argc > 1 && strcmp(argv[1], "prof") == 0;
    sigset_t set;
    if (prof) {
        sigemptyset(&set);
        sigaddset(&set, SIGPROF);
    } else {
        sigfillset(&set);
    }
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    int sfd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) {
        perror("signalfd");
        return 2;
    }
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    int got = 0, other = 0, want = prof ? 50 : 200;
    volatile long sink = 0;
    if (prof) {
        struct itimerval it = {{0, 2000}, {0, 2000}};
        setitimer(ITIMER_PROF, &it, NULL);
    }
    for (int sent = 0; got < want;) {
        sink += hot(20000 + (got & 1));
        if (!prof && sent < want) {
            kill(getpid(), SIGUSR1);
            sent++;
        }
        drain(sfd, prof ? SIGPROF : SIGUSR1, prof ? SI_KERNEL : 1, &got, &other);
    }
    if (prof) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_PROF, &off, NULL);
    }
    stop = 1;
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("%s: read %d, unexpected %d\n", prof ? "SIGPROF" : "SIGUSR1", got >= want ? want : got,
           other);
    return other ? 1 : 0;
}
