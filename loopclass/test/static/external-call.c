// Calls an external function (no body in this TU, not on the pure list):
// conservatively a side effect on every iteration, 1*.  An indirect call
// too, but its probe asks the runtime whether the callee writes anything:
// the loop also carries the class without it (docs/loopclass.md, "Calls
// through pointers"); a block that also writes needs no such class.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

extern void log_item(int);

void log_all(int n) {
  for (int i = 0; i < n; i++)
    log_item(i);
}
// CHECK: vprof-loop: log_all external-call.c:12:3 kind=loop depth=1 class=1* probed sites=1
// CHECK-NEXT: vprof-loop-site: 13:5 external body log_item

void call_each(void (*fn)(int), int n) {
  for (int i = 0; i < n; i++)
    if (i & 1)
      fn(i);
}
// CHECK: vprof-loop: call_each external-call.c:19:3 kind=loop depth=1 class=[0|1]* indirect(direct-class=0*) probed sites=1
// CHECK-NEXT: vprof-loop-site: 21:7 indirect body

int sink[64];
void call_and_store(int (*fn)(int), int n) {
  for (int i = 0; i < n; i++)
    sink[i & 63] = fn(i);
}
// CHECK: vprof-loop: call_and_store external-call.c:28:3 kind=loop depth=1 class=1* probed sites=2
// CHECK-NEXT: vprof-loop-site: 29:18 store body
// CHECK-NEXT: vprof-loop-site: 29:20 indirect body
