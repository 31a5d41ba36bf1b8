// Iteration signatures over more pairs than one hash block (15 pairs,
// docs/redundancy.md, "Signatures"): each iteration of replay()'s loop reads
// a 40-int record (fread, not instrumented) and sends its 40 values from the
// callee rec_sum(), so an iteration carries more than two blocks.  Records
// that repeat make every iteration the same (redundant); records that differ
// in one value only -- in the first block, the second, or the last, partial
// one -- must give distinct signatures (not redundant).
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=replay VPROF_RED_ITER_RATE=1 %t %t.dat
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// The four files' iterations share the loop's table: 32 + 3 x 200 = 632
// iterations, all sampled at rate 1 (the first too: its phase is the
// smaller of two gaps, 1 at rate 1), and 1 + 3 x 200 = 601 distinct
// records.  A signature that lost a block, or
// did not chain the blocks, would count fewer.
// CHECK-LABEL: loop replay:
// CHECK-NEXT: cross-iteration: no rate=1.05 sampled=632 distinct=601
#include <stdio.h>
#include <stdlib.h>

#define NREC 200

static int rec[40];

__attribute__((noinline)) int rec_sum(void) {
  int s = 0;
  // one load per value: not vectorized (wider values are not recorded)
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
  for (int k = 0; k < 40; k++)
    s += rec[k] * (k + 1);
  return s;
}

__attribute__((noinline)) void replay(FILE *in, FILE *out) {
  while (fread(rec, sizeof rec, 1, in) == 1)
    fprintf(out, "%d\n", rec_sum());
}

// Writes NREC records equal but for rec[at] (= the record's number), or all
// equal when at < 0, and replays them.
static void run(const char *path, int at, int n) {
  FILE *f = fopen(path, "wb");
  if (!f)
    exit(1);
  for (int j = 0; j < n; j++) {
    int r[40];
    for (int k = 0; k < 40; k++)
      r[k] = 1000 + k;
    if (at >= 0)
      r[at] = j;
    fwrite(r, sizeof r, 1, f);
  }
  fclose(f);
  f = fopen(path, "rb");
  FILE *out = fopen("/dev/null", "w");
  if (!f || !out)
    exit(1);
  replay(f, out);
  fclose(f);
  fclose(out);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  run(argv[1], -1, 32);   // 32 equal records: 1 distinct
  run(argv[1], 0, NREC);  // first block: NREC distinct
  run(argv[1], 20, NREC); // second block: NREC distinct
  run(argv[1], 39, NREC); // last, partial block: NREC distinct
  return 0;
}
