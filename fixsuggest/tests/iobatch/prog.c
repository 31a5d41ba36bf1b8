/*
 * fixsuggest.iobatch: repeated work around I/O (docs/vprof-loop.md,
 * "Repeated work around I/O"; LDoctor's I/O-related cross-iteration
 * redundancy, Mozilla 490742).
 *
 * save_all() saves one record per iteration as its own transaction: save()
 * checksums the same header page again, then writes the checksum, the
 * header and the record.  checksum()'s loop re-reads what its previous
 * instance read (cross-loop) and runs once per iteration of save_all()'s
 * loop, whose every iteration does I/O: batching the saves would do that
 * work once.
 *
 * log_all() writes one formatted line per record: every iteration does I/O
 * too, but hexfmt()'s loop reads a different record each time, so nothing
 * repeats around the I/O.
 *
 * signal_all() wakes one worker per iteration: it writes a wake-up byte,
 * then await_ack()'s loop polls for the answer a bounded number of times.
 * No worker answers, so every instance of the polling loop sees the same
 * nothing (cross-loop alike), once per iteration of an I/O loop; but that is
 * waiting, not work a batch would save (the HTTPD-54852 pattern): no
 * batching.
 *
 * serve() polls in every iteration too, then hands what it got to
 * handle(): it does work besides waiting, so it is not a loop that waits.
 *
 * title_all() writes the same escaped title before every row: its calls of
 * put_title() repeat with the same inputs, and each does I/O.  Caching the
 * call would drop the output: batching (docs/vprof-loop.md, "Repeated calls
 * that do I/O").
 *
 * usage: prog RECORDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

typedef struct {
    uint64_t id, saved;
    uint8_t payload[512];
} Record;

static uint8_t header[16384];
static int fd = -1;
static uint64_t counter;

NOINLINE uint32_t checksum(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) { /* SUM-LOOP */
        a += p[i];
        b += a;
    }
    return a ^ (b << 16);
}

NOINLINE void put(const void *p, size_t n)
{
    if (write(fd, p, n) != (ssize_t)n)
        abort();
}

NOINLINE void save(const Record *r)
{
    counter++;
    uint32_t ck = checksum(header, sizeof header);
    put(&ck, sizeof ck);
    put(header, sizeof header);
    put(r, sizeof *r);
}

NOINLINE void save_all(Record *rs, long n)
{
    for (long i = 0; i < n; i++) { /* SAVE-LOOP */
        rs[i].saved = counter;
        save(&rs[i]);
    }
}

NOINLINE size_t hexfmt(char *out, const Record *r)
{
    static const char digits[] = "0123456789abcdef";
    size_t w = 0;
    for (size_t i = 0; i < sizeof r->payload; i++) { /* HEX-LOOP */
        out[w++] = digits[r->payload[i] >> 4];
        out[w++] = digits[r->payload[i] & 15];
    }
    out[w++] = '\n';
    return w;
}

NOINLINE void log_all(const Record *rs, long n)
{
    static char line[2 * sizeof rs->payload + 1];
    for (long i = 0; i < n; i++) /* LOG-LOOP */
        put(line, hexfmt(line, &rs[i]));
}

static int ack_fd = -1; /* the read end of a pipe nobody writes */
static uint64_t timeouts;

NOINLINE int await_ack(int tries)
{
    struct pollfd p = { ack_fd, POLLIN, 0 };
    for (int t = 0; t < tries; t++) /* POLL-LOOP */
        if (poll(&p, 1, 0) > 0)
            return 0;
    timeouts++;
    return -1;
}

NOINLINE void wake(long slot)
{
    char c = (char)slot;
    put(&c, 1);
}

NOINLINE void signal_all(uint8_t *state, long n)
{
    for (long i = 0; i < n; i++) { /* WAKE-LOOP */
        state[i] = 1; /* each iteration marks its own worker */
        wake(i);
        await_ack(48);
    }
}

static uint64_t served;

NOINLINE void handle(uint64_t *acc, int ready)
{
    *acc += (uint64_t)ready + 1;
}

NOINLINE void serve(long n)
{
    struct pollfd p = { ack_fd, POLLIN, 0 };
    for (long i = 0; i < n; i++) { /* SERVE-LOOP */
        int ready = poll(&p, 1, 0);
        handle(&served, ready);
    }
}

NOINLINE void put_title(const char *title)
{
    char buf[128];
    size_t w = 0;
    for (size_t i = 0; title[i] && w + 2 < sizeof buf; i++) { /* TITLE-ESC-LOOP */
        if (title[i] == '"' || title[i] == '\\')
            buf[w++] = '\\';
        buf[w++] = title[i];
    }
    buf[w++] = '\n';
    put(buf, w);
}

NOINLINE void title_all(const char *title, const Record *rs, long n)
{
    for (long i = 0; i < n; i++) { /* TITLE-LOOP */
        put_title(title);
        put(&rs[i].id, sizeof rs[i].id);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s RECORDS\n", argv[0]);
        return 2;
    }
    long n = atol(argv[1]);
    fd = open("/dev/null", O_WRONLY);
    int ack[2];
    if (pipe(ack) != 0)
        return 1;
    ack_fd = ack[0];
    Record *rs = calloc((size_t)(n > 0 ? n : 1), sizeof *rs);
    if (fd < 0 || !rs)
        return 1;
    uint32_t x = 2463534242u;
    for (long i = 0; i < n; i++) {
        rs[i].id = (uint64_t)i;
        for (size_t k = 0; k < sizeof rs[i].payload; k++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            rs[i].payload[k] = (uint8_t)x;
        }
    }
    for (size_t k = 0; k < sizeof header; k++)
        header[k] = (uint8_t)(k * 7 + 3);
    save_all(rs, n);
    log_all(rs, n);
    uint8_t *state = calloc((size_t)(n / 10 + 1), 1);
    if (!state)
        return 1;
    signal_all(state, n / 10);
    free(state);
    serve(n / 10);
    title_all("quarterly \"sales\" by region, all stores, rows in key order", rs, n / 10);
    printf("saved=%llu timeouts=%llu served=%llu\n", (unsigned long long)counter,
           (unsigned long long)timeouts, (unsigned long long)served);
    free(rs);
    return 0;
}
