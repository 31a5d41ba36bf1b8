/* The README's workflow on a small interpreter-like program (modelled on
 * Lua's table.insert(t, 1, x), found by running vprof on Lua 5.4):
 * push_front() shifts the whole queue for every job (the root cause: its
 * loop grows with the queue), call_value() dispatches on a type tag in a
 * `goto retry` loop that never goes round, scale() is vectorized but
 * never called with work, and sum_args() is variadic, which vprof-cc cannot
 * copy for its loop probes.
 *
 * usage: prog QUEUE ROUNDS
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct value { int tag; long v; struct value *meta; };

__attribute__((noinline)) void push_front(long *q, int n, long x)
{
    for (int i = n; i > 0; i--) /* SHIFT-LOOP */
        q[i] = q[i - 1];
    q[0] = x;
}

__attribute__((noinline)) long call_value(struct value *f, long arg)
{
 retry:
    switch (f->tag) { /* DISPATCH-LOOP */
    case 1:
        return f->v + arg;
    case 2:
        return f->v ^ arg;
    default:
        f = f->meta;
        goto retry;
    }
}

__attribute__((noinline)) void scale(float *a, int n, float k)
{
    for (int i = 0; i < n; i++) /* SCALE-LOOP */
        a[i] *= k;
}

__attribute__((noinline)) long sum_args(int n, ...)
{
    va_list ap;
    long s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++) /* VARARGS-LOOP */
        s += va_arg(ap, long);
    va_end(ap);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100, rounds = argc > 2 ? atoi(argv[2]) : 10;
    long *q = malloc(sizeof(long) * (size_t)(n + 1));
    float a[4] = {1, 2, 3, 4};
    struct value fn[2] = {{1, 7, NULL}, {2, 9, NULL}};
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++)
            push_front(q, i, call_value(&fn[i & 1], i));
        for (int i = 0; i < n; i++)
            sum += q[i] * (i + 1);
        scale(a, r < 0 ? 4 : 0, 2.0f);
    }
    printf("%ld %g %ld\n", sum, a[0], sum_args(3, 1L, 2L, (long)n));
    free(q);
    return 0;
}
