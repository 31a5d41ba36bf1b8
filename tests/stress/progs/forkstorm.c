/* fork many times while other threads are sampled, come and go (fresh
 * threads unwind with cold caches: the unwinder parses FDEs under its lock):
 * no child may inherit a lock held by a sampling handler (rt_init.c,
 * vp_rt_fork_prepare).  Every child works, writes a line and exits 0. */
#include <pthread.h>
#include <sys/wait.h>
#include "common.h"

#define FORKS 150

static volatile int stop;

static void *spinner(void *arg)
{
    long n = 0;
    while (!stop)
        n += hot(200);
    return (void *)n;
}

static void *short_lived(void *arg)
{
    return (void *)hot(2000);
}

static void *churn(void *arg)
{
    while (!stop) {
        pthread_t t;
        if (pthread_create(&t, NULL, short_lived, NULL) == 0)
            pthread_join(t, NULL);
    }
    return NULL;
}

int main(void)
{
    pthread_t s, c;
    pthread_create(&s, NULL, spinner, NULL);
    pthread_create(&c, NULL, churn, NULL);
    int ok = 0;
    for (int i = 0; i < FORKS; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            char buf[64];
            snprintf(buf, sizeof buf, "%ld\n", hot(3000));
            _exit(buf[0] ? 0 : 1);
        }
        int st;
        if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0)
            ok++;
    }
    stop = 1;
    pthread_join(s, NULL);
    pthread_join(c, NULL);
    printf("children ok %d of %d, hot %ld\n", ok, FORKS, hot(1000));
    return 0;
}
