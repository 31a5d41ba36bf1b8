// Loop unrolling writes the odd iteration's index of an even induction
// variable as `or %iv, 1`.  In the probed clone that `or` becomes
// `add nuw nsw` before the loop is demoted and copied, so SCEV still sees
// an affine index once the loop's phis merge the recording copy's values
// and the code generator strength-reduces the address (docs/redundancy.md,
// "Disjoint ors stay adds").  The original function keeps its `or`.
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=ORIG
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=PROBED

#define N 320
double a[N * N], b[N * N], c[N * N];

__attribute__((noinline)) void mm(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++)
        s += a[i * N + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}
// ORIG-LABEL: define dso_local void @mm(
// ORIG: %indvars.iv.next = or i64 %indvars.iv, 1
// PROBED-LABEL: define internal void @mm.vprof_probed(
// PROBED-NOT: or i64 %indvars
// PROBED: %indvars.iv.next = add nuw nsw i64 %indvars.iv.reg2mem.{{[0-9]+}}, 1
// PROBED-NOT: or i64 %indvars
// PROBED: {{^}}}

int main(void) {
  mm();
  return (int)c[5];
}
