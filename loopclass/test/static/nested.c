// Nested loops: each has its own class, depth and parent.  The inner loop
// writes the outer loop's output only on a rare condition; for the outer
// loop that write is inside its body too, and avoidable.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 %s -o %t2.bin -DMAIN
// RUN: %loopclass-report --table %t2.bin | FileCheck %s --check-prefix=TABLE

void last_negative(int (*m)[64], int rows, int *out) {
#pragma clang loop unroll(disable)
  for (int i = 0; i < rows; i++)
#pragma clang loop unroll(disable) vectorize(disable)
    for (int j = 0; j < 64; j++)
      if (m[i][j] < 0)
        out[i] = j;
}
// CHECK: vprof-loop: last_negative nested.c:11:3 kind=loop depth=1 class=[0|1]* probed
// CHECK: vprof-loop-site: 15:16 store body
// CHECK: vprof-loop: last_negative nested.c:13:5 kind=loop depth=2 class=[0|1]* probed
// CHECK: vprof-loop-site: 15:16 store body

// TABLE: loop [[OUTER:[0-9]+]] last_negative linkage=last_negative /{{.*}}/nested.c:11:3 end={{[0-9]+}} kind=loop depth=1 parent=-1 class=[0|1]*
// TABLE: loop {{[0-9]+}} last_negative linkage=last_negative /{{.*}}/nested.c:13:5 end={{[0-9]+}} kind=loop depth=2 parent=[[OUTER]] class=[0|1]*
// TABLE-NEXT: site 15:16 store body
#ifdef MAIN
int main(void) { return 0; }
#endif
