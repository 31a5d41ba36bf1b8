// A loop without cross-iteration sampling (an induction variable among its
// sources) decides once per instance: its preheader enters a second header
// that loops through the recording copy only when the instance is
// recorded, and the original loop keeps no probe, nor its exits
// (docs/redundancy.md, "Probes and sampling").  A loop with cross-iteration sampling keeps the
// per-iteration countdown in its header.
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=THREAD
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=SRC

__attribute__((noinline)) const char *end_of(const char *s) {
  while (*s)
    s++;
  return s;
}
// SRC: vprof-sources: end_of no-ci-versioning.c:[[#@LINE-4]]:3
// SRC-NEXT: no cross-iteration redundancy: IV source

struct node { int v; struct node *next; };
int out;
__attribute__((noinline)) void walk(const struct node *p) {
  for (; p; p = p->next)
    out = p->v * 3;
}
// SRC: vprof-sources: walk no-ci-versioning.c:[[#@LINE-3]]:3
// SRC-NOT: no cross-iteration redundancy

// The instance that is not recorded pays its countdown and nothing else:
// no exit probe (the copy's iter_end_n ends a recorded instance, runtime
// version 4).
// The original loop's exit, where it joins the copy's, is a block of its
// own that llvm.sideeffect keeps until PHI elimination (a move in the loop
// otherwise: docs/redundancy.md).
// CHECK-LABEL: define internal i8* @end_of.vprof_probed(
// CHECK-NOT: {{vprof.red.sample:|@__vprof_red_instance_end}}
// CHECK-DAG: vprof.red.rechead:
// CHECK-DAG: call void @llvm.sideeffect()
// CHECK-NOT: {{vprof.red.sample:|@__vprof_red_instance_end}}
// CHECK-LABEL: define internal void @walk.vprof_probed(
// CHECK-NOT: vprof.red.rechead:
// CHECK-DAG: vprof.red.sample:
// CHECK-DAG: call void @__vprof_red_instance_end(
// CHECK-NOT: vprof.red.rechead:
// CHECK-LABEL: define internal void @__vprof_loops_ctor

// The flag "this instance is recorded" is threaded: the runtime's answer
// branches to the second header, and the decision's other edge goes to the
// loop with no test (3 instructions an instance: wordcount 1.15 -> 1.11).
// THREAD-LABEL: define internal i8* @end_of.vprof_probed(
// THREAD-NOT: phi i1
// THREAD: call void @__vprof_red_instance_sample(
// THREAD-NEXT: load i32
// THREAD-NEXT: icmp sle i32 %{{.*}}, 1
// THREAD-NEXT: br i1 %{{.*}}, label %vprof.red.rechead, label %while.cond,
// THREAD-NOT: phi i1
// THREAD-LABEL: define internal void @walk.vprof_probed(
