// Strided accesses (docs/vprof-loop.md, "Strided walks"): a load or store
// of a loop's own blocks whose address steps by a loop-invariant amount that
// is not a constant below a cache line is a source of its own kind
// (`vprof-stride`, not counted in `sources=`), whose addresses a recorded
// instance keeps as a range so that the report knows the step (a constant
// step is in the table: `bytes=`).
//   col_sum:   m[i * n + j] down a column, 8n bytes per iteration: a stride.
//   row_sum:   the same matrix along a row, 8 bytes: none.
//   big_field: one field of 128-byte records: a stride, a constant one
//              (in the table, 512 bytes in the body unrolled 4 times).
//   small_field: one field of 16-byte records: under a cache line, none.
//   add:       a vectorized walk (its 16-byte loads fill the 64-byte step
//              of the interleaved body): dense, none.
//   zero_col:  a column store in a loop that records no input: none (a
//              stride alone would make it record instances).
//   clear_field: a constant step in such a loop: in the table, nothing
//              recorded.
// RUN: %vprof-cc -O2 -fno-inline -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
#include <stddef.h>

double col_sum(const double *m, size_t n, size_t j) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += m[i * n + j];
  return s;
}
// CHECK-LABEL: vprof-sources: col_sum strided-access.c
// CHECK-SAME: :[[@LINE-5]]:3 {{.*}} strides=1
// CHECK: vprof-stride: [[@LINE-5]]:10{{$}}

double row_sum(const double *m, size_t n, size_t i) {
  double s = 0;
  for (size_t j = 0; j < n; j++)
    s += m[i * n + j];
  return s;
}
// CHECK-LABEL: vprof-sources: row_sum strided-access.c
// CHECK-NOT: {{strides=|vprof-stride:}}

struct rec { long key; char pad[120]; };
long big_field(const struct rec *r, size_t n) {
  long s = 0;
  for (size_t i = 0; i < n; i++)
    s += r[i].key;
  return s;
}
// CHECK-LABEL: vprof-sources: big_field strided-access.c
// CHECK-SAME: :[[@LINE-5]]:3 {{.*}} strides=1
// CHECK: vprof-stride: [[@LINE-5]]:15 bytes={{128|512}}{{$}}

struct small { long key, val; };
long small_field(const struct small *r, size_t n) {
  long s = 0;
  for (size_t i = 0; i < n; i++)
    s += r[i].key;
  return s;
}
// CHECK-LABEL: vprof-sources: small_field strided-access.c
// CHECK-NOT: {{strides=|vprof-stride:}}

void add(int *restrict a, const int *restrict b, size_t n) {
  for (size_t i = 0; i < n; i++)
    a[i] += b[i];
}
// CHECK-LABEL: vprof-sources: add strided-access.c
// CHECK-NOT: {{strides=|vprof-stride:}}

void zero_col(double *m, size_t n, size_t j) {
  for (size_t i = 0; i < n; i++)
    m[i * n + j] = 0;
}
// CHECK-LABEL: vprof-sources: zero_col strided-access.c
// CHECK-NOT: {{strides=|vprof-stride:}}

struct flagged { long key; int flag; char pad[116]; };
void clear_field(struct flagged *r, size_t n) {
  for (size_t i = 0; i < n; i++)
    r[i].flag = 0;
}
// CHECK-LABEL: vprof-sources: clear_field strided-access.c
// CHECK-SAME: strides=1
// CHECK: vprof-stride: [[@LINE-4]]:15 bytes={{128|512}}{{$}}
