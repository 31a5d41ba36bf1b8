// java.lang.String.indexOf (LDoctor Figure 6, Apache34464): the outer loop's
// only result is `return i` from inside it, past two inner loops.  LLVM
// shapes it differently at each level: -O0 stores the return slot in a block
// on the way out; -O1 folds the return into a select carried round the loop
// (`r = found ? i : r`) with a shared, non-dedicated exit block; -O2 merges
// the returned values in one phi after the loop.  Each time the loop is
// 0*1? with a return site on the way out, and nothing in the body.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O1 -c %s -o %t1.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
int indexOf(const char *s, int n, const char *t, int m, int from) {
  char first = t[0];
  int max = n - m;
  for (int i = from; i <= max; i++) {
    if (s[i] != first)
      while (++i <= max && s[i] != first)
        ;
    if (i <= max) {
      int j = i + 1;
      int end = j + m - 1;
      for (int k = 1; j < end && s[j] == t[k]; j++, k++)
        ;
      if (j == end)
        return i;
    }
  }
  return -1;
}
// CHECK: vprof-loop: indexOf return-from-nested.c:14:3 kind=loop depth=1 class=0*1?
// CHECK-NOT: body
// CHECK: vprof-loop-site: {{1[4-9]|2[0-9]}}:{{[0-9]+}} return exit
// CHECK-NOT: body
// CHECK: vprof-loop: indexOf return-from-nested.c:16:7 kind=loop depth=2 class=0*1?
