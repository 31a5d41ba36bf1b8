/*
 * bench/redundancy/libscan: the cost of the repeated-call units of C library
 * scans (docs/redundancy.md, "Library scans") in loops that call them in
 * every iteration.  The four loops of redundancy/test/e2e/libc-scan.c, run
 * longer: escape() (strlen in its condition, 20,000 instances of 400
 * iterations), count() (strlen of a rewritten buffer, 4,000,000), fixed_cmp()
 * and rolling_cmp() (memcmp, 4,000,000 each).  ab.sh builds it with and
 * without the units (-mllvm -vprof-repeated-calls=0) and times both with
 * the four functions selected.
 */
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

int main(void) {
  size_t len = 400, out = 0;
  char *src = malloc(len + 1), *dst = malloc(2 * len + 1);
  for (size_t i = 0; i < len; i++)
    src[i] = i % 9 == 0 ? '"' : (char)('a' + i % 26);
  src[len] = 0;
  for (int r = 0; r < 20000; r++) {
    src[r % len] = (char)('a' + r % 26);
    out += escape(dst, src);
  }
  out += count(4000000);
  for (size_t i = 0; i < sizeof table; i++)
    table[i] = (char)(i * 31 % 251);
  out += fixed_cmp(table + 100, table + 900, 256, 4000000);
  out += rolling_cmp(256, 4000000);
  printf("%zu\n", out);
  return 0;
}
