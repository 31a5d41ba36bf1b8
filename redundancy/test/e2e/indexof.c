// End to end at -O2, LDoctor Figure 6 (Apache Ant): the outer loop appends
// one character to a buffer and searches it from the start every time, so
// consecutive instances of the search repeat the previous one's work.  The
// search's outer loop holds inner loops with a `return` inside: its
// recording copy must still be made (the inner copies' exit blocks used to
// leave it without dedicated exits, and it recorded nothing).  Next to it,
// a hashing loop over similar but distinct request lines (a common
// template, a few characters differ) is not cross-loop redundant.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=index_of,hash_line VPROF_RED_INSTANCE_RATE=3 %t 3000
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int index_of(const char *source, int count, const char *target,
                                       int tcount) {
  char first = target[0];
  int max = count - tcount;
  // CHECK: loop index_of:[[#@LINE+1]]
  for (int i = 0; i <= max; i++) {
  // CHECK-NEXT: cross-iteration:
  // CHECK-NEXT: cross-loop: yes {{.*}} fix=memoization
  // Every other loop: the inner scans (distinct parts of the buffer) and the
  // hash of the request lines.
  // CHECK-NOT: cross-loop: yes
  // CHECK: loop hash_line:
  // CHECK-NOT: cross-loop: yes
  // CHECK: loss:
    if (source[i] != first)
      while (++i <= max && source[i] != first)
        ;
    if (i <= max) {
      int j = i + 1;
      int end = j + tcount - 1;
      for (int k = 1; j < end && source[j] == target[k]; j++, k++)
        ;
      if (j == end)
        return i;
    }
  }
  return -1;
}

__attribute__((noinline)) unsigned hash_line(const char *line, int n) {
  unsigned h = 0;
  for (int k = 0; k < n; k++)
    h = h * 31 + (unsigned char)line[k];
  return h;
}

static unsigned rs = 2463534242u;
static unsigned rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 17;
  rs ^= rs << 5;
  return rs;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  char *sb = malloc((size_t)n + 1);
  long hits = 0;
  unsigned h = 0;
  for (int k = 0; k < n; k++) {
    sb[k] = "abcdefgh"[(k * 7) % 8];
    hits += index_of(sb, k + 1, "hgx", 3);
    char line[128];
    int len = snprintf(line, sizeof line, "GET /static/img/%u/photo_%u.jpg HTTP/1.1",
                       rnd() % 100, rnd() % 10000);
    h ^= hash_line(line, len);
  }
  printf("%ld %u\n", hits, h);
  free(sb);
  return 0;
}
