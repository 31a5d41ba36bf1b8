/* order/qsort.c - fixsuggest.order: a quicksort taking the first element
 * as its pivot, on sorted input.  Every partition (inlined into the
 * recursion) scans the rest of the array and moves nothing: its loop is
 * the finding.  The recursion, whose leaf calls return at once, holds the
 * loop's samples and a little more, and has a resultless root cause of
 * its own: the loop inside it, within 2 % of its share, comes first
 * ("Ordering"). */
#include <stdio.h>
#include <stdlib.h>

static void swap(long *a, long *b)
{
    long t = *a;
    *a = *b;
    *b = t;
}

static size_t partition(long *v, size_t lo, size_t hi)
{
    long pivot = v[lo];
    size_t i = lo;
    for (size_t j = lo + 1; j < hi; j++) /* PARTITION-LOOP */
        if (v[j] < pivot)
            swap(&v[++i], &v[j]);
    swap(&v[lo], &v[i]);
    return i;
}

__attribute__((noinline)) void quicksort(long *v, size_t lo, size_t hi)
{ /* QUICKSORT */
    while (hi - lo > 1) {
        size_t p = partition(v, lo, hi);
        if (p - lo < hi - p) {
            quicksort(v, lo, p);
            lo = p + 1;
        } else {
            quicksort(v, p + 1, hi);
            hi = p;
        }
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    if (n < 2)
        return 2;
    long *v = malloc(sizeof *v * (size_t)n);
    if (!v)
        return 1;
    for (long i = 0; i < n; i++)
        v[i] = i * 3;
    quicksort(v, 0, (size_t)n);
    printf("%ld %ld\n", v[0], v[n - 1]);
    free(v);
    return 0;
}
