// The writes per instance decide the cross-loop fix: a number that grows
// with the instance's work means batching, a constant one memoization.  An
// instance past the value cap (4096 values) stops sending values, and before
// 2026-11-22 it stopped counting its side effects at the same point: every
// instance of copy_prefix below (5,000 to 9,000 iterations, one value and one
// write each) stopped at the same count, so the writes came out constant and
// the fix memoization.  Side effects are now counted to the instance's end
// (VP_RED_MODE_SE; docs/redundancy.md, "Caps").
// RUN: %vprof-cc -O1 -fno-vectorize -fno-unroll-loops %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=copy_prefix VPROF_RED_INSTANCE_RATE=5 %t | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// OUT: ok
// CHECK-LABEL: loop copy_prefix:
// CHECK: cross-loop: yes {{.*}} instances={{[0-9]+}} writes=growing({{[0-9]+}}..{{[0-9]+}}) fix=batching
// CHECK: loss: {{.*}} values-dropped={{[1-9][0-9]*}}
#include <stdio.h>

enum { MAX = 9000 };
static int in[MAX], out[MAX];

__attribute__((noinline)) void copy_prefix(const int *src, int *dst, int n) {
  for (int i = 0; i < n; i++)
    dst[i] = src[i];
}

int main(void) {
  for (int i = 0; i < MAX; i++)
    in[i] = i % 37;
  long s = 0;
  for (int k = 5000; k < MAX; k += 4) {
    copy_prefix(in, out, k);
    s += out[k - 1];
  }
  printf(s > 0 ? "ok\n" : "bad\n");
  return 0;
}
