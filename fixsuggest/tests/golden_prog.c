/* golden_prog.c - the fixed small program of fixsuggest.golden: a linear
 * search called many times (0*1?, the slow loop) and a fill loop (1*). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int find(const int *a, int n, int key)
{
    for (int i = 0; i < n; i++) /* the search */
        if (a[i] == key)
            return i;
    return -1;
}

__attribute__((noinline)) static long fill(int *a, int n, int seed)
{
    long sum = 0;
    for (int i = 0; i < n; i++) {
        a[i] = (int)(((long)i * 7919 + seed) % 1000003);
        sum += a[i];
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int q = argc > 2 ? atoi(argv[2]) : 2000;
    if (n < 16 || q < 0) /* q = 0: the search never runs */
        return 2;
    int *a = malloc(sizeof *a * (size_t)n);
    if (!a)
        return 1;
    long s = fill(a, n, 3);
    long found = 0;
    for (int k = 0; k < q; k++)
        found += find(a, n, a[n - 1 - k % 16]);
    printf("sum=%ld found=%ld\n", s, found);
    free(a);
    return 0;
}
