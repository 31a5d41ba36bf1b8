// The Apache indexOf example (LDoctor Figure 6): an inner search whose
// result is the cursor i.  Cross-iteration: i is an induction variable, so no
// cross-iteration redundancy (said statically); cross-loop: the reads of
// source[] and the values from before the loop.
// RUN: %vprof-cc -O1 -fno-inline -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
int indexOf(const char *source, int max, char first) {
  int i = 0;
  while (i <= max && source[i] != first)
    i++;
  return i;
}
// CHECK-LABEL: vprof-sources: indexOf indexof.c:8:3
// CHECK: no cross-iteration redundancy: IV source at line 8
// CHECK-DAG: vprof-source: 8:{{[0-9]+}} carried-phi ci=iv cl=-
// The reads walk source[] affinely, but this loop is outermost: its
// instances run in different calls, between which the buffer may change at
// the same addresses, so the values are recorded (ranges are for inner
// loops, affine-range.c); `source` itself, the walk's start, is not.
// CHECK-DAG: vprof-source: 8:22 load ci=iv cl=record
// CHECK-DAG: vprof-source: 6:{{[0-9]+}} outside ci=pruned-outside cl=once
