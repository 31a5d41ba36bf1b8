/* fork without exec, from the main thread and from a second thread while
 * other threads run; the children work and exit with their own status. */
#include <pthread.h>
#include <sys/wait.h>
#include "common.h"

static volatile int stop;

static void *busy(void *arg)
{
    long n = 0;
    while (!stop)
        n += hot(1000);
    return (void *)n;
}

static int fork_child(int code)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "child %d %ld\n", code, hot(100000));
        say(buf);
        exit(code);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

static void *forker(void *arg)
{
    return (void *)(long)fork_child(4);
}

int main(void)
{
    pthread_t b, f;
    pthread_create(&b, NULL, busy, NULL);
    int a = fork_child(3);
    void *r;
    pthread_create(&f, NULL, forker, NULL);
    pthread_join(f, &r);
    stop = 1;
    pthread_join(b, NULL);
    printf("parent %ld child-exit %d %ld\n", hot(100000), a, (long)r);
    return 0;
}
