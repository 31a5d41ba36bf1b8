// Which library calls get the string-rescan probe (docs/redundancy.md,
// "Strings scanned again"): a repeated-call unit of a scan that walks one
// string from its start (strlen, strstr's haystack, strcat's destination)
// counts its instance countdown down before the call and, when it runs
// out, sends the string's chunk hashes (__vprof_red_prefix, source 96 + the
// argument) ahead of the call; strcmp and memcmp, which read two operands
// alike, do not.  strcat writes memory, yet is a unit (its destination's
// scan).  The e2e test is e2e/string-rescan.c.
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s --check-prefix=UNITS
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %vprof-cc -O2 -S -emit-llvm %s -o %t.off.ll -mllvm -vprof-prefix-pairs=0
// RUN: FileCheck %s --input-file=%t.off.ll --check-prefix=OFF
// OFF-NOT: call void @__vprof_red_prefix
#include <string.h>

char *names[64];

void join(char *out, int n) {
  for (int i = 0; i < n; i++)
    strcat(out, names[i & 63]);
}
// UNITS: vprof-sources: strcat string-scan-pairs.c:[[@LINE-2]]:5 sources=2 side-effects=0 probed repeated-call-unit
// CHECK-LABEL: define {{.*}} @join.vprof_probed(
// CHECK: call void @__vprof_red_prefix(i8* {{.*}}, i32 {{[0-9]+}}, i32* {{.*}}, i32 96, i8* {{.*}}, i64
// CHECK: call i8* @strcat(
// CHECK-LABEL: define

int count(const char *key, int n) {
  int hits = 0;
  for (int i = 0; i < n; i++)
    hits += strcmp(names[i & 63], key) == 0;
  return hits;
}
// UNITS: vprof-sources: strcmp string-scan-pairs.c:[[@LINE-3]]:13 sources=2 side-effects=0 probed repeated-call-unit
// CHECK-LABEL: define {{.*}} @count.vprof_probed(
// CHECK-NOT: __vprof_red_prefix
// CHECK: call i32 @strcmp(
// CHECK-NOT: __vprof_red_prefix
// CHECK-LABEL: define
