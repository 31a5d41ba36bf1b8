/*
 * cmd_helper.c - a target program for the `vprof record` tests.
 *   cmd_helper exit N        exit with status N
 *   cmd_helper signal N      kill itself with signal N
 *   cmd_helper wait FILE     create FILE, then wait for SIGTERM/SIGINT/SIGHUP
 *                            and exit with 40 + the signal number
 *   cmd_helper spin MS       burn CPU for MS milliseconds, exit 0
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long cmd_helper_sink;

static void on_signal(int sig)
{
    _exit(40 + sig);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 100;
    if (strcmp(argv[1], "exit") == 0)
        return atoi(argv[2]);
    if (strcmp(argv[1], "signal") == 0) {
        signal(atoi(argv[2]), SIG_DFL);
        raise(atoi(argv[2]));
        return 101;
    }
    if (strcmp(argv[1], "wait") == 0) {
        signal(SIGTERM, on_signal);
        signal(SIGINT, on_signal);
        signal(SIGHUP, on_signal);
        int fd = open(argv[2], O_CREAT | O_WRONLY, 0644);
        if (fd < 0)
            return 102;
        close(fd);
        for (int i = 0; i < 300; i++)
            usleep(100000);
        return 103;
    }
    if (strcmp(argv[1], "spin") == 0) {
        double end = now_ms() + atof(argv[2]);
        while (now_ms() < end)
            for (int i = 0; i < 10000; i++)
                cmd_helper_sink += (unsigned long)i;
        return 0;
    }
    return 100;
}
