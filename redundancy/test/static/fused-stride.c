// With -vprof-redundancy-fuse-latch, strides and the latch decision are
// chosen per loop: a small innermost loop keeps its strides, and the others
// (an outer loop, a loop that calls) decide in their conditional latch.
// Before 2026-11-24 the flag turned strides off everywhere.  moz477564's
// sibling walk holds an inlined name-compare loop: the walk is not
// innermost and gets the latch decision; the name compare and the buffer
// growth are small innermost loops and keep their strides
// (bench/results/redundancy-overhead.md, "The sampling branch").
// RUN: %vprof-cc -O2 -std=gnu11 -S -emit-llvm -fno-discard-value-names %S/../../../bench/cases/moz477564_sibling/sessionstore.c -o %t.ll -mllvm -vprof-redundancy-fuse-latch
// RUN: FileCheck %s --input-file=%t.ll
// RUN: %vprof-cc -O2 -std=gnu11 -S -emit-llvm -fno-discard-value-names %S/../../../bench/cases/moz477564_sibling/sessionstore.c -o %t.default.ll
// RUN: FileCheck %s --input-file=%t.default.ll --check-prefix=DEFAULT
// CHECK-LABEL: define internal void @xph_generate.vprof_probed(
// CHECK-DAG: {{^}}vprof.red.fastin:
// CHECK-DAG: {{^}}vprof.red.fastin{{[0-9]+}}:
// CHECK-DAG: {{^}}vprof.red.dispatch:
// CHECK-DAG: {{^}}vprof.red.test:{{.*}}preds = %for.body, %vprof.red.dispatch
// CHECK: {{^}}}
// DEFAULT-LABEL: define internal void @xph_generate.vprof_probed(
// DEFAULT-NOT: vprof.red.dispatch
// DEFAULT-DAG: {{^}}vprof.red.fastin:
// DEFAULT-DAG: {{^}}vprof.red.fastin{{[0-9]+}}:
// DEFAULT-NOT: vprof.red.dispatch
// DEFAULT: {{^}}}
