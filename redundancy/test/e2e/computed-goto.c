// A callee whose sources are recorded gets a copy that runs while an
// iteration is recorded, a function with a computed goto too: its label
// table holds the original's block addresses, so each copy gets its own
// table (`interp.ops.vprof_copy*`), or it would jump into the original's
// blocks with the copy's frame (docs/loopclass.md, "Computed goto").  The
// results must not change with every iteration and instance recorded.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: nm %t | FileCheck %s --check-prefix=SYM
// SYM-DAG: interp.ops.vprof_copy
// SYM-DAG: interp.vprof_callee
// SYM-DAG: interp.vprof_probed
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=run_all,interp VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=run_all VPROF_RED_ITER_RATE=3 VPROF_RED_INSTANCE_RATE=3 %t | FileCheck %s
// CHECK: 215488000
#include <stdio.h>
int prog[64];
__attribute__((noinline)) int interp(int start) {
  static void *ops[] = { &&op_add, &&op_dbl, &&op_end };
  int acc = start, pc = 0;
  goto *ops[prog[pc]];
op_add: acc += prog[32 + pc]; pc++; goto *ops[prog[pc]];
op_dbl: acc *= 2; pc++; goto *ops[prog[pc]];
op_end: return acc;
}
__attribute__((noinline)) long run_all(int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += interp(i & 7);
  return s;
}
int main(void) {
  for (int i = 0; i < 10; i++) prog[i] = i & 1;
  prog[10] = 2;
  for (int i = 0; i < 32; i++) prog[32 + i] = i;
  long s = 0;
  for (int r = 0; r < 2000; r++) s += run_all(500);
  printf("%ld\n", s);
  return 0;
}
