// A function's gated clone calls the clone for its own recursive calls: the
// clone runs only while the function's gate is set, so going through the
// original would test the gate and forward the call again.  The redundancy
// pass's recording copy of a sampled call (.vprec) does the same.  The
// original's recursive calls call F.vprof_body, a copy of it without the
// gate that calls itself: the gate is set before the recursion can start,
// so a recursive call need not test it again.  The callee-recording copy
// (entered from recorded iterations, whatever the gate) calls itself, so
// that the whole recorded call sends its sources, unless nothing wants
// them: then it calls the original at its entry (docs/redundancy.md,
// "Callee sources").
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
// CHECK: load i8, i8* @__vprof_loop_gate.sum
// CHECK: call {{.*}} @sum.vprof_probed(
// CHECK-NOT: call {{.*}} @sum(
// CHECK: call {{.*}} @sum.vprof_body(
// CHECK-NOT: call {{.*}} @sum(
// CHECK: {{^}$}}
// CHECK-LABEL: define {{.*}} @sum.vprof_probed(
// CHECK-NOT: call {{.*}} @sum(
// CHECK: call {{.*}} @sum.vprof_probed(
// CHECK-NOT: call {{.*}} @sum(
// CHECK: define
// O2-LABEL: define {{.*}} @sum.vprof_callee(
// O2-NEXT: load i32, i32* @__vprof_red_active
// O2-NEXT: sub i32
// O2-NEXT: icmp ult i32 {{.*}}, 1073741823
// O2: tail call {{.*}} @sum(
// O2-NEXT: ret i32
// O2-NOT: call {{.*}} @sum(
// O2: call {{.*}} @sum.vprof_callee(
// O2-LABEL: define {{.*}} @sum.vprof_probed.vprec(
// O2-NOT: call {{.*}} @sum(
// O2: call {{.*}} @sum.vprof_probed(
// O2-NOT: call {{.*}} @sum(
// O2: define
// CHECK-LABEL: define internal {{.*}} @sum.vprof_body(
// CHECK-NOT: __vprof_loop_gate
// CHECK-NOT: call {{.*}} @sum(
// CHECK: call {{.*}} @sum.vprof_body(
// CHECK-NOT: call {{.*}} @sum(
// CHECK-NOT: __vprof_loop_gate
// CHECK: {{^}$}}
