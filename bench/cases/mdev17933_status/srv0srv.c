/*
 * mdev17933_status -- a slice of InnoDB: the table cache (dictionary hash),
 * per-table statistics, row lookups, and SHOW STATUS export.
 *
 * Modelled on MariaDB MDEV-17933 (vProf Table 1 b5: "Checking the server
 * status takes > 10 seconds with 3M tables", scalability).  Our
 * reconstruction: srv_export_innodb_status() still walks every table to sum
 * the pending operations of each table for a status variable that is no
 * longer exported (the `innodb_pending_table_ops` line was removed, the loop
 * stayed).  The computed sum is dead: the loop has no result at all (0*), and
 * its cost grows with the number of tables.  Fix: delete the loop.
 *
 * usage: mdev17933_status NTABLES NSTATUS NROWOPS SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct pending_op { int type; uint32_t rows; struct pending_op *next; } pending_op;

typedef struct dict_table_t {
    uint32_t id;
    char name[40];
    uint64_t stat_n_rows;
    uint64_t n_lookups;
    pending_op *ops;                 /* queued purge/ibuf operations */
    struct dict_table_t *table_LRU_next;
    struct dict_table_t *hash_next;
} dict_table_t;

static struct {
    dict_table_t *table_LRU;
    dict_table_t **hash;
    uint32_t hash_size;
    uint32_t n_tables;
} dict_sys;

static struct {
    uint64_t rows_read, rows_inserted, buffer_pool_reads, status_calls;
    uint64_t n_tables_exported;
} export_vars;

static uint64_t rs;
static uint32_t rnd(void) { rs ^= rs << 7; rs ^= rs >> 9; return (uint32_t)rs; }

/* walks the table's queue of pending operations (the list may be long) */
NOINLINE uint32_t dict_table_pending_ops(const dict_table_t *t)
{
    uint32_t n = 0;
    for (const pending_op *op = t->ops; op; op = op->next)
        n += op->rows;
    return n;
}

/* srv0srv.cc */
NOINLINE void srv_export_innodb_status(void)
{
    export_vars.status_calls++;
    uint64_t pending = 0;
    for (const dict_table_t *t = dict_sys.table_LRU; t; t = t->table_LRU_next) { /* ROOT-CAUSE LOOP */
        pending += dict_table_pending_ops(t);
    }
    /* export_vars.innodb_pending_table_ops = pending;   -- removed with the status variable */
    export_vars.n_tables_exported = dict_sys.n_tables;
}

/* row0sel: primary-key lookups through the table hash (unrelated hot code) */
NOINLINE uint64_t row_search_by_id(uint32_t id, uint32_t key)
{
    dict_table_t *t = dict_sys.hash[id % dict_sys.hash_size];
    while (t && t->id != id) t = t->hash_next;
    if (!t) return 0;
    t->n_lookups++;
    uint64_t h = key;
    for (int level = 0; level < 12; level++) /* HOT LOOP */
        h = (h * 0x9e3779b97f4a7c15ull) ^ (h >> 31) ^ t->stat_n_rows;
    export_vars.rows_read++;
    return h & 0xffff;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NTABLES NSTATUS NROWOPS SEED\n", argv[0]);
        return 2;
    }
    uint32_t ntables = (uint32_t)atoi(argv[1]);
    int nstatus = atoi(argv[2]);
    long nrowops = atol(argv[3]);
    rs = (uint64_t)atoll(argv[4]) * 2654435761u + 1;
    dict_sys.hash_size = ntables * 2 + 1;
    dict_sys.hash = calloc(dict_sys.hash_size, sizeof(dict_table_t *));
    for (uint32_t i = 0; i < ntables; i++) {
        dict_table_t *t = calloc(1, sizeof *t);
        t->id = i + 1;
        snprintf(t->name, sizeof t->name, "db%u/t%u", i % 50, i);
        t->stat_n_rows = rnd() % 100000;
        for (int k = (int)(rnd() % 3); k > 0; k--) {
            pending_op *op = malloc(sizeof *op);
            op->type = k; op->rows = rnd() % 10; op->next = t->ops; t->ops = op;
        }
        t->table_LRU_next = dict_sys.table_LRU;
        dict_sys.table_LRU = t;
        t->hash_next = dict_sys.hash[t->id % dict_sys.hash_size];
        dict_sys.hash[t->id % dict_sys.hash_size] = t;
        dict_sys.n_tables++;
    }
    uint64_t sum = 0;
    long per = nrowops / (nstatus ? nstatus : 1);
    for (int s = 0; s < nstatus; s++) {
        for (long r = 0; r < per; r++)
            sum += row_search_by_id(1 + rnd() % 1000, (uint32_t)r);
        srv_export_innodb_status();                 /* SHOW GLOBAL STATUS from the monitor */
    }
    printf("tables=%u status_calls=%llu rows_read=%llu sum=%llu\n", dict_sys.n_tables,
           (unsigned long long)export_vars.status_calls, (unsigned long long)export_vars.rows_read,
           (unsigned long long)sum);
    return 0;
}
