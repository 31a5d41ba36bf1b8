// Past the caps, a recorded iteration's callees stop calling the runtime
// (VP_RED_ACTIVE_FULL, docs/redundancy.md "Callee sources"): each recorded
// instance of scan's loop gets 200 x 64 values from row_sum, above the
// 4096 an instance keeps.  Each instance counts the one value that found
// it full, and the callees send nothing more until the next frame opens
// (before, every one of the 8,700 values an instance dropped was a runtime
// call: values-dropped=339456 here).
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan VPROF_RED_INSTANCE_RATE=1 VPROF_RED_ITER_RATE=100000000 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// CHECK-LABEL: loop scan:
// CHECK: cross-loop: yes {{.*}} instances=[[#INST:]] writes=
// CHECK: loss: {{.*}} values-dropped=[[#INST]]{{$}}
#include <stdio.h>

int table[8192], perm[8192];
volatile int sink;

__attribute__((noinline)) int row_sum(int k) {
  int s = 0;
  for (int j = 0; j < 64; j++)
    s += table[perm[(k * 64 + j) & 8191]];
  return s;
}

__attribute__((noinline)) void scan(int n) {
  for (int k = 0; k < n; k++)
    sink = row_sum(k);
}

int main(void) {
  for (int j = 0; j < 8192; j++)
    table[j] = j * 7, perm[j] = (j * 37) & 8191;
  for (int r = 0; r < 40; r++)
    scan(200);
  printf("%d\n", sink);
  return 0;
}
