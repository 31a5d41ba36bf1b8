// A loop made by `goto` at the top of a function (Lua's luaD_precall:
// `retry: switch (tag) { ... default: func = tryfunc(func); goto retry; }`)
// has no `llvm.loop` location; LLVM's fallback position is the branch of
// the function's first block, the function's opening line, where no loop
// is. It is reported at the statement after the label, the switch.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
struct val { int tag; long v; struct val *meta; };
long call_c(long v);
struct val *tryfunc(struct val *f);

long precall(struct val *f)
{
 retry:
  switch (f->tag) {
  case 1:
    return call_c(f->v);
  case 2:
    return f->v + 1;
  default:
    f = tryfunc(f);
    goto retry;
  }
}
// CHECK-NOT: vprof-loop: precall goto-retry.c:13:
// CHECK: vprof-loop: precall goto-retry.c:15:{{[0-9]+}} kind=loop depth=1
