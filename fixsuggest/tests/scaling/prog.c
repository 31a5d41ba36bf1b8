/* Work per iteration that grows (docs/vprof-loop.md): a job queue kept in
   an array and dequeued from the front by a helper that moves the rest of
   the array down one element (as a helper in another file would: the
   memmove is not in the loop's own body).  drain's loop pops every job:
   each pop moves all the jobs behind it, so one iteration's work is
   proportional to the queue's length and draining takes time as the
   square of it.  fill's loop appends: constant work per job.
   usage: prog JOBS ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job { long id, cost; };
struct queue { struct job *a; size_t n, cap; };

__attribute__((noinline)) static void push(struct queue *q, struct job j)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 16;
        q->a = realloc(q->a, q->cap * sizeof *q->a);
        if (!q->a)
            exit(1);
    }
    q->a[q->n++] = j;
}

__attribute__((noinline)) static struct job pop(struct queue *q)
{
    struct job j = q->a[0];
    memmove(q->a, q->a + 1, (q->n - 1) * sizeof *q->a); /* SHIFT */
    q->n--;
    return j;
}

__attribute__((noinline)) static void fill(struct queue *q, long n)
{
    for (long i = 0; i < n; i++) /* FILL-LOOP */
        push(q, (struct job){i, (i * 31) % 17});
}

__attribute__((noinline)) static long drain(struct queue *q)
{
    long sum = 0;
    while (q->n) { /* DRAIN-LOOP */
        struct job j = pop(q); /* POP */
        sum += j.id * j.cost;
    }
    return sum;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    long rounds = argc > 2 ? atol(argv[2]) : 1;
    long sum = 0;
    struct queue q = {0};
    for (long r = 0; r < rounds; r++) {
        fill(&q, n);
        sum += drain(&q);
    }
    printf("%ld\n", sum);
    free(q.a);
    return 0;
}
