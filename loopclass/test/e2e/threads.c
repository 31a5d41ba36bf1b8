// Counters are per thread and merged when the profile is written: four
// threads each run 5 instances of a 1000-iteration loop.
// RUN: %vprof-cc -O1 -fno-unroll-loops -fno-vectorize -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=work %t | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t %t.vprof | FileCheck %s
#include <pthread.h>
#include <stdio.h>

static long sums[4];

__attribute__((noinline)) void work(long *out, int n) {
  for (int i = 0; i < n; i++)
    if (i % 250 == 0)
      *out += i;
}

static void *run(void *arg) {
  long *out = arg;
  for (int r = 0; r < 5; r++)
    work(out, 1000);
  return NULL;
}

int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, run, &sums[i]);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  printf("sum=%ld\n", sums[0] + sums[1] + sums[2] + sums[3]);
  return 0;
}
// OUT: sum=30000
// A thread that starts after another has exited takes over its record, so
// there are 1 to 4 records (docs/loopclass.md).
// CHECK: records=1 threads={{[1-4]}}
// CHECK-NEXT: loop work threads.c:12 kind=loop class=[0|1]* instances=20 iterations=20000 results=80 max=1000 avg=1000.00 resultless=0.996000 verdict=inefficient
