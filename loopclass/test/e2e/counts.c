// Probe counters match known iteration counts exactly.  At -O0 a for loop's
// header (its condition) runs once more than the body; at -O2 the loop is
// rotated and the header is the body.  Unrolling and vectorisation change
// what an iteration is (docs/loopclass.md), so the -O2 build turns them off.
// RUN: %vprof-cc -O0 %s -o %t0
// RUN: %t0 | FileCheck %s --check-prefix=OUT
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0.vprof VPROF_LOOP_FUNCTIONS=count_big,find,fib %t0 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t0 %t0.vprof | FileCheck %s --check-prefix=O0
// RUN: %vprof-cc -O2 -fno-unroll-loops -fno-vectorize -fno-optimize-sibling-calls %s -o %t2
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=count_big,find,fib %t2 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t2 %t2.vprof | FileCheck %s --check-prefix=O2
// Probes off: no counters at all.
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0off.vprof %t0 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report --all %t0 %t0off.vprof | FileCheck %s --check-prefix=OFF
// Selecting only one function counts only its loops.
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0one.vprof VPROF_LOOP_FUNCTIONS=find %t0 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t0 %t0one.vprof | FileCheck %s --check-prefix=ONE
#include <stdio.h>

int g_hits;
static volatile int ten = 10; // keeps -O2 from computing fib(10) once

__attribute__((noinline)) void count_big(const int *a, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] > 90)
      g_hits++;
}

__attribute__((noinline)) int find(const int *a, int n, int k) {
  for (int i = 0; i < n; i++)
    if (a[i] == k)
      return i;
  return -1;
}

__attribute__((noinline)) int fib(int n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
  int s = 0;
  for (int r = 0; r < 10; r++) {
    count_big(a, 100);
    s += find(a, 100, 42);
  }
  for (int r = 0; r < 3; r++)
    s += fib(ten);
  printf("hits=%d s=%d\n", g_hits, s);
  return 0;
}
// OUT: hits=90 s=585

// O0: records=3 threads=1
// O0: loop count_big counts.c:24 kind=loop class=[0|1]* instances=10 iterations=1010 results=90 max=101 avg=101.00 resultless=0.910891 verdict=efficient
// O0: loop find counts.c:30 kind=loop class=0*1? instances=10 iterations=430 results=10 max=43 avg=43.00 resultless=0.976744 verdict=efficient
// O0: loop fib counts.c:36 kind=recursion class={{.*}} instances=3 iterations=531 results={{[0-9]+}} max=177 avg=177.00

// O2: records=3 threads=1
// O2: loop count_big counts.c:24 kind=loop class=[0|1]* instances=10 iterations=1000 results=90 max=100 avg=100.00 resultless=0.910000 verdict=efficient
// O2: loop find counts.c:30 kind=loop class=0*1? instances=10 iterations=430 results=10 max=43
// O2: loop fib counts.c:36 kind=recursion class={{.*}} instances=3 iterations=531 results={{[0-9]+}} max=177

// OFF: records=0 threads=0
// OFF-NOT: instances={{[1-9]}}
// OFF: verdict=not-run

// ONE: records=1 threads=1
// ONE-NEXT: loop find
// ONE-NOT: {{^}}loop
