// `if (c) best = w;` that stays a branch at every level (the condition reads
// through `best`, which may be null): the result is on the phi's incoming
// edge from the branch, counted only in the iterations that take it
// (docs/loopclass.md, "Results on an edge").  Before, the value `&ws[i]`,
// computed in every iteration, was the result: 1*, and every iteration
// counted one.
// RUN: %vprof-cc -O2 -fno-unroll-loops %s -o %t2
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=least_loaded %t2 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t2 %t2.vprof | FileCheck %s
// RUN: %vprof-cc -O0 %s -o %t0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0.vprof VPROF_LOOP_FUNCTIONS=least_loaded %t0 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t0 %t0.vprof | FileCheck %s
#include <stdio.h>

struct shared { long load; };
struct worker { struct shared *s; };

static volatile int len = 1000;

__attribute__((noinline)) struct worker *least_loaded(struct worker *ws, int n) {
  struct worker *best = 0;
  for (int i = 0; i < n; i++) {
    struct worker *w = &ws[i];
    if (!best || w->s->load < best->s->load)
      best = w;
  }
  return best;
}
// The site is the value taken on the edge (unrolled x2 at -O2: the loop's
// own -O2 form, without -fno-unroll-loops).
// STATIC: vprof-loop: least_loaded keep-old-branch.c:[[#@LINE-9]]:3 kind=loop depth=1 class=[0|1]* {{.*}}sites=2
// STATIC-NEXT: vprof-loop-site: [[#@LINE-9]]:{{[0-9]+}} liveout body
// STATIC-NEXT: vprof-loop-site: [[#@LINE-11]]:{{[0-9]+}} liveout exit

int main(void) {
  static struct shared sh[1000];
  static struct worker ws[1000];
  int n = len;
  // loads fall 10 times (the first worker, then every 100th): 10 updates
  for (int i = 0; i < n; i++) {
    sh[i].load = 1000 - i / 100 * 10 + (i % 100 != 0);
    ws[i].s = &sh[i];
  }
  long s = 0;
  for (int r = 0; r < 10; r++) {
    __asm__ volatile("" ::: "memory"); // each call runs
    s += least_loaded(ws, n) - ws;
  }
  printf("s=%ld\n", s);
  return 0;
}
// OUT: s=9000

// 10 updates per call, 10 calls: 100 iterations with a result.
// CHECK: loop least_loaded keep-old-branch.c:[[#@LINE-33]] kind=loop class=[0|1]* instances=10 iterations={{100[0-9]+}} results=100
