// The loop vectorizer makes two loops of one source loop: the vector body
// (each iteration covers several source iterations: lanes x interleave) and
// the scalar remainder.  The table marks the body `vector`
// (VP_LOOPF_VECTOR), so the reports call it a "vectorized loop" and its
// counts are not read as source iterations (docs/loopclass.md).  A loop the
// vectorizer leaves alone is not marked.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
long total(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
// CHECK: vprof-loop: total vectorized.c:10:3 kind=loop depth=1 class=1* {{.*}}vector{{.*}}
// CHECK-NOT: vprof-loop: total vectorized.c:10:3 {{.*}}vector
// CHECK: vprof-loop: total vectorized.c:10:3 kind=loop depth=1 class=1* probed sites=1

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
