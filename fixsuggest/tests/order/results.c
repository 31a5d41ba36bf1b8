/* order/results.c - fixsuggest.order: a [0|1]* driver loop that scans a
 * text for the ends of its paragraphs and calls count() on each paragraph
 * (the call is the loop's only side effect besides the terminator).
 * count() rescans the paragraph for every character it looks at:
 * quadratic in the paragraph's length.
 *
 *   results LEN PARA WORK ROUNDS
 *
 * makes a text of LEN characters with a paragraph end every PARA and
 * drives over it ROUNDS times.  With
 * WORK = 1, count() does its quadratic work and holds nearly every sample
 * of the driver: the driver's resultless iterations hold almost nothing,
 * and it gets no resultless root cause ("Results that hold the time").
 * With WORK = 0, count() returns at once and the scan is the driver's
 * time: it keeps [0|1]*, skip-loop. */
#include <stdio.h>
#include <stdlib.h>

static int work = 1;
static size_t longest; /* count()'s side effect: its call is a result */

__attribute__((noinline)) long count(const char *s)
{
    long n = 0;
    if (!work)
        return s[0] == 'a';
    for (size_t i = 0; s[i]; i++) { /* COUNT-LOOP */
        size_t len = 0;
        while (s[len]) /* SCAN-LOOP */
            len++;
        n += (s[i] == 'a') + (long)(len & 1);
        if (len > longest)
            longest = len;
    }
    return n;
}

__attribute__((noinline)) long drive(char *buf)
{
    long total = 0;
    char *para = buf;
    for (char *p = buf;; p++) { /* DRIVE-LOOP */
        if (!*p || *p == '\n') {
            char c = *p;
            *p = 0;
            total += count(para); /* COUNT-CALL */
            *p = c;
            if (!c)
                break;
            para = p + 1;
        }
    }
    return total;
}

int main(int argc, char **argv)
{
    long len = argc > 1 ? atol(argv[1]) : 100000;
    long para = argc > 2 ? atol(argv[2]) : 1000;
    work = argc > 3 ? atoi(argv[3]) : 1;
    int rounds = argc > 4 ? atoi(argv[4]) : 1;
    if (len < 2 || para < 2 || rounds < 1)
        return 2;
    char *buf = malloc((size_t)len + 1);
    if (!buf)
        return 1;
    for (long i = 0; i < len; i++)
        buf[i] = (i + 1) % para == 0 ? '\n' : (char)('a' + i % 7);
    buf[len] = 0;
    long total = 0;
    for (int r = 0; r < rounds; r++)
        total += drive(buf);
    printf("%ld %zu\n", total, longest);
    free(buf);
    return 0;
}
