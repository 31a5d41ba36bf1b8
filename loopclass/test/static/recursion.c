// A directly recursive function is a loop whose iterations are calls; its
// line is the function's.  Counting tree nodes with a global side effect
// only at matching nodes is [0|1]*; a pure tree sum returns results
// computed after the recursive calls.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

struct tree { int key; struct tree *left, *right; };
int matches;

void count_key(struct tree *t, int key) {
  if (!t)
    return;
  if (t->key == key)
    matches++;
  count_key(t->left, key);
  count_key(t->right, key);
}
// CHECK: vprof-loop: count_key recursion.c:11:0 kind=recursion depth=1 class=[0|1]* probed
// CHECK: vprof-loop-site: 15:{{[0-9]+}} store body

int tree_sum(struct tree *t) {
  if (!t)
    return 0;
  return t->key + tree_sum(t->left) + tree_sum(t->right);
}
// CHECK: vprof-loop: tree_sum recursion.c:22:0 kind=recursion depth=1 class={{.*}} probed
// CHECK: vprof-loop-site: {{25|26}}:{{[0-9]+}} return body
