// Counters no run can produce are refused with one line naming the record,
// not turned into a rate outside [0, 1] (docs/loopclass.md, "Sections"):
// every instance runs its header at least once, so a record with more
// instances than iterations is corrupt (before 2026-11-24 it was read, and
// a 0*1? loop came out with a negative resultless rate).  The untouched
// profile reads; each patched one is refused.
// RUN: %vprof-cc -O0 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=find %t
// RUN: %loopclass-report %t %t.vprof | FileCheck %s --check-prefix=GOOD
// RUN: %python %S/Inputs/patch-counts.py %t.vprof %t.inst.vprof 0 instances 0x7fffffff
// RUN: not %loopclass-report %t %t.inst.vprof 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %python %S/Inputs/patch-counts.py %t.vprof %t.res.vprof 0 results 0x7fffffff
// RUN: not %loopclass-report %t %t.res.vprof 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %python %S/Inputs/patch-counts.py %t.vprof %t.max.vprof 0 max 0x7fffffff
// RUN: not %loopclass-report %t %t.max.vprof 2>&1 | FileCheck %s --check-prefix=BAD
// GOOD: bad-counts.c:[[#@LINE+8]] {{.*}}class=0*1?
// BAD: loopclass-report: {{.*}}record 0: inconsistent counters
// BAD-NOT: {{.}}
#include <stdio.h>

static int a[1000];

__attribute__((noinline)) int find(int k) {
  for (int i = 0; i < 1000; i++)
    if (a[i] == k)
      return i;
  return -1;
}

int main(void) {
  int s = 0;
  for (int k = 0; k < 100; k++)
    s += find(k + 1);
  printf("%d\n", s);
  return 0;
}
