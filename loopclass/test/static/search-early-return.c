// A search loop that returns from inside the body: the only results are
// produced on the way out (LDoctor Figure 2), so the loop is 0*1?.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefixes=CHECK,O2

struct note { int delta; int gettable; struct note *next; };

struct note *get_note(struct note *sn, int target) {
  int offset = 0;
  for (; sn; sn = sn->next) {
    offset += sn->delta;
    if (offset == target && sn->gettable)
      return sn;
  }
  return 0;
}
// CHECK: vprof-loop: get_note search-early-return.c:10:3 kind=loop depth=1 class=0*1? liveout-iv probed
// CHECK-NOT: body
// O0: vprof-loop-site: 13:7 return exit
// O0: vprof-loop-site: 15:3 return exit
// O2: vprof-loop-site: 10:{{[0-9]+}} return exit
// CHECK-NOT: vprof-loop
