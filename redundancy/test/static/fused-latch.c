// A loop with cross-iteration sampling that goes back through a
// conditional branch decides with one branch per iteration: the latch
// decrements the countdown and goes straight back to the body when the
// loop goes on and the countdown has room (the two flags combined in i8, so
// instruction selection keeps one branch); otherwise a dispatch block goes
// to the header's test (the sampling decision) or out, giving back the
// decrement of the iteration that does not run (docs/redundancy.md, "One
// branch per iteration").  The program is e2e iter-rate.c's `walk`, whose
// sampling rate that test checks.
// The latch decision is opt-in (-vprof-redundancy-fuse-latch): with
// countdowns that run out at 0 the header's `add; je` is one fused
// instruction, cheaper than combining the flags on most loops.
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %S/../e2e/iter-rate.c -o %t.ll -mllvm -vprof-redundancy-fuse-latch -mllvm -vprof-redundancy-stride=0
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %vprof-cc -O2 -S -emit-llvm -fno-discard-value-names %S/../e2e/iter-rate.c -o %t.default.ll
// RUN: FileCheck %s --input-file=%t.default.ll --check-prefix=DEFAULT
// DEFAULT-LABEL: define internal i64 @walk.vprof_probed(
// DEFAULT-NOT: vprof.red.dispatch
// DEFAULT: vprof.red.test:
// DEFAULT-NEXT: icmp eq i32 %{{[0-9a-z.]+}}, 0
// DEFAULT-NOT: vprof.red.dispatch
// DEFAULT: {{^}}}

// CHECK-LABEL: define internal i64 @walk.vprof_probed(
// A countdown runs out at exactly 0 (docs/redundancy.md, "Countdowns run
// out at 0"): the instance decision folds into `addl $-1, %fs:slot; je`.
// CHECK: [[ICD:%[0-9a-z.]+]] = sub i32 %{{.*}}, 1
// CHECK: icmp eq i32 [[ICD]], 0
// CHECK: vprof.red.test:
// CHECK: icmp eq i32 %vprof.red.cd.{{[0-9]+}}, 0
// CHECK: br i1 %{{.*}}, label %vprof.red.sample, label %vprof.red.body
// CHECK: vprof.red.body:
// CHECK: [[CD:%[0-9a-z.]+]] = sub i32 %vprof.red.cd.{{[0-9]+}}, 1
// CHECK: [[OUT:%[0-9a-z.]+]] = icmp eq i32 [[CD]], 0
// CHECK: [[ROOM:%[0-9a-z.]+]] = xor i1 [[OUT]], true
// CHECK: zext i1 [[ROOM]] to i8
// CHECK: [[BOTH:%[0-9a-z.]+]] = and i8
// CHECK: [[GO:%[0-9a-z.]+]] = icmp ne i8 [[BOTH]], 0
// CHECK-NEXT: br i1 [[GO]], label %vprof.red.body, label %vprof.red.dispatch
// CHECK: vprof.red.dispatch:
// CHECK-NEXT: [[BACK:%[0-9a-z.]+]] = add i32 [[CD]], 1
// CHECK-NEXT: select i1 [[MORE:%[0-9a-z.]+]], i32 [[CD]], i32 [[BACK]]
// CHECK-NEXT: br i1 [[MORE]], label %vprof.red.test, label %for.end

