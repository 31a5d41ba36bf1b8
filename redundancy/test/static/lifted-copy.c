// Copies in a helper (docs/redundancy.md, "Copies in a helper"): a loop's
// call of a loop-free helper of the module whose body copies (pop's
// memmove, not inlined) is a copy unit of the loop.  The loop calls a copy
// of the helper made for that call, whose memmove has the unit's prefix
// probe; the helper itself and its other callers are left as they are.
//  - drain's call of pop: a unit, memmove via=pop at pop's memmove line;
//  - take_all calls pop too: its own unit and its own copy of pop;
//  - peek_all's helper copies a fixed-size struct: no unit;
//  - walk_all's helper has a loop of its own: no lifted unit (a helper with
//    a loop is sampled by its own probes when selected);
//  - countdown's helper calls itself (a loop, once its tail call is
//    eliminated): no lifted unit.
// RUN: %vprof-cc -O2 -g -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: %vprof-cc -O2 -g -c %s -o %t.o -mllvm -vprof-print-sources 2>&1 | grep -c 'lifted-copy *$' | FileCheck %s --check-prefix=COUNT
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=IR
// RUN: %vprof-cc -O2 -g -c %s -o %t.o -mllvm -vprof-print-sources -mllvm -vprof-lift-copies=0 2>&1 | not grep 'lifted-copy *$'
#include <string.h>

struct job { long id, cost; };
struct queue { struct job *a; unsigned long n; };

__attribute__((noinline)) static struct job pop(struct queue *q) {
  struct job j = q->a[0];
  memmove(q->a, q->a + 1, (q->n - 1) * sizeof *q->a); // SHIFT
  q->n--;
  return j;
}

long drain(struct queue *q) {
  long s = 0;
  while (q->n)
    s += pop(q).cost; // DRAIN
  return s;
}
// SRC: vprof-sources: memmove lifted-copy.c:[[@LINE-3]]:{{[0-9]+}} sources=0 {{.*}}repeated-call-unit via=pop:[[@LINE-11]] lifted-copy

long take_all(struct queue *q, long k) {
  long s = 0;
  for (long i = 0; i < k && q->n; i++)
    s += pop(q).id; // TAKE
  return s;
}
// SRC: vprof-sources: memmove lifted-copy.c:[[@LINE-3]]:{{[0-9]+}} sources=0 {{.*}}repeated-call-unit via=pop:[[@LINE-19]] lifted-copy

__attribute__((noinline)) static struct job first(struct queue *q) {
  struct job j;
  memcpy(&j, q->a, sizeof j);
  return j;
}

long peek_all(struct queue *q, long k) {
  long s = 0;
  for (long i = 0; i < k; i++)
    s += first(q).id;
  return s;
}

__attribute__((noinline)) static long total(struct queue *q) {
  long s = 0;
  for (unsigned long i = 0; i < q->n; i++)
    s += q->a[i].cost;
  memmove(q->a, q->a + 1, (q->n - 1) * sizeof *q->a);
  return s;
}

long walk_all(struct queue *q, long k) {
  long s = 0;
  for (long i = 0; i < k; i++)
    s += total(q);
  return s;
}

__attribute__((noinline)) static void shift(char *b, unsigned long n) {
  if (n < 2)
    return;
  memmove(b, b + 1, n - 1);
  shift(b, n / 2);
}

void countdown(char *b, unsigned long n, long k) {
  for (long i = 0; i < k; i++)
    shift(b, n - i);
}

// Two lifted units, one per call: drain's and take_all's.
// COUNT: 2

// The probed clones call their own copies of pop, whose memmove has the
// unit's prefix probe; pop is as compiled.
// IR-LABEL: define {{.*}} @pop(
// IR-NOT: __vprof_red
// IR: ret
// IR-DAG: call {{.*}} @pop.vprof_copy(
// IR-DAG: call {{.*}} @pop.vprof_copy.{{[0-9]+}}(
// IR-LABEL: define internal {{.*}} @pop.vprof_copy(
// IR: call void @__vprof_red_prefix(
// IR: call void @llvm.memmove
// IR: ret
// IR-LABEL: define internal {{.*}} @pop.vprof_copy.{{[0-9]+}}(
// IR: call void @__vprof_red_prefix(
// IR: call void @llvm.memmove
