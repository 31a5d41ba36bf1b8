// Values wider than 64 bits are sources like any other (docs/redundancy.md,
// "Vector sources"): a vectorized loop's vector loads, __int128, long double
// and a call's struct result (ldiv's { i64, i64 }).  Before, they were "unsupported": nothing was recorded for them,
// and a vectorized loop's cross-loop verdict rested on its outside values
// alone (e2e vector-sources.c).  The probes send such a value in 64-bit
// words: one per lane of a vector (in lane order, as the scalar loop would),
// two for an __int128, a long double or an ldiv_t.
// RUN: clang -g -O2 -fno-unroll-loops -Xclang -disable-llvm-passes -c %s -emit-llvm -o %t.bc
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' -vprof-print-sources %t.bc -disable-output 2>&1 | FileCheck %s
// RUN: opt -load %vprof-plugin -load-pass-plugin %vprof-plugin -passes='default<O2>,vprof-redundancy' %t.bc -S -o - | FileCheck %s --check-prefix=IR
long total(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
__int128 total128(const __int128 *a, int n) {
  __int128 s = 0;
  for (int i = 0; i < n; i++)
    s ^= a[i];
  return s;
}
long double totalld(const long double *a, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
#include <stdlib.h>
long quots(const long *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    ldiv_t q = ldiv(a[i], 7);
    s = s * 31 + q.quot;
  }
  return s;
}
// The vectorized loop (its loads are <4 x i32>) and the scalar remainder.
// CHECK-LABEL: vprof-sources: total wide-sources.c:13:3
// CHECK-NOT: unsupported
// CHECK: vprof-source: 14:{{[0-9]+}} load ci=iv cl=record
// CHECK-LABEL: vprof-sources: total128 wide-sources.c:19:3
// CHECK-NOT: unsupported
// CHECK: vprof-source: 20:{{[0-9]+}} load ci=iv cl=record
// CHECK-LABEL: vprof-sources: totalld wide-sources.c:25:3
// CHECK-NOT: unsupported
// CHECK: vprof-source: 26:{{[0-9]+}} load ci=iv cl=record
// CHECK-LABEL: vprof-sources: quots wide-sources.c:32:3
// CHECK-NOT: unsupported
// CHECK: vprof-source: 33:{{[0-9]+}} call-result ci=iv cl=record
//
// The recording copy of total sends each lane of a vector load, under the
// load's source id.
// IR-LABEL: define {{.*}} @total.vprof_probed(
// IR: [[V:%wide.load.vprec[0-9]*]] = load <[[N:[0-9]+]] x i32>
// IR: [[L0:%[0-9]+]] = extractelement <[[N]] x i32> [[V]], i64 0
// IR-NEXT: [[Z0:%[0-9]+]] = zext i32 [[L0]] to i64
// IR-NEXT: call void @__vprof_red_value({{.*}}, i32 [[SRC:[0-9]+]], i64 [[Z0]], i32 2)
// IR-NEXT: [[L1:%[0-9]+]] = extractelement <[[N]] x i32> [[V]], i64 1
// IR-NEXT: [[Z1:%[0-9]+]] = zext i32 [[L1]] to i64
// IR-NEXT: call void @__vprof_red_value({{.*}}, i32 [[SRC]], i64 [[Z1]], i32 2)
// The __int128 load: its low word, then its high word.
// IR-LABEL: define {{.*}} @total128.vprof_probed(
// IR: [[LO:%[0-9]+]] = trunc i128 [[W:%[0-9]+]] to i64
// IR-NEXT: call void @__vprof_red_value({{.*}}, i32 [[S128:[0-9]+]], i64 [[LO]], i32 2)
// IR-NEXT: [[SH:%[0-9]+]] = lshr i128 [[W]], 64
// IR-NEXT: [[HI:%[0-9]+]] = trunc i128 [[SH]] to i64
// IR-NEXT: call void @__vprof_red_value({{.*}}, i32 [[S128]], i64 [[HI]], i32 2)
