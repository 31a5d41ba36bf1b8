// Writes through a pointer argument on every iteration: 1*.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

void fill(int *a, int n) {
#pragma clang loop unroll(disable) vectorize(disable)
  for (int i = 0; i < n; i++)
    a[i] = i * 3;
}
// CHECK: vprof-loop: fill every-write.c:7:3 kind=loop depth=1 class=1* probed
// CHECK: vprof-loop-site: 8:10 store body
// CHECK-NOT: vprof-loop:
