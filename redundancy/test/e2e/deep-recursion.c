// Recorded iterations nest at most 16 deep per thread (VP_RED_STACK,
// docs/redundancy.md, "Caps"): a recursion sampled at every call (rate 1)
// 41 calls deep records the outermost 16 and counts the 25 below as
// dropped iterations.  Before, they were lost without a count (the docs
// said they were counted).
// RUN: %vprof-cc -O1 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=down VPROF_RED_ITER_RATE=1 %t 40 | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// OUT: 820
// CHECK: loop down:[[#@LINE+7]]
// CHECK-NEXT: cross-iteration: {{.*}} sampled=16 distinct=16
// CHECK: loss: iterations-dropped=25 iterations-truncated=0
#include <stdio.h>
#include <stdlib.h>

static volatile int vals[64];
__attribute__((noinline)) long down(int n) {
  if (n == 0)
    return 0;
  return vals[n & 63] + down(n - 1);
}

int main(int argc, char **argv) {
  int d = argc > 1 ? atoi(argv[1]) : 40;
  for (int i = 0; i < 64; i++)
    vals[i] = i;
  printf("%ld\n", down(d));
  return 0;
}
