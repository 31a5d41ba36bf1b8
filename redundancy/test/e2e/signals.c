// A signal handler that runs a recorded loop while its thread is inside the
// runtime (half-way through an append, a copy into the arena or a thinning
// of it) must leave the runtime's state alone: before the guard
// (docs/redundancy.md, "Signals") this program died of SIGSEGV in
// vp_red_thin_instances on every run at rate 1.  Threads and a fork run the
// same loops meanwhile.  The program checks its own results against a copy
// of the loops that is not selected (it runs as compiled).
// RUN: %vprof-cc -O1 -pthread %s -o %t
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=scan,weigh VPROF_RED_ITER_RATE=1 VPROF_RED_INSTANCE_RATE=1 %t | FileCheck %s
// CHECK: handler ran {{[1-9][0-9]*}} times
// CHECK-NEXT: results ok
// RUN: %redundancy-report %t %t.vprof | FileCheck %s --check-prefix=REP
// REP-LABEL: loop weigh:
// REP: cross-loop: {{yes|no}} rate={{[0-9.]+}} pairs={{[1-9][0-9]*}}
// REP-LABEL: loop scan:
// REP: cross-loop: {{yes|no}} rate={{[0-9.]+}} pairs={{[1-9][0-9]*}}
// REP: loss: iterations-dropped={{[0-9]+}}
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "Inputs/weigh-scan.h"

static volatile long in_handler;
static volatile sig_atomic_t handled;

// The same loops, not selected: the reference.
__attribute__((noinline)) int weigh_ref(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * (i + 1);
  return s;
}

__attribute__((noinline)) long scan_ref(const int *v, int n, int stride) {
  long total = 0;
  for (int i = 0; i < n; i++)
    total += weigh_ref(v + ((i * stride) & 1023), 16) + v[(i * 7) & 4095];
  return total;
}

static void handler(int sig) {
  (void)sig;
  in_handler += scan(tab, 64, 3) - scan_ref(tab, 64, 3);
  handled++;
}

static void *worker(void *arg) {
  long id = (long)arg, bad = 0;
  for (int r = 0; r < 600; r++)
    bad += scan(tab, 200 + (int)id, (int)id + 1) != scan_ref(tab, 200 + (int)id, (int)id + 1);
  return (void *)bad;
}

int main(void) {
  for (int i = 0; i < 4096; i++)
    tab[i] = (i * 37) % 101;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 200}, {0, 200}};
  setitimer(ITIMER_REAL, &it, NULL);
  pthread_t th[2];
  for (long k = 0; k < 2; k++)
    pthread_create(&th[k], NULL, worker, (void *)k);
  long bad = 0;
  for (int r = 0; r < 1500; r++) {
    bad += scan(tab, 300, 5) != scan_ref(tab, 300, 5);
    if (r % 500 == 250) {
      pid_t p = fork();
      if (p == 0)
        _exit(scan(tab, 500, 2) != scan_ref(tab, 500, 2));
      int st = 1;
      waitpid(p, &st, 0);
      bad += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
  }
  for (int k = 0; k < 2; k++) {
    void *b;
    pthread_join(th[k], &b);
    bad += (long)b;
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  printf("handler ran %d times\n", (int)handled);
  printf(bad || in_handler ? "results WRONG\n" : "results ok\n");
  return 0;
}
