/*
 * mdev15333_startup -- a slice of InnoDB server start-up: load the data
 * dictionary (SYS_TABLES records into the table-name hash) and open every
 * .ibd tablespace.
 *
 * Modelled on MariaDB MDEV-15333 (vProf Table 1 b4: "Slow start-up even when
 * .ibd file validation is off", constraint bug).  Our reconstruction:
 * fil_space_verify_pages() reads and checksums the first extent of every
 * tablespace, but it only matters when validation is on (a mismatch is then
 * reported and counted).  With validation off the loop still runs -- the
 * missing constraint is `if (!validate) return` -- so start-up time grows with
 * tables x pages although no iteration ever produces a result.
 *
 * usage: mdev15333_startup NTABLES PAGES_PER_EXTENT VALIDATE(0|1) SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define PAGE_SIZE 1024
#define FIL_PAGE_CHECKSUM 0

typedef struct fil_space_t {
    uint32_t id;
    char     name[48];
    uint32_t flags;
    uint32_t size;
    uint32_t corrupt_pages;
    struct fil_space_t *hash_next;
} fil_space_t;

typedef struct dict_table_t {
    char     name[48];
    uint32_t space_id;
    uint32_t n_cols;
    struct dict_table_t *name_hash_next;
} dict_table_t;

static struct {
    dict_table_t **table_hash;
    uint32_t       table_hash_size;
    fil_space_t  **space_hash;
    uint32_t       space_hash_size;
    uint64_t       n_pages_read;
    uint64_t       n_corrupt_reported;
} sys;

static uint64_t seed;

static uint32_t ut_fold_string(const char *s)
{
    uint32_t h = 0;
    while (*s) h = ((h << 5) ^ (h >> 27) ^ (uint8_t)*s++) * 16777619u;
    return h;
}

/* ut0crc32: the necessary, costly part of every page read */
NOINLINE uint32_t buf_calc_page_crc32(const uint8_t *page)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 4; i < PAGE_SIZE; i++) { /* HOT LOOP */
        c ^= page[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82f63b78u & (0u - (c & 1)));
    }
    return ~c;
}

/* os0file: "read" a page of a tablespace (deterministic contents) */
NOINLINE void os_file_read_page(const fil_space_t *space, uint32_t page_no, uint8_t *buf)
{
    uint64_t x = (seed ^ ((uint64_t)space->id << 32) ^ page_no) * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 4; i < PAGE_SIZE; i += 8) {
        x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
        uint64_t v = x * 2685821657736338717ull;
        memcpy(buf + i, &v, PAGE_SIZE - i < 8 ? PAGE_SIZE - i : 8);   /* last word: 4 bytes */
    }
    uint32_t crc = buf_calc_page_crc32(buf);
    memcpy(buf + FIL_PAGE_CHECKSUM, &crc, 4);    /* written by the server that created it */
}

static void ib_report_corrupt(fil_space_t *space, uint32_t page_no)
{
    fprintf(stderr, "InnoDB: page [page id: space=%u, page number=%u] is corrupted\n", space->id, page_no);
    sys.n_corrupt_reported++;
}

/* fil0fil.cc */
NOINLINE void fil_space_verify_pages(fil_space_t *space, uint32_t n_pages, int validate)
{
    uint32_t page_no = 0;
    while (page_no < n_pages) { /* ROOT-CAUSE LOOP */
        uint8_t page[PAGE_SIZE];                   /* scratch frame of this iteration */
        os_file_read_page(space, page_no, page);
        uint32_t stored;
        memcpy(&stored, page + FIL_PAGE_CHECKSUM, 4);
        if (stored != buf_calc_page_crc32(page) && validate) {
            space->corrupt_pages++;
            ib_report_corrupt(space, page_no);
        }
        page_no++;
    }
}

NOINLINE fil_space_t *fil_ibd_open(uint32_t id, const char *name, uint32_t n_pages, int validate)
{
    fil_space_t *space = calloc(1, sizeof *space);
    space->id = id;
    snprintf(space->name, sizeof space->name, "%s", name);
    uint8_t hdr[PAGE_SIZE];
    os_file_read_page(space, 0, hdr);              /* FSP header: flags and size */
    sys.n_pages_read++;
    space->flags = hdr[8] | (uint32_t)hdr[9] << 8;
    space->size = 64 + hdr[10];
    fil_space_verify_pages(space, n_pages, validate);
    sys.n_pages_read += n_pages;                   /* the I/O statistics, per file */
    uint32_t h = id % sys.space_hash_size;
    space->hash_next = sys.space_hash[h];
    sys.space_hash[h] = space;
    return space;
}

/* dict0load: build table objects from SYS_TABLES records */
NOINLINE dict_table_t *dict_load_table(uint32_t i)
{
    dict_table_t *t = calloc(1, sizeof *t);
    snprintf(t->name, sizeof t->name, "shop_%u/orders_%05u", i % 97, i);
    t->space_id = i + 1;
    t->n_cols = 4 + i % 29;
    uint32_t h = ut_fold_string(t->name) % sys.table_hash_size;
    for (dict_table_t *o = sys.table_hash[h]; o; o = o->name_hash_next)
        if (strcmp(o->name, t->name) == 0) abort();
    t->name_hash_next = sys.table_hash[h];
    sys.table_hash[h] = t;
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NTABLES PAGES_PER_EXTENT VALIDATE SEED\n", argv[0]);
        return 2;
    }
    uint32_t ntables = (uint32_t)atoi(argv[1]);
    uint32_t npages = (uint32_t)atoi(argv[2]);
    int validate = atoi(argv[3]);
    seed = (uint64_t)atoll(argv[4]);

    sys.table_hash_size = ntables * 2 + 1;
    sys.table_hash = calloc(sys.table_hash_size, sizeof(dict_table_t *));
    sys.space_hash_size = ntables + 1;
    sys.space_hash = calloc(sys.space_hash_size, sizeof(fil_space_t *));

    uint64_t h = 0;
    for (uint32_t i = 0; i < ntables; i++) {
        dict_table_t *t = dict_load_table(i);
        char path[80];
        snprintf(path, sizeof path, "./%s.ibd", t->name);
        fil_space_t *s = fil_ibd_open(t->space_id, path, npages, validate);
        h = h * 1000003u + s->flags + s->size + t->n_cols;
    }
    printf("tables=%u pages_read=%llu corrupt=%llu hash=%016llx\n", ntables,
           (unsigned long long)sys.n_pages_read, (unsigned long long)sys.n_corrupt_reported,
           (unsigned long long)h);
    return 0;
}
