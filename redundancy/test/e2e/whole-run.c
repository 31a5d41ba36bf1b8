// The cross-iteration rate covers the whole run while the verdict is open
// (docs/redundancy.md, "Whole-run rate"): a loop keeps its first 8192
// signatures on a thread; if their rate is in [1.1, 2) it goes on, and a
// HyperLogLog sketch of every sampled signature gives sampled / distinct
// over all of them.  `cycle` repeats 10,000 distinct iterations 600 times:
// at 1 in 100, its first 8192 samples cover a seventh of the run, where
// each signature was seen 0.8 times on average (1.46x: not redundant,
// what this reported before 2026-11-22); over the run each is seen 6 times
// (about 6x).  `fresh` repeats nothing its first samples can see (1.0x):
// settled, it computes no more signatures.  `settled` repeats 100
// iterations: 8192 / 100 from its first samples, settled too.
// RUN: %vprof-cc -O1 -fno-inline %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=cycle,fresh,settled VPROF_RED_ITER_RATE=100 %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// A damaged sketch section is a one-line error and exit 2, not a rate:
// RUN: python3 %S/Inputs/corrupt-sketch.py %t.vprof %t.reg.vprof register
// RUN: not %redundancy-report %t %t.reg.vprof 2>&1 | FileCheck --check-prefix=REG %s
// REG: redundancy-report: {{.*}}.reg.vprof: iteration sketches: register 0 of loop {{[0-9a-f]+}} is 200
// RUN: python3 %S/Inputs/corrupt-sketch.py %t.vprof %t.count.vprof count
// RUN: not %redundancy-report %t %t.count.vprof 2>&1 | FileCheck --check-prefix=COUNT %s
// COUNT: redundancy-report: {{.*}}.count.vprof: iteration sketches: bad header
// CHECK-LABEL: loop cycle:
// CHECK-NEXT: cross-iteration: yes rate={{[5-7]\.[0-9][0-9]}} sampled={{(59|60)[0-9][0-9][0-9]}} distinct~{{(9|10)[0-9][0-9][0-9]}} fix=memoization
// CHECK-LABEL: loop fresh:
// CHECK-NEXT: cross-iteration: no rate=1.{{0[0-9]}} sampled=8192 distinct=
// CHECK-LABEL: loop settled:
// CHECK-NEXT: cross-iteration: yes rate=81.92 sampled=8192 distinct=100 fix=memoization
#include <stdio.h>
#include <stdlib.h>

#define P 10000u
#define Q 1000000u
#define N 6000000u

volatile unsigned sink;

void cycle(const unsigned *keys, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink = keys[i % P] * 3u;
}

void fresh(const unsigned *keys, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink = keys[i % Q] * 5u;
}

void settled(const unsigned *keys, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    sink = keys[i % 100u] * 7u;
}

int main(void) {
  unsigned *keys = malloc(Q * sizeof *keys);
  if (!keys)
    return 1;
  for (unsigned i = 0; i < Q; i++)
    keys[i] = i * 2654435761u;
  cycle(keys, N);
  fresh(keys, N);
  settled(keys, N);
  printf("%u\n", sink);
  free(keys);
  return 0;
}
