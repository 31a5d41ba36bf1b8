/* t_values.c - target whose globals and registers mkindex.c describes.
   Spends its time in vp_loop_rbx called from vp_caller_r12 (t_values_asm.S). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

long g_counter = 424242;
int g_target = 99;
int *g_int_ptr = &g_target;
int *g_bad_ptr;          /* points into an unmapped page */
int g_neg = -5;
int *g_dead_stack_ptr;   /* points into the stack of a thread that exited and
                            whose stack was unmapped */

static int *leaked;

/* Leaves the address of one of its locals in `leaked`. */
static void *leak_local(void *arg)
{
    volatile int local = 31337;
    leaked = (int *)&local;
    return arg;
}

/* Runs leak_local on a stack of our own, then unmaps that stack, so the
   pointer is into a thread stack that is gone (glibc would cache its own).
   g_dead_stack_ptr is set only after the munmap: a sample between the
   thread's exit and the munmap read the still-mapped stack as OK once in
   CI (value 0xffffffff, 1 of 519 samples). */
static void dead_thread_stack(void)
{
    size_t sz = 256 * 1024;
    void *stk = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    pthread_attr_t a;
    pthread_t t;
    pthread_attr_init(&a);
    pthread_attr_setstack(&a, stk, sz);
    pthread_create(&t, &a, leak_local, NULL);
    pthread_join(t, NULL);
    pthread_attr_destroy(&a);
    munmap(stk, sz);
    g_dead_stack_ptr = leaked;
}

void vp_caller_r12(uint64_t n);

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(page, 4096);
    g_bad_ptr = page;
    dead_thread_stack();
    double end = cpu_ms() + 500;
    while (cpu_ms() < end)
        vp_caller_r12(20000000);
    printf("values done\n");
    return 0;
}
