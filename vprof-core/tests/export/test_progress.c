/*
 * test_progress.c - the progress display (vprof/progress.h): silent on a
 * pipe; on a terminal (a pty) it draws the label, percentage and count on
 * one line, redraws at a limited rate and clears the line at the end.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "vprof/progress.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Everything readable from fd within ~100 ms. */
static size_t drain(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (n + 1 < cap && poll(&p, 1, 100) > 0) {
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = 0;
    return n;
}

static void test_pipe_is_silent(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    struct vp_progress *p = vp_progress_start_fd(fds[1], "loading", 10, 0);
    assert_null(p);
    /* NULL is accepted everywhere */
    vp_progress_label(p, "x");
    vp_progress_update(p, 3);
    vp_progress_end(p);
    close(fds[1]);
    char buf[64];
    assert_int_equal(read(fds[0], buf, sizeof buf), 0);
    close(fds[0]);
}

static void test_tty_shows_progress(void **state)
{
    (void)state;
    int master, slave;
    assert_int_equal(openpty(&master, &slave, NULL, NULL, NULL), 0);
    struct vp_progress *p = vp_progress_start_fd(slave, "vprof rank: loading", 4, 0);
    assert_non_null(p);
    vp_progress_label(p, "/some/dir/slow.vprof"); /* drawn: 0% */
    sleep_ms(120);
    vp_progress_update(p, 1);
    /* a burst of updates is rate-limited to a few redraws... */
    for (int i = 0; i < 1000; i++)
        vp_progress_update(p, 3);
    /* ...but completion is always drawn */
    vp_progress_update(p, 4);
    vp_progress_end(p);
    char buf[8192];
    drain(master, buf, sizeof buf);
    assert_non_null(strstr(buf, "vprof rank: loading: slow.vprof"));
    assert_null(strstr(buf, "/some/dir"));
    assert_non_null(strstr(buf, "  0% (0/4)"));
    assert_non_null(strstr(buf, " 25% (1/4)"));
    assert_non_null(strstr(buf, "100% (4/4)"));
    int draws = 0;
    for (const char *s = buf; (s = strstr(s, "loading:")); s++)
        draws++;
    assert_true(draws >= 2 && draws <= 8);
    /* ends with the line cleared */
    size_t n = strlen(buf);
    assert_true(n >= 4 && memcmp(buf + n - 4, "\r\033[K", 4) == 0);
    assert_null(strchr(buf, '\n'));
    close(master);
    close(slave);
}

static void test_delay_and_ticker(void **state)
{
    (void)state;
    int master, slave;
    assert_int_equal(openpty(&master, &slave, NULL, NULL, NULL), 0);
    /* a quick step under the delay draws nothing at all */
    struct vp_progress *p = vp_progress_start_fd(slave, "quick", 0, 400);
    vp_progress_update(p, 1);
    vp_progress_end(p);
    char buf[4096];
    assert_int_equal(drain(master, buf, sizeof buf), 0);
    /* one long call that reports nothing: the thread shows elapsed time */
    p = vp_progress_start_fd(slave, "indexing", 0, 0);
    sleep_ms(600);
    vp_progress_end(p);
    drain(master, buf, sizeof buf);
    assert_non_null(strstr(buf, "\rindexing "));
    assert_non_null(strstr(buf, "s\033[K"));
    assert_null(strstr(buf, "%"));
    close(master);
    close(slave);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipe_is_silent),
        cmocka_unit_test(test_tty_shows_progress),
        cmocka_unit_test(test_delay_and_ticker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
