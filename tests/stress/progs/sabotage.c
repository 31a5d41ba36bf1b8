/* sabotage.c - a deliberately broken "runtime" for the harness self-test
 * (selftest.sh): preloaded next to libvprof-rt.so, it misbehaves only in a
 * process the profiler launched (VPROF_ROOT_PID is set), the way a runtime
 * bug would: STRESS_SABOTAGE=crash (SIGSEGV at exit), hang (never exits),
 * output (an extra line on stdout), status (exit status 42). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((destructor)) static void sabotage(void)
{
    const char *mode = getenv("STRESS_SABOTAGE");
    if (!mode || !getenv("VPROF_ROOT_PID"))
        return;
    if (!strcmp(mode, "crash")) {
        signal(SIGSEGV, SIG_DFL);
        *(volatile int *)0 = 1;
    } else if (!strcmp(mode, "hang")) {
        for (;;)
            pause();
    } else if (!strcmp(mode, "output")) {
        ssize_t w = write(1, "sabotage\n", 9);
        (void)w;
    } else if (!strcmp(mode, "status")) {
        _exit(42);
    }
}
