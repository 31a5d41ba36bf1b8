// Nested loops sum their instances in registers and add them to the
// thread's counters when the outermost loop ends, or every 1024 instances
// (docs/loopclass.md, "Probe scheme and cost").  The counts stay exact:
// grid's inner loop has 3000 instances per call (flushed in the middle and
// at the end), find2's inner loop leaves both loops when it finds the key.
// RUN: %vprof-cc -O1 -fno-unroll-loops -fno-vectorize %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=grid,find2 %t | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t %t.vprof | FileCheck %s
#include <stdio.h>

static volatile int rows = 3000, cols = 5, key = 555;

__attribute__((noinline)) long grid(int nr, int nc) {
  long s = 0;
  for (int r = 0; r < nr; r++)
    for (int c = 0; c < nc; c++)
      s += r ^ c;
  return s;
}

__attribute__((noinline)) int find2(const int *a, int n, int m, int k) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (a[i * m + j] == k)
        return i * m + j;
  return -1;
}

int main(void) {
  static int a[1000];
  for (int i = 0; i < 1000; i++)
    a[i] = i;
  long s = 0;
  for (int k = 0; k < 4; k++)
    s += grid(rows, cols);
  for (int k = 0; k < 3; k++)
    s += find2(a, 100, 10, key);
  printf("s=%ld\n", s);
  return 0;
}
// OUT: s=
// CHECK: records=4 threads=1
// CHECK-DAG: loop grid nested.c:15 kind=loop class={{.*}} instances=4 iterations=12000 {{.*}}max=3000
// CHECK-DAG: loop grid nested.c:16 kind=loop class={{.*}} instances=12000 iterations=60000 {{.*}}max=5
// CHECK-DAG: loop find2 nested.c:22 kind=loop class={{.*}} instances=3 iterations=168 {{.*}}max=56
// Rotation tests j = 0 before the inner loop: its header runs 10 times per
// full instance (j = 1..10) and 5 times when the key is at j = 5.
// CHECK-DAG: loop find2 nested.c:23 kind=loop class={{.*}} instances=168 iterations=1665 {{.*}}max=10
