/* cancel.sh's target: threads cancelled (deferred) right after creation.
 * POSIX: each start routine runs until its first cancellation point, so
 * its cleanup handler always runs, and the process ends with the
 * descriptors it started with. */
#define _GNU_SOURCE
#include "common.h"
#include <pthread.h>
#include <stdatomic.h>

static atomic_int cleaned, started;
static void cleanup(void *a)
{
    (void)a;
    atomic_fetch_add(&cleaned, 1);
}

static void *worker(void *a)
{
    atomic_fetch_add(&started, 1);
    pthread_cleanup_push(cleanup, a);
    volatile long s = 0;
    for (;;) {
        s += hot(100);
        pthread_testcancel();
    }
    pthread_cleanup_pop(0);
    return NULL;
}

int main(void)
{
    int cancelled = 0, n = 1000, fd0 = count_entries("/proc/self/fd");
    for (int r = 0; r < n; r++) {
        pthread_t t;
        void *x;
        if (pthread_create(&t, NULL, worker, NULL) != 0)
            return 3;
        pthread_cancel(t);
        pthread_join(t, &x);
        cancelled += x == PTHREAD_CANCELED;
    }
    printf("cancelled %d started %d cleaned %d leaked_fds %d hot %ld\n", cancelled,
           atomic_load(&started), atomic_load(&cleaned), count_entries("/proc/self/fd") - fd0, hot(2000000));
    return 0;
}
