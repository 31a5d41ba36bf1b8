/*
 * httpd62318_hcheck -- a slice of Apache httpd's mod_proxy_balancer with
 * mod_proxy_hcheck: requests are proxied to balancer members chosen by
 * byrequests load balancing, and a watchdog callback that runs every
 * AP_WD_TM_SLICE (100 ms) health-checks the members (an HTTP OPTIONS request
 * whose response is parsed and whose status updates the worker).
 *
 * Modelled on HTTPD-62318 (vProf Table 1 b8: health checks run more often
 * than the configured hcinterval; a constraint bug).  Our reconstruction:
 * hc_watchdog_callback() checks every member on every watchdog tick instead
 * of only those whose interval has elapsed -- the constraint
 *
 *     if (now > worker->s->updated + worker->s->interval)
 *
 * is missing.  With hcinterval equal to the watchdog slice the extra checks
 * are invisible; with the common hcinterval=3s every member is checked 30
 * times per interval.  The cost is spent in hc_check() and the response
 * parser, which a profiler ranks first; the root cause is the loop in the
 * watchdog callback that lacks the constraint (missing constraint).
 *
 * usage: httpd62318_hcheck NMEMBERS HCINTERVAL_MS SECONDS REQS_PER_TICK SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define AP_WD_TM_SLICE 100000LL          /* watchdog tick, microseconds */
#define HC_RESPONSE_MAX 2048

typedef int64_t apr_time_t;

enum { HC_NONE = 0, HC_OPTIONS, HC_HEAD, HC_GET };
enum { PROXY_WORKER_IS_USABLE = 0, PROXY_WORKER_IN_ERROR = 1 };

typedef struct {
    char name[96];
    char hcuri[64];
    int method;
    apr_time_t interval;              /* hcinterval */
    apr_time_t updated;               /* time of the last health check */
    int status;
    int passes, fails, pcount, fcount;
    uint64_t lbstatus, elected, transferred;
    uint32_t watchdog_ticks;
} proxy_worker_shared;

typedef struct { proxy_worker_shared *s; uint32_t backend_seed; char *response; int response_len; } proxy_worker;
typedef struct { proxy_worker *workers; int nworkers; char name[32]; } proxy_balancer;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }
static uint64_t hc_checks, hc_bytes, served;

/* the backend's answer to the health-check request (what the socket would
   return); built once per member, the Date header is patched per check */
static int backend_response_template(const proxy_worker_shared *s, uint32_t seed, char *buf)
{
    int k = snprintf(buf, HC_RESPONSE_MAX,
                     "HTTP/1.1 200 OK\r\nDate: Tue, 15 May 2018 10:00:00 GMT\r\nServer: Apache/2.4.33 (Unix)\r\n"
                     "Allow: GET,HEAD,POST,OPTIONS\r\nContent-Length: 0\r\nKeep-Alive: timeout=5, max=100\r\n");
    for (int h = 0; h < 12 && k < HC_RESPONSE_MAX - 80; h++)
        k += snprintf(buf + k, (size_t)(HC_RESPONSE_MAX - k), "X-Backend-Info-%d: node=%s;seq=%u;load=0.%02u\r\n",
                      h, s->name, seed + (unsigned)h, (seed + (unsigned)h) % 100);
    k += snprintf(buf + k, (size_t)(HC_RESPONSE_MAX - k), "\r\n");
    return k;
}

/* ap_rgetline + ap_get_mime_headers: parse the status line and headers */
NOINLINE int hc_read_headers(const char *buf, int len, int *status)
{
    int nheaders = 0;
    const char *p = buf, *end = buf + len;
    if (len < 12 || memcmp(p, "HTTP/1.", 7)) return -1;
    *status = (p[9] - '0') * 100 + (p[10] - '0') * 10 + (p[11] - '0');
    while (p < end && *p != '\n') p++;
    p++;
    while (p < end) {
        const char *line = p;
        while (p < end && *p != '\r') p++;              /* scan one header line */
        if (p == line) break;                           /* empty line: end of headers */
        const char *colon = line;
        while (colon < p && *colon != ':') colon++;
        if (colon == p) return -1;
        unsigned h = 0;                                 /* apr_table_addn: hash the key, lower-cased */
        for (const char *k = line; k < colon; k++) h = h * 33 + (unsigned)(*k | 0x20);
        nheaders += (h % 7 != 7);
        p += 2;
    }
    return nheaders;
}

