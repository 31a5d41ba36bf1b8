// The cross-iteration rate covers the whole run (docs/redundancy.md,
// "Whole-run rate"): a loop keeps its first 8192 signatures on a thread,
// and a HyperLogLog sketch of every sampled one gives sampled / distinct
// over all of them.  `cycle` repeats 10,000 distinct iterations 600 times:
// at 1 in 100, its first 8192 samples cover a seventh of the run, where
// each signature was seen 0.8 times on average (1.46x: not redundant,
// what this reported before 2026-11-22); over the run each is seen 6 times
// (about 6x).  `fresh` repeats nothing the sample can see (1,000,000
// distinct iterations, 60,000 samples): it stays below 2.
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=cycle,fresh VPROF_RED_ITER_RATE=100 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// CHECK-LABEL: loop cycle:
// CHECK-NEXT: cross-iteration: yes rate={{[5-7]\.[0-9][0-9]}} sampled={{(59|60)[0-9][0-9][0-9]}} distinct~{{(9|10)[0-9][0-9][0-9]}} fix=memoization
// CHECK-LABEL: loop fresh:
// CHECK-NEXT: cross-iteration: no rate=1.{{0[0-9]}} sampled={{(59|60)[0-9][0-9][0-9]}} distinct~
#include <stdio.h>
#include <stdlib.h>

#define P 10000u
#define Q 1000000u
#define N 6000000u

volatile unsigned sink;

void cycle(const unsigned *keys, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink = keys[i % P] * 3u;
}

void fresh(const unsigned *keys, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink = keys[i % Q] * 5u;
}

int main(void) {
  unsigned *keys = malloc(Q * sizeof *keys);
  if (!keys)
    return 1;
  for (unsigned i = 0; i < Q; i++)
    keys[i] = i * 2654435761u;
  cycle(keys, N);
  fresh(keys, N);
  printf("%u\n", sink);
  free(keys);
  return 0;
}
