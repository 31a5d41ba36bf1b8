// The loop vectorizer makes two loops of one source loop: the vector body
// (each iteration covers several source iterations: lanes x interleave) and
// the scalar remainder.  The table marks the body `vector`
// (VP_LOOPF_VECTOR), so the reports call it a "vectorized loop" and its
// counts are not read as source iterations (docs/loopclass.md).  A loop the
// vectorizer leaves alone is not marked, nor is a scalar loop whose body the
// SLP vectorizer packed (vector values, but one source iteration each; it
// was marked before 2026-11-22's twin rule).
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
long total(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// CHECK: vprof-loop: total vectorized.c:[[#TOTAL:@LINE-4]]:3 kind=loop depth=1 class=1* {{.*}}vector{{.*}}
// CHECK-NOT: vprof-loop: total vectorized.c:[[#TOTAL]]:3 {{.*}}vector
// CHECK: vprof-loop: total vectorized.c:[[#TOTAL]]:3 kind=loop depth=1 class=1* probed sites=1

long walk(const long *next, long i) {
  long hops = 0;
  while (i >= 0) {
    i = next[i];
    hops++;
  }
  return hops;
}
// CHECK: vprof-loop: walk vectorized.c:[[#@LINE-6]]:3
// CHECK-NOT: vector
// CHECK-SAME: sites=

struct pt { long x, y; };
void scale_pts(struct pt *restrict p, const struct pt *restrict q, int n) {
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < n; i++) {
    p[i].x = q[i].x + 7; // packed: load, add and store <2 x i64>
    p[i].y = q[i].y + 7;
  }
}
// CHECK: vprof-loop: scale_pts vectorized.c:[[#@LINE-5]]:3
// CHECK-NOT: vector
// CHECK-SAME: sites=
// The SLP vectorizer did pack it:
// IR-LABEL: define {{.*}} @scale_pts(
// IR: add nsw <2 x i64>
