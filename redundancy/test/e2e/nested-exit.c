// A way out of an inner loop that also leaves the outer loop (LLVM folds
// `if (!retry) break;` into the inner loop's exit, as in pg14b1's
// lazy_scan_prune): the recorded frames must end innermost first.  When the
// outer frame ended first, the runtime took the still-open inner frame for
// one left by a longjmp, dropped it and set __vprof_red_active to 0; the
// inner loop's own end then brought it to -1, and with it every callee that
// tests it stopped (or, before 2026-11-22, never stopped) sending values.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=prune VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s
// CHECK: total=25200 active: min=0 max=0
#include <stdio.h>

// The probes' counter (the pass reuses this definition).
__thread int __vprof_red_active __attribute__((weak));

__attribute__((noinline)) int prune(int *v, int n) {
  int tries = 0;
  for (;;) {
    int retry = 0;
    for (int i = 0; i < n; i++)
      if (v[i] < 0) {
        v[i] = -v[i];
        retry = 1;
        break;
      }
    if (!retry)
      break;
    tries++;
  }
  return tries;
}

int main(void) {
  int v[64], total = 0, worst = 0, least = 0;
  for (int r = 0; r < 2000; r++) {
    for (int i = 0; i < 64; i++)
      v[i] = (i * 7 + r) % 5 == 0 ? -i : i;
    total += prune(v, 64);
    if (__vprof_red_active > worst)
      worst = __vprof_red_active;
    if (__vprof_red_active < least)
      least = __vprof_red_active;
  }
  printf("total=%d active: min=%d max=%d\n", total, least, worst);
  return 0;
}
