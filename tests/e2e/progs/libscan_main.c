/* e2e.libdebug: each iteration scans the whole buffer so far through
 * libscan.so's lib_scan, so the time per iteration grows with N.
 * usage: libscan_main N */
#include <stdio.h>
#include <stdlib.h>

unsigned long lib_scan(const unsigned char *s, long n);

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    unsigned char *buf = malloc((size_t)n + 1);
    if (!buf)
        return 1;
    unsigned long t = 0;
    for (long i = 0; i < n; i++) { /* GROW-LOOP */
        buf[i] = (unsigned char)(i * 131);
        t += lib_scan(buf, i + 1); /* SCAN-LINE */
    }
    printf("%lu\n", t);
    free(buf);
    return 0;
}
