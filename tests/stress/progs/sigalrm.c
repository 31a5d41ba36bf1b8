/* SIGALRM from the target's ITIMER_REAL and alarm(), interrupting work in
 * the hot loop and blocking system calls (nanosleep, restarted by hand). */
#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include "common.h"

static volatile sig_atomic_t alarms;

static void on_alrm(int sig) { alarms++; }

int main(void)
{
    struct sigaction sa = {.sa_handler = on_alrm};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_REAL, &it, NULL);
    long h = 0;
    while (alarms < 50)
        h += hot(2000);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    alarms = 0;
    alarm(1);
    struct timespec ts = {3, 0}, rem;
    int eintr = nanosleep(&ts, &rem) != 0 && errno == EINTR;
    printf("alarms ok, nanosleep interrupted: %d, alarm handler: %d\n", eintr, (int)alarms);
    printf("work %d\n", h > 0);
    return 0;
}
