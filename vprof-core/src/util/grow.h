/*
 * grow.h - growing a realloc'd array by doubling (vprof-core's libraries).
 */
#ifndef VPROF_UTIL_GROW_H
#define VPROF_UTIL_GROW_H

#include <stdlib.h>

/* Makes room for `need` elements of `elem` bytes in *p (capacity *cap):
 * doubles from `first` (or the current capacity) until it fits.  Returns 0,
 * or -1 with *p and *cap unchanged when out of memory. */
static inline int vp_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : first;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

#endif
