// One database-style write per iteration: the only side effect is an I/O
// call that runs in every iteration (batching is the fix for redundancy).
// RUN: %vprof-cc -O1 -fno-inline -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
#include <stdio.h>
struct cfg { int level; };
void log_all(FILE *f, const struct cfg *c, int n) {
  for (int i = 0; i < n; i++)
    fprintf(f, "level=%d\n", c->level);
}
// CHECK-LABEL: vprof-sources: log_all db-write.c:7:3
// CHECK-SAME: io-every-iteration
// CHECK-NOT: IV source
// The read of c->level: its address is loop-invariant, but fprintf may write
// it (MemorySSA finds the clobber in the loop), so it is recorded.
// CHECK-DAG: vprof-source: 8:{{[0-9]+}} load ci=record cl=record
