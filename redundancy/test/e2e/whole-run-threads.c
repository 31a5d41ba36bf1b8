// Sketches merge over threads (docs/redundancy.md, "Whole-run rate"): four
// threads each run `cycle` over the same 10,000 keys, 1,500,000 iterations
// each.  At 1 in 100 each thread samples about 15,000 iterations; its first
// 8192 leave the verdict open (about 1.46x), so it goes on into its own
// sketch.  The profile holds one sketch for the loop: registers merged by
// maximum, counts summed, so the rate is about 60,000 over about 10,000
// (6x).  Summing registers, or keeping one thread's, would not give that.
// RUN: %vprof-cc -O1 -fno-inline -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=cycle VPROF_RED_ITER_RATE=100 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// CHECK-LABEL: loop cycle:
// CHECK-NEXT: cross-iteration: yes rate={{[5-7]\.[0-9][0-9]}} sampled={{(59|60)[0-9][0-9][0-9]}} distinct~{{(9|10)[0-9][0-9][0-9]}} fix=memoization
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define P 10000u
#define N 1500000u

volatile unsigned sink;
static unsigned keys[P];

void cycle(const unsigned *k, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink = k[i % P] * 3u;
}

static void *run(void *arg) {
  (void)arg;
  cycle(keys, N);
  return NULL;
}

int main(void) {
  for (unsigned i = 0; i < P; i++)
    keys[i] = i * 2654435761u;
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    if (pthread_create(&t[i], NULL, run, NULL) != 0)
      return 1;
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  printf("%u\n", sink);
  return 0;
}
