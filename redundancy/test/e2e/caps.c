// Per-loop shares of the per-thread buffers (docs/redundancy.md, "Caps"):
// a loop keeps its first 8192 signatures (and, while its verdict is open,
// goes on into its sketch: "Whole-run rate"); a loop that has kept 128 instance
// pairs or 4 MiB of instances gives back every other pair and halves its
// instance rate.  No loop crowds out the others, and what is not kept is
// counted as dropped.
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=spin,walk VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
#include <stdio.h>

// Every iteration is sampled (rate 1): 200000 of them would fill the whole
// table (65536); spin keeps 8192, all equal: settled, it stops there.
volatile unsigned sink;
void spin(const unsigned *k, int n) {
  for (int i = 0; i < n; i++)
    sink = *k * 3u;
}
// CHECK-LABEL: loop spin:
// CHECK-NEXT: cross-iteration: yes rate=8192.00 sampled=8192 distinct=1

// walk runs after spin and still gets its share of the table.  Its
// instances of 5000 iterations fill their 4096 values (truncated, ~64 KiB
// each): 4 MiB of them is about 63, so it keeps 30..64.
struct node { struct node *prev; unsigned v; };
unsigned walk(const struct node *n) {
  unsigned s = 0;
  for (; n; n = n->prev)
    s += n->v;
  return s;
}
// CHECK-LABEL: loop walk:
// Its first 8192 signatures leave the verdict open (1.1x to 2x), so it
// goes on into its sketch, for 7 x 8192 more (the budget).
// CHECK-NEXT: cross-iteration: {{.*}} sampled=65536 distinct~
// CHECK-NEXT: cross-loop: yes {{.*}} instances={{3[0-9]|[45][0-9]|6[0-4]}} writes
//
// Every iteration asks for a signature (each loop's first too: its phase
// is 1 at rate 1): 200000 + 2000000, less the 2 x 8192 kept.
// CHECK: loss: iterations-dropped=2183616 iterations-truncated=0 instances-dropped={{[1-9][0-9]*}}

static struct node nodes[5000];
int main(void) {
  unsigned k = 7;
  spin(&k, 200000);
  for (int i = 0; i < 5000; i++) {
    nodes[i].prev = i ? &nodes[i - 1] : NULL;
    nodes[i].v = (unsigned)i;
  }
  unsigned t = 0;
  for (int r = 0; r < 400; r++) {
    nodes[r].v++; /* each walk sees new memory: not hoisted */
    t += walk(&nodes[4999]);
  }
  printf("%u\n", t + sink);
  return 0;
}
