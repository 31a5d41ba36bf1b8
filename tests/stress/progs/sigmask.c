/* The target blocks every signal (process mask and in threads) while it
 * works, then unblocks; a thread that keeps everything blocked to its end. */
#include <pthread.h>
#include <signal.h>
#include "common.h"

static void *blocked(void *arg)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    return (void *)hot(150000);
}

int main(void)
{
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    long a = hot(150000);
    pthread_t t;
    pthread_create(&t, NULL, blocked, NULL);
    void *r;
    pthread_join(t, &r);
    sigprocmask(SIG_SETMASK, &old, NULL);
    long b = hot(150000);
    printf("%ld %ld %ld\n", a, (long)r, b);
    return 0;
}
