// Cross-iteration sampling happens at the configured rate whatever the
// length of a loop's instances (docs/redundancy.md, "Probes and sampling"):
// 30,000 iterations at 1 in 100 give about 300 sampled iterations, in one
// instance, in 10,000 of 3 and in 30,000 of 1.  Two ways this went wrong:
// - the fused latch (static fused-latch.c) counts the next iteration before
//   it knows the loop goes on; without giving it back at the exit, 3-long
//   instances would sample about 400 and 1-long ones about 600;
// - a recorded instance (1 in 100 instances, in pairs) started counting
//   from the gap drawn at the last sampled iteration, not from where the
//   slot's countdown was: 1-long instances sampled about 160 (before
//   2026-11-23).
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.1.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 %t 30000 1
// RUN: %redundancy-report %t %t.1.vprof | FileCheck %s --check-prefix=LONG
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.3.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 %t 3 10000
// RUN: %redundancy-report %t %t.3.vprof | FileCheck %s --check-prefix=SHORT
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.0.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 %t 1 30000
// RUN: %redundancy-report %t %t.0.vprof | FileCheck %s --check-prefix=ONE
// The same with the decision in the latch (-vprof-redundancy-fuse-latch):
// RUN: %vprof-cc -O2 %s -o %t.fused -mllvm -vprof-redundancy-fuse-latch -mllvm -vprof-redundancy-stride=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.f1.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 %t.fused 30000 1
// RUN: %redundancy-report %t.fused %t.f1.vprof | FileCheck %s --check-prefix=LONG
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.f3.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 %t.fused 3 10000
// RUN: %redundancy-report %t.fused %t.f3.vprof | FileCheck %s --check-prefix=SHORT
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.f0.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 %t.fused 1 30000
// RUN: %redundancy-report %t.fused %t.f0.vprof | FileCheck %s --check-prefix=ONE
// LONG-LABEL: loop walk:
// LONG-NEXT: cross-iteration: no rate=1.00 sampled={{2[4-9][0-9]|3[0-5][0-9]}} distinct=
// SHORT-LABEL: loop walk:
// SHORT-NEXT: cross-iteration: yes rate={{[0-9.]+}} sampled={{2[4-9][0-9]|3[0-5][0-9]}} distinct=3
// ONE-LABEL: loop walk:
// ONE-NEXT: cross-iteration: yes rate={{[0-9.]+}} sampled={{2[4-9][0-9]|3[0-5][0-9]}} distinct=1
#include <stdio.h>
#include <stdlib.h>

struct node { struct node *next; long v; };
long calls; // walk is not readonly: every call runs (not hoisted out of main's loop)

__attribute__((noinline)) long walk(const struct node *p) {
  long s = 0;
  calls++;
  for (; p; p = p->next)
    s += p->v * 3 + (s >> 7);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int len = atoi(argv[1]), n = atoi(argv[2]);
  struct node *a = malloc(sizeof *a * (size_t)len);
  if (!a)
    return 1;
  for (int i = 0; i < len; i++) {
    a[i].next = i + 1 < len ? &a[i + 1] : NULL;
    a[i].v = i * 7919L;
  }
  long s = 0;
  for (int k = 0; k < n; k++)
    s += walk(a);
  printf("%ld\n", s);
  free(a);
  return 0;
}
