// A program that returns from main while its threads are still recording.
// The profile is written while they keep changing their buffers: appending
// signatures and instances, and thinning their arenas, which moves records.
// Before the writer took a snapshot of each thread's published counts and
// checked its copy against the arena's sequence count
// (docs/redundancy.md, "Threads at exit"), 32 of 40 such profiles were
// refused ("instances: record N overruns the section"), and 2 of 40 runs died
// of SIGSEGV. Five runs, each of which must leave a readable profile.
// RUN: %vprof-cc -O1 -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.1.vprof VPROF_LOOP_FUNCTIONS=scan,weigh VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t 30000 | FileCheck %s
// RUN: %redundancy-report %t %t.1.vprof | FileCheck %s --check-prefix=REP
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.2.vprof VPROF_LOOP_FUNCTIONS=scan,weigh VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t 60000 | FileCheck %s
// RUN: %redundancy-report %t %t.2.vprof | FileCheck %s --check-prefix=REP
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.3.vprof VPROF_LOOP_FUNCTIONS=scan,weigh VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t 90000 | FileCheck %s
// RUN: %redundancy-report %t %t.3.vprof | FileCheck %s --check-prefix=REP
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.4.vprof VPROF_LOOP_FUNCTIONS=scan,weigh VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t 120000 | FileCheck %s
// RUN: %redundancy-report %t %t.4.vprof | FileCheck %s --check-prefix=REP
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.5.vprof VPROF_LOOP_FUNCTIONS=scan,weigh VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t 150000 | FileCheck %s
// RUN: %redundancy-report %t %t.5.vprof | FileCheck %s --check-prefix=REP
// CHECK: exiting with 3 threads running
// REP-LABEL: loop weigh:
// REP: cross-loop: {{yes|no}} rate={{[0-9.]+}} pairs={{[1-9][0-9]*}}
// REP: loss: iterations-dropped={{[0-9]+}}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "Inputs/weigh-scan.h"

static volatile long sink;

static void *worker(void *arg) {
  long id = (long)arg;
  for (;;)
    sink += scan(tab, 200 + (int)id, (int)id + 1);
  return NULL;
}

int main(int argc, char **argv) {
  for (int i = 0; i < 4096; i++)
    tab[i] = (i * 37) % 101;
  pthread_t th[3];
  for (long k = 0; k < 3; k++)
    pthread_create(&th[k], NULL, worker, (void *)k);
  usleep(argc > 1 ? (useconds_t)atoi(argv[1]) : 50000);
  printf("exiting with 3 threads running\n");
  return 0;
}
