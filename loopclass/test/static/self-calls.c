// A function's gated clone calls the clone for its own recursive calls: the
// clone runs only while the function's gate is set, so going through the
// original would test the gate and forward the call again.  The redundancy
// pass's recording copy of a sampled call (.vprec) does the same.  Calls in
// the original still call the original; the callee-recording copy (entered
// from recorded iterations, whatever the gate) calls itself, so that the
// whole recorded call sends its sources.
// RUN: %vprof-cc -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %vprof-cc -O0 -S -emit-llvm %s -o - | FileCheck %s
struct node {
  struct node *l, *r;
  int v;
};

int sum(struct node *n) {
  int s = 0;
  while (n) {
    s += n->v + sum(n->l);
    n = n->r;
  }
  return s;
}
// CHECK-LABEL: define {{.*}} @sum(
// CHECK: call {{.*}} @sum.vprof_probed(
// CHECK: call {{.*}} @sum(
// CHECK-LABEL: define {{.*}} @sum.vprof_probed(
// CHECK-NOT: call {{.*}} @sum(
// CHECK: call {{.*}} @sum.vprof_probed(
// CHECK-NOT: call {{.*}} @sum(
// CHECK: define
// O2-LABEL: define {{.*}} @sum.vprof_callee(
// O2-NOT: call {{.*}} @sum(
// O2: call {{.*}} @sum.vprof_callee(
// O2-LABEL: define {{.*}} @sum.vprof_probed.vprec(
// O2-NOT: call {{.*}} @sum(
// O2: call {{.*}} @sum.vprof_probed(
// O2-NOT: call {{.*}} @sum(
// O2: define
