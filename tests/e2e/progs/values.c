/* Variables of every location kind, for the runtime's end-to-end tests:
 * a loop counter (a register at -O2), a stack variable (-O0), a global, a
 * pointer to int, a caller's local read through unwinding, and a pointer to
 * freed (unmapped) memory that the sampler dereferences. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

long g_phase;                       /* global: 1 then 2 */
static volatile long sink_v;

__attribute__((noinline)) static void sink(long x) { sink_v += x; }

/* Hot loop: `i` counts 0..n-1; `scale` points to an int holding 7. */
__attribute__((noinline)) static long work(const int *scale, long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++) {
        acc += (i * *scale) ^ (acc >> 3);
        if ((acc & 0xfffff) == 0x12345)
            sink(i);
    }
    return acc;
}

/* `marker` lives across the call and is read back after it, so it is in a
 * callee-saved register or on the stack while work() runs. */
__attribute__((noinline)) static long outer(const int *scale, long n, long marker)
{
    long r = work(scale, n);
    sink(marker);
    return r ^ marker;
}

/* `gone` points to memory that was unmapped; the loop passes it around
 * without dereferencing it, the sampler dereferences it (int *). */
__attribute__((noinline)) static long spin_with_dangling(int *gone, long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++) {
        acc = acc * 31 + i;
        if ((acc & 0xffff) == 7)
            sink((long)gone);
    }
    return acc;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 300000000;
    int *scale = malloc(sizeof *scale);
    *scale = 7;
    g_phase = 1;
    long a = outer(scale, n, 12345);
    g_phase = 2;
    int *gone = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    gone[0] = 1;
    munmap(gone, 1 << 20);
    long b = spin_with_dangling(gone, n);
    printf("%ld %ld\n", a, b);
    free(scale);
    return 0;
}
