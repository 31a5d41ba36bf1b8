/*
 * moz490742_bookmarks -- a slice of Firefox's Places: "Bookmark All Tabs"
 * creates a folder and one bookmark per tab through the transaction manager;
 * the bookmarks live in a page-based database with a rollback journal.
 *
 * Modelled on Mozilla490742 (LDoctor Figure 5 / Table 3: cross-iteration
 * redundancy, fixed by batching).  The aggregate transaction runs its child
 * transactions one by one, and each child is a complete database
 * transaction:
 *
 *     for (var i = 0; i < _childTransactions.length; ++i) {
 *         var txn = _childTransactions[i];
 *         txn.wrappedJSObject.id = _id;
 *         txn.doTransaction();
 *     }
 *
 * Every iteration begins a transaction, journals the database header and
 * folder page, inserts one row, and commits: it re-serializes, re-checksums
 * and re-writes the same header/folder records that the previous iteration
 * just wrote.  The only side effects of the loop are those writes (I/O), and
 * the same statements run in every iteration -- LDoctor's I/O-redundancy case,
 * for which it suggests batching.  The fix runs all children inside one
 * database transaction (one journal, one commit).  Bookmarking a few tabs is
 * fine; bookmarking a window with hundreds of tabs took long enough to pop up
 * "unresponsive script" dialogs.
 *
 * The JavaScript layer is re-implemented in C (as LDoctor did); the database
 * is a miniature SQLite-like pager writing to /dev/null.
 *
 * usage: moz490742_bookmarks NWINDOWS TABS_PER_WINDOW HISTORY_VISITS SEED
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define PAGE_SIZE 4096
#define ROWS_PER_PAGE 32

typedef struct {
    int64_t id, parent, position;
    char title[64];
    char url[128];
    int64_t dateAdded;
} BookmarkRow;

typedef struct {
    uint8_t header[PAGE_SIZE];        /* page 1: schema cookie, change counter, freelist */
    uint8_t folder[PAGE_SIZE];        /* the folder page the bookmarks go into */
    BookmarkRow *rows; size_t nrows, cap;
    uint32_t change_counter;
    int db_fd, journal_fd;
    uint64_t bytes_written, commits;
} Database;

typedef struct {
    const char *url, *title;
    int64_t id;                       /* set by the aggregate before doTransaction */
    int64_t position;
} CreateItemTxn;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

/* page checksum of the journal format (a Fletcher-style sum, 4 lanes) */
static uint32_t page_checksum(const uint8_t *p, uint32_t nonce)
{
    uint32_t a = nonce, b = 0, c = 0, d = 0;
    for (int r = 0; r < 8; r++)                /* the pager checksums in 8 sample passes */
        for (int i = 0; i < PAGE_SIZE; i += 4) {
            a += p[i]; b += a ^ p[i + 1]; c += b + p[i + 2]; d ^= c + p[i + 3];
        }
    return a ^ (b << 7) ^ (c << 13) ^ (d << 21);
}

static void db_write(Database *db, int fd, const void *p, size_t n)
{
    if (write(fd, p, n) != (ssize_t)n)
        abort();
    db->bytes_written += n;
}

/* serialize the header and folder pages from the in-memory state */
static void db_serialize_header(Database *db)
{
    memcpy(db->header, "SQLite format 3", 16);
    db->header[16] = PAGE_SIZE >> 8; db->header[17] = PAGE_SIZE & 0xff;
    memcpy(db->header + 24, &db->change_counter, 4);
    uint32_t npages = (uint32_t)(2 + db->nrows / ROWS_PER_PAGE);
    memcpy(db->header + 28, &npages, 4);
    for (int i = 100; i < PAGE_SIZE; i++)             /* sqlite_master: the schema text */
        db->header[i] = (uint8_t)("CREATE TABLE moz_bookmarks (id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER, parent INTEGER, position INTEGER, title LONGVARCHAR);"[i % 128]);
}

/* mozStorage: BEGIN; the pager writes the original pages to the journal */
NOINLINE void db_begin(Database *db)
{
    db_serialize_header(db);
    uint32_t ck1 = page_checksum(db->header, 0x9e3779b9u);
    uint32_t ck2 = page_checksum(db->folder, 0x9e3779b9u);
    db_write(db, db->journal_fd, &ck1, 4);
    db_write(db, db->journal_fd, db->header, PAGE_SIZE);
    db_write(db, db->journal_fd, &ck2, 4);
    db_write(db, db->journal_fd, db->folder, PAGE_SIZE);
}

