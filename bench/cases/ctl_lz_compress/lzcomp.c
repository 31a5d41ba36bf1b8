/*
 * ctl_lz_compress -- CONTROL case (no root cause): an LZ77 compressor with a
 * hash-chain match finder and a CRC-32 over the output, as in a log archiver.
 * The slow input is simply more data of the same kind; every hot loop is
 * necessary work whose cost scales linearly with the input.
 *
 * usage: ctl_lz_compress NBLOCKS SEED   (1 MiB blocks)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define HASH_BITS 15
#define WINDOW 32768
#define MAX_CHAIN 8
#define MIN_MATCH 4

static uint32_t crc_table[256];

static void make_crc_table(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

NOINLINE uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) /* HOT LOOP */
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static inline uint32_t hash4(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return (v * 2654435761u) >> (32 - HASH_BITS); }

NOINLINE size_t longest_match(const uint8_t *in, size_t pos, size_t end, const int32_t *prev, int32_t cand, size_t *best_dist)
{
    size_t best = 0;
    for (int chain = 0; chain < MAX_CHAIN && cand >= 0 && pos - (size_t)cand <= WINDOW; chain++) { /* HOT LOOP */
        size_t l = 0;
        while (pos + l < end && l < 258 && in[cand + l] == in[pos + l]) l++;
        if (l > best) { best = l; *best_dist = pos - (size_t)cand; }
        cand = prev[cand];
    }
    return best;
}

NOINLINE size_t lz_compress(const uint8_t *in, size_t n, uint8_t *out)
{
    int32_t *head = malloc(sizeof(int32_t) << HASH_BITS);
    int32_t *prev = malloc(sizeof(int32_t) * n);
    memset(head, 0xff, sizeof(int32_t) << HASH_BITS);
    size_t o = 0, pos = 0;
    while (pos + MIN_MATCH <= n) { /* HOT LOOP */
        uint32_t h = hash4(in + pos);
        size_t dist = 0;
        size_t len = longest_match(in, pos, n, prev, head[h], &dist);
        prev[pos] = head[h];
        head[h] = (int32_t)pos;
        if (len >= MIN_MATCH) {
            out[o++] = 0xff; out[o++] = (uint8_t)len; out[o++] = (uint8_t)dist; out[o++] = (uint8_t)(dist >> 8);
            for (size_t k = 1; k < len && pos + k + MIN_MATCH <= n; k++) {
                uint32_t hk = hash4(in + pos + k);
                prev[pos + k] = head[hk];
                head[hk] = (int32_t)(pos + k);
            }
            pos += len;
        } else {
            out[o++] = in[pos++];
        }
    }
    while (pos < n) out[o++] = in[pos++];
    free(head); free(prev);
    return o;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s NBLOCKS SEED\n", argv[0]); return 2; }
    size_t n = 1u << 20;
    long nblocks = atol(argv[1]);
    uint32_t x = 2463534242u ^ (uint32_t)atoi(argv[2]);
    static const char *words[] = { "GET ", "POST ", "/index.html ", "/api/v2/orders ", "200 ", "404 ",
                                   "Mozilla/5.0 ", "curl/7.88 ", "\n", "10.0.0.", "2023-05-08T12:", "ms " };
    uint8_t *in = malloc(n + 16), *out = malloc(n * 2 + 64);
    make_crc_table();
    size_t total_out = 0;
    uint32_t crc = 0;
    for (long b = 0; b < nblocks; b++) {
    size_t p = 0;
    while (p < n) {                      /* synthetic access log */
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        const char *w = words[x % 12];
        size_t l = strlen(w);
        if (x % 7 == 0) { in[p++] = (uint8_t)('0' + (x >> 8) % 10); continue; }
        for (size_t k = 0; k < l && p < n; k++) in[p++] = (uint8_t)w[k];
    }
    size_t o = lz_compress(in, n, out);
    crc = crc32_update(crc, out, o);
    total_out += o;
    }
    printf("in=%zu out=%zu crc=%08x\n", n * (size_t)nblocks, total_out, crc);
    return 0;
}
