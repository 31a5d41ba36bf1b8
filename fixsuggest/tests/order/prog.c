/* order/prog.c - fixsuggest.order: two nested loops with nearly the same
 * share of the run and no root cause beyond 1*: outer()'s loop calls
 * inner(), whose loop takes nearly all the time, and does a little more
 * work of its own (the CHECK-LOOP).  Each call of inner() reads a slice of
 * its own and every round new data, so neither loop is redundant. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long inner(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) /* INNER-LOOP */
        s += a[i] ^ (s >> 3);
    return s;
}

__attribute__((noinline)) long outer(const int *a, int n, int reps, long seed)
{
    long s = seed;
    for (int r = 0; r < reps; r++) { /* OUTER-LOOP */
        const int *slice = a + (size_t)r * (size_t)n;
        for (int j = 0; j < n / 32768; j++) /* CHECK-LOOP */
            s ^= (long)slice[j * 64] * (s | 1);
        s += inner(slice, n) + r;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 100;
    int rounds = argc > 3 ? atoi(argv[3]) : 20;
    if (n < 1 || reps < 1 || rounds < 1)
        return 2;
    int *a = malloc(sizeof *a * (size_t)n * (size_t)reps);
    if (!a)
        return 1;
    unsigned x = 2463534242u;
    long total = 0;
    for (int k = 0; k < rounds; k++) {
        /* new data for every round: outer()'s instances do not repeat */
        for (size_t i = 0; i < (size_t)n * (size_t)reps; i++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            a[i] = (int)(x & 0xffff);
        }
        total += outer(a, n, reps, k);
    }
    printf("%ld\n", total);
    free(a);
    return 0;
}
