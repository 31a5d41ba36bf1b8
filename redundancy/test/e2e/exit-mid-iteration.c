// A thread inside a recorded iteration when the program exits: that
// iteration's signature will never be complete, so the profile counts it as
// dropped (iterations-dropped), as it counts the instance still open
// (instances-dropped); nothing lost goes uncounted (docs/redundancy.md,
// "Threads at exit").  The worker walks a list again and again, every
// iteration and every instance sampled (rates 1); in its fifth walk one
// node's iteration waits for ever, and main exits once it is there.
// RUN: %vprof-cc -O1 -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=walk VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
// CHECK: exiting while the worker waits in walk 5
// REP: loop walk:[[#@LINE+25]]
// REP-NEXT: cross-iteration: {{.*}} sampled={{[1-9][0-9]*}}
// REP: loss: iterations-dropped={{[1-9][0-9]*}} iterations-truncated={{[0-9]+}} instances-dropped={{[1-9][0-9]*}}
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct node {
  long v;
  struct node *next;
};

static atomic_int walks, reached;
atomic_int never; // set by no one, but the compiler must not know that

static void wait_here(void) {
  atomic_store(&reached, 1);
  while (!atomic_load(&never))
    usleep(1000);
}

__attribute__((noinline)) long walk(const struct node *p) {
  long s = 0;
  while (p) {
    s += p->v;
    if (p->v == 50 && atomic_load(&walks) == 5)
      wait_here();
    p = p->next;
  }
  return s;
}

static void *worker(void *arg) {
  const struct node *list = arg;
  long s = 0;
  for (;;) {
    atomic_fetch_add(&walks, 1);
    s += walk(list);
  }
  return (void *)s;
}

int main(void) {
  static struct node nodes[100];
  for (int i = 0; i < 100; i++) {
    nodes[i].v = i;
    nodes[i].next = i + 1 < 100 ? &nodes[i + 1] : NULL;
  }
  pthread_t t;
  pthread_create(&t, NULL, worker, nodes);
  while (!atomic_load(&reached))
    usleep(1000);
  printf("exiting while the worker waits in walk %d\n", atomic_load(&walks));
  fflush(stdout);
  exit(0);
}
