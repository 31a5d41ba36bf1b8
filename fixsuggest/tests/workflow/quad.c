/* fixsuggest.workflow: a loop whose every iteration does work that grows
 * with the input (each one hashes the whole prefix before it), so its time
 * per iteration grows, not its count per instance alone.  usage: quad N */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long hash_prefix(const unsigned *v, long n)
{
    unsigned long h = 7;
    for (long j = 0; j < n; j++)
        h = h * 31 + v[j];
    return h;
}

__attribute__((noinline)) unsigned long digest_all(const unsigned *v, long n)
{
    unsigned long t = 0;
    for (long i = 0; i < n; i++) /* QUAD-LOOP */
        t ^= hash_prefix(v, i);
    return t;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    unsigned *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return 1;
    for (long i = 0; i < n; i++)
        v[i] = (unsigned)(i * 2654435761u);
    printf("%lu\n", digest_all(v, n));
    free(v);
    return 0;
}
