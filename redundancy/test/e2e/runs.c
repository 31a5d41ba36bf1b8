// A recorded instance's iterations run the recording copy in runs
// (docs/redundancy.md, "Runs"): the iterations up to the next cross-
// iteration sample are one runtime frame, counted down by the copy, and a
// run that the loop's exit cuts short hands its remaining iterations back
// to the countdown.  With every instance recorded (instance rate 1) the
// cross-iteration rate must still be the configured one: about 3,000
// samples at 1 in 100, whether the instances run to their end (walk: 300
// instances of 1,000 iterations) or leave early (find: a break after 1 to
// 1,000 iterations, 600 instances, 300,900 iterations).  A run that forgot
// the iterations it did not run would sample more; one that ignored the
// early exit would sample fewer.  Each iteration writes its node once, so
// the recorded instances' iterations, which runs count in the copy and
// report at their end, must equal their side effects, which the probes
// count one by one; and the writes per instance follow the instance's
// length: constant for walk, growing for find.  The range of the samples is about 4 standard
// deviations either side (gaps uniform in [1, 199]); runs that gave the
// early exit's iterations to the next sample counted 3,316 for find.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.w.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=100 VPROF_RED_INSTANCE_RATE=1 %t walk | FileCheck %s --check-prefix=OUTW
// RUN: %redundancy-report %t %t.w.vprof | FileCheck %s --check-prefix=WALK
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.f.vprof VPROF_LOOP_FUNCTIONS=find VPROF_RED_ITER_RATE=100 VPROF_RED_INSTANCE_RATE=1 %t find | FileCheck %s --check-prefix=OUTF
// RUN: %redundancy-report %t %t.f.vprof | FileCheck %s --check-prefix=FIND
// OUTW: iterations=300000
// OUTF: iterations=300900
// WALK-LABEL: loop walk:
// WALK-NEXT: cross-iteration: {{.*}} sampled={{28[89][0-9]|29[0-9][0-9]|30[0-9][0-9]|31[0-3][0-9]}} distinct
// WALK-NEXT: cross-loop: {{.*}} writes=constant(1000..1000) fix={{[a-z]+}} iterations=[[WI:[0-9]+]] side-effects=[[WI]]{{$}}
// FIND-LABEL: loop find:
// FIND-NEXT: cross-iteration: {{.*}} sampled={{28[89][0-9]|29[0-9][0-9]|30[0-9][0-9]|31[0-3][0-9]}} distinct
// FIND-NEXT: cross-loop: {{.*}} writes=growing({{.*}} iterations=[[FI:[0-9]+]] side-effects=[[FI]]{{$}}
#include <stdio.h>
#include <string.h>

struct node { struct node *next; long v, w; };
static struct node nodes[1000];
long iterations, sum;

/* one write per iteration, each to its node */
__attribute__((noinline)) void walk(struct node *p) {
  for (; p; p = p->next)
    p->w += p->v * 3;
}

__attribute__((noinline)) void find(struct node *p, long stop) {
  for (; p; p = p->next) {
    p->w += p->v ^ stop;
    if (p->v == stop)
      break;
  }
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  for (int i = 0; i < 1000; i++) {
    nodes[i].next = i + 1 < 1000 ? &nodes[i + 1] : NULL;
    nodes[i].v = i;
  }
  int w = strcmp(argv[1], "walk") == 0;
  if (w) {
    for (int k = 0; k < 300; k++) {
      walk(nodes);
      iterations += 1000;
    }
  } else {
    for (long k = 0; k < 600; k++) {
      long stop = (k * 7919) % 1000;
      find(nodes, stop);
      iterations += stop + 1;
    }
  }
  for (int i = 0; i < 1000; i++)
    sum += nodes[i].w;
  printf("iterations=%ld sum=%ld\n", iterations, sum);
  return 0;
}
