/* CPU-bound: count rare words in a buffer ([0|1]* loops, medium instances,
   plus a short inner compare loop per position). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long hits;

__attribute__((noinline)) void count_word(const char *buf, int n, const char *w, int wl) {
  for (int i = 0; i + wl <= n; i++) {
    int k = 0;
    while (k < wl && buf[i + k] == w[k])
      k++;
    if (k == wl)
      hits++;
  }
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 60;
  int n = 1 << 20;
  char *buf = malloc(n);
  unsigned x = 7;
  for (int i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = 'a' + (x >> 16) % 4;
  }
  for (int r = 0; r < reps; r++)
    count_word(buf, n, "abcdab", 6);
  printf("%ld\n", hits);
  return 0;
}
