// Hash bucket chains (docs/loopclass.md, "Hash bucket chains"): a list walk
// whose head is loaded from an array slot picked by a remainder is flagged
// with the line of that load; a list walk from a slot picked otherwise (an
// adjacency list) is not.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=O0

#include <string.h>

struct entry { char key[32]; int value; struct entry *next; };
struct entry *table[4096];

unsigned hash(const char *k);

struct entry *find_masked(const char *k) {
  unsigned b = hash(k) & 4095;
  for (struct entry *e = table[b]; e; e = e->next)
    if (strcmp(e->key, k) == 0)
      return e;
  return 0;
}
// CHECK: vprof-loop: find_masked bucket-chain.c:[[@LINE-5]]:{{[0-9]+}} kind=loop depth=1 class=0*1? {{.*}}bucket-chain(line [[@LINE-5]])

// the index from a function of the module that returns a remainder (and 0
// for an empty key: a phi of the two)
__attribute__((noinline)) static unsigned slot_of(const char *k) {
  unsigned h = 0;
  while (*k)
    h = h * 31 + (unsigned char)*k++;
  return h % 1021;
}

struct entry *find_called(const char *k) {
  for (struct entry *e = table[slot_of(k)]; e; e = e->next)
    if (strcmp(e->key, k) == 0)
      return e;
  return 0;
}
// CHECK: vprof-loop: find_called bucket-chain.c:[[@LINE-5]]:{{[0-9]+}} kind=loop {{.*}}bucket-chain(line [[@LINE-5]])

struct map { struct entry **slots; unsigned nslots; };

int find_mod(const struct map *m, unsigned h, int v) {
  const struct entry *e = m->slots[h % m->nslots];
  while (e && e->value != v)
    e = e->next;
  return e ? 1 : 0;
}
// CHECK: vprof-loop: find_mod bucket-chain.c:[[@LINE-4]]:{{[0-9]+}} kind=loop {{.*}}bucket-chain(line {{[0-9]+}})

struct edge { int to; struct edge *next; };

int degree(struct edge **adj, int v) {
  int d = 0;
  for (struct edge *e = adj[v]; e; e = e->next)
    d++;
  return d;
}
// CHECK: vprof-loop: degree bucket-chain.c:[[@LINE-4]]
// CHECK-NOT: bucket-chain(
// CHECK-SAME: sites=

// At -O0 the list pointer lives in memory: no walk is recognised.
// O0-NOT: bucket-chain(
