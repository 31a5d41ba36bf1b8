// A loop with cross-iteration sampling runs a recorded instance's
// iterations in runs (docs/redundancy.md, "Runs"): iter_sample answers 2
// for a run, the recording copy's back edge counts the run down in the
// countdown and goes back into the copy (runmore) until it runs out
// (rundone: the header asks again), and the copy's frames end with
// iter_end_run and the number of iterations; the loop's flags say so
// (VP_RED_RTF_RUNS = 4), and the module is version 7 or later.  A loop without
// cross-iteration sampling (an induction-variable source) keeps its one
// frame per recorded instance (iter_end_n) and no run flag.
//
// Which kinds a value is sent for (MODES).  A source of both kinds (cross-iteration
// and cross-loop: the loads of n->v and n->next) is sent with the kinds its
// loop's slot still records (slot.recording & 3), so that the runtime skips
// the search for a cross-iteration frame on the values of a recorded
// instance's other iterations; a source of one kind (the carried n: cross-
// iteration only) is sent with that kind, which the test before the call
// already requires.
// RUN: clang -g -O2 -Xclang -disable-llvm-passes -c %s -emit-llvm -o %t.bc
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' %t.bc -S -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=MODES < %t.ll
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' -vprof-print-sources %t.bc -disable-output 2>&1 | FileCheck %s --check-prefix=SRC
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

int total(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * a[i];
  return s;
}
// CHECK: @__vprof_red_module = internal global {{.*}} { i32 {{[7-9]}},
// CHECK: @__vprof_red_loops = {{.*}} @__vprof_loop_gate.sum, i32 4, i32 0 }
// CHECK-LABEL: define {{.*}} @sum.vprof_probed(
// CHECK-NOT: call void @__vprof_red_iter_end(
// CHECK-DAG: [[R:%[0-9]+]] = call i32 @__vprof_red_iter_sample(
// CHECK-DAG: icmp eq i32 [[R]], 2
// CHECK-DAG: vprof.red.runmore:
// CHECK-DAG: vprof.red.rundone:
// CHECK-DAG: call void @__vprof_red_iter_end_run(
// CHECK-NOT: call void @__vprof_red_iter_end(
// CHECK-LABEL: define {{.*}} @total.vprof_probed(
// CHECK-NOT: call void @__vprof_red_iter_end_run(
// CHECK: call void @__vprof_red_iter_end_n(
// CHECK-NOT: call void @__vprof_red_iter_end_run(
// CHECK: {{^}$}}
//
// SRC-LABEL: vprof-sources: sum runs.c:30:3
// SRC: vprof-source: 31:13 carried-phi ci=record cl=-
// SRC: vprof-source: 31:13 load ci=record cl=record
// SRC: vprof-source: 32:12 load ci=record cl=record
//
// MODES-LABEL: define {{.*}} @sum.vprof_probed(
// MODES: [[REC:%[0-9]+]] = load i32, {{.*}}@__vprof_red_slots, i32 0, i32 0, i32 3)
// MODES-NEXT: [[CI:%[0-9]+]] = and i32 [[REC]], 1
// MODES: call void @__vprof_red_value({{.*}}, i32 0, i64 {{%.*}}, i32 1)
// MODES: [[REC2:%[0-9]+]] = load i32, {{.*}}@__vprof_red_slots, i32 0, i32 0, i32 3)
// MODES-NEXT: [[BOTH:%[0-9]+]] = and i32 [[REC2]], 3
// MODES-NEXT: icmp ne i32 [[BOTH]], 0
// MODES: call void @__vprof_red_value({{.*}}, i32 1, i64 {{%.*}}, i32 [[BOTH]])
// MODES: [[BOTH2:%[0-9]+]] = and i32 {{%[0-9]+}}, 3
// MODES: call void @__vprof_red_value({{.*}}, i32 2, i64 {{%.*}}, i32 [[BOTH2]])
