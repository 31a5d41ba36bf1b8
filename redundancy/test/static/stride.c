// Strides (docs/redundancy.md, "Strides"): a small innermost loop with
// cross-iteration sampling runs its unsampled iterations in blocks of four
// copies of its body, with one countdown test per block.  The header goes
// the fast way while the countdown is above 4 (taking 4 off), else the
// slow way (the decrement and the sampling decision, as before); the fast
// copies' exits give back the iterations of the block that did not run,
// 3, 2, 1 and 0.  e2e iter-rate.c checks that the sampling rate is
// unchanged (it fails without the give-back), e2e stride-outer.c that an
// outer loop records its values from the fast copies.  An outer loop, a
// loop whose body calls a function (gcc46401's walk, which calls
// candidate_equal_p: the call costs more than the countdown, and four call
// sites made it slower), and the loop with strides off get none.
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %S/../e2e/iter-rate.c -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %S/../e2e/iter-rate.c -o %t.off.ll -mllvm -vprof-redundancy-stride=0
// RUN: FileCheck %s --input-file=%t.off.ll --check-prefix=OFF
// RUN: %vprof-cc -O1 -fno-inline -S -emit-llvm -fno-discard-value-names %S/../e2e/stride-outer.c -o %t.outer.ll
// RUN: FileCheck %s --input-file=%t.outer.ll --check-prefix=OUTER
// RUN: %vprof-cc -O2 -std=gnu11 -S -emit-llvm -fno-discard-value-names %S/../../../bench/cases/gcc46401_seqpt/c-common.c -o %t.call.ll
// RUN: FileCheck %s --input-file=%t.call.ll --check-prefix=CALL
// A stride count past 64 copies of a body is refused with one error line:
// RUN: not %vprof-cc -O2 -c %S/../e2e/iter-rate.c -o %t.o -mllvm -vprof-redundancy-stride=65 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: vprof-redundancy: -vprof-redundancy-stride=65 is too large (at most 64 copies of a loop body)
// BAD-NOT: Stack dump
// CHECK-LABEL: define internal i64 @walk.vprof_probed(
// CHECK: [[CD:%vprof.red.cd.[0-9]+]] = phi i32
// CHECK-NEXT: [[FAST:%[0-9]+]] = icmp sgt i32 [[CD]], 4
// CHECK-NEXT: br i1 [[FAST]], label %vprof.red.fastin, label %vprof.red.slow
// CHECK: vprof.red.fastin:
// CHECK-NEXT: [[LEFT:%[0-9]+]] = sub i32 [[CD]], 4
// CHECK-NEXT: br label %vprof.red.body.vprof.fast,
// CHECK: vprof.red.slow:
// CHECK-NEXT: sub i32 [[CD]], 1
// CHECK: vprof.red.fastout:
// CHECK-NEXT: add i32 [[LEFT]], 3
// CHECK: vprof.red.fastout{{[0-9]+}}:
// CHECK-NEXT: add i32 [[LEFT]], 2
// CHECK: vprof.red.fastout{{[0-9]+}}:
// CHECK-NEXT: add i32 [[LEFT]], 1
// CHECK: vprof.red.fastout{{[0-9]+}}:
// CHECK-NEXT: br label
// CHECK: vprof.red.body.vprof.fast:
// CHECK: br i1 %{{.*}}, label %vprof.red.fastout, label %vprof.red.body.vprof.fast{{[0-9]+}}
// CHECK: {{^}}}
// OFF-LABEL: define internal i64 @walk.vprof_probed(
// OFF-NOT: vprof.red.fast
// OFF: {{^}}}
// OUTER-LABEL: define internal void @prefix.vprof_probed(
// OUTER: vprof.red.fastin:
// OUTER-NOT: vprof.red.fastin{{[0-9]+}}:
// OUTER: {{^}}}
// CALL-LABEL: define internal {{.*}} @merge_tlist.vprof_probed(
// CALL-NOT: vprof.red.fast
// CALL: {{^}}}
