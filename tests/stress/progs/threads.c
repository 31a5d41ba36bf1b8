/* 32 threads created and joined in a loop, many exiting while the sampler
 * is busy; detached threads that end with pthread_exit from a callee. */
#include <pthread.h>
#include "common.h"

static void *worker(void *arg)
{
    long id = (long)arg;
    return (void *)hot(3000 + id * 50);
}

__attribute__((noinline)) static void leave(long id)
{
    if (hot(500 + id) >= 0)
        pthread_exit(NULL);
}

static void *detached(void *arg)
{
    leave((long)arg);
    return NULL;
}

int main(void)
{
    long sum = 0;
    for (int round = 0; round < 40; round++) {
        pthread_t t[32];
        for (long i = 0; i < 32; i++)
            if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
                return 10;
        for (int i = 0; i < 32; i++) {
            void *r;
            pthread_join(t[i], &r);
            sum += (long)r;
        }
        pthread_t d;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&d, &a, detached, (void *)(long)round) != 0)
            return 11;
        pthread_attr_destroy(&a);
    }
    sum += hot(200000);
    printf("sum %ld\n", sum);
    return 0;
}
