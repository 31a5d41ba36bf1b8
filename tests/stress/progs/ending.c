/* How the target ends, by argv[1]: _exit, abort, SIGTERM (default
 * disposition), SIGKILL, exit() from a second thread while others work. */
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
    if (!strcmp(how, "thread-exit")) {
        pthread_t a, b;
        pthread_create(&a, NULL, spin, NULL);
        pthread_create(&b, NULL, exiter, NULL);
        pthread_join(b, NULL);
    }
    return 3;
}
