/* sigjmp.sh's target: preemption by signal, as green threads and
 * interpreters' time slicing do it.  A thread sends SIGUSR1 to the main
 * thread every 20 us; its handler siglongjmps back to the scheduling point.
 * Then a second thread forks ten children and the main thread computes. */
#define _GNU_SOURCE
#include "common.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static sigjmp_buf env;
static volatile long slices;
static volatile int stop;
static pthread_t mainth;

static void on_usr1(int s)
{
    (void)s;
    slices++;
    siglongjmp(env, 1);
}

static void *sender(void *a)
{
    (void)a;
    struct timespec ts = {0, 20000};
    while (!stop) {
        pthread_kill(mainth, SIGUSR1);
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void *forker(void *a)
{
    (void)a;
    for (int i = 0; i < 10; i++) {
        pid_t p = fork();
        if (p == 0)
            _exit((int)(hot(1000) & 1));
        waitpid(p, NULL, 0);
    }
    return NULL;
}

int main(void)
{
    mainth = pthread_self();
    struct sigaction sa;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    static pthread_t t;
    static volatile int started;
    volatile long total = 0;
    sigsetjmp(env, 1);
    if (!started) {
        started = 1;
        pthread_create(&t, NULL, sender, NULL);
    }
    while (slices < 20000)
        total += hot(1000);
    signal(SIGUSR1, SIG_IGN);
    stop = 1;
    pthread_join(t, NULL);
    pthread_t f;
    pthread_create(&f, NULL, forker, NULL);
    pthread_join(f, NULL);
    printf("slices %d hot %ld\n", slices >= 20000, hot(20000000));
    return 0;
}
