// A loop that produces nothing: 0*.  To keep it alive at -O2 it calls a
// noinline function that only reads through a volatile pointer: LLVM must
// keep a volatile access (so it cannot delete the call or the loop), while
// for vprof a read writes nothing, so the call is not a side effect.  A plain
// readonly callee would be inferred `readonly willreturn` and the whole loop
// deleted by -O2, leaving nothing to classify.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

__attribute__((noinline)) int peek(const volatile int *reg, int i) { return reg[i]; }

void poll_all(const volatile int *reg, int n) {
  for (int i = 0; i < n; i++)
    peek(reg, i);
}
// CHECK: vprof-loop: poll_all no-effect.c:13:3 kind=loop depth=1 class=0* probed sites=0
// CHECK-NOT: vprof-loop
