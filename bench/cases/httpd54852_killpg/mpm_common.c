/*
 * httpd54852_killpg -- a slice of Apache httpd's MPM: the scoreboard, request
 * parsing in the children, and the graceful-restart path that tells every
 * child to exit through the pipe of death (pod) and wakes it with a dummy
 * connection.
 *
 * Modelled on HTTPD-54852 (vProf Table 1 b7: "Gracefully restart service with
 * MPM workers takes long time", missing constraint; vProf ranks
 * dummy_connection above the root cause ap_mpm_pod_killpg).  The killpg loop
 * runs over all ServerLimit scoreboard slots and makes a dummy connection for
 * each one.  As the vProf paper describes the bug (Figure 4), the call
 * "becomes much slower due to polling if all the children have already
 * exited": nobody accepts the connection, so dummy_connection polls until its
 * timeout.  The fix skips the slots whose child is not SERVER_READY or has no
 * pid -- the constraint the loop is missing.
 *
 * The server runs RESTARTS graceful restarts over its life (log rotation);
 * after each one the children are respawned.  LIVE_CHILDREN children are
 * still alive when the restart comes: in the normal run all of them (every
 * dummy connection is accepted at once), in the slow run none (they exited
 * after MaxConnectionsPerChild), so every iteration of the loop waits.  The
 * number of slots is the same in both runs.
 *
 * usage: httpd54852_killpg SERVER_LIMIT LIVE_CHILDREN NREQUESTS RESTARTS SEED
 */
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define DUMMY_CONN_POLLS 60000  /* the connect/read timeout, polled without sleeping */

enum { SERVER_DEAD = 0, SERVER_STARTING, SERVER_READY, SERVER_BUSY_READ, SERVER_GRACEFUL };

typedef struct { int pid; int status; int generation; uint32_t requests; uint64_t bytes; } process_score;
typedef struct { process_score *servers; int server_limit; } scoreboard;
typedef struct { const char *host; int port; int backlog_rd, backlog_wr; int acceptors; } ap_listen_rec;
typedef struct { int write_fd; uint64_t pod_bytes; } ap_pod_t;

static scoreboard ap_scoreboard_image;
static ap_listen_rec listener = { "127.0.0.1", 8080, -1, -1, 0 };
static uint64_t dummy_connections, dummy_timeouts;
static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

/* mpm_common.c: connect to our own listener so a child blocked in accept()
   wakes up, send the request and wait for the child to take it */
NOINLINE int dummy_connection(ap_pod_t *pod, int slot)
{
    char srequest[256];
    int len = snprintf(srequest, sizeof srequest,
                       "OPTIONS * HTTP/1.0\r\nUser-Agent: Apache/2.4 (internal dummy connection)\r\nHost: %s:%d\r\nX-Slot: %d\r\n\r\n",
                       listener.host, listener.port, slot);
    uint32_t sum = 0;                                   /* "TCP" checksum of the segment */
    for (int r = 0; r < 16; r++)
        for (int i = 0; i < len; i++)
            sum = (sum + (uint8_t)srequest[i] * (uint32_t)(r + 1)) % 65521u;
    srequest[len++] = (char)sum;
    if (write(pod->write_fd, srequest, (size_t)len) != len)
        return -1;
    pod->pod_bytes += (uint64_t)len;
    dummy_connections++;
    if (listener.acceptors > 0) {                       /* a child in accept() takes it */
        listener.acceptors--;
        char b = 'A';
        if (write(listener.backlog_wr, &b, 1) != 1)
            return -1;
    }
    struct pollfd pfd = { listener.backlog_rd, POLLIN, 0 };
    for (int t = 0; t < DUMMY_CONN_POLLS; t++) {        /* wait for the child's answer */
        if (poll(&pfd, 1, 0) > 0) {
            char b;
            return read(listener.backlog_rd, &b, 1) == 1 ? 0 : -1;
        }
    }
    dummy_timeouts++;                                   /* nobody took it: timed out */
    return 0;
}
NOINLINE int ap_mpm_pod_signal(ap_pod_t *pod, int slot, int generation)
{
    char c[2] = { '!', (char)generation };              /* AP_RESTART_CHAR + generation */
    if (write(pod->write_fd, c, 2) != 2) return -1;
    return dummy_connection(pod, slot);
}

/* mpm_common.c / prefork.c */
NOINLINE void ap_mpm_pod_killpg(ap_pod_t *pod, int num)
{
    int i, rv = 0;
    for (i = 0; i < num && rv == 0; i++) { /* ROOT-CAUSE LOOP */
        process_score *ps = &ap_scoreboard_image.servers[i];
        ps->status = SERVER_GRACEFUL;
        rv = ap_mpm_pod_signal(pod, i, ps->generation);
    }
}

/* protocol.c: what the children do all day (unrelated hot code) */
NOINLINE int ap_parse_request_line(const char *line, size_t len, char *method, char *uri)
{
    size_t i = 0, m = 0, u = 0;
    while (i < len && line[i] != ' ' && m < 15) method[m++] = line[i++];
    method[m] = 0;
    i++;
    while (i < len && line[i] != ' ' && u < 255) uri[u++] = line[i++];
    uri[u] = 0;
    int hash = 0;
    for (size_t k = 0; k < u; k++) /* HOT LOOP */
        hash = hash * 31 + (uri[k] == '%' ? 0 : uri[k]);
    return hash;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s SERVER_LIMIT LIVE_CHILDREN NREQUESTS RESTARTS SEED\n", argv[0]);
        return 2;
    }
    int limit = atoi(argv[1]), live = atoi(argv[2]), restarts = atoi(argv[4]);
    long nreq = atol(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[5]);
    if (limit < 1 || live < 0 || live > limit || restarts < 0 || nreq < 0) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    ap_scoreboard_image.server_limit = limit;
    ap_scoreboard_image.servers = calloc((size_t)limit, sizeof(process_score));
    ap_pod_t pod = { open("/dev/null", O_WRONLY), 0 };
    int backlog[2];
    if (pod.write_fd < 0 || pipe(backlog) != 0) { perror("setup"); return 1; }
    listener.backlog_rd = backlog[0];
    listener.backlog_wr = backlog[1];

    char line[300], method[16], uri[256];
    uint64_t h = 0;
    long per = nreq / (restarts + 1);
    for (int g = 0; g <= restarts; g++) {
        /* (re)spawn the children of generation g */
        for (int i = 0; i < limit; i++) {
            process_score *ps = &ap_scoreboard_image.servers[i];
            ps->pid = 4000 + g * limit + i;
            ps->status = SERVER_READY;
            ps->generation = g;
        }
        for (long r = 0; r < per; r++) {                /* the children serve requests */
            int n = snprintf(line, sizeof line, "GET /static/img/%u/photo_%u.jpg?size=%u&v=%u HTTP/1.1",
                             rnd() % 100, rnd() % 10000, rnd() % 4, rnd() % 7);
            h += (uint32_t)ap_parse_request_line(line, (size_t)n, method, uri);
            process_score *ps = &ap_scoreboard_image.servers[rnd() % (uint32_t)limit];
            ps->requests++;
            ps->bytes += (uint64_t)n;
        }
        if (g == restarts)
            break;
        /* children past MaxConnectionsPerChild have exited: only `live` remain */
        for (int i = live; i < limit; i++) {
            ap_scoreboard_image.servers[i].pid = 0;
            ap_scoreboard_image.servers[i].status = SERVER_DEAD;
        }
        listener.acceptors = live;
        /* apachectl -k graceful */
        ap_mpm_pod_killpg(&pod, ap_scoreboard_image.server_limit);
    }
    printf("requests=%ld dummy_connections=%llu timeouts=%llu pod_bytes=%llu hash=%llu\n",
           per * (restarts + 1), (unsigned long long)dummy_connections,
           (unsigned long long)dummy_timeouts, (unsigned long long)pod.pod_bytes,
           (unsigned long long)h);
    return 0;
}
