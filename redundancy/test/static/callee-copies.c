// Callee sources without a test in the callee (docs/redundancy.md, "Callee
// sources"): the recorded iterations call copies of the functions on the
// slice's call chains, and the originals are left as compiled.
//  - key() holds sources of scan's loop at depth 2 (scan -> lookup -> key):
//    its copy sends them; key() itself never reads __vprof_red_active;
//  - lookup() has no source of its own but calls key(): its copy only
//    forwards, calling key's copy;
//  - the loop's recording copy calls lookup's copy, the original loop body
//    calls lookup();
//  - count() is a repeated-call unit's callee (it has a loop): a recorded
//    call goes to its copy, the others to count().
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=ORIG
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=UNIT

int table[1024];
int out[1024];

__attribute__((noinline)) int key(int i) { return table[i & 1023] * 3; }
__attribute__((noinline)) int lookup(int i) { return key(i) + key(i + 1); }

__attribute__((noinline)) void scan(int n) {
  for (int k = 0; k < n; k++)
    out[k & 1023] = lookup(table[k & 1023]);
}

// The originals test nothing.
// ORIG-LABEL: define {{.*}}i32 @key(
// ORIG-NOT: __vprof_red_active
// ORIG: ret i32
// ORIG-LABEL: define {{.*}}i32 @lookup(
// ORIG-NOT: __vprof_red_active
// ORIG: ret i32

// CHECK-LABEL: define internal void @scan.vprof_probed(
// CHECK: call i32 @lookup(
// CHECK: call i32 @lookup.vprof_callee(
// CHECK: ret void

// CHECK-LABEL: define internal i32 @key.vprof_callee(
// CHECK: load i32, i32*
// CHECK: call void @__vprof_red_callee_value(
// CHECK-LABEL: define internal i32 @lookup.vprof_callee(
// CHECK-NOT: call void @__vprof_red_callee_value(
// CHECK: call i32 @key.vprof_callee(
// CHECK: call i32 @key.vprof_callee(
// CHECK-NOT: call i32 @key(
// CHECK: ret i32

__attribute__((noinline)) int count(const int *v, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += v[i] > 3;
  return c;
}
int hits;
__attribute__((noinline)) void walk(const int *rows, int n) {
  for (int r = 0; r < n; r++)
    hits += count(table + rows[r], 16);
}
// UNIT-LABEL: define internal void @walk.vprof_probed(
// UNIT: call i32 @__vprof_red_iter_sample(
// UNIT: call i32 @count.vprof_callee(
// UNIT: call void @__vprof_red_iter_end(
// UNIT: call i32 @count(
// UNIT: ret void
