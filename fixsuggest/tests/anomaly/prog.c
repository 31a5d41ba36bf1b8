/* Loops for fixsuggest.anomaly: which loop the ranking's anomaly marks. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long scan(const int *a, int n, int rounds)
{
    long s = 0;
    for (int r = 0; r < rounds; r++) { /* OUTER */
        for (int i = 0; i < n; i++) /* INNER */
            s += a[i] * r;
        s ^= r; /* OUTER-ONLY */
    }
    return s;
}

__attribute__((noinline)) long pair(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) /* FIRST */
        s += a[i];
    for (int i = 0; i < n; i++) /* SECOND */
        s -= a[i] / 2;
    return s;
}

__attribute__((noinline)) long walk(const int *a, int n, int d)
{
    if (d == 0) /* RECURSION */
        return 0;
    long s = 0;
    for (int i = 0; i < n; i++) /* IN-RECURSION */
        s += a[i] + d;
    return s + walk(a, n, d - 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = i % 97;
    long s = scan(a, n, 50) + pair(a, n) + walk(a, n, 20);
    printf("%ld\n", s);
    free(a);
    return 0;
}
