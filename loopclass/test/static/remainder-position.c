// A copy the optimiser makes without a loop location (the runtime
// unroller's remainder of the vectorized copy below: its `llvm.loop` holds
// only "unroll.disable") is placed at the `for`, as the loop's other
// copies are, not at the `i++` LLVM falls back to (docs/loopclass.md,
// "Loop positions").  Before, it was a loop of its own at column 35,
// which vprof-loop listed beside the copy's own.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

#include <stdlib.h>

struct sb { char *buf; size_t len, cap; };

void sb_reserve(struct sb *s, size_t need) {
  if (need <= s->cap)
    return;
  size_t ncap = s->cap + 64;
  char *nb = malloc(ncap);
  for (size_t i = 0; i < s->len; i++)
    nb[i] = s->buf[i];
  free(s->buf);
  s->buf = nb;
  s->cap = ncap;
}
// CHECK-NOT: vprof-loop: sb_reserve remainder-position.c:18:{{[0-9][0-9]+}}{{ }}
// CHECK: vprof-loop: sb_reserve remainder-position.c:18:3 kind=loop {{.*}}vector
// CHECK-NOT: vprof-loop: sb_reserve remainder-position.c:18:{{[0-9][0-9]+}}{{ }}
// CHECK: vprof-loop: sb_reserve remainder-position.c:18:3 kind=loop {{.*}}vector
// CHECK-NOT: vprof-loop: sb_reserve remainder-position.c:18:{{[0-9][0-9]+}}{{ }}
