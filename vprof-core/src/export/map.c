/*
 * map.c - the exporters' open-addressing map from 64-bit keys to indices
 * (export_internal.h): frame addresses to names or locations, stack hashes
 * to stacks.
 */
#include <stdlib.h>
#include <string.h>

#include "export/export_internal.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

uint64_t vp_export_hash(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return mix(h);
}

static int grow(struct vp_export_map *m)
{
    size_t cap = m->mask ? (m->mask + 1) * 2 : 1024;
    uint64_t *keys = malloc(cap * sizeof *keys);
    size_t *vals = malloc(cap * sizeof *vals);
    unsigned char *used = calloc(cap, 1);
    if (!keys || !vals || !used) {
        free(keys);
        free(vals);
        free(used);
        return -1;
    }
    for (size_t i = 0; m->mask && i <= m->mask; i++)
        if (m->used[i]) {
            size_t h = mix(m->keys[i]) & (cap - 1);
            while (used[h])
                h = (h + 1) & (cap - 1);
            used[h] = 1;
            keys[h] = m->keys[i];
            vals[h] = m->vals[i];
        }
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = keys;
    m->vals = vals;
    m->used = used;
    m->mask = cap - 1;
    return 0;
}

size_t *vp_export_map_get(struct vp_export_map *m, uint64_t key, int *isnew)
{
    if ((m->n + 1) * 2 > (m->mask ? m->mask + 1 : 0) && grow(m))
        return NULL;
    size_t h = mix(key) & m->mask;
    while (m->used[h]) {
        if (m->keys[h] == key) {
            *isnew = 0;
            return &m->vals[h];
        }
        h = (h + 1) & m->mask;
    }
    m->used[h] = 1;
    m->keys[h] = key;
    m->vals[h] = (size_t)-1;
    m->n++;
    *isnew = 1;
    return &m->vals[h];
}

void vp_export_map_free(struct vp_export_map *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof *m);
}
