/*
 * t_unwind.c - the runtime's stack stepper (src/rt_unwind.c) checked against
 * libunwind, the stepper it replaced, in the same SIGPROF handler.
 *
 * The program runs code whose frames unwind differently: recursion with
 * variable-length arrays (rbp frames), leaf arithmetic holding values in
 * callee-saved registers across calls, glibc's qsort calling back into us,
 * glibc's string functions (assembly with hand-written CFI), the vDSO, and
 * work inside a signal handler of its own (steps through glibc's
 * __restore_rt, whose CFI is a signal frame made of DWARF expressions).
 * At each sample both walk the stack from the interrupted context; every
 * frame libunwind reaches must be reached by the stepper with the same PC,
 * the same stack pointer and, for each callee-saved register the stepper
 * vouches for, the same value.  Prints the counts; exit 1 on any difference
 * or when too few frames were compared to mean anything.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "rt_internal.h"

#define MAX_FRAMES 24

/* The runtime's reader, as process_vm_readv mode does it: never faults. */
int vp_rt_safe_read(uint64_t addr, void *dst, uint32_t size)
{
    struct iovec l = {dst, size}, r = {(void *)(uintptr_t)addr, size};
    return syscall(SYS_process_vm_readv, getpid(), &l, 1UL, &r, 1UL, 0UL) == (ssize_t)size ? 0 : -1;
}

static volatile long samples, frames, mismatches, ours_short, ours_long, signal_steps;
static volatile long cmp_regs;
static char first_diff[512];

static void note(const char *what, int d, uint64_t a, uint64_t b)
{
    if (first_diff[0])
        return;
    snprintf(first_diff, sizeof first_diff, "%s at frame %d: stepper %#lx, libunwind %#lx", what, d,
             (unsigned long)a, (unsigned long)b);
}

static void on_prof(int sig, siginfo_t *si, void *ucv)
{
    (void)sig;
    (void)si;
    ucontext_t *uc = ucv;
    static const int map[17] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                                REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
    static const int callee[] = {3, 6, 12, 13, 14, 15};
    uint64_t regs[17], next[17];
    for (int i = 0; i < 17; i++)
        regs[i] = (uint64_t)uc->uc_mcontext.gregs[map[i]];
    uint32_t valid = 0x1ffff;
    int exact = 1;

    unw_cursor_t cur;
    if (unw_init_local2(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) != 0)
        return;
    samples++;
    for (int d = 0; d < MAX_FRAMES; d++) {
        int s = unw_step(&cur);
        unw_word_t ip = 0, sp = 0;
        int lu = s > 0 && unw_get_reg(&cur, UNW_REG_IP, &ip) == 0 &&
                 unw_get_reg(&cur, UNW_REG_SP, &sp) == 0 && ip != 0;
        uint32_t nvalid = 0;
        uint64_t cfa = 0;
        int was_exact = exact;
        static _Alignas(16) uint8_t work[VP_RT_UNWIND_WORK];
        int o = vp_rt_unwind_step(regs, valid, &exact, next, &nvalid, &cfa, work);
        if (!lu) {
            if (o > 0)
                ours_long++; /* we went further: counted, not an error */
            return;
        }
        if (o <= 0) {
            ours_short++;
            note(o == 0 ? "stepper says outermost" : "stepper failed", d, regs[16], ip);
            return;
        }
        frames++;
        if (!was_exact && exact)
            signal_steps++;
        if (next[16] != ip) {
            mismatches++;
            note("return address differs", d, next[16], ip);
            return;
        }
        if (next[7] != sp) {
            mismatches++;
            note("stack pointer differs", d, next[7], sp);
            return;
        }
        for (unsigned k = 0; k < sizeof callee / sizeof callee[0]; k++) {
            unw_word_t w;
            int r = callee[k];
            if (!(nvalid & (1u << r)) || unw_get_reg(&cur, r, &w) != 0)
                continue;
            cmp_regs++;
            if (w != next[r]) {
                mismatches++;
                note("callee-saved register differs", d, next[r], w);
                return;
            }
        }
        memcpy(regs, next, sizeof regs);
        valid = nvalid;
    }
}

