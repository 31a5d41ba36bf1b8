/*
 * moz416628_linefind -- a slice of a browser layout engine: block frames own
 * a linked list of line boxes; incremental reflow marks individual inline
 * frames dirty and re-measures the line that contains them.
 *
 * Modelled on Mozilla416628 (LDoctor Table 3: resultless 0*1? loop, fixed by
 * changing the data structure).  Our reconstruction: nsBlockFrame's
 * FindLineContaining walks the block's line list from the first line until it
 * finds the line whose child range contains the dirty frame.  Blocks with
 * thousands of lines (a huge <pre> or a long chat log) make every lookup walk
 * thousands of lines; the fix keeps a frame -> line index (a hash or a cached
 * line cursor).
 *
 * Dirty frames are processed block by block in round-robin order, so
 * consecutive lookups walk different blocks' line lists.
 *
 * usage: moz416628_linefind NBLOCKS LINES_PER_BLOCK NREFLOWS SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct nsIFrame {
    uint32_t content_id;     /* id of the content node, unique per document */
    uint16_t text_len;
    uint16_t font_size;
    const uint8_t *text;
    int32_t  width;
} nsIFrame;

typedef struct nsLineBox {
    struct nsLineBox *next;
    uint32_t first_child;    /* index into block->frames */
    uint32_t child_count;
    int32_t  bounds_y, bounds_height, bounds_width;
    uint32_t flags;
} nsLineBox;

#define LINE_DIRTY 1u

typedef struct nsBlockFrame {
    nsIFrame  *frames;
    uint32_t   nframes;
    nsLineBox *lines;
    uint32_t   nlines;
    uint64_t   reflow_hash;
} nsBlockFrame;

static uint64_t seed_state;
static uint32_t rnd(void)
{
    seed_state = seed_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(seed_state >> 33);
}

static uint8_t glyph_widths[256];
static uint32_t next_content_id = 1000;

static void build_block(nsBlockFrame *b, uint32_t nlines, const uint8_t *textpool, size_t poolsz)
{
    uint32_t per_line_max = 6;
    b->frames = calloc((size_t)nlines * per_line_max, sizeof(nsIFrame));
    b->nframes = 0;
    nsLineBox **tail = &b->lines;
    for (uint32_t l = 0; l < nlines; l++) {
        nsLineBox *line = calloc(1, sizeof *line);
        line->first_child = b->nframes;
        line->child_count = 1 + rnd() % per_line_max;
        for (uint32_t c = 0; c < line->child_count; c++) {
            nsIFrame *f = &b->frames[b->nframes++];
            f->content_id = next_content_id += 1 + rnd() % 7;
            f->text_len = (uint16_t)(8 + rnd() % 40);
            f->font_size = (uint16_t)(10 + rnd() % 8);
            f->text = textpool + rnd() % (poolsz - 64);
        }
        *tail = line;
        tail = &line->next;
    }
    *tail = NULL;
    b->nlines = nlines;
}

/* nsBlockFrame.cpp */
NOINLINE nsLineBox *FindLineContaining(nsBlockFrame *block, uint32_t frame_index)
{
    nsLineBox *line = block->lines;
    while (line) { /* ROOT-CAUSE LOOP */
        if (frame_index - line->first_child < line->child_count)
            return line;
        line = line->next;
    }
    return NULL;
}

/* nsTextFrame.cpp: measuring text is the expensive, necessary part */
NOINLINE int32_t MeasureText(const nsIFrame *f)
{
    int32_t w = 0;
    for (int pass = 0; pass < 4; pass++) { /* kerning passes */
        uint8_t prev = 0;
        for (uint16_t i = 0; i < f->text_len; i++) { /* HOT LOOP */
            uint8_t ch = f->text[i];
            w += glyph_widths[ch] * f->font_size;
            w -= (prev == ch) ? f->font_size / 4 : 0;
            prev = ch;
        }
        w = (w * 7 + pass) / 8;
    }
    return w;
}

NOINLINE void ReflowLine(nsBlockFrame *block, nsLineBox *line)
{
    int32_t width = 0, height = 0;
    for (uint32_t c = 0; c < line->child_count; c++) {
        nsIFrame *f = &block->frames[line->first_child + c];
        f->width = MeasureText(f);
        width += f->width;
        if (f->font_size * 12 / 10 > height)
            height = f->font_size * 12 / 10;
    }
    line->bounds_width = width;
    line->bounds_height = height;
    line->flags &= ~LINE_DIRTY;
    block->reflow_hash = (block->reflow_hash ^ (uint64_t)width) * 0x100000001b3ull + (uint64_t)height;
}

/* PresShell: process the queue of dirty frames */
NOINLINE uint64_t ProcessReflowCommands(nsBlockFrame *blocks, uint32_t nblocks, uint32_t nreflows)
{
    uint64_t misses = 0;
    for (uint32_t r = 0; r < nreflows; r++) {
        nsBlockFrame *b = &blocks[r % nblocks];
        uint32_t fi = rnd() % b->nframes;
        nsLineBox *line = FindLineContaining(b, fi);
        if (!line) { misses++; continue; }
        line->flags |= LINE_DIRTY;
        ReflowLine(b, line);
    }
    return misses;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NBLOCKS LINES_PER_BLOCK NREFLOWS SEED\n", argv[0]);
        return 2;
    }
    uint32_t nblocks = (uint32_t)atoi(argv[1]);
    uint32_t nlines = (uint32_t)atoi(argv[2]);
    uint32_t nreflows = (uint32_t)atoi(argv[3]);
    seed_state = (uint64_t)atoll(argv[4]) * 2654435761u + 7;

    for (int i = 0; i < 256; i++)
        glyph_widths[i] = (uint8_t)(3 + (i * 37) % 9);
    size_t poolsz = 1 << 16;
    uint8_t *pool = malloc(poolsz);
    for (size_t i = 0; i < poolsz; i++)
        pool[i] = (uint8_t)(' ' + rnd() % 90);

    nsBlockFrame *blocks = calloc(nblocks, sizeof *blocks);
    for (uint32_t b = 0; b < nblocks; b++)
        build_block(&blocks[b], nlines, pool, poolsz);

    uint64_t misses = ProcessReflowCommands(blocks, nblocks, nreflows);
    uint64_t h = 0;
    for (uint32_t b = 0; b < nblocks; b++)
        h = h * 31 + blocks[b].reflow_hash;
    printf("reflows=%u misses=%llu layouthash=%016llx\n", nreflows,
           (unsigned long long)misses, (unsigned long long)h);
    return 0;
}
