// A loop whose error exit prints a value computed on that path (stress
// exitpath: `printf("%s", why(r)); exit(1)`).  why(r) runs after the last
// iteration: it is neither an outside value to record in the preheader
// (it does not exist there: the instrumented clone failed the verifier)
// nor a value of any iteration; nothing is recorded for it.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

const char *why(int r); // another TU: its result is a call-result source
__attribute__((noinline)) long hot(int n) { return n * 3L; }

long drive(int rounds, int fail_at) {
  long acc = 0;
  for (int r = 0; r < rounds; r++) {
    if (r == fail_at) {
      printf("failed: %s\n", why(r));
      exit(10);
    }
    acc += hot(1000 + r);
  }
  return acc;
}
// CHECK-LABEL: vprof-sources: drive error-exit.c:15:3
// CHECK: vprof-source: 17:{{[0-9]+}} call-result ci=- cl=-
