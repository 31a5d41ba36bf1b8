/*
 * pg14b1_vacuum -- a slice of PostgreSQL's lazy VACUUM: scan the heap page by
 * page, prune HOT chains and dead tuples (heap_page_prune), classify the
 * remaining tuples with HeapTupleSatisfiesVacuum, remember dead item
 * pointers, then bulk-delete the index entries that point at them.
 *
 * Modelled on Postgres-14b1 (vProf Table 1 b15: in 14beta1 vacuum fails to
 * prune all heap pages and retries endlessly).  lazy_scan_prune() prunes the
 * page with the GlobalVisState horizon (vistest) and then re-checks each
 * tuple with HeapTupleSatisfiesVacuum against OldestXmin; when the two
 * horizons disagree, a tuple that pruning kept is HEAPTUPLE_DEAD for the
 * re-check, and
 *
 *     if (res == HEAPTUPLE_DEAD)
 *         goto retry;
 *
 * prunes the page again -- and again, until the GlobalVis horizon has moved
 * past the deleter.  The constraint that decides to retry is evaluated with
 * the wrong (inconsistent) horizon: a wrong constraint.  The cost shows up
 * in heap_page_prune, which a profiler ranks first; the root cause is the
 * retry loop in lazy_scan_prune.  In the real bug the retry never ends; here
 * the simulated horizon advances by HORIZON_STEP xids per prune (other
 * backends finishing), so the run terminates.  Our reconstruction after
 * vacuumlazy.c / pruneheap.c of 14beta1.
 *
 * usage: pg14b1_vacuum NPAGES HORIZON_LAG HORIZON_STEP NINDEXES SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define MaxHeapTuplesPerPage 96

typedef uint32_t TransactionId;
typedef struct { uint32_t block; uint16_t offset; } ItemPointerData;

enum { LP_UNUSED = 0, LP_NORMAL = 1, LP_REDIRECT = 2, LP_DEAD = 3 };
typedef enum { HEAPTUPLE_DEAD, HEAPTUPLE_LIVE, HEAPTUPLE_RECENTLY_DEAD,
               HEAPTUPLE_INSERT_IN_PROGRESS, HEAPTUPLE_DELETE_IN_PROGRESS } HTSV_Result;

typedef struct {
    TransactionId t_xmin, t_xmax;
    uint16_t t_infomask;              /* bit 0: xmax committed, bit 1: HOT updated */
    uint16_t t_next;                  /* offset of the next HOT chain member, 0 = none */
    uint32_t t_data[6];
} HeapTupleHeader;

typedef struct {
    uint8_t lp_flags[MaxHeapTuplesPerPage + 1];
    HeapTupleHeader tuples[MaxHeapTuplesPerPage + 1];
    int nitems;
    uint32_t pd_prune_xid;
} Page;

typedef struct { TransactionId maybe_needed; } GlobalVisState;

typedef struct {
    TransactionId OldestXmin;
    GlobalVisState *vistest;
    ItemPointerData *dead_tuples; size_t num_dead, max_dead;
    uint64_t tuples_deleted, live_tuples, recently_dead, pages_retried, prune_calls;
} LVRelState;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }
static TransactionId horizon_step;

/* heapam_visibility.c: HeapTupleSatisfiesVacuum(tuple, OldestXmin) */
static HTSV_Result HeapTupleSatisfiesVacuum(const HeapTupleHeader *tup, TransactionId OldestXmin)
{
    if (tup->t_xmin >= OldestXmin) return HEAPTUPLE_INSERT_IN_PROGRESS;
    if (tup->t_xmax == 0) return HEAPTUPLE_LIVE;
    if (!(tup->t_infomask & 1)) return HEAPTUPLE_DELETE_IN_PROGRESS;
    return tup->t_xmax < OldestXmin ? HEAPTUPLE_DEAD : HEAPTUPLE_RECENTLY_DEAD;
}

/* pruneheap.c: heap_prune_satisfies_vacuum -- the same test against the
   GlobalVis horizon */
static HTSV_Result heap_prune_satisfies_vacuum(const HeapTupleHeader *tup, const GlobalVisState *vistest)
{
    HTSV_Result r = HeapTupleSatisfiesVacuum(tup, UINT32_MAX);
    if (r == HEAPTUPLE_DEAD && tup->t_xmax >= vistest->maybe_needed)
        return HEAPTUPLE_RECENTLY_DEAD;
    return r;
}

