/*
 * mdev23399_lru -- a slice of InnoDB's buffer pool: page hash, LRU list,
 * free list, a page cleaner, and page reads that verify checksums.
 *
 * Modelled on MariaDB MDEV-23399 (vProf Table 1 b2 / Figure 5, scalability):
 * when the buffer pool is full, buf_LRU_get_free_block() calls
 * buf_LRU_scan_and_free_block(), which walks the LRU list from the tail
 * looking for a page that can be evicted (clean and not pinned).  Under an
 * I/O-bound, write-heavy workload the page cleaner falls behind, the tail of
 * the LRU is full of dirty pages, and every miss walks over (almost) the whole
 * pool -- and walks over the same dirty pages as the previous miss.
 *
 * usage: mdev23399_lru POOL_PAGES DATASET_PAGES NACCESS WRITE_PERMILLE FLUSH_BATCH SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define PAGE_WORDS 128            /* simulated page payload, 512 bytes */

typedef struct buf_page_t {
    uint32_t id;
    uint32_t buf_fix_count;
    uint64_t oldest_modification; /* 0 = clean */
    struct buf_page_t *lru_prev, *lru_next;
    struct buf_page_t *hash_next;
    uint32_t frame[PAGE_WORDS];
} buf_page_t;

typedef struct {
    buf_page_t *blocks;
    uint32_t    n_blocks;
    buf_page_t *lru_head, *lru_tail;
    uint32_t    lru_len;
    buf_page_t *free_list;
    buf_page_t **page_hash;
    uint32_t    hash_size;
    uint64_t    lsn;
    uint64_t    n_reads, n_writes, n_single_flush, lru_scanned;
} buf_pool_t;

static buf_pool_t buf_pool;
static uint64_t rstate;
static uint32_t rnd(void) { rstate += 0x9e3779b97f4a7c15ull; uint64_t z = rstate; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; z = (z ^ (z >> 27)) * 0x94d049bb133111ebull; return (uint32_t)((z ^ (z >> 31)) >> 32); }

static void lru_remove(buf_page_t *b)
{
    if (b->lru_prev) b->lru_prev->lru_next = b->lru_next; else buf_pool.lru_head = b->lru_next;
    if (b->lru_next) b->lru_next->lru_prev = b->lru_prev; else buf_pool.lru_tail = b->lru_prev;
    buf_pool.lru_len--;
}

static void lru_add_head(buf_page_t *b)
{
    b->lru_prev = NULL;
    b->lru_next = buf_pool.lru_head;
    if (buf_pool.lru_head) buf_pool.lru_head->lru_prev = b; else buf_pool.lru_tail = b;
    buf_pool.lru_head = b;
    buf_pool.lru_len++;
}

static buf_page_t **hash_slot(uint32_t id) { return &buf_pool.page_hash[(id * 2654435761u) % buf_pool.hash_size]; }

static void hash_remove(buf_page_t *b)
{
    buf_page_t **pp = hash_slot(b->id);
    while (*pp != b) pp = &(*pp)->hash_next;
    *pp = b->hash_next;
}

