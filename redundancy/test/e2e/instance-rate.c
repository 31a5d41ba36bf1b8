// Cross-loop sampling of an inner loop happens at the configured rate
// (docs/redundancy.md, "Probes and sampling"): a per-thread countdown in the
// preheader, one sampled pair (two consecutive instances) after a gap of
// about 1 in VPROF_RED_INSTANCE_RATE.  The countdown must survive the parent
// loop's exit: grid runs its 8,000 inner instances in one parent instance
// (`long`) and in 4,000 calls of two (`short`: a countdown left behind at
// each call's exit would sample one pair and then none); grid_call runs
// them in a parent that calls a function.  8,000 instances at 1 in 100 give
// about 78 pairs; none is dropped (thinning starts at 128 pairs).
// RUN: %vprof-cc -O2 %s -o %t
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void opaque(long s) { __asm__ volatile("" ::"r"(s)); }

// GRID: grid:{{[0-9]+}} pairs={{[0-9]+}} in-range
// GRID-NEXT: loss: {{.*}} instances-dropped=0 values-dropped=0
// SHORT: grid:{{[0-9]+}} pairs={{[0-9]+}} in-range
// SHORT-NEXT: loss: {{.*}} instances-dropped=0 values-dropped=0
__attribute__((noinline)) long grid(const int *a, int nr, int nc) {
  long s = 0;
  for (int r = 0; r < nr; r++)
    // RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.1.vprof VPROF_LOOP_FUNCTIONS=grid VPROF_RED_INSTANCE_RATE=100 %t 8000 long
    // RUN: %redundancy-report %t %t.1.vprof | awk -v at=grid:%(line+3) -v lo=45 -v hi=115 -f %S/Inputs/pairs-in-range.awk | FileCheck %s --check-prefix=GRID
    // RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.2.vprof VPROF_LOOP_FUNCTIONS=grid VPROF_RED_INSTANCE_RATE=100 %t 8000 short
    // RUN: %redundancy-report %t %t.2.vprof | awk -v at=grid:%(line+1) -v lo=45 -v hi=115 -f %S/Inputs/pairs-in-range.awk | FileCheck %s --check-prefix=SHORT
    for (int c = 0; c < nc; c++)
      s += a[(r * nc + c) & 1023] ^ c;
  return s;
}

// CALL: grid_call:{{[0-9]+}} pairs={{[0-9]+}} in-range
// CALL-NEXT: loss: {{.*}} instances-dropped=0 values-dropped=0
__attribute__((noinline)) long grid_call(const int *a, int nr, int nc) {
  long s = 0;
  for (int r = 0; r < nr; r++) {
    // RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.3.vprof VPROF_LOOP_FUNCTIONS=grid_call VPROF_RED_INSTANCE_RATE=100 %t 8000 call
    // RUN: %redundancy-report %t %t.3.vprof | awk -v at=grid_call:%(line+1) -v lo=45 -v hi=115 -f %S/Inputs/pairs-in-range.awk | FileCheck %s --check-prefix=CALL
    for (int c = 0; c < nc; c++)
      s += a[(r * nc + c) & 1023] ^ c;
    opaque(s);
  }
  return s;
}

static volatile int two = 2, three = 3; // not constants the optimiser could unroll with

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8000;
  const char *mode = argc > 2 ? argv[2] : "long";
  static int a[1024];
  for (int i = 0; i < 1024; i++)
    a[i] = i * 7;
  long s = 0;
  if (strcmp(mode, "short") == 0) // n / 2 parent instances of 2 iterations
    for (int k = 0; k < n / 2; k++)
      s += grid(a, two, three);
  else if (strcmp(mode, "call") == 0) // one parent instance of n iterations
    s = grid_call(a, n, three);
  else
    s = grid(a, n, three);
  printf("%ld\n", s);
  return 0;
}
