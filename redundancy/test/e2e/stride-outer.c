// Strides (docs/redundancy.md, "Strides"): the inner loop below is small
// and innermost, so its unsampled iterations run in blocks of four copies
// of its body.  The outer loop's sources and side effects are read and
// written in the inner loop, and the outer loop's recording copy runs
// whichever copies of the inner body the inner countdown picks: the
// copies must carry the outer loop's probes too.  Every call redoes the
// same prefix sums, so the outer loop is cross-loop redundant with
// distance 0 and 20 x 64 writes per instance.  Without the probes in the
// fast copies it came out "no" (distance 0.80) with 272..730 writes.
// The same with strides off (-vprof-redundancy-stride=0).
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=prefix VPROF_RED_ITER_RATE=10 VPROF_RED_INSTANCE_RATE=5 %t > %t.out
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %vprof-cc -O1 -fno-inline %s -o %t.off -mllvm -vprof-redundancy-stride=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.off.vprof VPROF_LOOP_FUNCTIONS=prefix VPROF_RED_ITER_RATE=10 VPROF_RED_INSTANCE_RATE=5 %t.off > %t.off.out
// RUN: %redundancy-report %t.off %t.off.vprof | FileCheck %s
// The program's output is the same, and that of a build without probes:
// RUN: %vprof-cc -O1 -fno-inline %s -o %t.base -mllvm -vprof-redundancy-probes=0
// RUN: %t.base > %t.base.out
// RUN: diff %t.base.out %t.out
// RUN: diff %t.base.out %t.off.out
#include <stdio.h>
#include <stdlib.h>

struct N { struct N *next; long v, acc; };
struct L { struct L *next; struct N *first; };

void prefix(struct L *q) {
// CHECK: loop prefix:[[@LINE+3]]
// CHECK-NEXT: cross-iteration: yes
// CHECK-NEXT: cross-loop: yes rate=1.00 pairs={{[0-9]+}} redundant={{[0-9]+}} mean-distance=0.000 {{.*}} writes=constant(1280..1280) fix=memoization
  for (; q; q = q->next) {
    long s = 0;
// CHECK: loop prefix:[[@LINE+1]]
    for (struct N *p = q->first; p; p = p->next) {
      s += p->v;
      p->acc = s;
    }
  }
}

int main(int argc, char **argv) {
  int calls = argc > 1 ? atoi(argv[1]) : 400;
  struct L *head = NULL;
  srand(1);
  for (int i = 0; i < 20; i++) {
    struct L *q = calloc(1, sizeof *q);
    for (int k = 0; k < 64; k++) {
      struct N *p = calloc(1, sizeof *p);
      p->v = rand() & 0xffff;
      p->next = q->first;
      q->first = p;
    }
    q->next = head;
    head = q;
  }
  long sum = 0;
  for (int c = 0; c < calls; c++) {
    prefix(head);
    sum += head->first->acc;
  }
  printf("sum=%ld\n", sum);
  return 0;
}
