/* setuid.c - run as a set-user-ID copy (setuid.sh): prints whether it runs
 * with another effective uid, works, and with "dlopen LIB" first loads LIB
 * (the runtime) by hand, which the dynamic loader's LD_PRELOAD rules for
 * set-ID programs do not prevent, so the runtime's own AT_SECURE check is
 * what keeps it from profiling. */
#include <dlfcn.h>
#include <string.h>
#include "common.h"

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "dlopen") == 0 && !dlopen(argv[2], RTLD_NOW)) {
        printf("dlopen failed: %s\n", dlerror());
        return 3;
    }
    printf("set-id: %s\n", geteuid() != getuid() ? "yes" : "no");
    printf("%ld\n", hot(300000));
    return 0;
}
