/* handlermask.sh's target: a SIGHUP handler that leaves by longjmp (a REPL
 * going back to its prompt), which keeps the handler's signal mask, then
 * SIGUSR1 must still be delivered.  The kernel blocks only SIGHUP (and the
 * handler's sa_mask, SIGUSR2) while the handler runs. */
#define _GNU_SOURCE
#include "common.h"
#include <setjmp.h>
#include <signal.h>

static jmp_buf back;
static volatile sig_atomic_t usr1;

static void on_hup(int s)
{
    (void)s;
    longjmp(back, 1);
}

static void on_usr1(int s)
{
    (void)s;
    usr1++;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_hup;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    long h = hot(3000000);
    if (!setjmp(back))
        raise(SIGHUP);
    raise(SIGUSR1);
    sigset_t m;
    sigprocmask(SIG_BLOCK, NULL, &m);
    printf("usr1 %d blocked: hup %d usr2 %d usr1 %d alrm %d hot %ld\n", (int)usr1,
           sigismember(&m, SIGHUP), sigismember(&m, SIGUSR2), sigismember(&m, SIGUSR1),
           sigismember(&m, SIGALRM), h);
    return 0;
}
