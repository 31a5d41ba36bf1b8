// The C++ form of longjmp.c: an exception thrown by a function a recorded
// iteration calls unwinds past the iteration's end.  The runtime drops the
// stale frame at the next sample and puts __vprof_red_active right
// (docs/redundancy.md, "Limits").
// RUN: %vprof-cxx -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
#include <cstdio>
#include <stdexcept>

// The probes' counter (the pass reuses this definition).
extern "C" {
__thread int __vprof_red_active __attribute__((weak));
}

volatile int fail_at = -1;

// A callee whose reads are sources of scan's loop; it throws on request.
int weigh(const int *v, int n, int i) {
  if (i == fail_at)
    throw std::runtime_error("bad record");
  int s = 0;
  for (int k = 0; k < n; k++)
    s += v[k] * (k + 1);
  return s;
}

int scan(const int *v, int n) {
  int total = 0;
  for (int i = 0; i < n; i++)
    total += weigh(v + (i & 7), 8, i);
  return total;
}

int main() {
  int v[64];
  for (int i = 0; i < 64; i++)
    v[i] = i * 7 % 13;
  scan(v, 56); // the first instance draws the phase
  try {
    fail_at = 10;
    scan(v, 56);
  } catch (const std::exception &e) {
    // CHECK: caught bad record: active=1
    std::printf("caught %s: active=%d\n", e.what(), __vprof_red_active);
  }
  fail_at = -1;
  int t = scan(v, 56);
  // CHECK-NEXT: after a normal call: active=0 total=[[T:[0-9]+]]
  std::printf("after a normal call: active=%d total=%d\n", __vprof_red_active, t);
  // CHECK-NEXT: and the next: active=0 total=[[T]]
  std::printf("and the next: active=%d total=%d\n", __vprof_red_active, scan(v, 56));
  return 0;
}
// The instance left open by the exception is dropped (counted); the next
// two calls make a redundant pair (one pair: too few for a verdict,
// VP_RED_CL_MIN_PAIRS).
// REP-LABEL: loop scan:
// REP-NEXT: cross-iteration: no (IV source, static)
// REP-NEXT: cross-loop: no rate=1.00 pairs=1 redundant=1
// REP: loss: iterations-dropped=0 iterations-truncated=0 instances-dropped=1
