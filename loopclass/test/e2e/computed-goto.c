// A function with a computed goto (an interpreter's `goto *ops[op]`, Lua's
// luaV_execute) is copied for its probes like any other: the copy gets its
// own label table, whose addresses are the copy's blocks (before, such a
// function was not copied, and vprof-loop said its loops never ran).  The
// dispatch loop is counted; its position is the first statement of its
// body, not the function's line (docs/loopclass.md, "Loop positions").
// RUN: %vprof-cc -O2 -fno-unroll-loops %s -o %t -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: nm %t | FileCheck %s --check-prefix=SYM
// RUN: %t 1000 | FileCheck %s --check-prefix=OUT
// RUN: env LD_PRELOAD=%vprof-rt VPROF_OUTPUT=%t.vprof VPROF_LOOP_FUNCTIONS=run %t 1000 | FileCheck %s --check-prefix=OUT
// RUN: %loopclass-report %t %t.vprof | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
static const int code[] = {0, 1, 0, 2, 3};
__attribute__((noinline)) long run(const int *code, long n)
{
    static const void *const ops[] = {&&op_inc, &&op_dbl, &&op_loop, &&op_end};
    long acc = 0, k = n;
    int pc = 0;
#define NEXT goto *ops[code[pc++]]
    NEXT;
op_inc:
    acc++;
    NEXT;
op_dbl:
    acc = acc * 2 % 1000003;
    NEXT;
op_loop:
    if (--k > 0)
        pc = 0;
    NEXT;
op_end:
    return acc;
}
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
    for (int r = 0; r < 100; r++)
        s += run(code, n + r);
    printf("%ld\n", s);
    return 0;
}
// TABLE: vprof-loop: run computed-goto.c:21:5 kind=loop depth=1 {{.*}}probed
// TABLE: vprof-loop: run computed-goto.c:29:9 kind=loop depth=2 {{.*}}probed
// SYM: run.ops.vprof_copy
// SYM: run.vprof_probed
// OUT: 43599901
// Each call runs op_loop k = n + r times (k - 1 jumps back), so it
// dispatches 4k + 1 ops: 419,900 over r = 0..99, the iterations of the
// inner loop the compiler made of the dispatch (the op_loop cycle, at its
// first statement); the outer one is entered once per call.
// CHECK: loop run computed-goto.c:21 kind=loop class=1* instances=100 iterations=314950
// CHECK: loop run computed-goto.c:29 kind=loop class=1* instances=314950 iterations=419900
