// Bubble sort on sorted input: no pass swaps anything, so every iteration
// of the inner loop is resultless (docs/loopclass.md, "Values carried into
// the remainder").  At -O2 the inner loop is unrolled twice and hands
// `a[i + 1]` and its counter to the remainder; before, those made every
// iteration a result: class 1*, resultless 0.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=bubble %t 3000 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t %t.vprof | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void bubble(int *a, int n) {
  for (int pass = 0; pass < n - 1; pass++)
    for (int i = 0; i < n - 1 - pass; i++)
      if (a[i] > a[i + 1]) {
        int t = a[i];
        a[i] = a[i + 1];
        a[i + 1] = t;
      }
}
// CHECK-DAG: loop bubble bubble-sorted.c:[[@LINE-8]] kind=loop class=[0|1]* instances=1 iterations=2999 results=0 {{.*}}resultless=1.000000
// CHECK-DAG: loop bubble bubble-sorted.c:[[@LINE-8]] kind=loop class=[0|1]* instances=2998 {{.*}} results=0 {{.*}}resultless=1.000000

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  int *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = i;
  bubble(a, n);
  printf("%d %d\n", a[0], a[n - 1]);
  free(a);
  return 0;
}
// OUT: 0 2999
