// A search helper inlined into its caller (docs/loopclass.md, "Inlined
// searches").  `seen_before` returns whether a key is in the table: the
// only result of its loop is which way it ended, produced on the way out,
// so the loop is 0*1? (a linear search: change the data structure), not 1*
// or 0* (delete the loop).  At -O2 the optimiser keeps that answer as a
// flag computed from the index (`found = i + 1 < n`) carried round the
// loop; in `skip_known` the answer is only the branch taken after the loop.
// Exits that end in the same code are no answer: `wait_idle`'s loop,
// which only reads, stays 0*.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct str { const char *p; size_t n; };

static int seen_before(const struct str *seen, size_t n, const struct str *w) {
  for (size_t i = 0; i < n; i++)
    if (seen[i].n == w->n && memcmp(seen[i].p, w->p, w->n) == 0)
      return 1;
  return 0;
}

size_t dedup(const struct str *words, size_t cnt, struct str *seen) {
  size_t n = 0;
  for (size_t i = 0; i < cnt; i++)
    if (!seen_before(seen, n, &words[i]))
      seen[n++] = words[i];
  return n;
}
// CHECK: vprof-loop: dedup inlined-search.c:[[#@LINE-5]]:3 kind=loop depth=1 class=[0|1]*
// CHECK-NEXT: vprof-loop-site: {{.*}} liveout body
// CHECK-NEXT: vprof-loop-site: {{.*}} store body
// CHECK-NEXT: vprof-loop: seen_before inlined-search.c:18:3 kind=loop depth=2 class=0*1? liveout-iv probed sites=1
// CHECK-NEXT: vprof-loop-site: {{[0-9]+}}:{{[0-9]+}} liveout exit

extern void note(int);

void skip_known(const int *keys, int nkeys, const int *table, int n) {
  for (int k = 0; k < nkeys; k++) {
    int i;
    for (i = 0; i < n; i++)
      if (table[i] == keys[k])
        goto known;
    note(keys[k]);
  known:;
  }
}
// CHECK: vprof-loop: skip_known inlined-search.c:[[#@LINE-9]]:3 kind=loop depth=1 class=[0|1]*
// CHECK-NEXT: vprof-loop-site: [[#@LINE-5]]:{{[0-9]+}} external body note
// CHECK-NEXT: vprof-loop: skip_known inlined-search.c:[[#@LINE-9]]:5 kind=loop depth=2 class=0*1? probed sites=1
// CHECK-NEXT: vprof-loop-site: [[#@LINE-9]]:{{[0-9]+}} liveout exit

void wait_idle(const volatile int *reg, int n) {
  for (int i = 0; i < n; i++) {
    if (reg[0] & 1)
      break;
    if (reg[1] & 2)
      break;
  }
}
// CHECK: vprof-loop: wait_idle inlined-search.c:[[#@LINE-7]]:3 kind=loop depth=1 class=0* {{.*}}sites=0
// CHECK-NOT: vprof-loop
