/*
 * fixsuggest.search: a search that grew (docs/vprof-loop.md, "Searches that
 * grew").  lookup() walks a hash chain until it finds the key: a 0*1? loop.
 * The hash sums the key's bytes, so keys that are permutations of each
 * other collide.  Normal input: "user-ID-MIX" keys, whose sums spread over
 * a few hundred buckets (about 100 entries scanned per lookup).  Slow input
 * ("permuted"): "uDDDDD" keys, five digits, whose sums fall in 46 buckets
 * (about 430 scanned per lookup).  Both are under LDoctor's threshold of
 * one result in 1,000 iterations; the normal run shows that the scans grew.
 *
 * usage: prog LOOKUPS [permuted]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define NBUCKETS 4096

struct entry {
    struct entry *next;
    char key[32];
    long count;
};
static struct entry *buckets[NBUCKETS];

NOINLINE unsigned hash(const char *s)
{
    unsigned h = 0;
    while (*s)
        h += (unsigned char)*s++;
    return h % NBUCKETS;
}

NOINLINE struct entry *lookup(const char *key)
{
    unsigned b = hash(key);
    for (struct entry *e = buckets[b]; e; e = e->next) /* CHAIN-LOOP */
        if (strcmp(e->key, key) == 0)
            return e;
    struct entry *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    strncpy(e->key, key, sizeof e->key - 1);
    e->next = buckets[b];
    buckets[b] = e;
    return e;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LOOKUPS [permuted]\n", argv[0]);
        return 2;
    }
    long n = atol(argv[1]);
    int permuted = argc > 2 && strcmp(argv[2], "permuted") == 0;
    char key[32];
    unsigned x = 12345;
    long total = 0;
    for (long i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        unsigned id = (x >> 8) % 20000;
        if (permuted)
            snprintf(key, sizeof key, "u%05u", id);
        else
            snprintf(key, sizeof key, "user-%u-%u", id, id * 2654435761u);
        total += ++lookup(key)->count;
    }
    printf("total=%ld\n", total);
    return 0;
}
