/* fixsuggest.workflow: a loop LLVM's LoopSimplify splits in two (its two
 * backedges, one past the call and one not, become an outer and an inner
 * loop with the same header line and column).  usage: split N */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) void sortrange(long *v, long l, long r)
{
    for (long i = l + 1; i <= r; i++)
        for (long j = i; j > l && v[j - 1] > v[j]; j--) {
            long t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
        }
}
__attribute__((noinline)) long buckets(long *v, const unsigned char *b, long n)
{
    long k, l, r = -1, done = 0;
    while (1) { /* SPLIT-LOOP */
        k = r + 1;
        while (k < n && b[k]) k++;
        l = k - 1;
        if (k >= n) break;
        while (k < n && !b[k]) k++;
        r = k - 1;
        if (k >= n) break;
        if (r > l) {
            done += r - l + 1;
            sortrange(v, l, r);
        }
    }
    return done;
}
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    unsigned char *b = malloc(n + 1);
    long *v = malloc((n + 1) * sizeof *v);
    for (long i = 0; i <= n; i++) { b[i] = (i * 7919) % 13 < 5; v[i] = (i * 2654435761u) % 1000; }
    printf("%ld\n", buckets(v, b, n));
    return 0;
}
