/* threadcap.sh's target: many short threads, one at a time, more than the
 * runtime's thread table holds (VPROF_MAX_THREADS); the process ends with
 * the descriptors and POSIX timers it started with. */
#include "common.h"
#include <pthread.h>
#include <string.h>

static int timers(void)
{
    int n = 0;
    char line[256];
    FILE *f = fopen("/proc/self/timers", "r");
    while (f && fgets(line, sizeof line, f))
        n += strncmp(line, "ID:", 3) == 0;
    if (f)
        fclose(f);
    return n;
}

static void *tiny(void *a)
{
    return (void *)hot(2000 + ((long)a & 15));
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 600, sum = 0;
    int fd0 = count_entries("/proc/self/fd"), t0 = timers();
    for (long i = 0; i < n; i++) {
        pthread_t t;
        void *x;
        if (pthread_create(&t, NULL, tiny, (void *)i) != 0)
            return 3;
        pthread_join(t, &x);
        sum += (long)x;
    }
    printf("sum %ld leaked_fds %d leaked_timers %d\n", sum, count_entries("/proc/self/fd") - fd0,
           timers() - t0);
    return 0;
}
