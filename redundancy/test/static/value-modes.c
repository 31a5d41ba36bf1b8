// Which kinds a value is sent for.  A source of both kinds (cross-iteration
// and cross-loop: the loads of n->v and n->next) is sent with the kinds its
// loop's slot still records (slot.recording & 3), so that the runtime skips
// the search for a cross-iteration frame on the values of a recorded
// instance's other iterations; a source of one kind (the carried n: cross-
// iteration only) is sent with that kind, which the test before the call
// already requires.
// RUN: clang -g -O2 -Xclang -disable-llvm-passes -c %s -emit-llvm -o %t.bc
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' -vprof-print-sources %t.bc -disable-output 2>&1 | FileCheck %s
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' %t.bc -S -o - | FileCheck %s --check-prefix=IR
struct node {
  struct node *next;
  int v;
};

int sum(const struct node *n) {
  int s = 0;
  while (n) {
    s += n->v;
    n = n->next;
  }
  return s;
}
// CHECK-LABEL: vprof-sources: sum value-modes.c:18:3
// CHECK: vprof-source: 19:13 carried-phi ci=record cl=-
// CHECK: vprof-source: 19:13 load ci=record cl=record
// CHECK: vprof-source: 20:12 load ci=record cl=record
//
// IR-LABEL: define {{.*}} @sum.vprof_probed(
// IR: [[REC:%[0-9]+]] = load i32, {{.*}}@__vprof_red_slots, i32 0, i32 0, i32 3)
// IR-NEXT: [[CI:%[0-9]+]] = and i32 [[REC]], 1
// IR: call void @__vprof_red_value({{.*}}, i32 0, i64 {{%.*}}, i32 1)
// IR: [[REC2:%[0-9]+]] = load i32, {{.*}}@__vprof_red_slots, i32 0, i32 0, i32 3)
// IR-NEXT: [[BOTH:%[0-9]+]] = and i32 [[REC2]], 3
// IR-NEXT: icmp ne i32 [[BOTH]], 0
// IR: call void @__vprof_red_value({{.*}}, i32 1, i64 {{%.*}}, i32 [[BOTH]])
// IR: [[BOTH2:%[0-9]+]] = and i32 {{%[0-9]+}}, 3
// IR: call void @__vprof_red_value({{.*}}, i32 2, i64 {{%.*}}, i32 [[BOTH2]])
