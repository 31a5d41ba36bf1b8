/* e2e_prog.c - built with vprof-cc by the record_e2e test: e2e_hot burns
   most of the CPU time in a loop whose induction variable is watched. */
#include <stdlib.h>

volatile unsigned long e2e_sink;

__attribute__((noinline)) unsigned long e2e_hot(int n)
{
    unsigned long s = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < 100000; j++)
            e2e_sink += (unsigned long)j;
        s += (unsigned long)i;
    }
    return s;
}

__attribute__((noinline)) unsigned long e2e_cold(int n)
{
    unsigned long s = 0;
    for (int i = 0; i < n; i++)
        e2e_sink += (unsigned long)i;
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    return (int)((e2e_hot(n) + e2e_cold(n * 100)) & 1) * 0;
}
