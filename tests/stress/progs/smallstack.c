/* smallstack.c - instrumented work on small stacks the sampling signal
 * lands on:
 *   1. a SIGUSR1 handler on a sigaltstack of SIGSTKSZ bytes (glibc >= 2.34:
 *      sysconf(_SC_SIGSTKSZ), 13,504 on an AVX-512 machine, whose kernel
 *      signal frame alone is ~3.4 KiB, and a sample there stacks two), raised
 *      30 times, each computing for a while;
 *   2. four ucontext coroutines on 16 KiB stacks, each leaving itself about
 *      5 KiB of free stack below the hot loop (a local buffer eats the rest).
 * Every stack has a PROT_NONE guard page below it.  Before 2026-11-24 the
 * runtime's handler used ~8 KiB of stack for its read buffers and libunwind
 * state, on top of the kernel's signal frame, and both parts crashed with
 * SIGSEGV under vprof record. */
#define _GNU_SOURCE
#include "common.h"
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static char *guarded_stack(size_t size)
{
    char *m = mmap(NULL, size + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m, 4096, PROT_NONE) != 0)
        exit(3);
    return m + 4096;
}

static volatile long acc;
static void on_usr1(int sig)
{
    (void)sig;
    acc += hot(300000);
}

#define CO_STACK 16384
#define CO_FREE 5120
static ucontext_t sched, co[4];
static long results[4];
static int done[4];

__attribute__((noinline)) static long work(int id)
{
    long s = 0;
    for (int r = 0; r < 300; r++) {
        s += hot(200000 + id);
        swapcontext(&co[id], &sched);
    }
    return s;
}

__attribute__((noinline)) static long eat(int id, long bytes)
{
    volatile char *buf = __builtin_alloca(bytes);
    buf[0] = (char)id;
    buf[bytes - 1] = 1;
    return work(id) + buf[0] + buf[bytes - 1];
}

static void entry(int id)
{
    char here;
    long used = (long)((uintptr_t)&here - (uintptr_t)co[id].uc_stack.ss_sp);
    long bytes = used - CO_FREE;
    results[id] = eat(id, bytes > 64 ? bytes : 64);
    done[id] = 1;
}

int main(void)
{
    size_t alt = SIGSTKSZ;
    stack_t ss = {.ss_sp = guarded_stack(alt), .ss_size = alt, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0)
        return 2;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    for (int i = 0; i < 30; i++)
        raise(SIGUSR1);
    printf("altstack %ld\n", acc);

    for (int i = 0; i < 4; i++) {
        getcontext(&co[i]);
        co[i].uc_stack.ss_sp = guarded_stack(CO_STACK);
        co[i].uc_stack.ss_size = CO_STACK;
        co[i].uc_link = &sched;
        makecontext(&co[i], (void (*)(void))entry, 1, i);
    }
    for (int left = 4; left;) {
        left = 0;
        for (int i = 0; i < 4; i++)
            if (!done[i]) {
                swapcontext(&sched, &co[i]);
                left += !done[i];
            }
    }
    printf("coroutines %ld %ld %ld %ld\n", results[0], results[1], results[2], results[3]);
    return 0;
}
