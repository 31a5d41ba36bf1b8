/* longjmp out of nested probed loops (from a callee and from the loop
 * body itself), thousands of times; every other call returns normally, so
 * the probes must still count after all those abandoned instances. */
#include <setjmp.h>
#include "common.h"

static jmp_buf env;

static int leaving; /* odd rounds leave by longjmp, even ones return */

__attribute__((noinline)) static void maybe_leave(long i, long k)
{
    if (leaving && (i * 31 + k) % 1009 == 0)
        longjmp(env, (int)(k + 1));
}

__attribute__((noinline)) static long scan(long n, long seed)
{
    long acc = 0;
    for (long i = 0; i < n; i++) {
        for (long k = 0; k < 16; k++) {
            acc += (i ^ k) & 3;
            maybe_leave(i + seed, k);
        }
        if (leaving && acc % 4099 == 4098)
            longjmp(env, 100);
    }
    return acc;
}

int main(void)
{
    long total = 0, jumps = 0;
    for (long round = 0; round < 4000; round++) {
        leaving = round & 1;
        int v = setjmp(env);
        if (v == 0)
            total += scan(200, round);
        else
            jumps += v;
    }
    printf("total %ld jumps %ld hot %ld\n", total, jumps, hot(50000));
    return 0;
}
