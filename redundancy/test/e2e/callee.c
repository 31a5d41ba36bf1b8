// Functions called from a recorded iteration contribute their sources
// (docs/redundancy.md, "Callee sources"): the only values that tell two
// instances of scan()'s loop apart are read inside cell().  scan_same walks
// an unchanged table (consecutive instances repeat: cross-loop redundant),
// scan_new walks a table main rewrites between calls (not redundant).  The
// recorded iterations call a copy of cell() holding the probes; cell()
// itself tests nothing.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: nm %t | FileCheck %s --check-prefix=SYM
// SYM: t cell.vprof_callee
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan_same,scan_new VPROF_RED_INSTANCE_RATE=3 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// At -O0 (optnone) the callee tests the flag after each source instead.
// RUN: %vprof-cc -O0 %s -o %t0
// RUN: nm %t0 | FileCheck %s --check-prefix=NOCOPY
// NOCOPY-NOT: vprof_callee
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t0.vprof VPROF_LOOP_FUNCTIONS=scan_same,scan_new VPROF_RED_INSTANCE_RATE=3 %t0
// RUN: %redundancy-report %t0 %t0.vprof | FileCheck %s
#include <stdio.h>

int table[4096];
volatile int sink;

__attribute__((noinline)) int cell(int i) { return table[i]; }

__attribute__((noinline)) void scan_same(int n) {
  for (int k = 0; k < n; k++)
    sink = cell(k);
}
// CHECK-LABEL: loop scan_same:
// CHECK: cross-loop: yes {{.*}} redundant=[[N:[0-9]+]] mean-distance=0.000

__attribute__((noinline)) void scan_new(int n) {
  for (int k = 0; k < n; k++)
    sink = cell(k + 2048);
}
// CHECK-LABEL: loop scan_new:
// CHECK: cross-loop: no rate=0.00 {{.*}} redundant=0

int main(void) {
  for (int j = 0; j < 4096; j++)
    table[j] = j * 7;
  for (int r = 0; r < 600; r++) {
    scan_same(300);
    for (int j = 2048; j < 4096; j++)
      table[j] = j * r;
    scan_new(300);
  }
  printf("%d\n", sink);
  return 0;
}
