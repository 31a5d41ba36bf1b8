/* A loop with an error exit that prints a value computed on that path
 * (`printf("%s", dlerror()); exit(1)` in real code): the probed clone must
 * still be valid IR, and the program must behave the same. */
#include "common.h"

__attribute__((noinline)) const char *why(int r)
{
    return r > 5 ? "too many" : "fine";
}

__attribute__((noinline)) static long drive(int rounds, int fail_at)
{
    long acc = 0;
    for (int r = 0; r < rounds; r++) {
        if (r == fail_at) {
            printf("failed: %s\n", why(r));
            exit(10);
        }
        acc += hot(1000 + r);
    }
    return acc;
}

int main(int argc, char **argv)
{
    printf("%ld\n", drive(200, argc > 1 ? atoi(argv[1]) : -1));
    printf("%ld\n", drive(200, argc > 2 ? atoi(argv[2]) : -1));
    return 0;
}
