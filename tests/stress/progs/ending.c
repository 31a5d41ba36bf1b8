/* How the target ends, by argv[1]: _exit, abort, SIGTERM (default
 * disposition), SIGKILL, exit() from a second thread while others work,
 * quick_exit with an at_quick_exit handler while a thread works. */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include "common.h"

static void *spin(void *arg)
{
    for (;;)
        hot(10000);
    return NULL;
}

static void *exiter(void *arg)
{
    hot(100000);
    printf("thread exits\n");
    exit(7);
}

static void at_quick(void)
{
    printf("at_quick_exit ran\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "";
    printf("work %ld\n", hot(200000));
    fflush(stdout);
    if (!strcmp(how, "_exit"))
        _exit(5);
    if (!strcmp(how, "abort"))
        abort();
    if (!strcmp(how, "sigterm"))
        raise(SIGTERM);
    if (!strcmp(how, "sigkill"))
        raise(SIGKILL);
    if (!strcmp(how, "quick_exit")) {
        pthread_t a;
        pthread_create(&a, NULL, spin, NULL);
        at_quick_exit(at_quick);
        quick_exit(8);
    }
    if (!strcmp(how, "thread-exit")) {
        pthread_t a, b;
        pthread_create(&a, NULL, spin, NULL);
        pthread_create(&b, NULL, exiter, NULL);
        pthread_join(b, NULL);
    }
    return 3;
}
