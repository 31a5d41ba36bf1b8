/* fixsuggest.workflow: a work queue popped from the front of an array, so
 * each pop moves the rest of the queue (memmove in the C library), next to
 * a fixed amount of work per job: the time per iteration grows, and it
 * grows at the pop's line (docs/vprof-loop.md, "Where the added time is").
 * usage: queue N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
    unsigned long data;
    int attempts;
};

__attribute__((noinline)) static struct job pop_front(struct job *q, long *n)
{
    struct job j = q[0];
    memmove(q, q + 1, (size_t)(*n - 1) * sizeof *q);
    (*n)--;
    return j;
}

__attribute__((noinline)) static unsigned long crunch(unsigned long x)
{
    for (int r = 0; r < 1000; r++) /* a chain the compiler cannot fold */
        x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ul;
    return x;
}

__attribute__((noinline)) unsigned long drain(struct job *q, long n)
{
    unsigned long sum = 0;
    while (n > 0) { /* DRAIN-LOOP */
        struct job j = pop_front(q, &n); /* POP-LINE */
        sum += crunch(j.data);           /* CRUNCH-LINE */
    }
    return sum;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    struct job *q = malloc((size_t)n * sizeof *q);
    if (!q)
        return 1;
    for (long i = 0; i < n; i++)
        q[i] = (struct job){(unsigned long)i * 2654435761u, 0};
    printf("%lu\n", drain(q, n));
    free(q);
    return 0;
}
