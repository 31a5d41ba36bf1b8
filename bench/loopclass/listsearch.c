/* CPU-bound: many short searches over a linked list (0*1? loops, small
   instances: the worst case for a per-call gate and a per-instance probe). */
#include <stdio.h>
#include <stdlib.h>

struct node { int key; struct node *next; };

__attribute__((noinline)) struct node *lookup(struct node *n, int key) {
  for (; n; n = n->next)
    if (n->key == key)
      return n;
  return NULL;
}

int main(int argc, char **argv) {
  int len = 64, rounds = argc > 1 ? atoi(argv[1]) : 3000000;
  struct node *nodes = calloc(len, sizeof *nodes);
  for (int i = 0; i < len; i++) {
    nodes[i].key = i * 7;
    nodes[i].next = i + 1 < len ? &nodes[i + 1] : NULL;
  }
  long found = 0;
  unsigned x = 1;
  for (int r = 0; r < rounds; r++) {
    x = x * 1103515245u + 12345u;
    found += lookup(nodes, (int)((x >> 16) % (len * 7))) != NULL;
  }
  printf("%ld\n", found);
  return 0;
}
