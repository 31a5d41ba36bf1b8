// A side effect inside a callee inlined into the loop is reported at the
// loop's own call line, in the loop's file, not at the callee's line (which
// vprof-loop would quote from the loop's file).  Here the callee sits in
// an included header, as std::__pop_heap sat in stl_heap.h under an
// std::__heap_select loop of stl_algo.h.  At -O0 nothing is inlined and the
// site is the call itself: the same line either way.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

#include "Inputs/inlined-site.h"

void scan(const int *v, int n, int wanted) {
#pragma clang loop unroll(disable) vectorize(disable)
  for (int i = 0; i < n; i++)
    if (v[i] == wanted)
      note_hit(i);
}
// CHECK: vprof-loop: scan inlined-site.c:14:3 kind=loop depth=1 class=[0|1]* probed
// CHECK: vprof-loop-site: 16:7 {{store|call}} body
// CHECK-NOT: vprof-loop:
