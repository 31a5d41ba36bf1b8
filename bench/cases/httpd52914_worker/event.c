/*
 * httpd52914_worker -- a slice of Apache httpd's event MPM: the connection
 * queue shared by listener and workers, the keep-alive timer queue, and
 * request handling.
 *
 * Modelled on HTTPD-52914 (vProf Table 1 b10: "Workers eat 60-100% CPU even
 * though no client sent requests", wrong constraint).  Our reconstruction:
 * before blocking, an idle worker spin-polls the queue for a bounded number
 * of rounds.  The number of rounds is derived from the keep-alive timeout and
 * the poll granularity; the granularity is computed with the wrong unit
 * (milliseconds divided by 1000 again), so for sub-second settings it becomes
 * 0, is clamped to 1, and the worker spins thousands of times longer than
 * intended.  The spin loop has no result at all (0*).
 *
 * usage: httpd52914_worker POLL_INTERVAL_MS KEEPALIVE_MS NIDLE NREQ_PER_BURST SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct fd_queue_elem_t { int sd; int ready; struct fd_queue_elem_t *next; } fd_queue_elem_t;
typedef struct { fd_queue_elem_t *head; int nelts; int idlers; } fd_queue_t;
typedef struct { uint32_t poll_interval_ms; uint32_t keepalive_ms; } event_conf;

static uint64_t rs;
static uint32_t rnd(void) { rs = rs * 2862933555777941757ull + 3037000493ull; return (uint32_t)(rs >> 32); }

/* fdqueue.c: is there a connection that a worker can take? */
NOINLINE int ap_queue_has_ready(const fd_queue_t *q)
{
    for (const fd_queue_elem_t *e = q->head; e; e = e->next)
        if (__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE))   /* set by the listener thread */
            return 1;
    return 0;
}

/* event.c: computed once per idle period from the configuration */
NOINLINE unsigned long worker_spin_rounds(const event_conf *conf)
{
    unsigned long poll_ms = conf->poll_interval_ms / 1000;      /* BUG: value is already in ms */
    if (poll_ms == 0)
        poll_ms = 1;
    return (unsigned long)conf->keepalive_ms * 40 / poll_ms;
}

/* event.c: spin a little before going to sleep on the condition variable */
NOINLINE void worker_wait_for_work(fd_queue_t *q, unsigned long rounds)
{
    for (unsigned long i = 0; i < rounds; i++) { /* ROOT-CAUSE LOOP */
        if (ap_queue_has_ready(q))
            break;
    }
}

/* request processing: necessary work */
NOINLINE uint32_t process_connection(int sd, int nreq)
{
    char buf[160];
    uint32_t h = (uint32_t)sd;
    for (int r = 0; r < nreq; r++) {
        int n = snprintf(buf, sizeof buf, "GET /api/v1/items/%u HTTP/1.1\r\nHost: shop\r\n\r\n", rnd() % 100000);
        for (int i = 0; i < n; i++) /* HOT LOOP */
            h = (h ^ (uint8_t)buf[i]) * 16777619u;
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s POLL_INTERVAL_MS KEEPALIVE_MS NIDLE NREQ_PER_BURST SEED\n", argv[0]);
        return 2;
    }
    event_conf conf = { (uint32_t)atoi(argv[1]), (uint32_t)atoi(argv[2]) };
    int nidle = atoi(argv[3]), nreq = atoi(argv[4]);
    rs = (uint64_t)atoll(argv[5]) + 11;

    /* keep-alive connections parked in the queue, none of them readable */
    fd_queue_t q = { NULL, 0, 1 };
    for (int i = 0; i < 24; i++) {
        fd_queue_elem_t *e = calloc(1, sizeof *e);
        e->sd = 100 + i; e->ready = 0; e->next = q.head; q.head = e; q.nelts++;
    }
    uint32_t h = 0;
    unsigned long spun = 0;
    for (int p = 0; p < nidle; p++) {
        h ^= process_connection(100 + p % 24, nreq);     /* a burst of requests */
        unsigned long rounds = worker_spin_rounds(&conf);
        worker_wait_for_work(&q, rounds);                /* then idle until the next one */
        spun += rounds;
    }
    printf("idle_periods=%d spin_rounds=%lu hash=%08x\n", nidle, spun, h);
    return 0;
}
