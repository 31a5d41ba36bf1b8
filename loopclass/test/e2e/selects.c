// `if (c) m = x;` is [0|1]* whether the compiler keeps the branch (-O0) or
// turns the update into a select, `m = c ? x : m` (-O1, -O2; an unrolled
// body chains four such selects): an iteration has a result only when the
// select takes the new value (docs/loopclass.md, "Selects").  Before
// 2026-11-25 the select was a result of every iteration (1*), so a loop
// missing its `break` was 1* at -O2 and [0|1]* at -O0.  A counter updated
// every iteration stays 1*.
// RUN: %vprof-cc -O0 %s -o %t0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0.vprof VPROF_LOOP_FUNCTIONS=find_last,count_all %t0 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t0 %t0.vprof | FileCheck %s
// RUN: %vprof-cc -O1 %s -o %t1
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t1.vprof VPROF_LOOP_FUNCTIONS=find_last,count_all %t1 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t1 %t1.vprof | FileCheck %s
// RUN: %vprof-cc -O2 -fno-vectorize %s -o %t2
// RUN: %vprof-cc -O2 -fno-vectorize -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=UNROLLED
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=find_last,count_all %t2 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t2 %t2.vprof | FileCheck %s --check-prefix=O2
#include <stdio.h>

static volatile int len = 1000;

__attribute__((noinline)) int find_last(const int *a, int n, int x) {
  int pos = -1;
  for (int i = 0; i < n; i++) // missing break: the last match wins
    if (a[i] == x)
      pos = i;
  return pos;
}

__attribute__((noinline)) int count_all(const int *a, int n, int x) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += a[i] == x;
  return c;
}

int main(void) {
  static int a[1000];
  int n = len;
  for (int i = 0; i < n; i++)
    a[i] = i % 100;
  int s = 0;
  for (int r = 0; r < 10; r++) {
    a[n - 1 - r] = 5; // a write between the calls: each call runs
    s += find_last(a, n, 42) + count_all(a, n, 7);
  }
  printf("s=%d\n", s);
  return 0;
}
// OUT: s=9520

// 10 matches per call, 10 calls: 100 iterations with a result.
// CHECK: loop find_last selects.c:[[#FIND:24]] kind=loop class=[0|1]* instances=10 iterations={{100[0-9]+}} results=100 
// CHECK: loop count_all selects.c:[[#FIND+8]] kind=loop class=1*

// UNROLLED: vprof-loop: find_last selects.c:24:3 kind=loop depth=1 class=[0|1]* {{.*}}unrolled(x4)
// UNROLLED: vprof-loop: count_all selects.c:32:3 kind=loop depth=1 class=1*
// The unrolled body counts an iteration (four source iterations) with a
// match once: the 10 matches of a call are 40 apart, so 100 in all.
// O2: loop find_last selects.c:24 kind=loop class=[0|1]* instances=10 iterations={{[0-9]+}} results=100
// O2: loop count_all selects.c:32 kind=loop class=1*