/* ---- the workload ------------------------------------------------------ */

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t mix(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    for (int i = 0; i < 64; i++) {
        a += b ^ (c << 7);
        b = (b >> 3) + d * 0x9e3779b97f4a7c15ull;
        c ^= a + (d >> 11);
        d += c | 1;
    }
    return a ^ b ^ c ^ d;
}

/* keeps several values live across calls: they sit in rbx, r12-r15 */
__attribute__((noinline)) static uint64_t holder(uint64_t seed)
{
    uint64_t a = seed, b = seed * 3, c = seed * 5, d = seed * 7, e = seed * 11;
    for (int i = 0; i < 40; i++) {
        a = mix(a, b, c, d);
        b = mix(b, c, d, e);
        c = mix(c, d, e, a);
        d += a ^ e;
        e += b;
    }
    return a + b + c + d + e;
}

__attribute__((noinline)) static uint64_t recurse(int depth, uint64_t x)
{
    char buf[64 + (depth & 7) * 24]; /* variable frame size: an rbp frame */
    memset(buf, (int)x, sizeof buf);
    if (depth == 0)
        return holder(x + (uint64_t)buf[3]);
    uint64_t r = recurse(depth - 1, x * 31 + (uint64_t)buf[depth % sizeof buf]);
    return r + (uint64_t)buf[5];
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    a = mix(a, 1, 2, 3) & 0xffff; /* slow comparator: samples land in it */
    b = mix(b, 1, 2, 3) & 0xffff;
    return a < b ? -1 : a > b;
}

static void sorts(uint64_t seed)
{
    static uint64_t v[3000];
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
        v[i] = seed + i * 2654435761u;
    qsort(v, sizeof v / sizeof v[0], sizeof v[0], cmp_u64);
    sink += v[17];
}

static void strings(void)
{
    static char a[1 << 16], b[1 << 16];
    for (int i = 0; i < 200; i++) {
        memset(a, 'a' + i % 26, sizeof a - 1);
        memcpy(b, a, sizeof b);
        sink += strlen(b) + (uint64_t)(memchr(b, 'z' + 1, sizeof b) != NULL);
    }
}

static void clocks(void)
{
    struct timespec ts;
    for (int i = 0; i < 20000; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sink += (uint64_t)ts.tv_nsec;
    }
}

static void on_usr1(int sig)
{
    (void)sig;
    sink += recurse(10, sink); /* samples inside this handler cross __restore_rt */
}

/* CPU time: ITIMER_PROF counts it, so a loaded host takes longer, not
   fewer samples. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 1.5;
    vp_rt_unwind_prepare();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    signal(SIGUSR1, on_usr1);
    struct itimerval it = {{0, 500}, {0, 500}};
    setitimer(ITIMER_PROF, &it, NULL);

    double end = now() + secs;
    for (uint64_t round = 1; now() < end; round++) {
        sink += recurse(12, round);
        sorts(round);
        strings();
        clocks();
        for (int i = 0; i < 48; i++)
            raise(SIGUSR1);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);

    printf("samples %ld frames %ld callee_regs %ld signal_steps %ld mismatches %ld "
           "stepper_short %ld stepper_longer %ld\n",
           samples, frames, cmp_regs, signal_steps, mismatches, ours_short, ours_long);
    if (first_diff[0])
        printf("first difference: %s\n", first_diff);
    if (mismatches || ours_short) {
        printf("FAIL: the stepper disagrees with libunwind\n");
        return 1;
    }
    if (frames < 1000 || cmp_regs < 1000 || signal_steps < 5) {
        printf("FAIL: too little compared (frames, callee-saved registers, signal frames)\n");
        return 1;
    }
    return 0;
}
