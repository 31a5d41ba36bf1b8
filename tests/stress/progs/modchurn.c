/* A thread loads and unloads a library (libz) without pause while the main
 * thread works and then ends, by argv[1]: "exit" (return from main) or
 * "sigterm" (raise, default disposition).  The runtime's write reads the
 * loader's list while it moves (docs/runtime.md, "Modules at exit"). */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include "common.h"

static void *churn(void *arg)
{
    (void)arg;
    for (;;) {
        void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
        if (h)
            dlclose(h);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "exit";
    void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        say("no libz.so.1\n");
        return 9;
    }
    dlclose(h);
    pthread_t t;
    pthread_create(&t, NULL, churn, NULL);
    printf("work %ld\n", hot(300000));
    fflush(stdout);
    if (!strcmp(how, "sigterm"))
        raise(SIGTERM);
    return 0;
}
