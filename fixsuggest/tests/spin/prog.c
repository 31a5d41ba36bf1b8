/* fixsuggest.spin: threads that take a hand-written spin lock around their
 * work.  With one thread the lock is always free; with two, each waits for
 * the other: the spin loop goes round many times per acquisition.
 * usage: prog THREADS ITERATIONS */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int lock;
static long counter, total;

static void acquire(void)
{
    while (atomic_exchange_explicit(&lock, 1, memory_order_acquire)) /* SPIN-LOOP */
        ;
}

static void release(void)
{
    atomic_store_explicit(&lock, 0, memory_order_release);
}

static long work(long x)
{
    long s = 0;
    for (int i = 0; i < 200; i++)
        s += (x * i) ^ (s >> 3);
    return s;
}

static void *worker(void *arg)
{
    long n = (long)arg;
    for (long i = 0; i < n; i++) {
        acquire();
        counter++;
        total += work(counter); /* the work is done holding the lock */
        release();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    long per = argc > 2 ? atol(argv[2]) : 100000;
    if (threads < 1 || threads > 16)
        return 2;
    pthread_t t[16];
    for (int i = 0; i < threads; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(per / threads)))
            return 1;
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld\n", counter, total);
    return 0;
}
