// End to end: cross-loop pairs in a recursive function (Mozilla 477564,
// sessionstore's XPath generator).  path() recurses to the root first, then
// counts the node's previous siblings.  Between two fields that are
// siblings, the loop also runs for every ancestor, so the next instance in
// time is an ancestor's one-step walk; the pair is the next instance at the
// same stack depth, the next field's walk, which repeats the previous walk
// plus one sibling.
// RUN: %vprof-cc -O1 %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=path VPROF_RED_INSTANCE_RATE=3 %t 2000
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

struct node {
  struct node *parent, *prev;
  int kind;
};

static unsigned out;

__attribute__((noinline)) void path(const struct node *n) {
  if (!n->parent)
    return;
  path(n->parent);
  int count = 0;
  // CHECK: loop path:[[#@LINE+3]]
  // CHECK-NEXT: cross-iteration:
  // CHECK-NEXT: cross-loop: yes rate=
  for (const struct node *s = n->prev; s; s = s->prev)
    if (s->kind == n->kind)
      count++;
  out = out * 31 + (unsigned)count;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2000;
  // root <- html <- body <- form <- n fields, siblings of each other
  struct node *chain = calloc(4, sizeof *chain);
  for (int i = 1; i < 4; i++)
    chain[i].parent = &chain[i - 1];
  struct node *fields = calloc((size_t)n, sizeof *fields);
  for (int i = 0; i < n; i++) {
    fields[i].parent = &chain[3];
    fields[i].prev = i ? &fields[i - 1] : NULL;
    fields[i].kind = i % 3 == 0;
  }
  for (int i = 0; i < n; i++)
    path(&fields[i]);
  printf("%u\n", out);
  return 0;
}
