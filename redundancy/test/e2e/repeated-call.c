// Repeated calls (docs/redundancy.md, "Repeated calls"): a loop whose
// iterations never repeat as a whole -- each stores its result at a new
// index, an induction variable, which rules LDoctor's cross-iteration
// redundancy out -- while its costly call repeats.  place_same measures
// words drawn from 8 (the same inputs again and again: redundant);
// place_new measures a buffer it rewrites with new text before every call
// (same pointer, different contents: the callee's reads tell the calls
// apart, not redundant).  measure's call counter (`calls++`) differs in
// every call but only feeds itself, so it is not part of the signature.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=place_same,place_new %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// The callee selected too: inside a recorded call it runs its copy with the
// probes, not its probed clone (whose reads would be lost).
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=place_same,place_new,measure %t
// RUN: %redundancy-report %t %t2.vprof | FileCheck %s
// Without the units (-vprof-repeated-calls=0) nothing is said of the calls.
// RUN: %vprof-cc -O2 %s -o %t.off -mllvm -vprof-repeated-calls=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t3.vprof VPROF_LOOP_FUNCTIONS=place_same,place_new %t.off
// RUN: %redundancy-report %t.off %t3.vprof | FileCheck %s --check-prefix=OFF
// OFF-NOT: calls of
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *vocab[8] = {"ka", "torem", "sunlo", "pe", "dravex", "an", "quemi", "lotor"};
static int glyph[128];
static unsigned long calls;
static int out[1 << 21];

__attribute__((noinline)) int measure(const char *w) {
  int s = 0;
  for (; *w; w++)
    for (int r = 0; r < 8; r++)
      s = s * 3 + glyph[(unsigned char)*w & 127] + r;
  calls++;
  return s;
}

__attribute__((noinline)) void place_same(int n) {
  int x = 0;
  for (int i = 0; i < n; i++) {
    x += measure(vocab[(i * 5) % 8]);
    out[i] = x;
  }
}
// CHECK-DAG: calls of measure at line [[@LINE-4]] in loop {{.*}}
// CHECK-DAG: repeated calls: yes rate={{[0-9.]+}} sampled={{[0-9]+}} distinct={{[1-8]}}{{$}}

// The text is new across main's rounds too (`seq`): with "w<i>" the rounds
// repeated each other's calls, and at 1 in 1,000 about 3 of the ~2,100
// sampled calls met one from another round (once 11 in a CI run: rate 1.01).
__attribute__((noinline)) void place_new(int n) {
  static char buf[16];
  static int seq;
  int x = 0;
  for (int i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "w%d", seq++);
    x += measure(buf);
    out[i] = x;
  }
}
// CHECK-DAG: repeated calls: no rate=1.00

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 4;
  for (int g = 0; g < 128; g++)
    glyph[g] = g * 7 + 1;
  for (int r = 0; r < rounds; r++) {
    place_same(1 << 20);
    place_new(1 << 19);
  }
// main's loop has a unit for its call of place_new.  It belongs to main,
// which is not selected, so it never samples (a unit once gave the runtime
// its callee's name, and selecting place_new then opened main's gate).
// CHECK-DAG: calls of place_new at line [[@LINE-5]] in loop
// CHECK-DAG: repeated calls: no rate=0.00 sampled=0 distinct=0
  printf("%lu %d\n", calls, out[5]);
  return 0;
}
