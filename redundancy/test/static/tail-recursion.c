// Tail-recursion elimination turns the last recursive call of a tree walk
// into a back edge to the function's old entry.  That loop's iterations are
// calls of the source, which the recursion's per-call decision samples
// already (docs/redundancy.md, "Recursive functions"): it gets no loop
// probes of its own, so a call pays one countdown, not two.  A source loop
// inside such a function keeps its probes.
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// Without variable debug info nothing is recognised and the loop is probed
// as before (the recursion, then the loop TRE made).
// RUN: %vprof-cc -O2 -g0 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=G0
// G0: vprof-sources: tree_cost tail-recursion.c:0:0 {{.*}}side-effects=0 probed
// G0: vprof-sources: tree_cost tail-recursion.c:0:0 {{.*}}side-effects=1 probed
// loopclass's loop table marks that loop `tail-calls` (VP_LOOPF_TAIL_CALLS):
// its position (here the `if` that heads it) is a line where the source has
// no loop, and vprof-loop calls it a "tail-call loop".  Not the source loop;
// without variable debug info, nothing.
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: %vprof-cc -O2 -g0 -c %s -o /dev/null -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=LOOPSG0
// LOOPSG0-NOT: tail-calls

typedef struct node {
  int code;
  int v[8];
  struct node *l, *r;
} node;
int cost[4];

// The call on t->r becomes the loop (headed by the `if`); the call on t->l
// stays.
__attribute__((noinline)) int tree_cost(const node *t) {
  if (!t)
    return 0;
  return cost[t->code & 3] + tree_cost(t->l) + tree_cost(t->r);
}
// CHECK: vprof-sources: tree_cost tail-recursion.c:[[@LINE-5]]:0 {{.*}} probed
// CHECK-NOT: vprof-sources: tree_cost tail-recursion.c:
// LOOPS: vprof-loop: tree_cost tail-recursion.c:[[#@LINE-7]]:0 kind=recursion
// LOOPS: vprof-loop: tree_cost tail-recursion.c:[[#@LINE-7]]:{{[0-9]+}} kind=loop {{.*}}tail-calls

// The for loop is a loop of the source, nested in the one TRE made.
__attribute__((noinline)) int walk(const node *t, int n) {
  int s = 0;
  if (!t)
    return 0;
  for (int i = 0; i < n; i++)
    s += t->v[i & 7];
  return s + walk(t->l, n) + walk(t->r, n);
}
// CHECK: vprof-sources: walk tail-recursion.c:[[#@LINE-8]]:0 {{.*}} probed
// CHECK-NOT: vprof-sources: walk tail-recursion.c:[[#@LINE-7]]:
// CHECK: vprof-sources: walk tail-recursion.c:[[#@LINE-6]]:3 {{.*}} probed
// CHECK-NOT: vprof-sources: walk tail-recursion.c:[[#@LINE-9]]:
// LOOPS: vprof-loop: walk tail-recursion.c:[[#@LINE-12]]:0 kind=recursion
// LOOPS: vprof-loop: walk tail-recursion.c:[[#@LINE-11]]:{{[0-9]+}} kind=loop {{.*}}tail-calls
// LOOPS-NOT: tail-calls
// LOOPS: vprof-loop: walk tail-recursion.c:[[#@LINE-11]]:3 kind=loop
// LOOPS-NOT: tail-calls

// The probed copy of tree_cost decides once per call: it uses one slot of
// the thread-local countdowns, the recursion's (the first entry).
// IR-LABEL: define internal i32 @tree_cost.vprof_probed(
// IR-NOT: @__vprof_red_slots, i32 0, i32 {{[1-9]}}
// IR: call i32 @tree_cost.vprof_probed.vprec(
// IR-NOT: @__vprof_red_slots, i32 0, i32 {{[1-9]}}
// IR: ret i32