/* GlobalVisTestShouldUpdate / GlobalVisUpdate: other backends have finished
   in the meantime, the horizon moves on */
static void GlobalVisUpdate(GlobalVisState *vistest, TransactionId limit)
{
    TransactionId n = vistest->maybe_needed + horizon_step;
    vistest->maybe_needed = n > limit ? limit : n;
}

/* pruneheap.c: heap_page_prune -- follow HOT chains, mark dead items, then
   compact the page (repair fragmentation) */
NOINLINE int heap_page_prune(Page *page, GlobalVisState *vistest, TransactionId OldestXmin)
{
    int ndeleted = 0;
    uint8_t marked[MaxHeapTuplesPerPage + 1];
    memset(marked, 0, sizeof marked);
    for (int off = 1; off <= page->nitems; off++) {
        if (page->lp_flags[off] != LP_NORMAL || marked[off]) continue;
        /* heap_prune_chain: walk the HOT chain starting here */
        int chain[MaxHeapTuplesPerPage], nchain = 0, latest_dead = -1;
        for (int cur = off; cur && nchain < MaxHeapTuplesPerPage; cur = page->tuples[cur].t_next) {
            if (page->lp_flags[cur] != LP_NORMAL) break;
            chain[nchain++] = cur;
            marked[cur] = 1;
            HTSV_Result r = heap_prune_satisfies_vacuum(&page->tuples[cur], vistest);
            if (r == HEAPTUPLE_DEAD) latest_dead = nchain - 1;
            else if (r != HEAPTUPLE_RECENTLY_DEAD) break;
        }
        for (int i = 0; i <= latest_dead; i++) {
            page->lp_flags[chain[i]] = i == latest_dead && latest_dead + 1 < nchain ? LP_REDIRECT : LP_DEAD;
            ndeleted++;
        }
    }
    /* PageRepairFragmentation: recompute the free space map of the page */
    uint32_t freespace = 0;
    for (int off = 1; off <= page->nitems; off++) { /* HOT LOOP */
        const HeapTupleHeader *t = &page->tuples[off];
        if (page->lp_flags[off] == LP_NORMAL)
            for (int w = 0; w < 6; w++) freespace = (freespace ^ t->t_data[w]) * 0x01000193u + (freespace >> 15);
    }
    page->pd_prune_xid = freespace;
    GlobalVisUpdate(vistest, OldestXmin);
    return ndeleted;
}

/* vacuumlazy.c (14beta1): lazy_scan_prune */
NOINLINE void lazy_scan_prune(LVRelState *vacrel, Page *page, uint32_t blkno)
{
    int tries = 0;
    for (;;) { /* ROOT-CAUSE LOOP */
        int retry = 0;
        uint64_t live = 0, recently_dead = 0;
        vacrel->tuples_deleted += (uint64_t)heap_page_prune(page, vacrel->vistest, vacrel->OldestXmin);
        vacrel->prune_calls++;
        size_t ndead_before = vacrel->num_dead;
        for (int off = 1; off <= page->nitems; off++) {
            if (page->lp_flags[off] == LP_DEAD) {
                if (vacrel->num_dead < vacrel->max_dead)
                    vacrel->dead_tuples[vacrel->num_dead++] = (ItemPointerData){ blkno, (uint16_t)off };
                continue;
            }
            if (page->lp_flags[off] != LP_NORMAL) continue;
            HTSV_Result res = HeapTupleSatisfiesVacuum(&page->tuples[off], vacrel->OldestXmin);
            if (res == HEAPTUPLE_DEAD) {      /* pruning kept it, but it is dead for OldestXmin */
                retry = 1;
                break;
            }
            if (res == HEAPTUPLE_LIVE) live++;
            else if (res == HEAPTUPLE_RECENTLY_DEAD) recently_dead++;
        }
        if (!retry) {
            vacrel->live_tuples += live;
            vacrel->recently_dead += recently_dead;
            break;
        }
        vacrel->num_dead = ndead_before;      /* goto retry: forget this pass */
        tries++;
    }
    if (tries) vacrel->pages_retried++;
}

static int cmp_itemptr(const void *a, const void *b)
{
    const ItemPointerData *x = a, *y = b;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    return (int)x->offset - (int)y->offset;
}

