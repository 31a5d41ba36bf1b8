// Fix strategy of a cross-loop redundant loop (LDoctor 3.2.6): memoization
// when each instance writes a constant number of locations, batching when
// that number grows with the work.  A loop whose every in-body side effect
// writes one location fixed for the instance (a live-out value, a store to
// an address the loop does not change) is marked fixed-write-locations
// (VP_REDF_SE_FIXED): its writes per instance may follow the work, their
// locations do not.  Others are left to the runtime's measure.
// RUN: %vprof-cc -O1 -fno-inline -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
#include <stdio.h>
struct node { struct node *prev; int tag; };

// A count of matches: the live-out `count`.
int count_matches(const struct node *n, int tag) {
  int count = 0;
  for (; n; n = n->prev)
    if (n->tag == tag)
      count++;
  return count;
}
// CHECK: vprof-sources: count_matches write-locations.c:15:3 {{.*}} side-effects=1 probed fixed-write-locations{{$}}

// Stores through a pointer the loop does not change.
void sum_into(const struct node *n, long *total) {
  for (; n; n = n->prev)
    if (n->tag > 0)
      *total += n->tag;
}
// CHECK: vprof-sources: sum_into write-locations.c:24:3 {{.*}} side-effects=1 probed fixed-write-locations{{$}}

// A store at a new index in every iteration.
void copy_tags(const struct node *n, int *out) {
  for (int i = 0; n; n = n->prev)
    out[i++] = n->tag;
}
// CHECK: vprof-sources: copy_tags write-locations.c:32:3 {{.*}} side-effects=1 probed{{$}}

// I/O: the locations are the pass's to guess, so it does not.
void print_tags(FILE *f, const struct node *n) {
  for (; n; n = n->prev)
    fprintf(f, "%d\n", n->tag);
}
// CHECK: vprof-sources: print_tags write-locations.c:39:3 {{.*}} io-every-iteration probed{{$}}
