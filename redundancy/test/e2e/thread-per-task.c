// A thread per task: 10,000 short threads, at most two at a time, each
// running the selected loop once (docs/redundancy.md, "Threads").
// - Memory: a thread that has exited hands its buffers to the next new
//   thread. Before, every thread mapped its own set and kept it (402 MB
//   here). The program checks its own peak RSS.
// - Sampling: a thread's first instance is sampled at the rate (1/100), so
//   about 100 of the 10,000 instances are kept. Before, a thread's first
//   instance only drew the phase, and none was ever kept.
// - loopclass's counters (docs/loopclass.md) pass from thread to thread in
//   the same way; they grew by about 12 KB a thread (121 MB here).
// RUN: %vprof-cc -O1 -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan %t 10000 | FileCheck %s
// CHECK: peak RSS under 100 MB
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
// REP-LABEL: loop scan:
// REP: cross-loop: no {{.*}} instances={{[4-9][0-9]|1[0-9][0-9]}} writes=
// RUN: %loopclass-report %t %t.vprof | FileCheck %s --check-prefix=LOOP
// LOOP: loop scan {{.*}} instances=10000 iterations=
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

static void *task(void *arg) {
  sink += scan(tab, 2000 + (int)(long)arg % 7);
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
