// Strings scanned again (docs/redundancy.md, "Strings scanned again"): a
// loop whose calls of a C library string scan read, from its start, the
// string the previous call read.  Each such call is also sampled as an
// instance of its unit, paired with the next call, its values the string's
// chunk hashes; consecutive calls over a string that grew share every chunk
// but the last, so the pair is redundant by the cross-loop pair rule.
//   join():    strcat(out, field), the Schlemiel loop: strcat's destination
//              is scanned again (and clang's strlen for strcat(out, ",")).
//   append():  sprintf(buf + strlen(buf), ...): strlen of the growing buffer.
//   grow():    strstr(text, "zz") after each character appended: the
//              haystack is scanned again (LDoctor's indexOf, with libc).
//   parse():   sscanf(p, "%d%n", ...) with p advancing through one buffer:
//              glibc's sscanf takes strlen(p) each time, the rest of the
//              buffer, which the previous call read too (chunks are cut at
//              aligned addresses, so a later start shares them).
//   fresh():   a different 4 KiB row written into a buffer, then strcat(out,
//              ";") (clang's strlen of it): the strings differ, so no pair
//              repeats.
//   lookup():  strcmp of each name with one key: not a rescan unit (both
//              operands are read alike), so no pairs at all.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=join,append,grow,parse,fresh,lookup %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// Without the pairs (-vprof-prefix-pairs=0) the units are sampled as before
// and nothing is said of rescans: the Schlemiel loop goes unnoticed.
// RUN: %vprof-cc -O2 %s -o %t.off -mllvm -vprof-prefix-pairs=0
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t2.vprof VPROF_LOOP_FUNCTIONS=join,append,grow,parse,fresh,lookup %t.off
// RUN: %redundancy-report %t.off %t2.vprof | FileCheck %s --check-prefix=OFF
// OFF: calls of strcat at line
// OFF-NOT: rescanned:
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS 4000
static char *fields[FIELDS];
static char names[64][32];

__attribute__((noinline)) size_t join(char *out, int n) {
  out[0] = 0;
  for (int i = 0; i < n; i++) {
    strcat(out, fields[i]);
    if (i + 1 < n)
      strcat(out, ",");
  }
  return strlen(out);
}
// CHECK: calls of strcat at line [[@LINE-6]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate=
// CHECK: calls of strlen at line [[@LINE-7]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate=

__attribute__((noinline)) size_t append(char *buf, int n) {
  buf[0] = 0;
  for (int i = 0; i < n; i++)
    sprintf(buf + strlen(buf), "%d;", i * 7919 % 100003);
  return strlen(buf);
}
// CHECK: calls of strlen at line [[@LINE-3]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate=

__attribute__((noinline)) int grow(char *text, int n) {
  int found = 0;
  for (int i = 0; i < n; i++) {
    text[i] = (char)('a' + i * 7 % 25); /* never 'z' */
    text[i + 1] = 0;
    found += strstr(text, "zz") != NULL;
  }
  return found;
}
// CHECK: calls of strstr at line [[@LINE-4]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate=

__attribute__((noinline)) long parse(const char *p) {
  long sum = 0;
  int v, k;
  while (sscanf(p, "%d%n", &v, &k) == 1) {
    sum += v;
    p += k;
    if (*p == ',')
      p++;
  }
  return sum;
}
// CHECK: calls of sscanf at line [[@LINE-8]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate=

__attribute__((noinline)) size_t fresh(char *out, unsigned seed, int n) {
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    unsigned x = seed + (unsigned)i * 2654435761u;
    for (int k = 0; k < 4096; k++) {
      x = x * 1103515245u + 12345u;
      out[k] = (char)('a' + (x >> 16) % 26);
    }
    out[4096] = 0;
    strcat(out, ";");
    total += (unsigned char)out[i % 64];
  }
  return total;
}
// CHECK: calls of strlen at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: no rate=0.00 pairs=

__attribute__((noinline)) int lookup(const char *key, int n) {
  int hits = 0;
  for (int i = 0; i < n; i++)
    hits += strcmp(names[i & 63], key) == 0;
  return hits;
}
// CHECK: calls of strcmp at line [[@LINE-3]] in loop
// CHECK-NEXT: repeated calls:
// CHECK-NOT: rescanned:
// CHECK: loss:

/* bench/redundancy/libscan/rescan_bench.c runs it RESCAN_REPEAT times. */
#ifndef RESCAN_REPEAT
#define RESCAN_REPEAT 1
#endif

int main(void) {
  for (int i = 0; i < FIELDS; i++) {
    char b[32];
    snprintf(b, sizeof b, "f%d", i * 7919 % 100003);
    fields[i] = strdup(b);
  }
  for (int i = 0; i < 64; i++)
    snprintf(names[i], sizeof names[i], "name-%d", i);
  char *out = malloc((size_t)FIELDS * 16 + 1);
  size_t total = 0;
  for (int r = 0; r < 10 * RESCAN_REPEAT; r++)
    total += join(out, FIELDS);
  for (int r = 0; r < 10 * RESCAN_REPEAT; r++)
    total += append(out, FIELDS);
  for (int r = 0; r < 4 * RESCAN_REPEAT; r++)
    total += (size_t)grow(out, 8000);
  /* 3,000 numbers, about 20 KB */
  char *csv = malloc(3000 * 8 + 1), *q = csv;
  for (int i = 0; i < 3000; i++)
    q += sprintf(q, "%d,", i * 7919 % 100003);
  for (int r = 0; r < 10 * RESCAN_REPEAT; r++)
    total += (size_t)parse(csv);
  /* 20,000 distinct rows of 4 KiB */
  for (int r = 0; r < 10 * RESCAN_REPEAT; r++)
    total += fresh(out, (unsigned)r * 7919u, 2000);
  for (int r = 0; r < 100 * RESCAN_REPEAT; r++)
    total += (size_t)lookup(r & 1 ? "name-7" : "name-70", 1000);
  printf("%zu\n", total);
  return 0;
}
