// The recording copies' code-size budget (docs/redundancy.md, "Code-size
// budget"): innermost loops first, a loop whose copy (with the copies of the
// loops inside it) would take the function's copies past the budget is left
// without redundancy probes and marked over-copy-budget.  A four-deep nest:
// with no minimum and a budget of one function size, the innermost loops
// fit and the outer ones do not; with the defaults (2x, at least 2,000
// instructions) every loop of this small function is probed.
// RUN: %vprof-cc -O2 -fno-unroll-loops -fno-vectorize -c %s -o /dev/null -mllvm -vprof-print-sources -mllvm -vprof-redundancy-copy-budget=1 -mllvm -vprof-redundancy-copy-min=0 2>&1 | FileCheck %s --check-prefix=TIGHT
// RUN: %vprof-cc -O2 -fno-unroll-loops -fno-vectorize -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: %vprof-cc -O2 -fno-unroll-loops -fno-vectorize -c %s -o /dev/null -mllvm -vprof-print-sources -mllvm -vprof-redundancy-copy-budget=0 -mllvm -vprof-redundancy-copy-min=0 2>&1 | FileCheck %s --check-prefix=DEFAULT
void emit(long);
long nest(const long *a, const long *b, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {           // L1
    for (int j = 0; j < n; j++) {         // L2
      for (int k = 0; k < n; k++) {       // L3
        for (int l = 0; l < n; l++)       // L4
          s += a[(i + l) % 64] * b[(j ^ k) % 64];
        emit(s);
      }
      emit(s ^ j);
    }
    emit(s + i);
  }
  return s;
}
// TIGHT: vprof-sources: nest copy-budget.c:14:3 {{.*}} over-copy-budget
// TIGHT: vprof-sources: nest copy-budget.c:15:5 {{.*}} over-copy-budget
// TIGHT: vprof-sources: nest copy-budget.c:16:7 {{.*}} probed
// TIGHT: vprof-sources: nest copy-budget.c:17:9 {{.*}} probed
// DEFAULT-NOT: over-copy-budget
// DEFAULT: vprof-sources: nest copy-budget.c:14:3 {{.*}} probed
// DEFAULT: vprof-sources: nest copy-budget.c:17:9 {{.*}} probed
