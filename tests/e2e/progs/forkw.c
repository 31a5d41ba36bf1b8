/* e2e.rank_fork: a pre-forking pool whose two workers each deduplicate
 * their share of the records with a linear scan of what they kept; the
 * parent only waits.  Slow when the records are mostly distinct.
 * usage: forkw RECORDS DISTINCT */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static long dedupe(const unsigned *in, long n, unsigned *out)
{
    long kept = 0;
    for (long i = 0; i < n; i++) {
        long j = 0;
        while (j < kept && out[j] != in[i]) /* SCAN-LOOP */
            j++;
        if (j == kept)
            out[kept++] = in[i];
    }
    return kept;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000;
    unsigned distinct = argc > 2 ? (unsigned)atol(argv[2]) : 100;
    unsigned *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
    if (!in || !out || distinct == 0)
        return 2;
    unsigned s = 7;
    for (long i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        in[i] = (s >> 8) % distinct;
    }
    for (int w = 0; w < 2; w++) {
        pid_t p = fork();
        if (p == 0) {
            long per = n / 2;
            printf("worker %d kept %ld\n", w, dedupe(in + w * per, per, out));
            fflush(stdout);
            _exit(0);
        }
    }
    while (wait(NULL) > 0)
        ;
    return 0;
}
