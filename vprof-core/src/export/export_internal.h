/*
 * export_internal.h - pieces shared by the exporters: the frame addresses
 * of a PC sample, and an open-addressing map from 64-bit keys to indices.
 */
#ifndef VPROF_EXPORT_INTERNAL_H
#define VPROF_EXPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vprof/profile.h"

/* Address to symbolize for frame `i` of a sample (0 = leaf): the PC, or a
 * caller's return address minus one (inside the call instruction). */
static inline uint64_t vp_export_frame_addr(const struct vp_pc_sample *s, size_t i)
{
    return i == 0 ? s->pc : vp_pc_sample_callers(s)[i - 1] - 1;
}

/* uint64 key -> size_t value; keys are arbitrary (0 included). */
struct vp_export_map {
    uint64_t *keys;
    size_t *vals;
    unsigned char *used;
    size_t mask, n;
};

/* Returns a pointer to the value of `key` (inserted as (size_t)-1 when new,
 * *isnew = 1), or NULL when out of memory. */
size_t *vp_export_map_get(struct vp_export_map *m, uint64_t key, int *isnew);
void vp_export_map_free(struct vp_export_map *m);
/* 64-bit hash of a byte string (FNV-1a, then mixed). */
uint64_t vp_export_hash(const void *data, size_t len);

#endif
