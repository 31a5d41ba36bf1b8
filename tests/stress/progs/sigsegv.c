/* The target's own SIGSEGV handler on a sigaltstack: bad pointer
 * dereferences inside the hot loop, recovered with siglongjmp, many times (every other
 * call leaves the loop that way, the others finish it). */
#include <setjmp.h>
#include <signal.h>
#include "common.h"

static sigjmp_buf env;
static volatile long faults;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    faults++;
    siglongjmp(env, 1);
}

__attribute__((noinline)) static long probe(volatile long *bad, long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++) {
        acc += hot(200);
        if (bad && i % 97 == 96)
            acc += *bad; /* faults */
    }
    return acc;
}

int main(void)
{
    static char alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    long total = 0;
    for (int round = 0; round < 200; round++) {
        if (sigsetjmp(env, 1) == 0)
            total += probe(round % 2 ? (volatile long *)(long)(16 + round) : NULL, 1000);
    }
    printf("faults %ld total %ld\n", faults, total);
    return 0;
}
