// Pruning: a loop-invariant read that nothing in the loop may write is not
// recorded (MemorySSA: its clobber is outside the loop); a read the loop may
// clobber is.
// RUN: clang -g -O0 -Xclang -disable-O0-optnone -c %s -emit-llvm -o %t.bc
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='function(mem2reg),vprof-redundancy' -vprof-print-sources %t.bc -disable-output 2>&1 | FileCheck %s
int sum;
void add_scaled(const int *restrict scale, int *restrict out, int n) {
  for (int k = 0; k < n; k++)
    sum += *scale;
}
// CHECK-LABEL: vprof-sources: add_scaled pruning.c:8:3
// CHECK-DAG: vprof-source: 9:{{[0-9]+}} load ci=pruned-invariant cl=record
// CHECK-DAG: vprof-source: 9:{{[0-9]+}} load ci=record cl=record