/* mod_proxy_hcheck: hc_check() -- one health check of one worker */
NOINLINE int hc_check(proxy_worker *w, apr_time_t now)
{
    char resp[HC_RESPONSE_MAX];
    const char *verb = w->s->method == HC_OPTIONS ? "OPTIONS" : w->s->method == HC_HEAD ? "HEAD" : "GET";
    int rl = (int)(strlen(verb) + strlen(w->s->hcuri) + strlen(w->s->name) + 60);   /* request sent */
    int n = w->response_len;
    memcpy(resp, w->response, (size_t)n);                 /* apr_socket_recv */
    uint32_t secs = (uint32_t)(now / 1000000);
    resp[43] = (char)('0' + secs / 600 % 6); resp[44] = (char)('0' + secs / 60 % 10);
    resp[46] = (char)('0' + secs % 60 / 10); resp[47] = (char)('0' + secs % 10);
    int status = 0;
    int nh = hc_read_headers(resp, n, &status);
    hc_checks++;
    hc_bytes += (uint64_t)(rl + n);
    if (nh >= 0 && status >= 200 && status < 400) {
        w->s->pcount++;
        if (w->s->pcount >= w->s->passes) { w->s->status = PROXY_WORKER_IS_USABLE; w->s->fcount = 0; }
        return 0;
    }
    w->s->fcount++;
    if (w->s->fcount >= w->s->fails) { w->s->status = PROXY_WORKER_IN_ERROR; w->s->pcount = 0; }
    return -1;
}

/* hc_watchdog_callback(AP_WATCHDOG_STATE_RUNNING): every tick */
NOINLINE void hc_watchdog_callback(proxy_balancer *balancer, apr_time_t now)
{
    proxy_worker *workers = balancer->workers;
    for (int n = 0; n < balancer->nworkers; n++) { /* ROOT-CAUSE LOOP */
        proxy_worker *worker = &workers[n];
        worker->s->watchdog_ticks++;
        /* missing: && now > worker->s->updated + worker->s->interval */
        if (worker->s->method != HC_NONE) {
            hc_check(worker, now);
            worker->s->updated = now;
        }
    }
}

/* mod_proxy_balancer byrequests: pick the member with the highest lbstatus */
NOINLINE proxy_worker *find_best_byrequests(proxy_balancer *b)
{
    proxy_worker *best = NULL;
    uint64_t total = 0;
    for (int i = 0; i < b->nworkers; i++) { /* HOT LOOP */
        proxy_worker *w = &b->workers[i];
        if (w->s->status != PROXY_WORKER_IS_USABLE) continue;
        w->s->lbstatus += 100;
        total += 100;
        if (!best || w->s->lbstatus > best->s->lbstatus) best = w;
    }
    if (best) { best->s->lbstatus -= total; best->s->elected++; }
    return best;
}

/* proxy_handler: forward one request (filters copy and checksum the body) */
NOINLINE uint64_t proxy_handle_request(proxy_balancer *b, uint32_t r)
{
    proxy_worker *w = find_best_byrequests(b);
    uint64_t h = r;
    for (int i = 0; i < 400; i++) /* HOT LOOP */
        h = (h ^ (h >> 31)) * 0x9e3779b97f4a7c15ull + (uint64_t)i;
    if (w) w->s->transferred += h & 0xfff;
    served++;
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s NMEMBERS HCINTERVAL_MS SECONDS REQS_PER_TICK SEED\n", argv[0]);
        return 2;
    }
    int nmembers = atoi(argv[1]);
    apr_time_t interval = (apr_time_t)atoi(argv[2]) * 1000;
    int seconds = atoi(argv[3]), reqs = atoi(argv[4]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[5]);
    proxy_balancer bal = { calloc((size_t)nmembers, sizeof(proxy_worker)), nmembers, "balancer://app" };
    for (int i = 0; i < nmembers; i++) {
        proxy_worker_shared *s = calloc(1, sizeof *s);
        snprintf(s->name, sizeof s->name, "http://10.0.%d.%d:8080", i / 250, i % 250 + 1);
        snprintf(s->hcuri, sizeof s->hcuri, "/health");
        s->method = HC_OPTIONS;
        s->interval = interval;
        s->passes = 1; s->fails = 2;
        bal.workers[i].s = s;
        bal.workers[i].backend_seed = rnd();
        bal.workers[i].response = malloc(HC_RESPONSE_MAX);
        bal.workers[i].response_len = backend_response_template(s, bal.workers[i].backend_seed, bal.workers[i].response);
    }
    uint64_t h = 0;
    apr_time_t now = 1526378400LL * 1000000;
    for (apr_time_t t = 0; t < (apr_time_t)seconds * 1000000; t += AP_WD_TM_SLICE) {
        for (int r = 0; r < reqs; r++) h = h * 31 + proxy_handle_request(&bal, rnd());
        hc_watchdog_callback(&bal, now + t);
    }
    uint64_t elected = 0;
    for (int i = 0; i < nmembers; i++) elected += bal.workers[i].s->elected;
    printf("members=%d served=%llu elected=%llu hash=%016llx\n", nmembers, (unsigned long long)served,
           (unsigned long long)elected, (unsigned long long)h);
    fprintf(stderr, "hc_checks=%llu hc_bytes=%llu\n", (unsigned long long)hc_checks, (unsigned long long)hc_bytes);
    return 0;
}
