/* The target's own SIGPROF handler and ITIMER_PROF, plus raise(SIGPROF):
 * its handler must see its own signals, and the sampler must not die. */
#include <signal.h>
#include <sys/time.h>
#include "common.h"

static volatile sig_atomic_t ticks, raised;

static void on_prof(int sig, siginfo_t *si, void *uc)
{
    if (si->si_code == SI_TKILL || si->si_code == SI_USER)
        raised++;
    else
        ticks++;
}

int main(void)
{
    struct sigaction sa = {.sa_sigaction = on_prof, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    struct itimerval it = {{0, 5000}, {0, 5000}};
    setitimer(ITIMER_PROF, &it, NULL);
    long h = 0;
    for (int i = 0; i < 100000 && ticks < 5; i++)
        h += hot(1000);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    raise(SIGPROF);
    raise(SIGPROF);
    printf("itimer ticks seen: %s\nraised seen: %d\n", ticks >= 5 ? "yes" : "no", (int)raised);
    /* SIG_IGN: a raise must be ignored, sampling goes on. */
    signal(SIGPROF, SIG_IGN);
    raise(SIGPROF);
    h += hot(100000);
    printf("ignored ok %d\n", h > 0);
    return 0;
}
