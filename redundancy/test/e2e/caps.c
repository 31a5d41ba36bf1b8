// The per-thread caps (docs/redundancy.md, "Caps"): once the signature table
// or the instance arena is full, sampling of that kind stops on the thread,
// and every sample it passes over is counted as dropped, so that the kept
// and the dropped add up to what the rate asked for.
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=spin,walk VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
#include <stdio.h>

// Every iteration is sampled (rate 1) except the first, which draws the
// phase: 65536 signatures are kept, the other 200000 - 1 - 65536 dropped.
volatile unsigned sink;
void spin(const unsigned *k, int n) {
  for (int i = 0; i < n; i++)
    sink = *k * 3u;
}
// CHECK-LABEL: loop spin:
// CHECK-NEXT: cross-iteration: yes rate={{.*}} sampled=65536 distinct=1

// Instances of 5000 iterations fill their 4096 values (truncated); the
// arena (16 MiB) keeps 255 of them and the rest are dropped.  The table is
// already full of spin's signatures, so none of walk's are kept.
struct node { struct node *prev; unsigned v; };
unsigned walk(const struct node *n) {
  unsigned s = 0;
  for (; n; n = n->prev)
    s += n->v;
  return s;
}
// CHECK-LABEL: loop walk:
// CHECK-NEXT: cross-iteration: no rate=0.00 sampled=0
// CHECK-NEXT: cross-loop: yes {{.*}} instances=255
//
// Kept and dropped add up: 400 instances less the first (phase), and
// 200000 + 400 * 5000 iterations less each loop's first, less 65536 kept.
// Each kept instance drops one value (then its copy stops sending); an
// instance that could not be kept is not recorded at all, so its values
// are not counted one by one (before, 2355696 were).
// CHECK: loss: iterations-dropped=2134462 iterations-truncated=0 instances-dropped=144 values-dropped=255

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
