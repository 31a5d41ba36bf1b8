// Which calls become repeated-call units (docs/redundancy.md, "Repeated
// calls"): a loop's own calls of a function of the module that has a loop
// and whose reads are sources of the loop, or of a C library scan (strlen,
// "Library scans").  A call of a straight-line function, of a recursive one
// without a loop (its decision would cost as much as the call), or one in an
// inner loop (it is the inner loop's) does not make a unit of the outer.
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources -mllvm -vprof-repeated-calls=0 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: probed repeated-call-unit
#include <string.h>

int table[256];
int out[4096];

__attribute__((noinline)) int costly(const int *key, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += table[(key[i] + s) & 255];
  return s;
}

__attribute__((noinline)) int cheap(const int *key) { return table[key[0] & 255]; }

__attribute__((noinline)) int walk(const int *t, int d) {
  return d <= 0 ? t[0] : walk(t + 1, d - 1) + t[d];
}

void outer(const int *keys, const char **names, int n, int m) {
  for (int i = 0; i < n; i++) {
    int v = costly(keys + i, 8);
    v += cheap(keys + i);
    v += (int)strlen(names[i]);
    v += walk(keys + i, 4);
    for (int j = 0; j < m; j++)
      v += costly(keys + j, 2);
    out[i] = v;
  }
}
// CHECK: vprof-sources: outer repeated-call-units.c:29:3 sources={{[0-9]+}}
// CHECK-NOT: vprof-sources: cheap
// CHECK: vprof-sources: costly repeated-call-units.c:30:13 sources=1 side-effects=0 probed repeated-call-unit
// CHECK-NEXT: vprof-source: 30:13 outside ci=record cl=-
// CHECK-NOT: vprof-sources: cheap
// CHECK: vprof-sources: strlen repeated-call-units.c:32:15 sources=1 side-effects=0 probed repeated-call-unit
// CHECK-NEXT: vprof-source: 32:15 outside ci=record cl=-
// CHECK-NOT: vprof-sources: walk
// The inner loop's call is its unit, not the outer loop's:
// CHECK: vprof-sources: outer repeated-call-units.c:34:5
// CHECK: vprof-sources: costly repeated-call-units.c:35:12 sources=1 side-effects=0 probed repeated-call-unit
// CHECK-NOT: probed repeated-call-unit
