// The loop's result is the final value of its index, used after the loop:
// a live-out induction variable is a result produced on exit (0*1?).  At -O2
// the value goes straight into the `ret`: a return site.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefixes=CHECK,O2

int first_negative(const int *a, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (a[i] < 0)
      break;
  return i;
}
// CHECK: vprof-loop: first_negative liveout-index.c:9:3 kind=loop depth=1 class=0*1? liveout-iv probed
// O0-NEXT: vprof-loop-site: 9:{{[0-9]+}} liveout exit
// O2-NEXT: vprof-loop-site: 9:{{[0-9]+}} return exit
// CHECK-NOT: body
