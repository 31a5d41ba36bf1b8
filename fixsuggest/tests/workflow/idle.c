/* fixsuggest.workflow: a function with five loops of which the input runs
 * one (the others are other modes' work).  usage: idle MODE N */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned long modes(int mode, long n)
{
    unsigned long t = 1;
    if (mode == 0)
        for (long i = 0; i < n; i++)
            t = t * 31 + (unsigned long)i;
    if (mode == 1)
        for (long i = 0; i < n; i++)
            t ^= t << 7 ^ (unsigned long)i;
    if (mode == 2)
        for (long i = 0; i < n; i++)
            t += t >> 3 ^ (unsigned long)i;
    if (mode == 3)
        for (long i = 0; i < n; i++)
            t = t * 17 ^ (unsigned long)i;
    if (mode == 4)
        for (long i = 0; i < n; i++)
            t -= t << 5 ^ (unsigned long)i;
    return t;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    long n = argc > 2 ? atol(argv[2]) : 1000;
    printf("%lu\n", modes(mode, n));
    return 0;
}
