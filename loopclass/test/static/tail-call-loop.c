// The loop tail-recursion elimination makes of a recursive function's last
// call (`return c + f(t->l) + f(t->r)`) is marked `tail-calls` in the loop
// table (VP_LOOPF_TAIL_CALLS): its position is the first statement of the
// function's body (the old entry, now the loop's header), where the source
// has no loop, and vprof-loop calls it a "tail-call loop".  A source loop in
// the same function is not marked; without variable debug info nothing is.
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -g0 -c %s -o /dev/null -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=G0
// G0-NOT: tail-calls

typedef struct node {
  int code;
  int v[8];
  struct node *l, *r;
} node;
int cost[4];

__attribute__((noinline)) int tree_cost(const node *t) {
  if (!t)
    return 0;
  return cost[t->code & 3] + tree_cost(t->l) + tree_cost(t->r);
}
// CHECK: vprof-loop: tree_cost tail-call-loop.c:[[#@LINE-5]]:0 kind=recursion
// CHECK-NEXT: vprof-loop-site:
// CHECK-NEXT: vprof-loop: tree_cost tail-call-loop.c:[[#@LINE-6]]:{{[0-9]+}} kind=loop {{.*}}tail-calls

__attribute__((noinline)) int walk(const node *t, int n) {
  int s = 0;
  if (!t)
    return 0;
  for (int i = 0; i < n; i++)
    s += t->v[i & 7];
  return s + walk(t->l, n) + walk(t->r, n);
}
// CHECK: vprof-loop: walk tail-call-loop.c:[[#@LINE-8]]:0 kind=recursion
// CHECK: vprof-loop: walk tail-call-loop.c:[[#@LINE-7]]:{{[0-9]+}} kind=loop {{.*}}tail-calls
// CHECK-NOT: tail-calls
// CHECK: vprof-loop: walk tail-call-loop.c:[[#@LINE-7]]:3 kind=loop
// CHECK-NOT: tail-calls
