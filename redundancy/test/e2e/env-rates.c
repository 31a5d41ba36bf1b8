// Malformed sampling rates are reported on stderr, once, and the defaults
// kept (1/1000 iterations, 1/100 instances): the program runs as usual.
// RUN: %vprof-cc -O1 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=log_level VPROF_RED_ITER_RATE=10x VPROF_RED_INSTANCE_RATE=0 %t 2>&1 | FileCheck %s
// CHECK: vprof-rt: ignoring VPROF_RED_ITER_RATE=10x (expected 1..1073741824)
// CHECK-NEXT: vprof-rt: ignoring VPROF_RED_INSTANCE_RATE=0 (expected 1..1073741824)
// CHECK-NEXT: done
// CHECK-NOT: ignoring
// With the defaults about 10 of the 10,000 iterations are sampled (10x
// read as 10 would sample about 1,000).
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REPORT
// REPORT-LABEL: loop log_level:
// REPORT-NEXT: cross-iteration: yes rate={{[0-9.]+}} sampled={{[1-9]|[1-2][0-9]}} distinct=1
#include <stdio.h>

struct cfg { int level; };

__attribute__((noinline)) void log_level(FILE *f, const struct cfg *c, int n) {
  for (int i = 0; i < n; i++)
    fprintf(f, "%d\n", c->level);
}

int main(void) {
  FILE *f = fopen("/dev/null", "w");
  struct cfg c = {3};
  if (!f)
    return 1;
  log_level(f, &c, 10000);
  fclose(f);
  printf("done\n");
  return 0;
}
