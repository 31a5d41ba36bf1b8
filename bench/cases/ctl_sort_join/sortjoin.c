/*
 * ctl_sort_join -- CONTROL case (no root cause): the core of a query engine's
 * sort-merge join: generate two tables of (key, payload) rows, sort both with
 * a bottom-up merge sort, and merge-join them computing an aggregate.  The slow
 * input has more rows; the cost is the inherent n log n of sorting.
 *
 * usage: ctl_sort_join NROWS NQUERIES SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct { uint32_t key; uint32_t payload; } row_t;

NOINLINE void merge_runs(const row_t *a, size_t na, const row_t *b, size_t nb, row_t *out)
{
    size_t i = 0, j = 0, o = 0;
    while (i < na && j < nb) /* HOT LOOP */
        out[o++] = (b[j].key < a[i].key) ? b[j++] : a[i++];
    while (i < na) out[o++] = a[i++];
    while (j < nb) out[o++] = b[j++];
}

NOINLINE void merge_sort(row_t *rows, row_t *tmp, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge_runs(rows + lo, mid - lo, rows + mid, hi - mid, tmp + lo);
        }
        memcpy(rows, tmp, n * sizeof *rows);
    }
}

NOINLINE uint64_t merge_join_sum(const row_t *l, size_t nl, const row_t *r, size_t nr)
{
    uint64_t sum = 0;
    size_t i = 0, j = 0;
    while (i < nl && j < nr) { /* HOT LOOP */
        if (l[i].key < r[j].key) i++;
        else if (l[i].key > r[j].key) j++;
        else { sum += (uint64_t)l[i].payload * r[j].payload; i++; }
    }
    return sum;
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: %s NROWS NQUERIES SEED\n", argv[0]); return 2; }
    size_t n = (size_t)atol(argv[1]);
    int nq = atoi(argv[2]);
    uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)atoll(argv[3]);
    row_t *l = malloc(n * sizeof *l), *r = malloc(n * sizeof *r), *tmp = malloc(n * sizeof *tmp);
    uint64_t total = 0;
    for (int q = 0; q < nq; q++) {
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            l[i].key = (uint32_t)(x % (n * 4)); l[i].payload = (uint32_t)(x >> 40);
            r[i].key = (uint32_t)((x >> 20) % (n * 4)); r[i].payload = (uint32_t)(x >> 48);
        }
        merge_sort(l, tmp, n);
        merge_sort(r, tmp, n);
        total += merge_join_sum(l, n, r, n);
    }
    printf("rows=%zu queries=%d sum=%llu\n", n, nq, (unsigned long long)total);
    return 0;
}
