/*
 * bench/redundancy/libscan: the cost of the repeated-call units of C library
 * scans (docs/redundancy.md, "Library scans") in loops that call them in
 * every iteration.  The four loops of redundancy/test/e2e/libc-scan.c, run
 * longer: escape() (strlen in its condition, 20,000 instances of 400
 * iterations), count() (strlen of a rewritten buffer, 4,000,000), fixed_cmp()
 * and rolling_cmp() (memcmp, 4,000,000 each).  ab.sh builds it with and
 * without the units (-mllvm -vprof-repeated-calls=0) and times both with
 * the four functions selected.  The loops are the test's own (included, its
 * main renamed), so the bench measures what the test checks.
 */
#define main libc_scan_test_main
#include "../../../redundancy/test/e2e/libc-scan.c"
#undef main

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
