// A loop with cross-iteration sampling runs a recorded instance's
// iterations in runs (docs/redundancy.md, "Runs"): iter_sample answers 2
// for a run, the recording copy's back edge counts the run down in the
// countdown and goes back into the copy (runmore) until it runs out
// (rundone: the header asks again), and the copy's frames end with
// iter_end_run and the number of iterations; the loop's flags say so
// (VP_RED_RTF_RUNS = 4), and the module is version 7.  A loop without
// cross-iteration sampling (an induction-variable source) keeps its one
// frame per recorded instance (iter_end_n) and no run flag.
// RUN: clang -g -O2 -Xclang -disable-llvm-passes -c %s -emit-llvm -o %t.bc
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' %t.bc -S -o - | FileCheck %s
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
// CHECK: @__vprof_red_module = internal global {{.*}} { i32 7,
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
