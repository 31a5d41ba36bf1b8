// A loop without cross-iteration sampling (an induction variable among its
// sources) decides once per instance: its preheader enters a second header
// that loops through the recording copy only when the instance is
// recorded, and the original loop keeps no probe (docs/redundancy.md,
// "Probes and sampling").  A loop with cross-iteration sampling keeps the
// per-iteration countdown in its header.
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
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

// CHECK-LABEL: define internal i8* @end_of.vprof_probed(
// CHECK-NOT: vprof.red.sample:
// CHECK: vprof.red.rechead:
// CHECK-NOT: vprof.red.sample:
// CHECK-LABEL: define internal void @walk.vprof_probed(
// CHECK-NOT: vprof.red.rechead:
// CHECK: vprof.red.sample:
// CHECK-NOT: vprof.red.rechead:
// CHECK-LABEL: define internal void @__vprof_loops_ctor
