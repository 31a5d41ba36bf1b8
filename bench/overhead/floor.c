/*
 * floor.c - what a perf task-clock sample costs the kernel on this machine,
 * without any profiler: a fixed busy loop under
 *   mode 0: nothing
 *   mode 1: a task-clock event with sample_period = 1e9/HZ ns (the hrtimer),
 *           no wakeups
 *   mode 2: + wakeup_events = 1 (a ring wakeup per overflow: irq_work)
 *   mode 3: + O_ASYNC/F_SETSIG SIGPROF to this thread (vprof's setup), an
 *           empty handler
 *   mode 4: the event with perf_event_attr.sigtrap (Linux >= 5.13, needs
 *           remove_on_exec): the kernel sends a synchronous SIGTRAP per
 *           overflow, no ring and no fasync wakeup; an empty handler
 *   mode -1: setitimer(ITIMER_PROF) at HZ (gperftools' timer) instead
 * Usage: floor MODE [HZ]   (run under `perf stat -e task-clock`, interleaved,
 * and compare the medians; the difference divided by the signals printed is
 * the per-sample cost of each layer).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

static volatile long signals;

static void on_prof(int sig)
{
    (void)sig;
    signals++;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: floor MODE [HZ]\n");
        return 2;
    }
    char *end;
    long mode = strtol(argv[1], &end, 10);
    long hz = argc > 2 ? strtol(argv[2], NULL, 10) : 997;
    if (*end || mode < -1 || mode > 4 || hz < 1 || hz > 1000000) {
        fprintf(stderr, "floor: MODE must be -1..4 and HZ 1..1000000\n");
        return 2;
    }
    signal(SIGPROF, on_prof);
    signal(SIGTRAP, on_prof);
    if (mode > 0) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_SOFTWARE;
        a.config = PERF_COUNT_SW_TASK_CLOCK;
        a.sample_period = 1000000000 / hz;
        if (mode == 4) {
            a.sigtrap = 1;
            a.remove_on_exec = 1;
        } else {
            a.wakeup_events = mode >= 2 ? 1 : 1000000;
        }
        int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
            perror("perf_event_open");
            return 1;
        }
        if (mode < 4 && mmap(NULL, 2 * 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED)
            perror("mmap");
        if (mode == 3) {
            struct f_owner_ex o = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
            fcntl(fd, F_SETFL, O_ASYNC);
            fcntl(fd, F_SETSIG, SIGPROF);
            fcntl(fd, F_SETOWN_EX, &o);
        }
    } else if (mode == -1) {
        struct itimerval it = {{0, 1000000 / hz}, {0, 1000000 / hz}};
        setitimer(ITIMER_PROF, &it, NULL);
    }
    volatile double x = 0;
    for (long i = 0; i < 600000000; i++)
        x += i * 0.5;
    fprintf(stderr, "signals %ld\n", signals);
    return 0;
}
