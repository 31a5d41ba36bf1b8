/*
 * layout_widthcache -- a slice of a text layout engine: paragraphs are split
 * into words, each word is shaped (cmap lookup, advance widths, pair kerning,
 * grid-fitting of the advances at the requested size), lines are broken
 * greedily and the glyph runs are composed into a line buffer.  Shaping a
 * word is expensive, so the engine memoizes word widths in a hash table keyed
 * by (face, word).
 *
 * The memo-table bug of LDoctor Section 1 / Figure 1 (GCC27733: the hash
 * entry stores its key in a narrower type than the key, so lookups for wide
 * keys never hit), transposed from GCC's recursion to a layout loop.  Our
 * reconstruction, not a specific bug report.  The cache entry keeps the key
 * as uint16_t; the key packs the face index above the 16-bit word id, so for
 * face 0 (the default body face) it fits and the cache works, while a
 * document set in any other face misses on every word and re-shapes words
 * that earlier iterations of the same loop already shaped (cross-iteration
 * redundancy).  The fix widens the key (memoization that works).
 *
 * usage: layout_widthcache NPARAGRAPHS WORDS_PER_PARAGRAPH FACE SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define NVOCAB 3000
#define CACHE_SLOTS 8191
#define LINE_WIDTH (72 * 64 * 10)     /* in 26.6 fixed point at 10 units/char */
#define NFACES 8

typedef struct {
    uint16_t advance[128];            /* design units per glyph */
    int8_t kern[128][128];            /* pair kerning */
    int units_per_em;
    int hint_rounds;                  /* grid-fitting iterations per glyph */
} Face;

typedef struct {
    uint16_t key;                     /* BUG: the key is uint32_t (face << 16 | word id) */
    uint16_t valid;
    int32_t width;
} WidthCacheEntry;

typedef struct { int word; int x; } PlacedWord;
typedef struct { PlacedWord *w; int n, cap; int lines; } LineBuffer;

static Face faces[NFACES];
static WidthCacheEntry width_cache[CACHE_SLOTS];
static char vocab[NVOCAB][16];
static uint64_t shaped, cache_hits;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static void init_faces(void)
{
    for (int f = 0; f < NFACES; f++) {
        faces[f].units_per_em = 1000 + 24 * f;
        faces[f].hint_rounds = 40;
        for (int g = 0; g < 128; g++) faces[f].advance[g] = (uint16_t)(400 + (rnd() % 300));
        for (int a = 0; a < 128; a++)
            for (int b = 0; b < 128; b++) faces[f].kern[a][b] = (int8_t)((rnd() % 16 == 0) ? (int)(rnd() % 61) - 30 : 0);
    }
}

static void init_vocab(void)
{
    static const char syll[][4] = { "ka", "to", "re", "mi", "sun", "lo", "pe", "dra", "qu", "ex", "an", "ve" };
    for (int i = 0; i < NVOCAB; i++) {
        char *w = vocab[i]; int n = 0, k = 1 + (int)(rnd() % 4);
        for (int s = 0; s < k; s++)
            for (const char *p = syll[rnd() % 12]; *p && n < 14; p++) w[n++] = *p;
        w[n] = 0;
    }
}

/* shape a word: advances, kerning and grid-fitting of the pen position */
NOINLINE int32_t shape_word(const Face *face, const char *word, int size_px)
{
    int32_t pen = 0;
    unsigned prev = 0;
    for (const char *p = word; *p; p++) {
        unsigned g = (unsigned char)*p & 127;
        int32_t adv = face->advance[g] + (prev ? face->kern[prev][g] : 0);
        /* hinting: iteratively snap the scaled advance to the pixel grid */
        int32_t scaled = adv * size_px * 64 / face->units_per_em;
        for (int r = 0; r < face->hint_rounds; r++) /* HOT LOOP */
            scaled = (scaled * 15 + ((scaled + 32) & ~63)) / 16 + (r & 1);
        pen += scaled;
        prev = g;
    }
    shaped++;
    return pen;
}

static inline uint32_t width_key(int face, int word) { return ((uint32_t)face << 16) | (uint32_t)word; }

/* lay out one paragraph: measure each word (through the width cache) and
   break lines greedily */
NOINLINE int layout_paragraph(const int *words, int nwords, int face, int size_px, LineBuffer *out)
{
    int x = 0, lines = 1;
    int32_t space = faces[face].advance[' '] * size_px * 64 / faces[face].units_per_em;
    for (int i = 0; i < nwords; i++) { /* ROOT-CAUSE LOOP */
        uint32_t key = width_key(face, words[i]);
        WidthCacheEntry *e = &width_cache[key % CACHE_SLOTS];
        int32_t w;
        if (e->valid && e->key == key) {
            w = e->width;
            cache_hits++;
        } else {
            w = shape_word(&faces[face], vocab[words[i]], size_px);
            e->key = (uint16_t)key;
            e->width = w;
            e->valid = 1;
        }
        if (x && x + space + w > LINE_WIDTH) { x = 0; lines++; }
        if (out->n == out->cap) { out->cap = out->cap ? out->cap * 2 : 1024; out->w = realloc(out->w, sizeof(PlacedWord) * (size_t)out->cap); }
        out->w[out->n].word = words[i];
        out->w[out->n].x = x;
        out->n++;
        x += (x ? space : 0) + w;
    }
    out->lines += lines;
    return lines;
}

/* compose the placed words into a coverage row (the painting; necessary) */
NOINLINE uint64_t compose_lines(const LineBuffer *lb)
{
    static uint8_t row[LINE_WIDTH / 64 + 64];
    uint64_t h = 0;
    for (int i = 0; i < lb->n; i++) {
        const char *w = vocab[lb->w[i].word];
        int px = lb->w[i].x / 64;
        for (int k = 0; w[k]; k++)
            for (int s = 0; s < 10; s++) { /* HOT LOOP */
                int c = (px + k * 10 + s) % (int)sizeof row;
                row[c] = (uint8_t)(row[c] * 3 + (uint8_t)w[k] + s);
                h += row[c];
            }
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NPARAGRAPHS WORDS_PER_PARAGRAPH FACE SEED\n", argv[0]);
        return 2;
    }
    int npara = atoi(argv[1]), per = atoi(argv[2]), face = atoi(argv[3]) % NFACES;
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    init_faces();
    init_vocab();
    int *words = malloc(sizeof(int) * (size_t)per);
    LineBuffer lb = { 0, 0, 0, 0 };
    uint64_t h = 0;
    int lines = 0;
    for (int p = 0; p < npara; p++) {
        for (int i = 0; i < per; i++) {            /* Zipf-ish word frequencies */
            uint32_t r = rnd();
            words[i] = (int)((r % 8 == 0) ? r % NVOCAB : (r >> 3) % 200);
        }
        lb.n = 0;
        lines += layout_paragraph(words, per, face, 16, &lb);
        h = h * 31 + compose_lines(&lb);
    }
    printf("paragraphs=%d lines=%d hash=%016llx\n", npara, lines, (unsigned long long)h);
    fprintf(stderr, "shaped=%llu hits=%llu\n", (unsigned long long)shaped, (unsigned long long)cache_hits);
    return 0;
}
