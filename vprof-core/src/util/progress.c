/*
 * progress.c - the one-line progress display of vprof/progress.h.  State is
 * shared between the caller and one redraw thread under a mutex; output is
 * written with write(2) on the descriptor, so it never mixes with stdio
 * buffers, and clipped to the terminal's width.
 */
#include "vprof/progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define REDRAW_NS 100000000ull   /* at most 10 redraws per second          */
#define TICK_NS 250000000ull     /* the thread's redraw period              */

struct vp_progress {
    int fd;
    char what[64];
    char label[160];
    uint64_t total, done;
    uint64_t start_ns, delay_ns, last_draw_ns;
    int drawn;                   /* something is on the line                */
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w <= 0)
            return; /* progress is best effort: a failed write is dropped */
        s += w;
        n -= (size_t)w;
    }
}

/// Redraw the line if the delay has passed and the last redraw is old
/// enough (or `force`).  Called with p->mu held.
static void draw(struct vp_progress *p, int force)
{
    uint64_t t = now_ns();
    if (t - p->start_ns < p->delay_ns)
        return;
    if (!force && p->drawn && t - p->last_draw_ns < REDRAW_NS)
        return;
    char line[512];
    double secs = (double)(t - p->start_ns) / 1e9;
    int n;
    if (p->total)
        n = snprintf(line, sizeof line, "\r%s%s%s %3.0f%% (%llu/%llu) %.1fs", p->what,
                     p->label[0] ? ": " : "", p->label,
                     100.0 * (double)p->done / (double)p->total, (unsigned long long)p->done,
                     (unsigned long long)p->total, secs);
    else
        n = snprintf(line, sizeof line, "\r%s%s%s %.1fs", p->what, p->label[0] ? ": " : "",
                     p->label, secs);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    struct winsize ws;
    if (ioctl(p->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 && len > (size_t)ws.ws_col)
        len = ws.ws_col; /* "\r" + cols-1 characters: never wraps */
    write_all(p->fd, line, len);
    write_all(p->fd, "\033[K", 3);
    p->drawn = 1;
    p->last_draw_ns = t;
}

static void *ticker(void *arg)
{
    struct vp_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t ns = (uint64_t)ts.tv_nsec + TICK_NS;
        ts.tv_sec += (time_t)(ns / 1000000000ull);
        ts.tv_nsec = (long)(ns % 1000000000ull);
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        if (!p->stop)
            draw(p, 0);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

struct vp_progress *vp_progress_start_fd(int fd, const char *what, uint64_t total,
                                         unsigned delay_ms)
{
    if (fd < 0 || !isatty(fd))
        return NULL;
    struct vp_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->fd = fd;
    snprintf(p->what, sizeof p->what, "%s", what ? what : "working");
    p->total = total;
    p->start_ns = now_ns();
    p->delay_ns = (uint64_t)delay_ms * 1000000ull;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, ticker, p) != 0) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    return p;
}

struct vp_progress *vp_progress_start(const char *what, uint64_t total)
{
    return vp_progress_start_fd(STDERR_FILENO, what, total, 300);
}

void vp_progress_update(struct vp_progress *p, uint64_t done)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    uint64_t was = p->done;
    p->done = p->total && done > p->total ? p->total : done;
    draw(p, p->total && p->done == p->total && was != p->total); /* completion always shows */
    pthread_mutex_unlock(&p->mu);
}

void vp_progress_label(struct vp_progress *p, const char *label)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    const char *base = label ? strrchr(label, '/') : NULL;
    snprintf(p->label, sizeof p->label, "%s", base ? base + 1 : label ? label : "");
    draw(p, 0);
    pthread_mutex_unlock(&p->mu);
}

void vp_progress_end(struct vp_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    if (p->drawn)
        write_all(p->fd, "\r\033[K", 4);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
