// A loop whose exit test calls strlen, inlined into its caller: at -O2 loop
// rotation and GVN move the load of the next character into a latch block of
// its own, so the `llvm.loop` range stays on the exit test, where
// Loop::getLoopID does not look.  The loop was placed at the header's first
// line (the body, 14), and the samples of its condition (13, strlen) fell
// outside it.  It must be at its `for`, 13:3, ending at 18.
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
#include <ctype.h>
#include <string.h>

static unsigned long capitalise(char *s) {
  unsigned long n = 0;
  for (unsigned long i = 0; i < strlen(s); i++) {
    if ((i == 0 || s[i - 1] == ' ') && islower((unsigned char)s[i])) {
      s[i] = (char)toupper((unsigned char)s[i]);
      n++;
    }
  }
  return n;
}

unsigned long words(char **lines, int k) {
  unsigned long w = 0;
  for (int j = 0; j < k; j++)
    w += capitalise(lines[j]);
  return w;
}
// CHECK: vprof-loop: words split-latch.c:24:3 kind=loop depth=1
// CHECK: vprof-loop: capitalise split-latch.c:13:3 kind=loop depth=2
