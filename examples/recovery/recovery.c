/*
 * recovery.c - a redo-log recovery loop, modelled on MariaDB MDEV-21826
 * (vProf, EuroSys'23, Figure 1).
 *
 * Recovery scans the log in batches: it parses records into a hash table
 * until the memory budget of the batch is used up, then applies the table
 * to the pages and starts the next batch.  The budget comes from the size of
 * the buffer pool.  With a pool configured in "large pages" mode the budget
 * is computed with the wrong unit (pages instead of bytes), so every batch
 * holds only a handful of records and the costly apply pass runs thousands
 * of times.  A plain profiler blames the apply function (it is costly in
 * every run); the root cause is the batch-size constraint in
 * recv_group_scan_log_recs.
 *
 * usage: recovery RECORDS POOL_MB [large]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_SIZE 16384
#define N_PAGES 131072
#define HASH_CELLS 16384

struct log_rec {
    uint32_t page_no;
    uint32_t offset;
    uint64_t lsn;
    uint32_t len;
    uint8_t body[20];
};

struct hash_node {
    struct log_rec rec;
    struct hash_node *next;
};

struct recv_sys {
    struct hash_node *cells[HASH_CELLS];
    struct hash_node *pool;
    size_t pool_used, pool_cap;
    size_t n_addrs;
    uint64_t applied_lsn;
};

/* Global configuration, as a server would hold it. */
size_t srv_buf_pool_size;       /* bytes */
int srv_large_pages;            /* pool allocated in 2 MiB pages */
unsigned long recv_n_pool_free_frames = 480;
static uint64_t page_checksums[N_PAGES];

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

/* Synthesise the log deterministically: record i touches page f(i). */
static void make_log(struct log_rec *log, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t h = mix(i + 1);
        log[i].page_no = (uint32_t)(h % N_PAGES);
        log[i].offset = (uint32_t)((h >> 16) % (PAGE_SIZE - 32));
        log[i].lsn = 1000 + i * 7;
        log[i].len = 4 + (uint32_t)((h >> 40) % 16);
        for (int b = 0; b < 20; b++)
            log[i].body[b] = (uint8_t)(h >> (b % 8 * 8));
    }
}

/* Memory available for parsed records in one batch.  The unit of
 * srv_buf_pool_size differs with large pages; the conversion is the bug. */
__attribute__((noinline)) static size_t recv_available_mem(void)
{
    size_t frames = srv_large_pages ? srv_buf_pool_size / (2u << 20) /* wrong unit */
                                    : srv_buf_pool_size / PAGE_SIZE;
    if (frames <= recv_n_pool_free_frames)
        return sizeof(struct hash_node) * 4;
    return (frames - recv_n_pool_free_frames) * PAGE_SIZE / 64;
}

__attribute__((noinline)) static void recv_add_to_hash(struct recv_sys *sys,
                                                       const struct log_rec *rec)
{
    struct hash_node *n = &sys->pool[sys->pool_used++];
    n->rec = *rec;
    size_t cell = rec->page_no % HASH_CELLS;
    n->next = sys->cells[cell];
    sys->cells[cell] = n;
    sys->n_addrs++;
}

/* Apply every hashed record to its page.  Inherently costly: it walks the
 * whole page array to flush checksums, whatever the batch size. */
__attribute__((noinline)) static void recv_apply_hashed_log_recs(struct recv_sys *sys)
{
    for (size_t c = 0; c < HASH_CELLS; c++) {
        for (struct hash_node *n = sys->cells[c]; n; n = n->next) {
            uint64_t h = page_checksums[n->rec.page_no];
            for (uint32_t b = 0; b < n->rec.len; b++)
                h = mix(h ^ n->rec.body[b % 20] ^ n->rec.offset);
            page_checksums[n->rec.page_no] = h;
            if (n->rec.lsn > sys->applied_lsn)
                sys->applied_lsn = n->rec.lsn;
        }
        sys->cells[c] = NULL;
    }
    for (size_t p = 0; p < N_PAGES; p++)
        page_checksums[p] = mix(page_checksums[p] + p);
    sys->pool_used = 0;
    sys->n_addrs = 0;
}

/* Parse records from `start` until the batch budget is used up.
 * Returns the index of the first record not parsed. */
__attribute__((noinline)) static size_t recv_scan_log_recs(struct recv_sys *sys, size_t available_mem,
                                                           const struct log_rec *log, size_t start,
                                                           size_t n)
{
    size_t i = start;
    while (i < n && (sys->pool_used + 1) * sizeof(struct hash_node) <= available_mem &&
           sys->pool_used < sys->pool_cap) {
        recv_add_to_hash(sys, &log[i]);
        i++;
    }
    return i;
}

/* The root cause: the loop's batch size is bounded by available_mem. */
__attribute__((noinline)) static void recv_group_scan_log_recs(struct recv_sys *sys,
                                                               const struct log_rec *log, size_t n)
{
    size_t available_mem = recv_available_mem();
    size_t next = 0;
    while (next < n) {
        next = recv_scan_log_recs(sys, available_mem, log, next, n);
        recv_apply_hashed_log_recs(sys);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s RECORDS POOL_MB [large]\n", argv[0]);
        return 2;
    }
    size_t n = strtoul(argv[1], NULL, 10);
    srv_buf_pool_size = strtoul(argv[2], NULL, 10) << 20;
    srv_large_pages = argc > 3 && strcmp(argv[3], "large") == 0;

    struct log_rec *log = malloc(n * sizeof *log);
    struct recv_sys *sys = calloc(1, sizeof *sys);
    if (!log || !sys)
        return 1;
    sys->pool_cap = n ? n : 1;
    sys->pool = malloc(sys->pool_cap * sizeof *sys->pool);
    if (!sys->pool)
        return 1;
    make_log(log, n);
    recv_group_scan_log_recs(sys, log, n);

    uint64_t sum = 0;
    for (size_t p = 0; p < N_PAGES; p++)
        sum ^= page_checksums[p];
    printf("recovered %zu records up to lsn %llu, checksum %016llx\n", n,
           (unsigned long long)sys->applied_lsn, (unsigned long long)sum);
    free(sys->pool);
    free(sys);
    free(log);
    return 0;
}
