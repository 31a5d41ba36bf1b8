/* spin.c - a known call structure for recorded export tests:
 * main -> outer -> work (most of the time) and main -> outer -> light. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void work(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink += i * i;
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
