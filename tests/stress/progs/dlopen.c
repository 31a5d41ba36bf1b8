/* dlopen / dlclose, in a loop, of a library built with vprof-cc, calling
 * into it while sampling (from the main thread and a second thread). */
#include <dlfcn.h>
#include <pthread.h>
#include "common.h"

static const char *lib;

__attribute__((noinline)) static long drive(int rounds)
{
    long acc = 0;
    for (int r = 0; r < rounds; r++) {
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            say("dlopen failed\n"); /* (dlerror() here: see exitpath.c) */
            exit(10);
        }
        long (*work)(long) = (long (*)(long))dlsym(h, "lib_work");
        if (!work)
            exit(11);
        acc += work(20000 + r);
        dlclose(h);
    }
    return acc;
}

static void *other(void *arg) { return (void *)drive(60); }

int main(int argc, char **argv)
{
    lib = argc > 1 ? argv[1] : "./libstress.so";
    pthread_t t;
    pthread_create(&t, NULL, other, NULL);
    long a = drive(60);
    void *b;
    pthread_join(t, &b);
    printf("%ld %ld\n", a, (long)b);
    return 0;
}
