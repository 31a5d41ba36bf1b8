// A signal handler that runs a counted loop while its thread is inside
// __vprof_loop_block (mapping the thread's record or its counter arena, or
// carving the block from it) must not lose the handler's counts.  The
// program interposes mmap (the runtime's mmap calls reach it through the
// PLT) and raises SIGUSR1 at the K-th mmap of main's first call of tally()
// (K = argv[1]); the handler runs tally() 5 times, main runs it 3 times, so
// the report must count 3 + 5 x (handler runs) instances.  The sweep covers
// each mmap a thread's first probe makes (its record, then its arena) and
// one past the last (no signal).  Before the fix, a handler inside the
// arena's mapping published its block and the interrupted call overwrote
// it: 3 instances counted of 8 at K=2.
// RUN: %vprof-cc -O1 -fno-unroll-loops -fno-vectorize -mllvm -vprof-redundancy-probes=0 -rdynamic %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t1.vprof VPROF_LOOP_FUNCTIONS=tally %t 1 > %t1.out
// RUN: %loopclass-report %t %t1.vprof >> %t1.out
// RUN: FileCheck %s --check-prefixes=CHECK,RAN < %t1.out
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=tally %t 2 > %t2.out
// RUN: %loopclass-report %t %t2.vprof >> %t2.out
// RUN: FileCheck %s --check-prefixes=CHECK,RAN < %t2.out
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t9.vprof VPROF_LOOP_FUNCTIONS=tally %t 9 > %t9.out
// RUN: %loopclass-report %t %t9.vprof >> %t9.out
// RUN: FileCheck %s < %t9.out
// RAN: handler ran 1 times
// CHECK: expect instances=[[#N:]] iterations=[[#I:]]
// CHECK: records=1 threads=1
// CHECK: loop tally signal-in-block.c:{{[0-9]+}} kind=loop {{.*}}instances=[[#N]] iterations=[[#I]] {{.*}}
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t armed, handled;
static volatile long sum;
static int data[100];

__attribute__((noinline)) long tally(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

static void handler(int sig) {
  (void)sig;
  for (int r = 0; r < 5; r++)
    sum += tally(data, 100);
  handled++;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (armed > 0 && --armed == 0)
    raise(SIGUSR1);
  return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}

int main(int argc, char **argv) {
  for (int i = 0; i < 100; i++)
    data[i] = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigaction(SIGUSR1, &sa, NULL);
  armed = argc > 1 ? atoi(argv[1]) : 0;
  sum += tally(data, 100);
  armed = 0;
  sum += tally(data, 100);
  sum += tally(data, 100);
  printf("handler ran %d times\n", (int)handled);
  printf("expect instances=%d iterations=%d\n", 3 + 5 * (int)handled, 100 * (3 + 5 * (int)handled));
  return sum != 100L * (3 + 5 * handled);
}
