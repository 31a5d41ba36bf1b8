// Calls through pointers (docs/loopclass.md, "Calls through pointers"): a
// block whose only side effect is a call through a pointer counts a result
// only when the callee is not registered as writing nothing, and the counts
// choose the class: no result at all -> the class without those blocks
// (0*1? for a search); one per iteration -> the static 1*; some -> [0|1]*.
// Before 2026-11-22 every such call was a result: every search was 1*.
// RUN: %vprof-cc -O2 -fno-unroll-loops -fno-vectorize %s -o %t -mllvm -vprof-print-loops 2> %t.loops
// RUN: FileCheck %s --check-prefix=STATIC --input-file=%t.loops
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=find,find_counted,first_odd,count_rows %t | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t %t.vprof | FileCheck %s
#include <stdio.h>
#include <string.h>

typedef int (*cmp_fn)(const char *, const char *);
typedef long (*step_fn)(long);

long calls;
static char keys[4000][12];

static int same(const char *a, const char *b) { return strcmp(a, b) == 0; }
static int same_counted(const char *a, const char *b) { calls++; return strcmp(a, b) == 0; }
static long twice(long v) { return 2 * v; }
static long twice_counted(long v) { calls++; return 2 * v; }

__attribute__((noinline)) int find(int n, const char *k, cmp_fn eq) {
  for (int i = 0; i < n; i++)
    if (eq(keys[i], k))
      return i;
  return -1;
}
// STATIC: vprof-loop: find indirect.c:[[@LINE-5]]:3 kind=loop depth=1 class=1* liveout-iv indirect(direct-class=0*1?) probed

__attribute__((noinline)) int find_counted(int n, const char *k, cmp_fn eq) {
  for (int i = 0; i < n; i++)
    if (eq(keys[i], k))
      return i;
  return -1;
}

// The first i whose step is odd (none is): calls alternate between a pure
// and an impure callee.
__attribute__((noinline)) int first_odd(int n, step_fn *fs) {
  for (int i = 0; i < n; i++)
    if (fs[i & 1](i) & 1)
      return i;
  return -1;
}

// Nested: the outer loop is probed first and splits the block at the call;
// the inner loop's probe must still see it (before the fix it did not, and
// an impure callee left the inner loop 0*1?).
static int is_big_counted(long v) { calls++; return v > 1000000; }
__attribute__((noinline)) int count_rows(int rows, int (*p)(long)) {
  int found = 0;
  for (int r = 0; r < rows; r++)
    for (int i = 0; i < 100; i++)
      if (p(i + r)) {
        found++;
        break;
      }
  return found;
}

int main(void) {
  for (int i = 0; i < 4000; i++)
    snprintf(keys[i], sizeof keys[i], "key%06d", i);
  long s = 0;
  for (int q = 0; q < 50; q++)
    s += find(4000, "key003999", same);
  for (int q = 0; q < 20; q++)
    s += find_counted(4000, "key001999", same_counted);
  step_fn mixed[2] = {twice, twice_counted};
  s += first_odd(1000, mixed);
  s += count_rows(20, is_big_counted);
  printf("s=%ld calls=%ld\n", s, calls);
  return 0;
}
// OUT: s=239929 calls=42500
// pure: 200,000 iterations, no result, 0*1? (one result per instance)
// CHECK-DAG: loop find indirect.c:{{[0-9]+}} kind=loop class=0*1? static=1* direct=0*1? instances=50 iterations=200000 results=50 {{.*}} verdict=inefficient
// impure: a result in every iteration, the static 1*
// CHECK-DAG: loop find_counted indirect.c:{{[0-9]+}} kind=loop class=1* static=1* direct=0*1? instances=20 iterations=40000 results=40000 {{.*}} verdict=efficient
// half and half: [0|1]*, rated on the counts
// CHECK-DAG: loop first_odd indirect.c:{{[0-9]+}} kind=loop class=[0|1]* static=1* direct=0*1? instances=1 iterations=1000 results=500 {{.*}} resultless=0.500000 verdict=efficient
// inner loop of count_rows, impure predicate: a result in every iteration
// CHECK-DAG: loop count_rows indirect.c:{{[0-9]+}} kind=loop class=1* static=1* direct=0*1? instances=20 iterations=2000 results=2000
