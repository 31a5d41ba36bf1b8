// Constant work done again (docs/redundancy.md, "Constant work done
// again"): a loop that reads no input -- what it writes comes from constants
// and its own iteration count -- into a module-private global that no other
// code writes.  Every instance writes again what the one before it wrote.
// Its cross-loop slice has no source, so there are no values to compare:
// the pass says so (VP_REDF_CL_CONST) and the pairs count as repeats.
//   crc_table():   builds a CRC table on every call (inlined into crc()):
//                  constant work, redundant, fix memoization.
//   squares():     the same shape, its function not inlined: the same.
//   reset_board(): refills a board the game then plays on (another line
//                  writes it): not constant work, not redundant.
//   fill_lut():    fills a table that it hands to a function of another
//                  file (its address escapes): not constant work.
//   scaled():      a table from an argument: the argument is an input
//                  (recorded once per instance), so the pass does not say
//                  "constant"; the pairs are compared on it as before.
// Before the flag, crc_table's pairs had no values and the loop was "not
// measured".
// RUN: %vprof-cc -O2 %s -o %t
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=crc,squares,reset_board,fill_lut,scaled %t | FileCheck %s --check-prefix=OUT
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
#include <stdint.h>
#include <stdio.h>

static uint32_t table[256];

static void crc_table(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++)
      c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
}
// STATIC: vprof-sources: crc_table constant-work.c:[[@LINE-7]]:{{[0-9]+}} {{.*}} constant-work=table{{$}}
// CHECK: loop crc_table:[[@LINE-8]] {{.*}} constant-work=table{{$}}
// CHECK-NEXT: cross-iteration: no (IV source, static)
// CHECK-NEXT: cross-loop: yes rate=1.00 {{.*}}fix=memoization

__attribute__((noinline)) uint32_t crc(const unsigned char *p, int len) {
  crc_table();
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < len; i++)
    c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

static int sq[64];

__attribute__((noinline)) void squares(void) {
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < 64; i++)
    sq[i] = i * i + 3;
}
// STATIC: vprof-sources: squares constant-work.c:[[@LINE-3]]:{{[0-9]+}} {{.*}} constant-work=sq{{$}}
// CHECK: loop squares:[[@LINE-4]] {{.*}} constant-work=sq{{$}}
// CHECK-NEXT: cross-iteration: no
// CHECK-NEXT: cross-loop: yes rate=1.00 {{.*}}fix=memoization

static int board[64];

__attribute__((noinline)) void reset_board(void) {
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < 64; i++)
    board[i] = i * 7 + 1;
}
// STATIC: vprof-sources: reset_board constant-work.c:[[@LINE-3]]
// STATIC-NOT: constant-work
// STATIC-SAME: {{$}}
// CHECK: loop reset_board:[[@LINE-6]] {{.*}}sources=1{{$}}
// CHECK-NEXT: cross-iteration: no
// CHECK-NEXT: cross-loop: no rate=0.00 pairs=0

__attribute__((noinline)) int play(int seed) {
  int s = 0;
  for (int m = 0; m < 16; m++) {
    board[(seed + m * 5) & 63] = m; // a move: the board is not constant
    s += board[(seed * 3 + m) & 63];
  }
  return s;
}

static int lut[128];
void (*volatile take)(int *, int);  // the "other file" (an indirect call)

__attribute__((noinline)) void fill_lut(void) {
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < 128; i++)
    lut[i] = i ^ 0x55;
  take(lut, 128);
}
// STATIC: vprof-sources: fill_lut constant-work.c:[[@LINE-4]]
// STATIC-NOT: constant-work
// STATIC-SAME: {{$}}

static double scale_t[64];

__attribute__((noinline)) void scaled(double f) {
#pragma clang loop vectorize(disable) unroll(disable)
  for (int i = 0; i < 64; i++)
    scale_t[i] = i * f;
}
// STATIC: vprof-sources: scaled constant-work.c:[[@LINE-3]]
// STATIC-NOT: constant-work
// STATIC-SAME: {{$}}
// CHECK: loop scaled:[[@LINE-6]] {{.*}}sources={{[1-9]}}{{$}}
// CHECK-NEXT: cross-iteration: no
// CHECK-NEXT: cross-loop: yes rate=1.00

static void keep(int *t, int n) { (void)t; (void)n; }

int main(void) {
  unsigned char buf[16];
  uint32_t acc = 0;
  long s = 0;
  take = keep;
  for (int r = 0; r < 20000; r++) {
    for (int i = 0; i < 16; i++)
      buf[i] = (unsigned char)(r * 7 + i * 13);
    acc ^= crc(buf, 16);
    squares();
    reset_board();
    s += play(r);
    fill_lut();
    scaled(1.5);
    s += sq[r & 63] + lut[r & 127] + (long)scale_t[r & 63];
  }
  printf("%08x %ld\n", acc, s);
  return 0;
}
// OUT: {{[0-9a-f]+}} {{-?[0-9]+}}
