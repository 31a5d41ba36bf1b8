// A recorded instance's calls go to the callee copies, which send the
// callee's sources and have no probes of their own.  Once nothing wants
// their values (here: the instance has its 4,096), a copy calls the
// original function instead, whose gate leads to its probed clone when it
// is selected (docs/redundancy.md, "Callee sources").  Before, the rest of
// the instance bypassed the callee's own probes: loopclass counted 20,000
// of work's 40,000 instances here, and a driver loop recorded for the whole
// run hid the callee entirely (gcc1687's expr_cost, 1 run in 36).
// RUN: %vprof-cc -O1 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=drive,work VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s --check-prefix=OUT
// OUT: total=[[T:[0-9]+]]
// RUN: %loopclass-report %t %t.vprof | FileCheck %s
// The second instance of drive's loop is recorded (rate 1; the first draws
// the phase): all of work's instances are counted but those of its first
// few hundred calls, which went to the copy.
// CHECK: loop work {{.*}} instances={{39[0-9][0-9][0-9]}} iterations=
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
// REP-LABEL: loop drive:
// REP: instances=1 writes=
#include <stdio.h>

__attribute__((noinline)) long work(const int *v, int k) {
  long s = 0;
  for (int i = 0; i < k; i++)
    s += v[i] * (i + 1);
  return s;
}

__attribute__((noinline)) long drive(const int *v, int n) {
  long t = 0;
  for (int j = 0; j < n; j++)
    t += work(v + (j & 63), 4 + (j & 3));
  return t;
}

int main(void) {
  int v[128];
  for (int i = 0; i < 128; i++)
    v[i] = i * 7 % 13;
  long t = drive(v, 20000);
  t += drive(v + 1, 20000);
  printf("total=%ld\n", t);
  return 0;
}
