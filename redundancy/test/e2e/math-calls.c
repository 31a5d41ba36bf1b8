// Math calls made again (docs/redundancy.md, "Math calls made again"): a
// loop that calls pow, exp, sin, ... with arguments that repeat.  LLVM
// keeps such a call in the loop even when its arguments do not change
// (it may set errno), and the iteration's own signature never repeats (it
// reads a new element).  The unit's signature is the call's numeric
// arguments, sampled at the usual rate (1 call in 1,000).
//   scale_rows():  pow(10.0, row gain) for every element of the row: the
//                  arguments change per row only, redundant.
//   waveform():    sin(i * step): a new argument in every iteration, which
//                  the pass sees (an induction variable times a loop-
//                  invariant factor): no unit.
//   quantized():   exp of one of 4 levels: 4 distinct calls, redundant.
//   scaled_by():   hypot(x, y) of a point that moves: not.
// RUN: %vprof-cc -O2 %s -o %t -lm
// Instance recording is off (rate 2^30): scale_rows' inner loop has 4
// instances, one per row, and a recorded instance runs its recording copy,
// where the pow unit is not sampled (docs/redundancy.md, "Repeated
// calls"), so a recorded pair of rows left 2 distinct calls (1 run in 60
// under load, on CI once).
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_RED_INSTANCE_RATE=1073741824 VPROF_LOOP_FUNCTIONS=scale_rows,waveform,quantized,scaled_by %t | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=STATIC
// (scale_rows's inner loop is kept whole: the vectorizer's copies of it would
// be units of their own, one of them never run.)
// Without the units nothing is said of the calls.
// RUN: %vprof-cc -O2 %s -o %t.off -lm -mllvm -vprof-repeated-calls=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t3.vprof VPROF_LOOP_FUNCTIONS=scale_rows,quantized %t.off
// RUN: %redundancy-report %t.off %t3.vprof | FileCheck %s --check-prefix=OFF
// OFF-NOT: calls of
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double scale_rows(double *m, int rows, int cols) {
  double sum = 0;
  for (int r = 0; r < rows; r++)
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
    for (int c = 0; c < cols; c++) {
      m[r * cols + c] *= pow(10.0, (double)r / rows);
      sum += m[r * cols + c];
    }
  return sum;
}
// CHECK: math calls of pow at line [[@LINE-5]] in loop {{.*}} sources=1
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=4{{$}}
// STATIC: vprof-sources: pow math-calls.c:[[@LINE-7]]:{{[0-9]+}} sources=1 {{.*}}repeated-call-unit math-call

__attribute__((noinline)) double waveform(double *out, int n, double step) {
  double sum = 0;
  for (int i = 0; i < n; i++) {
    out[i] = sin(i * step);
    sum += out[i];
  }
  return sum;
}
// CHECK-NOT: calls of sin
// STATIC-NOT: vprof-sources: sin

__attribute__((noinline)) double quantized(const int *level, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += exp(level[i] * 0.5);
  return sum;
}
// CHECK: math calls of exp at line [[@LINE-3]] in loop
// CHECK-NEXT: repeated calls: yes rate={{.*}} distinct=4{{$}}

__attribute__((noinline)) double scaled_by(const double *x, const double *y, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += hypot(x[i], y[i]);
  return sum;
}
// CHECK: math calls of hypot at line [[@LINE-3]] in loop
// CHECK-NEXT: repeated calls: no rate=1.00

int main(void) {
  int rows = 4, cols = 100000, n = 400000;
  double *m = malloc(sizeof(double) * rows * cols), *out = malloc(sizeof(double) * n);
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  int *level = malloc(sizeof(int) * n);
  if (!m || !out || !x || !y || !level)
    return 1;
  for (int i = 0; i < rows * cols; i++)
    m[i] = 1.0;
  for (int i = 0; i < n; i++) {
    level[i] = (i * 7) % 4;
    x[i] = i;
    y[i] = n - i;
  }
  double a = scale_rows(m, rows, cols), b = waveform(out, n, 0.001);
  double c = quantized(level, n), d = scaled_by(x, y, n);
  printf("%d %d %d %d\n", a > 0, b != 0, c > 0, d > 0);
  return 0;
}
// OUT: 1 1 1 1
