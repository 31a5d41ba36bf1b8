// Copies made again (docs/redundancy.md, "Copies made again"): a loop whose
// calls of memcpy copy, into a new buffer, the buffer the previous call
// copied plus a little.  Each call of a copy with a length that is not a
// constant is sampled as an instance of its unit, paired with the next
// call, its values the source's chunk hashes cut from the start (the
// source is a new buffer, at another address, each time).
//   grow():     an array grown by one element per push, copied whole into a
//               fresh malloc'ed buffer each time: the copies are redundant.
//   stamp():    the same template row copied into every row of a table: the
//               same bytes each time, which is no growth: no pair compared.
//   records():  different records copied out of an input: no pair repeats.
//   fixed():    a struct copied by value (a constant length): no unit.
// And copies of shifted bytes (docs/redundancy.md, "Copies of shifted
// bytes"), which match the previous copy with the chunks cut from the end:
//   dequeue():  an array queue whose front element is taken with memmove
//               of the rest: redundant, shifted (most of its redundant
//               pairs; one in some 20 was not, in some runs).
//   insert_sorted(): a sorted array kept by moving its tail up to insert
//               each element: redundant, shifted.
//   dequeue_via(): dequeue()'s queue popped by a helper that is not
//               inlined: the helper's memmove is the loop's unit (lifted),
//               redundant, shifted.
// grow()'s copies match from the start: of its 100-odd redundant pairs,
// few are shifted (0 in most runs, 1 in some).  The first and last 128
// chunks of 64 bytes of a copy are hashed, after its length.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=grow,stamp,records,fixed,dequeue,insert_sorted,dequeue_via %t
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=STATIC
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec { long *data; size_t len; };

__attribute__((noinline)) long grow(struct vec *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    long *d = malloc((v->len + 1) * sizeof *d);
    memcpy(d, v->data, v->len * sizeof *d);
    free(v->data);
    d[v->len++] = (long)(i * 2654435761u % 1000);
    v->data = d;
  }
  return v->data[v->len / 2];
}
// CHECK: calls of memcpy at line [[@LINE-7]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate={{.*}} shifted={{[0-9]}}{{$}}
// STATIC: vprof-sources: memcpy copy-again.c:[[@LINE-10]]:{{[0-9]+}} {{.*}}repeated-call-unit

static char table[256][1024];

__attribute__((noinline)) int stamp(const char *row, size_t width, int rows) {
  for (int r = 0; r < rows; r++)
    memcpy(table[r & 255], row, width);
  return table[rows & 255][7];
}
// CHECK: calls of memcpy at line [[@LINE-3]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: no rate=0.00 pairs=0

__attribute__((noinline)) long records(const char *in, size_t len, size_t rec) {
  char out[4096];
  long sum = 0;
  for (size_t off = 0; off + rec <= len; off += rec) {
    memcpy(out, in + off, rec);
    sum += out[rec / 2];
  }
  return sum;
}
// CHECK: calls of memcpy at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: no rate=0.00 pairs={{[1-9]}}

struct point { long x, y, z, w, t[8]; };

__attribute__((noinline)) long fixed(const struct point *in, struct point *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = in[(i * 7) % n];
  return out[n / 2].x;
}
// STATIC-NOT: vprof-sources: memcpy copy-again.c:[[@LINE-3]]
// CHECK-NOT: calls of memcpy at line [[@LINE-4]]

__attribute__((noinline)) long dequeue(long *q, size_t n) {
  long sum = 0;
  while (n > 0) {
    sum += q[0] * (long)n;
    memmove(q, q + 1, --n * sizeof *q);
  }
  return sum;
}
// CHECK: calls of memmove at line [[@LINE-4]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate={{.*}} shifted={{[1-9][0-9]*}}{{$}}

__attribute__((noinline)) long insert_sorted(long *a, size_t n) {
  unsigned x = 99;
  for (size_t len = 0; len < n; len++) {
    x = x * 1103515245u + 12345u;
    long v = (long)(x >> 8);
    size_t i = len;
    while (i > 0 && a[i - 1] > v) /* where it goes */
      i--;
    memmove(a + i + 1, a + i, (len - i) * sizeof *a);
    a[i] = v;
  }
  return a[n / 2];
}
// CHECK: calls of memmove at line [[@LINE-5]] in loop
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate={{.*}} shifted={{[1-9][0-9]*}}{{$}}

// The queue again, its front taken by a helper that is not inlined (as
// one in another file would not be): the memmove is the loop's unit all
// the same, lifted from the helper (docs/redundancy.md, "Copies in a
// helper"), at the loop's call, via the helper's line.
__attribute__((noinline)) static long take_front(long *q, size_t n) {
  long v = q[0];
  memmove(q, q + 1, (n - 1) * sizeof *q);
  return v;
}

__attribute__((noinline)) long dequeue_via(long *q, size_t n) {
  long sum = 0;
  for (; n > 0; n--)
    sum += take_front(q, n) * (long)n;
  return sum;
}
// CHECK: calls of memmove at line [[@LINE-3]] in loop {{.*}} via=take_front:[[@LINE-10]]{{$}}
// CHECK-NEXT: repeated calls: no
// CHECK-NEXT: rescanned: yes rate={{.*}} shifted={{[1-9][0-9]*}}{{$}}
// STATIC: vprof-sources: memmove copy-again.c:[[@LINE-6]]:{{[0-9]+}} {{.*}}repeated-call-unit via=take_front:[[@LINE-13]] lifted-copy
// CHECK: loss:

int main(void) {
  static char input[1 << 20];
  unsigned x = 12345;
  for (size_t i = 0; i < sizeof input; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    input[i] = (char)('a' + x % 26);
  }
  char row[1024];
  memset(row, 'x', sizeof row);
  struct vec v = {0, 0};
  long total = grow(&v, 12000);
  free(v.data);
  for (int r = 0; r < 40; r++)
    total += stamp(row, sizeof row, 2000);
  for (int r = 0; r < 40; r++)
    total += records(input, sizeof input, 2048 + (size_t)r);
  static struct point pts[4096], outp[4096];
  for (int i = 0; i < 4096; i++)
    pts[i].x = i;
  for (int r = 0; r < 100; r++)
    total += fixed(pts, outp, 4096);
  static long q[8000], sorted[8000];
  for (int i = 0; i < 8000; i++)
    q[i] = i * 31;
  total += dequeue(q, 8000);
  total += insert_sorted(sorted, 8000);
  for (int i = 0; i < 8000; i++)
    q[i] = i * 17;
  total += dequeue_via(q, 8000);
  printf("total=%ld\n", total);
  return 0;
}
