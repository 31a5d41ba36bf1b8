// Calls that wait on every call and run in every iteration are marked
// (VP_SITEF_WAIT_EVERY_ITER, docs/loopclass.md "Waiting in every
// iteration"): a C library function whose purpose is to wait (poll, sleep,
// a condition variable, a child process), or a function of the module that
// calls one on every path to its return, in a block that dominates every
// latch.  Not marked: a read (reading the same data again is repeated work,
// not waiting), a wait on some iterations only, a callee that waits on some
// paths only.  An output call that also waits gets both marks.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

#include <poll.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

int fd, ready;
char buf[64];
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

NOINLINE int await_input(void) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, 10);
}

NOINLINE int send_and_wait(void) {
  int sent = write(fd, buf, 1);
  return sent + await_input();
}

NOINLINE int maybe_sleep(int i) {
  if (i & 1)
    usleep(10);
  return i;
}

int polling(int n) {
  struct pollfd p = {fd, POLLIN, 0};
  for (int t = 0; t < n; t++)
    if (poll(&p, 1, 0) > 0)
      return t;
  return -1;
}
// CHECK: vprof-loop: polling waits-every-iteration.c:[[#@LINE-5]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-5]]:9 external body poll waits-every-iteration

void condition(void) {
  while (!ready)
    pthread_cond_wait(&cv, &mu);
}
// CHECK: vprof-loop: condition waits-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK: vprof-loop-site: [[#@LINE-3]]:5 external body pthread_cond_wait waits-every-iteration

void reap(int n) {
  for (int i = 0; i < n; i++)
    waitpid(-1, 0, 0);
}
// CHECK: vprof-loop: reap waits-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:5 external body waitpid waits-every-iteration

int through_callee(int n) {
  int got = 0;
  for (int i = 0; i < n; i++)
    got += await_input();
  return got;
}
// CHECK: vprof-loop: through_callee waits-every-iteration.c:[[#@LINE-4]]:3 kind=loop
// CHECK: vprof-loop-site: [[#@LINE-4]]:12 call body await_input waits-every-iteration

int reading(int n) {
  int got = 0;
  for (int i = 0; i < n; i++)
    got += read(fd, buf, sizeof buf);
  return got;
}
// CHECK: vprof-loop: reading waits-every-iteration.c:[[#@LINE-4]]:3 kind=loop
// CHECK: vprof-loop-site: [[#@LINE-4]]:12 external body read{{( syscall-bytes=64)?$}}

void some_iterations(int n) {
  for (int i = 0; i < n; i++)
    if (i % 64 == 0)
      sleep(1);
}
// CHECK: vprof-loop: some_iterations waits-every-iteration.c:[[#@LINE-4]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:7 external body sleep{{$}}

int some_paths(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += maybe_sleep(i);
  return s;
}
// CHECK: vprof-loop: some_paths waits-every-iteration.c:[[#@LINE-4]]:3 kind=loop
// CHECK: vprof-loop-site: [[#@LINE-4]]:10 call body maybe_sleep{{$}}

int request_reply(int n) {
  int got = 0;
  for (int i = 0; i < n; i++)
    got += send_and_wait();
  return got;
}
// CHECK: vprof-loop: request_reply waits-every-iteration.c:[[#@LINE-4]]:3 kind=loop
// CHECK: vprof-loop-site: [[#@LINE-4]]:12 call body send_and_wait io-every-iteration waits-every-iteration
