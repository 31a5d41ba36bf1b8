/* seedprog.c - the program whose real files seed the fuzzers (seeds.sh):
 * loops of every static class, redundant work across iterations and across
 * instances, a global, so every section has content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int table[512];
long calls;

__attribute__((noinline)) static int find(const int *a, int n, int key)
{
    for (int i = 0; i < n; i++) /* 0*1? */
        if (a[i] == key)
            return i;
    return -1;
}

__attribute__((noinline)) static long count_all(const int *a, int n)
{
    long c = 0;
    for (int i = 0; i < n; i++) /* 1* */
        c += a[i] & 1;
    return c;
}

__attribute__((noinline)) static long redo(int n)
{
    long acc = 0;
    for (int r = 0; r < n; r++) {     /* the same inner work every time */
        for (int i = 0; i < 256; i++)
            acc += table[i] % 7;
        calls++;
    }
    return acc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    for (int i = 0; i < 512; i++)
        table[i] = i * 37 % 509;
    long s = 0;
    for (int k = 0; k < n * 20; k++)
        s += find(table, 512, 508 - k % 17);
    s += count_all(table, 512) + redo(n * 10);
    printf("%ld\n", s);
    return 0;
}
