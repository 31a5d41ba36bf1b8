// A thread per task: 10,000 short threads, at most two at a time, each
// running the selected function once (docs/redundancy.md, "Threads").
// - Memory: a thread that has exited hands its buffers to the next new
//   thread. Before, every thread mapped its own set and kept it (402 MB
//   here). The program checks its own peak RSS.
// - loopclass's counters (docs/loopclass.md) pass from thread to thread in
//   the same way; they grew by about 12 KB a thread (121 MB here).
// - Sampling: each task walks a 3-node list once, 30,000 iterations in all.
//   A thread's first iteration is sampled at the rate (1/1000), so about 30
//   are. Before, the first only drew the phase, and about 10 were sampled
//   (an iteration of the same thread after it, with probability 2/1999).
//   The bound is 15: a fresh-clone CI run (ASan build) sampled 16 of the
//   expected 30 (P(X <= 14) is about 0.1 % for a Poisson count of mean 30;
//   the old behaviour reaches 15 about 8 % of the time).
// RUN: %vprof-cc -O1 -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan,walk %t 10000 | FileCheck %s
// CHECK: peak RSS under 100 MB
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
// REP-LABEL: loop walk:
// REP-NEXT: cross-iteration: {{yes|no}} rate={{[0-9.]+}} sampled={{1[5-9]|[2-4][0-9]|5[0-5]}} distinct=
// RUN: %loopclass-report %t %t.vprof | FileCheck %s --check-prefix=LOOP
// LOOP-DAG: loop scan {{.*}} instances=10000 iterations=
// LOOP-DAG: loop walk {{.*}} instances=10000 iterations=30000
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tab[4096];
static volatile long sink;

__attribute__((noinline)) long scan(const int *v, int n) {
  long total = 0;
  for (int i = 0; i < n; i++)
    total += v[(i * 7) & 4095] * (i & 3);
  return total;
}

struct node {
  struct node *next;
  long v;
};

__attribute__((noinline)) long walk(const struct node *p) {
  long s = 0;
  for (; p; p = p->next)
    s += p->v;
  return s;
}

static void *task(void *arg) {
  long k = (long)arg;
  struct node c = {NULL, k % 5}, b = {&c, k % 3}, a = {&b, k % 7};
  sink += scan(tab, 2000 + (int)(k % 7)) + walk(&a);
  return NULL;
}

static long peak_rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0)
      kb = atol(line + 6);
  if (f)
    fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  for (int i = 0; i < 4096; i++)
    tab[i] = (i * 37) % 101;
  for (int k = 0; k < n; k += 2) {
    pthread_t a, b;
    pthread_create(&a, NULL, task, (void *)(long)k);
    pthread_create(&b, NULL, task, (void *)(long)(k + 1));
    pthread_join(a, NULL);
    pthread_join(b, NULL);
  }
  long kb = peak_rss_kb();
  printf(kb > 0 && kb < 100 * 1024 ? "peak RSS under 100 MB\n" : "peak RSS %ld KB\n", kb);
  return 0;
}