/* lazy_tid_reaped: binary search of the dead-TID array */
static int lazy_tid_reaped(const ItemPointerData *itemptr, const LVRelState *vacrel)
{
    size_t lo = 0, hi = vacrel->num_dead;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_itemptr(itemptr, &vacrel->dead_tuples[mid]);
        if (c == 0) return 1;
        if (c < 0) hi = mid; else lo = mid + 1;
    }
    return 0;
}

/* btbulkdelete over each index: every entry of the index is checked
   (necessary).  Index ix is a partial index holding the tuples whose offset
   is congruent to ix modulo nindexes, in its own key order (block-major
   within each of its leaf pages). */
NOINLINE uint64_t lazy_vacuum_indexes(const LVRelState *vacrel, uint32_t npages, int nindexes)
{
    uint64_t removed = 0;
    for (int ix = 0; ix < nindexes; ix++)
        for (uint32_t e = 0; e < npages * (MaxHeapTuplesPerPage / (uint32_t)nindexes); e++) { /* HOT LOOP */
            uint32_t b = (e * 2654435761u + (uint32_t)ix * 40503u) % npages;
            uint16_t off = (uint16_t)(1 + (uint32_t)ix + (uint32_t)nindexes * (e % (MaxHeapTuplesPerPage / (uint32_t)nindexes)));
            ItemPointerData tid = { b, off };
            removed += (uint64_t)lazy_tid_reaped(&tid, vacrel);
        }
    return removed;
}

/* the table: rows inserted by old transactions, many deleted/updated by a
   batch job whose xids are just below OldestXmin */
static void fill_page(Page *p, TransactionId oldest)
{
    memset(p, 0, sizeof *p);
    p->nitems = MaxHeapTuplesPerPage;
    for (int off = 1; off <= p->nitems; off++) {
        HeapTupleHeader *t = &p->tuples[off];
        uint32_t r = rnd();
        p->lp_flags[off] = LP_NORMAL;
        t->t_xmin = 1000 + r % 5000;
        if (r % 3 == 0) { t->t_xmax = oldest - 1 - (r >> 8) % 40; t->t_infomask = 1; }   /* deleted, committed */
        if (r % 7 == 0 && off < p->nitems) { t->t_infomask |= 2; t->t_next = (uint16_t)(off + 1); }
        for (int w = 0; w < 6; w++) t->t_data[w] = rnd();
    }
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s NPAGES HORIZON_LAG HORIZON_STEP NINDEXES SEED\n", argv[0]);
        return 2;
    }
    uint32_t npages = (uint32_t)atoi(argv[1]);
    TransactionId lag = (TransactionId)atoi(argv[2]);
    horizon_step = (TransactionId)atoi(argv[3]);
    int nindexes = atoi(argv[4]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[5]);
    TransactionId OldestXmin = 100000;
    GlobalVisState vistest;
    LVRelState vacrel;
    memset(&vacrel, 0, sizeof vacrel);
    vacrel.OldestXmin = OldestXmin;
    vacrel.vistest = &vistest;
    vacrel.max_dead = (size_t)npages * MaxHeapTuplesPerPage;
    vacrel.dead_tuples = malloc(sizeof(ItemPointerData) * vacrel.max_dead);
    Page *page = malloc(sizeof(Page));
    for (uint32_t blkno = 0; blkno < npages; blkno++) {
        fill_page(page, OldestXmin);             /* ReadBufferExtended */
        /* the GlobalVis horizon is recomputed from the proc array for each
           page; with the 14beta1 bug it can lag OldestXmin */
        vistest.maybe_needed = OldestXmin - lag;
        lazy_scan_prune(&vacrel, page, blkno);
    }
    qsort(vacrel.dead_tuples, vacrel.num_dead, sizeof(ItemPointerData), cmp_itemptr);
    uint64_t removed = lazy_vacuum_indexes(&vacrel, npages, nindexes);
    printf("pages=%u deleted=%llu dead_tids=%zu live=%llu recently_dead=%llu removed=%llu\n", npages,
           (unsigned long long)vacrel.tuples_deleted, vacrel.num_dead, (unsigned long long)vacrel.live_tuples,
           (unsigned long long)vacrel.recently_dead, (unsigned long long)removed);
    fprintf(stderr, "prune_calls=%llu pages_retried=%llu\n", (unsigned long long)vacrel.prune_calls,
            (unsigned long long)vacrel.pages_retried);
    return 0;
}
