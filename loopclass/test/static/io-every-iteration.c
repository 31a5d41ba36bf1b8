// Calls that do I/O on every call and run in every iteration are marked
// (VP_SITEF_IO_EVERY_ITER, docs/loopclass.md "I/O in every iteration"):
// a C library output function, or a function of the module that calls one
// on every path to its return (a write whose failure aborts still counts),
// in a block that dominates every latch.  Not marked: I/O on some
// iterations only, a callee that does I/O on some paths only, a call
// through a pointer, and a callee with no I/O.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

int fd;
char page[256];
int counter;

NOINLINE void put(const void *p, size_t n) {
  if (write(fd, p, n) != (ssize_t)n)
    abort();
}

NOINLINE void commit(int id) {
  counter += id;
  put(page, sizeof page);
}

NOINLINE void maybe_put(int id) {
  counter += id;
  if (id & 1)
    put(page, sizeof page);
}

NOINLINE void no_io(int id) { counter += id; }

void direct(int n) {
  for (int i = 0; i < n; i++)
    fputs("x", stdout);
}
// CHECK: vprof-loop: direct io-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:5 external body {{fputs|fputc}} io-every-iteration

void synced(int n) {
  for (int i = 0; i < n; i++) {
    counter += i;
    fsync(fd);
  }
}
// CHECK: vprof-loop: synced io-every-iteration.c:[[#@LINE-5]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-5]]:13 store body{{$}}
// CHECK-NEXT: vprof-loop-site: [[#@LINE-5]]:5 external body fsync io-every-iteration

void through_callees(int n) {
  for (int i = 0; i < n; i++)
    commit(i);
}
// CHECK: vprof-loop: through_callees io-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:5 call body commit io-every-iteration

void some_iterations(int n) {
  for (int i = 0; i < n; i++)
    if (i % 64 == 0)
      commit(i);
}
// CHECK: vprof-loop: some_iterations io-every-iteration.c:[[#@LINE-4]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:7 call body commit{{$}}

void some_paths(int n) {
  for (int i = 0; i < n; i++)
    maybe_put(i);
}
// CHECK: vprof-loop: some_paths io-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:5 call body maybe_put{{$}}

void pointer(void (*fn)(int), int n) {
  for (int i = 0; i < n; i++)
    fn(i);
}
// CHECK: vprof-loop: pointer io-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:5 indirect body{{$}}

void without_io(int n) {
  for (int i = 0; i < n; i++)
    no_io(i);
}
// CHECK: vprof-loop: without_io io-every-iteration.c:[[#@LINE-3]]:3 kind=loop
// CHECK-NEXT: vprof-loop-site: [[#@LINE-3]]:5 call body no_io{{$}}
