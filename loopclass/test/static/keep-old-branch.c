// `if (c) best = w;` kept as a branch: the phi after it takes `w` from the
// branch and keeps `best` on the other path.  The result is on that edge,
// in the iterations that take it, not where `&ws[i]` is computed (the
// header, every iteration): the loop is [0|1]*, as its select form
// (`best = c ? w : best`, static/rare-write.c) is (docs/loopclass.md,
// "Results on an edge").
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
struct shared { long load; int usable; };
struct worker { struct shared *s; };

struct worker *least_loaded(struct worker *ws, int n) {
  struct worker *best = 0;
  for (int i = 0; i < n; i++) {
    struct worker *w = &ws[i];
    if (!best || w->s->load < best->s->load)
      best = w;
  }
  return best;
}
// CHECK: vprof-loop: least_loaded keep-old-branch.c:[[#@LINE-7]]:3 kind=loop depth=1 class=[0|1]* {{.*}}sites=2
// CHECK-NEXT: vprof-loop-site: [[#@LINE-7]]:{{[0-9]+}} liveout body
// CHECK-NEXT: vprof-loop-site: [[#@LINE-9]]:{{[0-9]+}} liveout exit
// CHECK-NOT: vprof-loop

