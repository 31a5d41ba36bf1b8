// Calls to known-pure libc functions (strcmp, strlen) are not side effects:
// a strcmp search loop is 0*1?, and a strlen sum is 1* only because of its
// accumulator, never because of the call.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
#include <string.h>

int lookup(const char **names, int n, const char *key) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], key) == 0)
      return i;
  return -1;
}
// CHECK: vprof-loop: lookup pure-libc.c:9:3 kind=loop depth=1 class=0*1?
// CHECK-NOT: strcmp

unsigned long total_length(const char **s, int n) {
  unsigned long t = 0;
#pragma clang loop unroll(disable) vectorize(disable)
  for (int i = 0; i < n; i++)
    t += strlen(s[i]);
  return t;
}
// CHECK: vprof-loop: total_length pure-libc.c:20:3 kind=loop depth=1 class=1* probed sites=1
// CHECK-NEXT: vprof-loop-site: 21:7 {{store|liveout}} body
// CHECK-NOT: strlen
