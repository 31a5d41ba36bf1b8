/* fixsuggest.inline: a linear lookup whose time is spent in a helper
 * inlined from keys.h.  usage: prog NKEYS QUERIES */
#include <stdio.h>
#include <stdlib.h>

#include "keys.h"

#define KEY 24

__attribute__((noinline)) long lookup(char (*keys)[KEY], long n, const char *want)
{
    for (long i = 0; i < n; i++) /* LOOKUP-LOOP */
        if (key_equal(keys[i], want, KEY)) /* LOOKUP-CALL */
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, q = argc > 2 ? atol(argv[2]) : 1000;
    char (*keys)[KEY] = malloc((size_t)n * KEY);
    if (!keys)
        return 1;
    for (long i = 0; i < n; i++)
        snprintf(keys[i], KEY, "customer-record-%07ld", i);
    long found = 0;
    unsigned x = 12345;
    for (long j = 0; j < q; j++) {
        x = x * 1103515245u + 12345u;
        found += lookup(keys, n, keys[(x >> 8) % (unsigned long)n]) >= 0;
    }
    printf("found=%ld\n", found);
    free(keys);
    return 0;
}
