/* The cost of copy units lifted from a helper (docs/redundancy.md, "Copies
 * in a helper") where it is highest: loops that do nothing but pop an array
 * queue through a helper that is not inlined, so that the countdown in the
 * helper's copy is next to the least work.
 *   short: a queue of 16 longs, refilled and drained 2,000,000 times (each
 *          pop moves at most 120 bytes: a call and a few nanoseconds);
 *   long:  a queue of 40,000 longs drained 6 times (each pop moves up to
 *          320,000 bytes: the sampled copies hash 16 KiB each).
 *   helper_bench [short|long] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct queue { long *a; size_t n; };

__attribute__((noinline)) static long pop(struct queue *q)
{
    long v = q->a[0];
    memmove(q->a, q->a + 1, (q->n - 1) * sizeof *q->a);
    q->n--;
    return v;
}

__attribute__((noinline)) long drain(struct queue *q)
{
    long sum = 0;
    while (q->n)
        sum += pop(q) * (long)q->n;
    return sum;
}

static void fill(struct queue *q, size_t n, long seed)
{
    for (size_t i = 0; i < n; i++)
        q->a[i] = seed + (long)i * 31;
    q->n = n;
}

int main(int argc, char **argv)
{
    int lng = argc > 1 && strcmp(argv[1], "long") == 0;
    size_t len = lng ? 40000 : 16;
    long rounds = lng ? 6 : 2000000;
    struct queue q = {malloc(len * sizeof(long)), 0};
    if (!q.a)
        return 1;
    long total = 0;
    for (long r = 0; r < rounds; r++) {
        fill(&q, len, r);
        total += drain(&q);
    }
    printf("%ld\n", total);
    free(q.a);
    return 0;
}
