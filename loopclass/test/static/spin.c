// Spin loops (docs/loopclass.md, "Spin loops"): an exit decided by an
// atomic or volatile access to a loop-invariant address, and no other write
// than atomics, stack slots, pause hints and yields, is flagged with the
// line of that access.  A CAS retry loop is one too (its failed tries
// change nothing; its new value is computed from the value read, so it is
// flagged an update, unlike a lock's constant 0 -> 1).  A loop that also writes ordinary memory, or whose
// atomic address moves (a list walk with atomic loads), is not.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

#include <sched.h>
#include <stdatomic.h>

atomic_int lock;
atomic_int ready;
atomic_long counter;
volatile int vflag;
long plain[64];

void acquire(void) {
  while (atomic_exchange_explicit(&lock, 1, memory_order_acquire))
    ;
}
// CHECK: vprof-loop: acquire spin.c:[[@LINE-3]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-3]])

// test and test-and-set, with a pause hint in the inner wait
void acquire_ttas(void) {
  for (;;) {
    if (!atomic_exchange_explicit(&lock, 1, memory_order_acquire))
      return;
    while (atomic_load_explicit(&lock, memory_order_relaxed))
      __builtin_ia32_pause();
  }
}
// CHECK: vprof-loop: acquire_ttas spin.c:[[@LINE-7]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-6]])
// CHECK: vprof-loop: acquire_ttas spin.c:[[@LINE-5]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-5]])

void wait_ready(void) {
  while (!atomic_load(&ready))
    sched_yield();
}
// CHECK: vprof-loop: wait_ready spin.c:[[@LINE-3]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-3]])

void wait_volatile(void) {
  while (vflag == 0)
    ;
}
// CHECK: vprof-loop: wait_volatile spin.c:[[@LINE-3]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-3]])

long add_cas(long d) {
  long old = atomic_load(&counter);
  while (!atomic_compare_exchange_weak(&counter, &old, old + d))
    ;
  return old + d;
}
// CHECK: vprof-loop: add_cas spin.c:[[@LINE-4]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-4]], update)

// a lock taken with a compare-and-swap of constants (0 -> 1): a spin, no update
void acquire_cas(void) {
  int expected = 0;
  while (!atomic_compare_exchange_weak(&lock, &expected, 1))
    expected = 0;
}
// CHECK: vprof-loop: acquire_cas spin.c:[[@LINE-3]]:{{[0-9]+}} kind=loop {{.*}}spin(line [[@LINE-3]]){{ }}

// writes ordinary memory while it waits: not a spin
void wait_counting(void) {
  for (int i = 0; !atomic_load(&ready); i++)
    plain[i & 63]++;
}
// CHECK: vprof-loop: wait_counting spin.c:[[@LINE-3]]:{{[0-9]+}} kind=loop
// CHECK-NOT: spin(
// CHECK-SAME: {{$}}

// a list walk with atomic loads: the address moves
struct node { _Atomic(struct node *) next; int key; };
int find(struct node *n, int key) {
  while (n && n->key != key)
    n = atomic_load(&n->next);
  return n != 0;
}
// CHECK: vprof-loop: find spin.c:[[@LINE-4]]:{{[0-9]+}} kind=loop
// CHECK-NOT: spin(
// CHECK-SAME: {{$}}
