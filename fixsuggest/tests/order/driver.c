/* order/driver.c - fixsuggest.order: a driver loop whose time is nearly all
 * in two linear searches it calls, each instance scanning the elements
 * appended so far: find_a finds its key last (0*1?), find_b, over half of
 * them, never (0*).  The searches are the findings: the driver's 1* loop,
 * which holds the samples of both, comes after them. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int find_a(const int *a, int n, int key)
{
    for (int i = 0; i < n; i++) /* FIND-A */
        if (a[i] == key)
            return i;
    return -1;
}

__attribute__((noinline)) int find_b(const int *b, int n, int key)
{
    for (int i = 0; i < n; i++) /* FIND-B */
        if (b[i] == key)
            return i;
    return -1;
}

__attribute__((noinline)) long drive(int *a, int *b, int n)
{
    long s = 0;
    for (int k = 0; k < n; k++) { /* DRIVER-LOOP */
        a[k] = k * 7 + 1;
        b[k] = k * 3 + 2;
        s += find_a(a, k + 1, k * 7 + 1);
        s += find_b(b, k / 2 + 1, k * 3 + 2); /* half the elements, not found */
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 1)
        return 2;
    int *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
    if (!a || !b)
        return 1;
    printf("%ld\n", drive(a, b, n));
    free(a);
    free(b);
    return 0;
}
