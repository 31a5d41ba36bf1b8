// Repeated calls of C library scans (docs/redundancy.md, "Library scans"):
// escape() calls strlen(src) in its loop condition; the compiler cannot
// hoist it, as the stores to dst may alias src, so every iteration scans
// the whole unchanged string again: redundant, each sampled call equal to
// the others of its instance (same pointer, same bytes).  count() calls
// strlen on a buffer it rewrites before every call, with numbers of 1 to 7
// digits: the same pointer and few distinct results, but different bytes:
// not redundant.  A signature of the pointer and the result would call it
// redundant.  fixed_cmp() compares two keys with memcmp and changes neither
// (redundant); rolling_cmp() compares keys that move through a table (not).
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=escape,count,fixed_cmp,rolling_cmp %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// The module built before the bytes (-vprof-repeated-calls=0): no unit.
// RUN: %vprof-cc -O2 %s -o %t.off -mllvm -vprof-repeated-calls=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t3.vprof VPROF_LOOP_FUNCTIONS=escape,count %t.off
// RUN: %redundancy-report %t.off %t3.vprof | FileCheck %s --check-prefix=OFF
// OFF-NOT: calls of
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) size_t escape(char *dst, const char *src) {
  size_t j = 0;
  for (size_t i = 0; i < strlen(src); i++) {
    if (src[i] == '"')
      dst[j++] = '\\';
    dst[j++] = src[i];
  }
  dst[j] = 0;
  return j;
}
// CHECK: calls of strlen at line [[@LINE-8]] in loop
// CHECK-NEXT: repeated calls: yes rate={{[0-9.]+}} sampled={{[0-9]+}} distinct={{[0-9]+}}{{$}}

__attribute__((noinline)) size_t count(size_t n) {
  static char buf[32];
  size_t total = 0;
  for (size_t k = 0; k < n; k++) {
    snprintf(buf, sizeof buf, "%zu", k * 7919 % 1000003); /* distinct for k < 1000003 */
    total += strlen(buf);
  }
  return total;
}
// CHECK: calls of strlen at line [[@LINE-4]] in loop
// CHECK-NEXT: repeated calls: no rate=1.00

static char table[1 << 16];

__attribute__((noinline)) size_t fixed_cmp(const char *a, const char *b, size_t n, size_t rounds) {
  size_t eq = 0;
  for (size_t r = 0; r < rounds; r++) {
    eq += memcmp(a, b, n) == 0;
    table[r & 0xffff] = (char)eq;
  }
  return eq;
}
// (memcmp(...) == 0 becomes bcmp)
// CHECK: calls of {{memcmp|bcmp}} at line [[@LINE-6]] in loop
// CHECK-NEXT: repeated calls: yes rate=

__attribute__((noinline)) size_t rolling_cmp(size_t n, size_t rounds) {
  size_t eq = 0;
  for (size_t r = 0; r < rounds; r++) {
    eq += memcmp(table + (r * 64 & 0x7fff), table + 0x8000 + (r * 32 & 0x7fff), n) == 0;
    table[(r * 977) & 0xffff] = (char)r;
  }
  return eq;
}
// CHECK: calls of {{memcmp|bcmp}} at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no rate=

/* The sizes; bench/redundancy/libscan runs the same loops longer. */
#ifndef SCAN_LEN
#define SCAN_LEN 4000     /* escape's string */
#define SCAN_ROUNDS 100   /* escape's instances */
#define SCAN_COUNTS 400000
#define SCAN_CMPS 200000  /* each of fixed_cmp and rolling_cmp */
#endif

int main(void) {
  size_t len = SCAN_LEN, out = 0;
  char *src = malloc(len + 1), *dst = malloc(2 * len + 1);
  for (size_t i = 0; i < len; i++)
    src[i] = i % 9 == 0 ? '"' : (char)('a' + i % 26);
  src[len] = 0;
  for (int r = 0; r < SCAN_ROUNDS; r++) {
    src[r % len] = (char)('a' + r % 26); /* each instance's string differs */
    out += escape(dst, src);
  }
  out += count(SCAN_COUNTS);
  for (size_t i = 0; i < sizeof table; i++)
    table[i] = (char)(i * 31 % 251);
  out += fixed_cmp(table + 100, table + 900, 256, SCAN_CMPS);
  out += rolling_cmp(256, SCAN_CMPS);
  printf("%zu\n", out);
  free(src);
  free(dst);
  return 0;
}
