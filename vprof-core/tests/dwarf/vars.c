/* Test input for tests/dwarf: the variables named in vars.spec.  Compiled at
 * -O0 and -O2, DWARF 4 and 5.  Lines are found through the "@" markers, so
 * edits here need no change in the spec or the tests.  The functions must
 * stay noinline so that gdb and the index agree on which frame they are in. */
#include <stdio.h>
#include <stdlib.h>

long g_total;            /* @g_total */
static int g_calls = 3;  /* @g_calls */

__attribute__((noinline)) void opaque(void);

static inline int sq(int v) /* @sq */
{
    return v * v + g_calls;
}

__attribute__((noinline)) long sum(const int *arr, int n) /* @sum */
{
    long s = 0;                 /* @s */
    for (int i = 0; i < n; i++) /* @i */
        s += sq(arr[i]) + i;
    g_calls++;
    return s;
}

__attribute__((noinline)) int walk(int *p, int k) /* @walk */
{
    int acc = 0; /* @acc */
    while (k-- > 0) {
        acc += *p;
        p += 2;
        opaque();
    }
    return acc;
}

/* x is dead after the call: at -O2 its location becomes an entry value. */
__attribute__((noinline)) int after_call(int x) /* @after_call */
{
    g_total += x;
    opaque();
    return 1;
}

__attribute__((noinline)) void opaque(void)
{
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 50;
    int *a = malloc(sizeof *a * (size_t)(2 * n + 2));
    for (int j = 0; j < 2 * n + 2; j++)
        a[j] = j % 7 + 1;
    g_total = sum(a, n);
    g_total += walk(a, n);
    g_total += after_call(n);
    printf("%ld\n", g_total);
    free(a);
    return 0;
}
