// Loop unrolling writes the odd iteration's index of an even induction
// variable as `or %iv, 1`.  In the probed clone that `or` becomes
// `add nuw nsw` before the loop is demoted and copied, so SCEV still sees
// an affine index once the loop's phis merge the recording copy's values
// and the code generator strength-reduces the address (docs/redundancy.md,
// "Disjoint ors stay adds").  The original function keeps its `or`.  The
// program is the overhead bench's matmul micro-kernel, whose k loop lost
// its strength reduction (17 instructions per two iterations against 8).
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %S/../../../bench/loopclass/matmul.c -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=ORIG
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=PROBED
// ORIG-LABEL: define dso_local void @matmul(
// ORIG: %indvars.iv.next = or i64 %indvars.iv, 1
// PROBED-LABEL: define internal void @matmul.vprof_probed(
// PROBED-NOT: or i64 %indvars
// PROBED: %indvars.iv.next = add nuw nsw i64 %indvars.iv.reg2mem.{{[0-9]+}}, 1
// PROBED-NOT: or i64 %indvars
// PROBED: {{^}}}
