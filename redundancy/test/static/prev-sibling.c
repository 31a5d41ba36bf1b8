// The Mozilla previous-sibling count (LDoctor Figure 4): walking back over
// the siblings to count them.  The count is an induction variable (no
// cross-iteration redundancy); cross-loop: the pointer chain n->prev.
// RUN: %vprof-cc -O1 -fno-inline -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
struct node { struct node *prev; int kind; };
int index_of(struct node *n) {
  int count = 0;
  while (n) {
    count++;
    n = n->prev;
  }
  return count;
}
// CHECK-LABEL: vprof-sources: index_of prev-sibling.c:8:3
// CHECK: no cross-iteration redundancy: IV source
// CHECK-DAG: vprof-source: 10:{{[0-9]+}} load ci=iv cl=record
// The exit test reads n->prev, so the loaded pointers are the whole input.
// CHECK-NOT: vprof-source:{{.*}}ci=record
