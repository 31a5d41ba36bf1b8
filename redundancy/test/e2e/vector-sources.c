// A vectorized loop's loads are <N x i32> values.  Before they were
// recorded (docs/redundancy.md, "Vector sources") a vectorized loop's
// instances were compared on their outside values alone (the array and its
// length), so a loop that sums a freshly refilled array every time was
// reported cross-loop redundant at 100%, "re-reading" values that had all
// changed.  Now each lane is recorded: the refilled array is not redundant,
// the growing prefix (each call re-reads the previous call's values and one
// more) is.
// RUN: %vprof-cc -O2 -Rpass=loop-vectorize %s -o %t 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=total_fresh,total_prefix VPROF_RED_INSTANCE_RATE=5 %t | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof > %t.rep
// RUN: grep -A2 '^loop total_fresh:' %t.rep | FileCheck %s --check-prefix=FRESH
// RUN: grep -A2 '^loop total_prefix:' %t.rep | FileCheck %s --check-prefix=PREFIX
// OUT: ok
// FRESH-NOT: cross-loop: yes
// FRESH: cross-loop: no rate=0.00 pairs={{[1-9][0-9]*}}
// FRESH-NOT: cross-loop: yes
// PREFIX: cross-loop: yes rate={{.*}} pairs={{[1-9][0-9]*}}
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long total_fresh(const int *a, int n) {
  long s = 0;
  // VEC-DAG: vector-sources.c:[[#@LINE+1]]:3: remark: vectorized loop
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

__attribute__((noinline)) long total_prefix(const int *a, int n) {
  long s = 0;
  // VEC-DAG: vector-sources.c:[[#@LINE+1]]:3: remark: vectorized loop
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

__attribute__((noinline)) void fill(int *a, int n, int k) {
  for (int i = 0; i < n; i++)
    a[i] = (i * 7 + k * 13) % 1000;
}

int main(void) {
  enum { N = 512 };
  static int a[N], b[4 * N];
  long t = 0, u = 0;
  for (int k = 0; k < 400; k++) {
    fill(a, N, k);
    t += total_fresh(a, N);
  }
  for (int k = 0; k < 4 * N; k++) {
    b[k] = k % 11;
    u += total_prefix(b, k + 1);
  }
  printf(t > 0 && u > 0 ? "ok\n" : "bad\n");
  return 0;
}
