/* fixsuggest.inline: a static helper whose loop the compiler inlines into
 * its only caller, scan_all.  usage: helper N QUERIES */
#include <stdio.h>
#include <stdlib.h>

static long count_matches(const int *v, long n, int x)
{
    long c = 0;
    for (long i = 0; i < n; i++) /* HELPER-LOOP */
        c += v[i] == x;
    return c;
}

__attribute__((noinline)) long scan_all(const int *v, long n, long q)
{
    long t = 0;
    for (long j = 0; j < q; j++) /* HOST-LOOP */
        t += count_matches(v, n, (int)(j % 97));
    return t;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, q = argc > 2 ? atol(argv[2]) : 1000;
    int *v = malloc((size_t)n * sizeof *v);
    if (!v)
        return 1;
    for (long i = 0; i < n; i++)
        v[i] = (int)((i * 2654435761u) % 97);
    printf("matches=%ld\n", scan_all(v, n, q));
    free(v);
    return 0;
}
