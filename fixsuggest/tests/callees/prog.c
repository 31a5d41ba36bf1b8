/*
 * fixsuggest.callees: a loop whose time is in a loop of a function it calls
 * (docs/vprof-loop.md, "Time in the loops it calls").
 *
 * receive() appends one byte per iteration and then looks for a terminator
 * in everything received so far: find()'s loop re-reads the prefix the
 * call before it read (cross-loop redundant, the indexOf pattern of
 * Apache 34464).  receive()'s own loop writes a byte in every iteration
 * (1*), and its time is almost all in find().
 *
 * blocks() calls mix() on a new seed each time: mix()'s loop repeats
 * nothing, so blocks()'s loop has no loop below it with a root cause.
 *
 * usage: prog BYTES BLOCKS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

NOINLINE long find(const char *buf, long n, char c)
{
    for (long i = 0; i < n; i++) /* FIND-LOOP */
        if (buf[i] == c)
            return i;
    return -1;
}

NOINLINE long receive(char *buf, long n)
{
    long misses = 0;
    for (long i = 0; i < n; i++) { /* RECEIVE-LOOP */
        buf[i] = (char)('a' + i % 23);
        misses += find(buf, i + 1, '#') < 0;
    }
    return misses;
}

NOINLINE uint64_t mix(uint64_t seed, long n)
{
    uint64_t x = seed, h = 0;
    for (long i = 0; i < n; i++) { /* MIX-LOOP */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        h += x >> 33;
    }
    return h;
}

NOINLINE uint64_t blocks(long nblocks)
{
    uint64_t h = 0;
    for (long b = 0; b < nblocks; b++) /* BLOCKS-LOOP */
        h ^= mix((uint64_t)b * 0x9e3779b97f4a7c15ull + 1, 200000);
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s BYTES BLOCKS\n", argv[0]);
        return 2;
    }
    long n = atol(argv[1]), nb = atol(argv[2]);
    char *buf = malloc((size_t)(n > 0 ? n : 1));
    if (!buf)
        return 1;
    long m = receive(buf, n);
    uint64_t h = blocks(nb);
    printf("misses=%ld h=%016llx\n", m, (unsigned long long)h);
    free(buf);
    return 0;
}
