/* spin.c - a known call structure for recorded export tests:
 * main -> outer -> work (most of the time, in mix() inlined into it) and
 * main -> outer -> light. */
#include <stdlib.h>

static volatile unsigned long sink;

/* inlined into work's loop: pprof gets it as a Line of its own */
static inline __attribute__((always_inline)) unsigned long mix(unsigned long i)
{
    unsigned long x = i ^ (i >> 7);
    x *= 0x9e3779b97f4a7c15ul;
    x ^= x >> 11;
    x *= 0xbf58476d1ce4e5b9ul;
    return x ^ (x >> 13);
}

__attribute__((noinline)) void work(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink += mix(i);
}

__attribute__((noinline)) void light(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink ^= i;
}

__attribute__((noinline)) void outer(unsigned long n)
{
    work(n);
    light(n / 4);
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000ul;
    outer(n);
    return 0;
}
