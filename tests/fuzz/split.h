/*
 * split.h - the two-part input of the fuzz targets that read a section and
 * a second buffer: a 4-byte little-endian length L, L bytes of the first
 * part, the rest is the second.  An input too short for its L is all first
 * part (the second is empty).
 */
#ifndef VPROF_FUZZ_SPLIT_H
#define VPROF_FUZZ_SPLIT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void vp_fuzz_split(const uint8_t *data, size_t size, const uint8_t **a,
                                 size_t *na, const uint8_t **b, size_t *nb)
{
    *a = data, *na = size, *b = NULL, *nb = 0;
    if (size < 4)
        return;
    uint32_t l;
    memcpy(&l, data, 4);
    if (l > size - 4)
        return;
    *a = data + 4, *na = l;
    *b = data + 4 + l, *nb = size - 4 - l;
}

#endif
