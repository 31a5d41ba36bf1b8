// An iteration in which several side-effect blocks run counts one result
// (LDoctor: iterations that produce a result).  The two stores are in
// blocks neither of which covers the other, so both count: an iteration of
// a value above 50 that is odd runs both.  Per instance: 49 values above 50,
// 50 odd ones, 25 both: 74 iterations with a result out of 100.
// RUN: %vprof-cc -O0 %s -o %t0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0.vprof VPROF_LOOP_FUNCTIONS=two_sites %t0 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t0 %t0.vprof | FileCheck %s
// RUN: %vprof-cc -O2 -fno-unroll-loops -fno-vectorize %s -o %t2
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=two_sites %t2 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t2 %t2.vprof | FileCheck %s
#include <stdio.h>

int g_big, g_odd;

__attribute__((noinline)) void two_sites(const int *a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] > 50)
      g_big++;
    if (a[i] % 2)
      g_odd++;
  }
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
  for (int r = 0; r < 10; r++)
    two_sites(a, 100);
  printf("big=%d odd=%d\n", g_big, g_odd);
  return 0;
}
// OUT: big=490 odd=500
// CHECK: loop two_sites two-results.c:17 kind=loop class={{.*}} instances=10 iterations={{10[01][0-9]}} results=740
