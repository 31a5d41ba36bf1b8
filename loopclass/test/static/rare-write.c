// Writes a global only under a rare condition (LDoctor Figure 3): the
// side-effect block can be avoided, so the loop is [0|1]*.  A conditional
// store to a global is not if-converted at -O2 (it would introduce a store).
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

int found;

void mark_equal(const int *expr, int n, int wanted) {
#pragma clang loop unroll(disable) vectorize(disable)
  for (int i = 0; i < n; i++)
    if (expr[i] == wanted)
      found = 1;
}
// CHECK: vprof-loop: mark_equal rare-write.c:11:3 kind=loop depth=1 class=[0|1]* probed
// CHECK: vprof-loop-site: 13:13 store body
// CHECK-NOT: vprof-loop:
