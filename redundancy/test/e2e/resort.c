// Sorts made again (docs/redundancy.md, "Sorts made again"): a loop's call
// of qsort with a number of elements that is not a constant is a copy unit
// whose pairs are consecutive calls' inputs, chunk-hashed from the start
// and from the end; a pair of the same bytes is compared (a distance of 0),
// not skipped as a copy's is.
//   leaderboard(): appends a score and sorts the whole array again: each
//                  input is the previous call's output plus one element:
//                  redundant.
//   resort_same(): sorts an array it does not change: the same input
//                  every time: redundant.
//   fresh():       sorts a new random array in every iteration: pairs,
//                  none redundant.
//   fixed():       sorts 64 elements, a constant count: no unit.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=leaderboard,resort_same,fresh,fixed %t | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=STATIC
// Three sort units (fixed() has none).
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | grep -cE ' sort( |$)' | FileCheck %s --check-prefix=UNITS
// UNITS: {{^3$}}
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

static unsigned seed = 12345;
static long next_rand(void) {
  seed = seed * 1103515245u + 12345u;
  return (long)(seed >> 8) % 1000000;
}

__attribute__((noinline)) long leaderboard(long *board, int n) {
  long top = 0;
  for (int i = 0; i < n; i++) {
    board[i] = next_rand();
    qsort(board, (size_t)i + 1, sizeof *board, by_value);
    top += board[i];
  }
  return top;
}
// CHECK: calls of qsort at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes
// STATIC: vprof-sources: qsort resort.c:[[@LINE-8]]:{{[0-9]+}} {{.*}}repeated-call-unit sort

__attribute__((noinline)) long resort_same(long *a, size_t len, int rounds) {
  long s = 0;
  for (int r = 0; r < rounds; r++) {
    qsort(a, len, sizeof *a, by_value);
    s += a[r % len];
  }
  return s;
}
// CHECK: calls of qsort at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate=1.00 {{.*}} mean-distance=0.000

__attribute__((noinline)) long fresh(long *a, size_t len, int rounds) {
  long s = 0;
  for (int r = 0; r < rounds; r++) {
    for (size_t k = 0; k < len; k++)
      a[k] = next_rand();
    qsort(a, len, sizeof *a, by_value);
    s += a[len / 2];
  }
  return s;
}
// CHECK: calls of qsort at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: no rate=0.00 pairs={{[1-9][0-9]*}} redundant=0

__attribute__((noinline)) long fixed(long *a, int rounds) {
  long s = 0;
  for (int r = 0; r < rounds; r++) {
    a[r & 63] = next_rand();
    qsort(a, 64, sizeof *a, by_value);
    s += a[32];
  }
  return s;
}
// CHECK-NOT: calls of qsort at line [[@LINE-5]]

int main(void) {
  int n = 6000;
  long *board = malloc(n * sizeof *board);
  long *a = malloc(4096 * sizeof *a);
  if (!board || !a)
    return 1;
  long t = leaderboard(board, n);
  for (int k = 0; k < 4096; k++)
    a[k] = next_rand();
  long u = resort_same(a, 4096, 3000);
  long v = fresh(a, 1024, 3000);
  long w = fixed(a, 3000);
  printf("%d\n", t > 0 && u > 0 && v > 0 && w > 0);
  free(board);
  free(a);
  return 0;
}
// OUT: 1
