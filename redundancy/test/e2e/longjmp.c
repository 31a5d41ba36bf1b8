// A longjmp out of a recorded iteration, from a function it calls (a jump
// from the loop's own body leaves by an exit edge, which ends the frame),
// skips the iteration's end: its
// runtime frame stays behind and the probes' count of open frames,
// __vprof_red_active, stays raised, so the callees that test it after each
// source (optnone ones) would send values from then on.  The runtime drops the stale frame at
// the next sample and puts the count right (docs/redundancy.md, "Limits").
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
#include <setjmp.h>
#include <stdio.h>

// The probes' counter (the pass reuses this definition).
__thread int __vprof_red_active __attribute__((weak));

static jmp_buf env;
volatile int fail_at = -1;

// A callee whose reads are sources of scan's loop: a recorded iteration
// calls its copy with probes.  It fails on request.
int weigh(const int *v, int n, int i) {
  if (i == fail_at)
    longjmp(env, 1);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * (i + 1);
  return s;
}

int scan(const int *v, int n) {
  int total = 0;
  for (int i = 0; i < n; i++)
    total += weigh(v + (i & 7), 8, i);
  return total;
}

int main(void) {
  int v[64];
  for (int i = 0; i < 64; i++)
    v[i] = i * 7 % 13;
  // Every instance is recorded (rate 1) but the first, which draws the
  // phase: in the second call weigh jumps out at the 11th iteration.
  scan(v, 56);
  if (!setjmp(env)) {
    fail_at = 10;
    scan(v, 56);
  }
  // CHECK: after the longjmp: active=1
  printf("after the longjmp: active=%d\n", __vprof_red_active);
  fail_at = -1;
  int t = scan(v, 56);
  // CHECK-NEXT: after a normal call: active=0 total=[[T:[0-9]+]]
  printf("after a normal call: active=%d total=%d\n", __vprof_red_active, t);
  fail_at = -1;
  // CHECK-NEXT: and the next: active=0 total=[[T]]
  printf("and the next: active=%d total=%d\n", __vprof_red_active, scan(v, 56));
  return 0;
}
// The instance left open by the longjmp is dropped when the loop starts
// again from as high on the stack (before, the next call's iterations were
// added to it); the next two calls make a pair that reads the same values.
// REP-LABEL: loop scan:
// REP-NEXT: cross-iteration: no (IV source, static)
// REP-NEXT: cross-loop: no rate=1.00 pairs=1 redundant=1 {{.*}} instances=2 writes=constant(112..112)
// REP: loss: iterations-dropped=0 iterations-truncated=0 instances-dropped=1
