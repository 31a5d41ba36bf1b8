// A call through a pointer counts as a write of a recorded instance only when
// the callee is not registered as writing nothing (docs/loopclass.md, "Calls
// through pointers"; VP_RED_RT_VERSION 6).  Each instance of the lookup
// below walks a chain of scopes asking each one through a pointer, and
// repeats the previous instance's walk: cross-loop redundant.  With a pure
// getter it writes nothing, so the fix is memoization; before 2026-11-22
// every call counted as a write, the writes grew with the walk and the fix
// was batching.  A getter that counts its calls does write: batching.
// RUN: %vprof-cc -O1 -fno-vectorize -fno-unroll-loops %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=lookup,lookup_counted VPROF_RED_INSTANCE_RATE=5 %t | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// With loopclass's probes off the functions that write nothing are still
// registered (the list is the module's, not the loop probes').
// RUN: %vprof-cc -O1 -fno-vectorize -fno-unroll-loops -mllvm -vprof-loop-probes=0 %s -o %t.nl
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.nl.vprof VPROF_LOOP_FUNCTIONS=lookup,lookup_counted VPROF_RED_INSTANCE_RATE=5 %t.nl | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t.nl %t.nl.vprof | FileCheck %s
// OUT: ok asked=1196001
// CHECK-LABEL: loop lookup:
// CHECK: cross-loop: yes {{.*}} writes=constant(0..0) fix=memoization
// CHECK-LABEL: loop lookup_counted:
// CHECK: cross-loop: yes {{.*}} writes=growing({{[0-9]+}}..{{[0-9]+}}) fix=batching
#include <stdio.h>

struct scope {
  const struct scope *parent;
  int (*get)(const struct scope *, int);
  int key, value;
};

static long asked;
static int get(const struct scope *s, int key) { return s->key == key ? s->value : -1; }
static int get_counted(const struct scope *s, int key) {
  asked++;
  return s->key == key ? s->value : -1;
}

__attribute__((noinline)) int lookup(const struct scope *s, int key) {
  for (const struct scope *p = s; p; p = p->parent) {
    int v = p->get(p, key);
    if (v >= 0)
      return v;
  }
  return -1;
}

__attribute__((noinline)) int lookup_counted(const struct scope *s, int key) {
  for (const struct scope *p = s; p; p = p->parent) {
    int v = p->get(p, key);
    if (v >= 0)
      return v;
  }
  return -1;
}

static struct scope chain[2][300];

int main(void) {
  for (int c = 0; c < 2; c++)
    for (int i = 0; i < 300; i++)
      chain[c][i] = (struct scope){i ? &chain[c][i - 1] : 0, c ? get_counted : get, i, i * 7};
  long s = 0;
  for (int q = 0; q < 4000; q++) {
    s += lookup(&chain[0][299], q % 3);
    s += lookup_counted(&chain[1][299], q % 3);
  }
  printf("%s asked=%ld\n", s == 55986 ? "ok" : "bad", asked);
  return 0;
}