/* fil0crypt/buf0buf: page checksum -- necessary work on every read/write */
NOINLINE uint32_t buf_calc_page_crc32(const uint32_t *frame)
{
    uint32_t c = 0xffffffffu;
    for (int i = 0; i < PAGE_WORDS - 1; i++) { /* HOT LOOP */
        c ^= frame[i];
        for (int k = 0; k < 4; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return ~c;
}

NOINLINE void buf_flush_write_page(buf_page_t *b)
{
    b->frame[PAGE_WORDS - 1] = buf_calc_page_crc32(b->frame);
    b->oldest_modification = 0;
    buf_pool.n_writes++;
}

static inline int buf_LRU_block_is_freeable(const buf_page_t *b)
{
    return b->oldest_modification == 0 && b->buf_fix_count == 0;
}

/* buf0lru.cc */
NOINLINE buf_page_t *buf_LRU_scan_and_free_block(void)
{
    buf_page_t *b = buf_pool.lru_tail;
    while (b) { /* ROOT-CAUSE LOOP */
        if (buf_LRU_block_is_freeable(b))
            return b;
        b = b->lru_prev;
    }
    return NULL;
}

NOINLINE buf_page_t *buf_LRU_get_free_block(void)
{
    buf_page_t *b = buf_pool.free_list;
    if (b) {
        buf_pool.free_list = b->hash_next;
        return b;
    }
    b = buf_LRU_scan_and_free_block();
    if (!b) {
        /* nothing clean: flush the tail page synchronously */
        b = buf_pool.lru_tail;
        buf_flush_write_page(b);
        buf_pool.n_single_flush++;
    }
    lru_remove(b);
    hash_remove(b);
    return b;
}

NOINLINE void buf_read_page(buf_page_t *b, uint32_t id)
{
    uint32_t x = id * 747796405u + 2891336453u;
    for (int i = 0; i < PAGE_WORDS - 1; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        b->frame[i] = x;
    }
    b->frame[PAGE_WORDS - 1] = buf_calc_page_crc32(b->frame);
    /* verify after the "I/O" completes */
    if (buf_calc_page_crc32(b->frame) != b->frame[PAGE_WORDS - 1])
        abort();
    buf_pool.n_reads++;
}

NOINLINE buf_page_t *buf_page_get(uint32_t id)
{
    for (buf_page_t *b = *hash_slot(id); b; b = b->hash_next)
        if (b->id == id) {
            lru_remove(b);          /* make young */
            lru_add_head(b);
            return b;
        }
    buf_page_t *b = buf_LRU_get_free_block();
    b->id = id;
    b->oldest_modification = 0;
    buf_read_page(b, id);
    buf_page_t **slot = hash_slot(id);
    b->hash_next = *slot;
    *slot = b;
    lru_add_head(b);
    return b;
}

/* page cleaner: flush a batch from the LRU tail */
NOINLINE void buf_flush_LRU_tail(uint32_t batch)
{
    uint32_t n = 0, scanned = 0, depth = batch * 4;   /* innodb_lru_scan_depth */
    for (buf_page_t *b = buf_pool.lru_tail; b && n < batch && scanned < depth; b = b->lru_prev, scanned++)
        if (b->oldest_modification) { buf_flush_write_page(b); n++; }
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: %s POOL_PAGES DATASET_PAGES NACCESS WRITE_PERMILLE FLUSH_BATCH SEED\n", argv[0]);
        return 2;
    }
    uint32_t npool = (uint32_t)atoi(argv[1]);
    uint32_t ndata = (uint32_t)atoi(argv[2]);
    uint32_t nacc = (uint32_t)atoi(argv[3]);
    uint32_t wr = (uint32_t)atoi(argv[4]);
    uint32_t batch = (uint32_t)atoi(argv[5]);
    rstate = (uint64_t)atoll(argv[6]);

    buf_pool.n_blocks = npool;
    buf_pool.blocks = calloc(npool, sizeof(buf_page_t));
    buf_pool.hash_size = npool * 2 + 1;
    buf_pool.page_hash = calloc(buf_pool.hash_size, sizeof(buf_page_t *));
    for (uint32_t i = 0; i < npool; i++) {
        buf_pool.blocks[i].hash_next = buf_pool.free_list;
        buf_pool.free_list = &buf_pool.blocks[i];
    }

    uint64_t rowsum = 0;
    for (uint32_t a = 0; a < nacc; a++) {
        /* 80% of accesses go to a hot 10% of the data set */
        uint32_t id = (rnd() % 10 < 8) ? rnd() % (ndata / 10 + 1) : rnd() % ndata;
        buf_page_t *b = buf_page_get(id);
        b->buf_fix_count++;
        rowsum += b->frame[id % (PAGE_WORDS - 1)];
        if (rnd() % 1000 < wr) {
            b->frame[rnd() % (PAGE_WORDS - 1)] ^= a;
            if (!b->oldest_modification)
                b->oldest_modification = ++buf_pool.lsn;
        }
        b->buf_fix_count--;
        if (a % 64 == 63)
            buf_flush_LRU_tail(batch);
    }
    printf("reads=%llu writes=%llu single_flush=%llu rowsum=%llu\n",
           (unsigned long long)buf_pool.n_reads, (unsigned long long)buf_pool.n_writes,
           (unsigned long long)buf_pool.n_single_flush, (unsigned long long)rowsum);
    return 0;
}
