// End to end: built with vprof-cc, run with the runtime preloaded and the
// loops' functions selected; verdicts from redundancy-report.  Both probe
// sets run in the same gated clone, so the same profile also carries
// loopclass's exact counts (LC): the value probes must not disturb them.
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=log_level,count_prev,sum_distinct,fill,fill_var,count_even VPROF_RED_ITER_RATE=10 VPROF_RED_INSTANCE_RATE=5 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %loopclass-report %t %t.vprof | FileCheck %s --check-prefix=LC
#include <stdio.h>
#include <stdlib.h>

struct cfg { int level; };
// Cross-iteration redundant: every iteration prints the same value; the only
// side effect is I/O in every iteration -> batching.
void log_level(FILE *f, const struct cfg *c, int n) {
  for (int i = 0; i < n; i++)
    fprintf(f, "%d\n", c->level);
}
// CHECK-LABEL: loop log_level:
// CHECK-NEXT: cross-iteration: yes {{.*}} fix=batching

// Cross-loop redundant: each call walks the previous siblings again, one
// more than last time (LDoctor Figure 4) -> memoization.
struct node { struct node *prev; };
int count_prev(struct node *n) {
  int count = 0;
  while (n) {
    count++;
    n = n->prev;
  }
  return count;
}
// CHECK-LABEL: loop count_prev:
// CHECK-NEXT: cross-iteration: no (IV source, static)
// CHECK-NEXT: cross-loop: yes {{.*}} fix=memoization

// Not redundant: every instance sums different numbers.
long sum_distinct(const long *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  return s;
}
// CHECK-LABEL: loop sum_distinct:
// CHECK-NEXT: cross-iteration: no (IV source, static)
// CHECK-NEXT: cross-loop: no

// Induction only: out[i] = i.
void fill(int *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = i;
}
// CHECK-LABEL: loop fill:
// CHECK-NEXT: cross-iteration: no (IV source, static)
// CHECK-NEXT: cross-loop: no

// The same over instances of 10..1000 iterations, each rewriting what the
// previous one wrote (cross-loop redundant): the writes grow with the
// work, which needs each recorded instance's iteration count (a loop without
// cross-iteration sampling counts them in a register, not in the runtime).
void fill_var(int *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = i;
}
// CHECK-LABEL: loop fill_var:
// CHECK-NEXT: cross-iteration: no (IV source, static)
// CHECK-NEXT: cross-loop: yes {{.*}} writes=growing({{.*}} fix=batching

// Cross-loop redundant, and the number of writes follows the work (every
// other node matches), but they all go to one variable: each instance
// writes a constant number of locations -> memoization (LDoctor 3.2.6;
// moz477564's count of same-name siblings).  Counting write executions
// said batching.
struct tnode { struct tnode *prev; int tag; };
int count_even(struct tnode *n) {
  int count = 0;
  for (; n; n = n->prev)
    if (n->tag % 2 == 0)
      count++;
  return count;
}
// CHECK-LABEL: loop count_even:
// CHECK-NEXT: cross-iteration: no
// CHECK-NEXT: cross-loop: yes {{.*}} writes=constant({{.*}} fix=memoization
// CHECK: loss: iterations-dropped=0

int main(void) {
  FILE *null = fopen("/dev/null", "w");
  struct cfg c = {3};
  log_level(null, &c, 5000);
  static struct node nodes[400];
  long total = 0;
  for (int i = 0; i < 400; i++) {
    nodes[i].prev = i ? &nodes[i - 1] : NULL;
    total += count_prev(&nodes[i]);
  }
  static long vals[200 * 64];
  for (int i = 0; i < 200 * 64; i++)
    vals[i] = (long)i * 7919 % 100003;
  for (int k = 0; k < 200; k++)
    total += sum_distinct(vals + 64 * k, 64);
  static int out[100 * 1000];
  for (int k = 0; k < 100; k++)
    fill(out + 1000 * k, 1000);
  for (int k = 0; k < 100; k++)
    fill_var(out, 10 * (k + 1));
  static struct tnode tn[400];
  for (int i = 0; i < 400; i++) {
    tn[i].prev = i ? &tn[i - 1] : NULL;
    tn[i].tag = i;
    total += count_even(&tn[i]);
  }
  fclose(null);
  return (int)(total & 1) * 0;
}
// LC: records=6 threads=1
// LC-NEXT: loop log_level {{.*}} class=1* instances=1 iterations=5000 results=5000 max=5000
// LC-NEXT: loop count_prev {{.*}} class=0*1? instances=400 iterations=80200 results=400 max=400
// LC-NEXT: loop sum_distinct {{.*}} class=1* instances=200 iterations=12800 results=12800 max=64
// LC-NEXT: loop fill {{.*}} class=1* instances=100 iterations=100000 results=100000 max=1000
// LC-NEXT: loop fill_var {{.*}} class=1* instances=100 iterations=50500 results=50500 max=1000
// LC-NEXT: loop count_even {{.*}} instances=400 iterations=80200 {{.*}} max=400
