// Recursive functions are sampled per call (LDoctor 3.2.4): a call's
// signature is its arguments and the memory it reads, so naive fib, whose
// calls repeat the same n over and over, is cross-iteration redundant
// (memoization).  The statistics counter `calls++` differs in every call
// but only feeds itself: it is not an input.
// RUN: %vprof-cc -O1 %s -o %t
// RUN: %vprof-cc -O1 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=fib,alternate VPROF_RED_ITER_RATE=10 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// A sampled call runs a recording copy of the whole function; the probed
// function itself only decides (docs/redundancy.md, "Recursive functions").
// RUN: nm %t | FileCheck %s --check-prefix=SYM
// SYM-DAG: t fib.vprof_probed.vprec
// SYM-DAG: t alternate.vprof_probed.vprec
// At -O0 (optnone) the recorded calls are told apart by a flag instead, with
// the same verdicts.
// RUN: %vprof-cc -O0 %s -o %t0
// RUN: nm %t0 | FileCheck %s --check-prefix=NOCOPY
// NOCOPY-NOT: vprec
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0.vprof VPROF_LOOP_FUNCTIONS=fib,alternate VPROF_RED_ITER_RATE=10 %t0
// RUN: %redundancy-report %t0 %t0.vprof | FileCheck %s
#include <stdio.h>

static long calls;

__attribute__((noinline)) long fib(int n) {
  calls++;
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
// SRC-LABEL: vprof-sources: fib recursion.c:26:0 sources=1 side-effects=0 probed
// SRC-NEXT: vprof-source: 26:0 outside ci=record cl=-
// CHECK-LABEL: loop fib:26
// CHECK-NEXT: cross-iteration: yes {{.*}} fix=memoization

// Every call has a different n: nothing repeats (the subtraction keeps
// tail-recursion elimination from turning it into a loop).  A sampled call
// keeps its frame open until it returns, so of this deep recursion only 16
// nested sampled calls per outermost call are recorded (the rest counted).
__attribute__((noinline)) long alternate(int n) {
  return n == 0 ? 0 : n - alternate(n - 1);
}
// CHECK-LABEL: loop alternate:39
// CHECK-NEXT: cross-iteration: no rate=1.00

int main(void) {
  long s = fib(24);
  for (int k = 0; k < 4; k++)
    s += alternate(2000 * k + 2000);
  printf("%ld %ld\n", s, calls);
  return 0;
}
