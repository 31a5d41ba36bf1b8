/* Recursion until the stack is exhausted, caught by the target's SIGSEGV
 * handler on its sigaltstack and left with siglongjmp; then recursion to
 * just short of the limit (the sampler's handler runs on that stack). */
#include <setjmp.h>
#include <signal.h>
#include <sys/resource.h>
#include "common.h"

static sigjmp_buf env;
static volatile int overflowed;

static void on_segv(int sig) { overflowed = 1; siglongjmp(env, 1); }

__attribute__((noinline)) static long down(long depth, long limit)
{
    volatile char frame[1024];
    frame[0] = (char)depth;
    if (depth >= limit)
        return hot(20000) + frame[0];
    long r = down(depth + 1, limit);
    return r + frame[depth % 1024 ? 1 : 0] * 0;
}

int main(void)
{
    struct rlimit rl;
    getrlimit(RLIMIT_STACK, &rl);
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (64 << 20)) {
        rl.rlim_cur = 8 << 20; /* the frames below assume a finite stack */
        setrlimit(RLIMIT_STACK, &rl);
    }
    static char alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {.sa_handler = on_segv, .sa_flags = SA_ONSTACK | SA_NODEFER};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    long r = 0;
    for (int i = 0; i < 3; i++) {
        overflowed = 0;
        if (sigsetjmp(env, 1) == 0)
            r += down(0, 1L << 40); /* until the guard page */
    }
    printf("overflow caught: %d\n", overflowed);
    /* Near the limit, not over: ~64 KiB of ~1100-byte frames left free. */
    long frames = (long)((rl.rlim_cur - 128 * 1024) / 1100);
    long s = 0;
    for (int i = 0; i < 10; i++)
        s += down(0, frames);
    printf("deep ok %d\n", s > 0);
    return 0;
}
