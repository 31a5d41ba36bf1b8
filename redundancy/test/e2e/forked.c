// A recording is its whole process tree (docs/redundancy.md, "Forked
// processes"): the loops here run only in two forked workers, whose
// profiles are PROFILE.<pid>.  Read alone, the root's profile has nothing
// (ONE).  Read with its workers' (as vprof-loop reads a probed run):
// - `walk`'s iterations are distinct within a worker, but both workers
//   walk the same list: the signatures are pooled over the processes,
//   and each was computed twice (rate 2.00);
// - `count`'s instances repeat within each worker: pairs are made within a
//   process only, so every pair compared is of one worker's instances and
//   redundant, whatever the other worker recorded.
// RUN: %vprof-cc -O2 %s -o %t
// RUN: rm -f %t.vprof %t.vprof.*
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=walk,count VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t 400
// RUN: %redundancy-report %t %t.vprof | FileCheck %s
// RUN: %redundancy-report --one %t %t.vprof | FileCheck %s --check-prefix=ONE
// CHECK: processes: 3
// CHECK-LABEL: loop walk:
// CHECK-NEXT: cross-iteration: yes rate=2.00 sampled=800 distinct=400 fix=memoization
// CHECK-LABEL: loop count:
// CHECK: cross-loop: yes rate=1.00 pairs={{[1-9][0-9]*}} redundant={{[1-9][0-9]*}}
// ONE-NOT: processes:
// ONE-LABEL: loop walk:
// ONE-NEXT: cross-iteration: no rate=0.00 sampled=0
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct node { struct node *next; long v; };
static struct node list[1000];
static long table[1000];
long calls; // the functions are not readonly: every call runs

__attribute__((noinline)) long walk(const struct node *p) {
  long s = 0;
  calls++;
  for (; p; p = p->next)
    s += p->v * 3 + (s >> 7);
  return s;
}

__attribute__((noinline)) long count(const long *v, long n, long key) {
  long c = 0;
  calls++;
  for (long i = 0; i < n; i++)
    c += v[i] == key;
  return c;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 400;
  if (n < 1 || n > 1000)
    return 2;
  for (long i = 0; i < n; i++) {
    table[i] = i * 7 + 3;
    list[i].next = i + 1 < n ? &list[i + 1] : NULL;
    list[i].v = i * 7919L;
  }
  for (int w = 0; w < 2; w++) {
    if (fork() == 0) {
      long c = walk(list);
      for (int r = 0; r < 40; r++)
        c += count(table, n, 24);
      printf("worker %d: %ld\n", w, c);
      fflush(stdout);
      _exit(0);
    }
  }
  while (wait(NULL) > 0)
    ;
  return 0;
}
