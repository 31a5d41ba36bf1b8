/*
 * mdev21826_recovery -- a slice of InnoDB crash recovery: the redo log is read
 * in segments, parsed records are stored in a hash by page, and the hashed
 * records are applied to the buffer pool pages.
 *
 * Modelled on MariaDB MDEV-21826 (vProf Figure 1 / Table 1 b1, wrong
 * constraint): recv_sys_init() sets recv_n_pool_free_frames to a third of the
 * buffer pool, which makes available_mem in recv_group_scan_log_recs() almost
 * zero.  recv_scan_log_recs() then can store only a couple of records before
 * memory is "full", so the loop in recv_group_scan_log_recs() goes round and
 * round: apply the hash (costly, scans the whole buffer pool), re-read the same
 * log segment, store two more records.  A profiler points at
 * recv_apply_hashed_log_recs; the root cause is the value computed before the
 * loop.
 *
 * usage: mdev21826_recovery POOL_PAGES FREE_FRAMES_DIVISOR NRECORDS SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define srv_page_size 256u
#define RSCAN_SIZE 4096u
#define REC_SIZE 16u
#define RECV_HASH_SIZE 4096u

typedef struct { uint32_t space, page_no, offset, value; } log_rec_t;   /* 16 bytes on "disk" */
typedef struct recv_t { log_rec_t rec; struct recv_t *next; } recv_t;

static struct {
    recv_t *hash[RECV_HASH_SIZE];
    size_t heap_used;
    uint64_t n_applied, n_batches;
    recv_t *pool; size_t pool_used;
} recv_sys;

static uint8_t *log_file;  static size_t log_len;
static uint32_t *buf_pool_pages; static uint32_t buf_pool_n_pages;
static uint32_t recv_n_pool_free_frames;

static uint32_t buf_pool_get_n_pages(void) { return buf_pool_n_pages; }

NOINLINE void recv_sys_init(uint32_t divisor)
{
    recv_n_pool_free_frames = buf_pool_get_n_pages() / divisor;     /* MDEV-21826: /3 instead of 256 */
    memset(&recv_sys, 0, sizeof recv_sys);
    recv_sys.pool = malloc(sizeof(recv_t) * (log_len / REC_SIZE + 1));
}

/* apply every hashed record to its page, then empty the hash: walks the pool */
NOINLINE void recv_apply_hashed_log_recs(void)
{
    for (uint32_t p = 0; p < buf_pool_n_pages; p++) { /* HOT LOOP */
        uint32_t *frame = &buf_pool_pages[(size_t)p * (srv_page_size / 4)];
        uint32_t lsn_sum = frame[0];
        for (recv_t *r = recv_sys.hash[p % RECV_HASH_SIZE]; r; r = r->next)
            if (r->rec.page_no == p) {
                frame[1 + r->rec.offset % (srv_page_size / 4 - 1)] ^= r->rec.value;
                lsn_sum += r->rec.value;
                recv_sys.n_applied++;
            }
        frame[0] = lsn_sum * 2654435761u + p;
    }
    memset(recv_sys.hash, 0, sizeof recv_sys.hash);
    recv_sys.heap_used = 0;
    recv_sys.n_batches++;
}

NOINLINE size_t read_log_seg(uint8_t *buf, uint64_t start_lsn)
{
    if (start_lsn >= log_len) return 0;
    size_t n = log_len - start_lsn < RSCAN_SIZE ? log_len - start_lsn : RSCAN_SIZE;
    memcpy(buf, log_file + start_lsn, n);
    return n;
}

/* parse a segment and store its records while memory is available;
   returns 1 when the end of the log has been reached */
NOINLINE int recv_scan_log_recs(size_t available_mem, const uint8_t *buf, size_t len, uint64_t *contiguous_lsn)
{
    size_t off = 0;
    while (off + REC_SIZE <= len) {
        if (recv_sys.heap_used + sizeof(recv_t) > available_mem && recv_sys.heap_used)
            break;                                   /* memory full: apply first */
        recv_t *r = &recv_sys.pool[recv_sys.pool_used++ % (log_len / REC_SIZE + 1)];
        memcpy(&r->rec, buf + off, REC_SIZE);
        uint32_t h = r->rec.page_no % RECV_HASH_SIZE;
        r->next = recv_sys.hash[h];
        recv_sys.hash[h] = r;
        recv_sys.heap_used += sizeof(recv_t);
        off += REC_SIZE;
    }
    *contiguous_lsn += off;
    return *contiguous_lsn >= log_len;
}

/* log0recv.cc */
NOINLINE void recv_group_scan_log_recs(uint64_t checkpoint_lsn, uint32_t srv_buf_pool_instances)
{
    static uint8_t log_buf[RSCAN_SIZE];
    size_t available_mem = srv_page_size *
        (buf_pool_get_n_pages() - (recv_n_pool_free_frames * srv_buf_pool_instances));
    uint64_t start_lsn = checkpoint_lsn;
    size_t len;
    do { /* ROOT-CAUSE LOOP */
        if (recv_sys.heap_used + (RSCAN_SIZE / REC_SIZE) * sizeof(recv_t) > available_mem)
            recv_apply_hashed_log_recs();                /* hash would overflow: apply first */
        len = read_log_seg(log_buf, start_lsn);
    } while (len != 0 && !recv_scan_log_recs(available_mem, log_buf, len, &start_lsn));
    recv_apply_hashed_log_recs();
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s POOL_PAGES FREE_FRAMES_DIVISOR NRECORDS SEED\n", argv[0]);
        return 2;
    }
    buf_pool_n_pages = (uint32_t)atoi(argv[1]);
    uint32_t divisor = (uint32_t)atoi(argv[2]);
    size_t nrec = (size_t)atol(argv[3]);
    uint32_t x = 2463534242u ^ (uint32_t)atoi(argv[4]);
    buf_pool_pages = calloc((size_t)buf_pool_n_pages, srv_page_size);
    log_len = nrec * REC_SIZE;
    log_file = malloc(log_len);
    for (size_t i = 0; i < nrec; i++) {                 /* the redo log left by the crash */
        log_rec_t r;
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        r.space = 5; r.page_no = x % buf_pool_n_pages; r.offset = x >> 8; r.value = x * 2654435761u;
        memcpy(log_file + i * REC_SIZE, &r, REC_SIZE);
    }
    recv_sys_init(divisor);
    recv_group_scan_log_recs(0, 3);
    uint64_t h = 0;
    for (size_t i = 0; i < (size_t)buf_pool_n_pages * (srv_page_size / 4); i++)
        h = h * 31 + buf_pool_pages[i];
    printf("applied=%llu batches=%llu pool_hash=%016llx\n", (unsigned long long)recv_sys.n_applied,
           (unsigned long long)recv_sys.n_batches, (unsigned long long)h);
    return 0;
}