/* COMMIT: bump the change counter and write the dirty pages back */
NOINLINE void db_commit(Database *db)
{
    db->change_counter++;
    db_serialize_header(db);
    uint32_t ck = page_checksum(db->header, db->change_counter);
    db_write(db, db->db_fd, db->header, PAGE_SIZE);
    db_write(db, db->db_fd, db->folder, PAGE_SIZE);
    db_write(db, db->db_fd, &ck, 4);
    db->commits++;
}

/* INSERT INTO moz_bookmarks ... ; the row lands in the folder page */
static void db_insert(Database *db, const CreateItemTxn *t, int64_t parent)
{
    if (db->nrows == db->cap) { db->cap = db->cap ? db->cap * 2 : 256; db->rows = realloc(db->rows, db->cap * sizeof(BookmarkRow)); }
    BookmarkRow *r = &db->rows[db->nrows++];
    memset(r, 0, sizeof *r);
    r->id = (int64_t)db->nrows; r->parent = parent; r->position = t->position;
    snprintf(r->title, sizeof r->title, "%s", t->title);
    snprintf(r->url, sizeof r->url, "%s", t->url);
    r->dateAdded = 1241000000000000 + (int64_t)db->nrows;
    memcpy(db->folder + (db->nrows % ROWS_PER_PAGE) * 128, r, 128);
}

/* PlacesCreateItemTransaction.doTransaction(): one database transaction */
NOINLINE void create_item_do(Database *db, CreateItemTxn *t)
{
    db_begin(db);
    db_insert(db, t, t->id);
    db_commit(db);
}

/* PlacesAggregateTransaction.doTransaction(): run the children */
NOINLINE void aggregate_do(Database *db, CreateItemTxn *children, int n, int64_t folder_id)
{
    for (int i = 0; i < n; ++i) { /* ROOT-CAUSE LOOP */
        CreateItemTxn *txn = &children[i];
        txn->id = folder_id;
        create_item_do(db, txn);
    }
}

/* the history/frecency recalculation that runs with every visit (necessary
   work, unrelated to bookmarking) */
NOINLINE uint64_t update_frecency(int visits, uint32_t now_days)
{
    uint64_t f = 0;
    for (int v = 0; v < visits; v++) { /* HOT LOOP */
        uint32_t age = (uint32_t)(v * 2654435761u + now_days) % 97;
        uint32_t w = age < 4 ? 100 : age < 14 ? 70 : age < 31 ? 50 : age < 90 ? 30 : 10;
        f = f * 6364136223846793005ull + w * (uint64_t)(v % 7 + 1);
    }
    return f;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NWINDOWS TABS_PER_WINDOW HISTORY_VISITS SEED\n", argv[0]);
        return 2;
    }
    int nwin = atoi(argv[1]), tabs = atoi(argv[2]), visits = atoi(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    Database db;
    memset(&db, 0, sizeof db);
    db.db_fd = open("/dev/null", O_WRONLY);
    db.journal_fd = open("/dev/null", O_WRONLY);
    static const char *const hosts[] = { "developer.mozilla.org", "bugzilla.mozilla.org", "www.kernel.org",
                                         "en.wikipedia.org", "news.ycombinator.com" };
    CreateItemTxn *children = malloc(sizeof(CreateItemTxn) * (size_t)(tabs ? tabs : 1));
    char (*urls)[128] = malloc(128 * (size_t)(tabs ? tabs : 1));
    uint64_t fr = 0;
    for (int w = 0; w < nwin; w++) {              /* "Bookmark All Tabs" on each window */
        for (int t = 0; t < tabs; t++) {
            uint32_t r = rnd();
            snprintf(urls[t], 128, "https://%s/page/%u?tab=%d", hosts[r % 5], r % 100000, t);
            children[t].url = urls[t];
            children[t].title = hosts[r % 5];
            children[t].position = t;
        }
        aggregate_do(&db, children, tabs, 1000 + w);
        fr = fr * 31 + update_frecency(visits, rnd());
    }
    printf("bookmarks=%zu commits=%llu bytes=%llu frecency=%016llx\n", db.nrows,
           (unsigned long long)db.commits, (unsigned long long)db.bytes_written, (unsigned long long)fr);
    return 0;
}
