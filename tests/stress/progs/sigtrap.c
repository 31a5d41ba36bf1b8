/* The target's own SIGTRAP handler, raise(SIGTRAP) and int3 breakpoints in
 * its hot loops (the sampler's perf events signal with SIGTRAP too, with
 * their own si_code and data): its handler must see each of its own traps
 * exactly once, and sampling must go on. */
#include <signal.h>
#include "common.h"

static volatile sig_atomic_t raised, breakpoints, other;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    if (si->si_code == SI_TKILL || si->si_code == SI_USER)
        raised++;
    else if (si->si_code == SI_KERNEL) /* int3 on x86-64 */
        breakpoints++;
    else
        other++;
}

int main(void)
{
    struct sigaction sa = {.sa_sigaction = on_trap, .sa_flags = SA_SIGINFO | SA_RESTART};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTRAP, &sa, NULL);
    long h = 0;
    for (int i = 0; i < 20; i++) {
        h += hot(3000000);
        raise(SIGTRAP);
        h += hot(3000000);
        __asm__ volatile("int3");
    }
    printf("raised seen: %d\nbreakpoints seen: %d\nother: %d\n", (int)raised, (int)breakpoints,
           (int)other);
    /* SIG_IGN: a raise must be ignored, sampling goes on. */
    signal(SIGTRAP, SIG_IGN);
    raise(SIGTRAP);
    h += hot(100000);
    printf("ignored ok %d\n", h > 0);
    return 0;
}
