// The loop unroller makes one iteration of a loop out of several of the
// source loop's and marks only its remainder loop, if any.  The table marks
// the body `unrolled` (VP_LOOPF_UNROLLED) with its factor, from the
// unroller's copies of one induction update, so the reports call it a "loop
// unrolled x4" and its counts are not read as source iterations
// (docs/loopclass.md, "Unrolled loops"; fixsuggest.golden checks the factor
// against the counts of a run).  A loop whose counter is bumped twice per source iteration, at
// two places, is not marked, nor a loop kept rolled.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
unsigned long hash_n(const unsigned char *s, unsigned long n) {
  unsigned long h = 5381;
  for (unsigned long i = 0; i < n; i++)
    h = h * 33 + s[i];
  return h;
}
// Runtime unrolling: the body and the remainder loop, at one position.
// CHECK: vprof-loop: hash_n unrolled.c:[[#HASH:@LINE-5]]:3 kind=loop depth=1 class=1* {{.*}}unrolled(x4){{.*}}
// CHECK-NOT: vprof-loop: hash_n unrolled.c:[[#HASH]]:3 {{.*}}unrolled
// CHECK: vprof-loop: hash_n unrolled.c:[[#HASH]]:3 kind=loop depth=1 class=1* probed sites=1

unsigned long hash_64(const unsigned char *s) {
  unsigned long h = 5381;
  for (int i = 0; i < 64; i++)
    h = h * 33 + s[i];
  return h;
}
// A constant trip count: unrolled without a remainder, nothing marks it.
// CHECK: vprof-loop: hash_64 unrolled.c:[[#@LINE-5]]:3 kind=loop depth=1 class=1* {{.*}}unrolled(x{{[2-9]|[1-9][0-9]}}){{.*}}

unsigned long hash_rolled(const unsigned char *s, unsigned long n) {
  unsigned long h = 5381;
#pragma nounroll
  for (unsigned long i = 0; i < n; i++)
    h = h * 33 + s[i];
  return h;
}
// CHECK: vprof-loop: hash_rolled unrolled.c:[[#@LINE-4]]:3
// CHECK-NOT: unrolled
// CHECK-SAME: sites=

unsigned long pairs(const unsigned char *p, unsigned long n) {
  unsigned long h = 0;
#pragma nounroll
  for (unsigned long i = 0; i + 1 < n;) {
    unsigned a = p[i++];
    unsigned b = p[i++];
    h = h * 31 + a * 7 + b;
  }
  return h;
}
// `i` takes residues 0 and 1 of step 2, as in a body unrolled twice, but
// clang keeps i + 1 as a phi of its own and computes only i + 2 in the
// loop: no k copies of one update (this loop was marked before the rule
// counted computed values only).
// CHECK: vprof-loop: pairs unrolled.c:[[#@LINE-11]]:3
// CHECK-NOT: unrolled
// CHECK-SAME: sites=
