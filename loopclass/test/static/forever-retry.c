// A `for (;;)` retry loop around an inner scan.  At -O2 the optimiser peels
// the first retry and rebuilds the outer back edge without its `llvm.loop`
// range; LLVM's fallback position is then the inner loop's line, and both
// loops used to be reported at 11:5.  The outer loop must stay on line 7:
// its `for` (with `llvm.loop`) or the `{` of its body (without).
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %vprof-cc -O2 %s -o %t2.bin -DMAIN
// RUN: %loopclass-report --table %t2.bin | FileCheck %s --check-prefix=TABLE
struct page { int n; int flags[64]; long sum; };
int prune(struct page *p);
int visible(int f, int h);

void scan(struct page *p, int horizon, long *out, long *retries) {
  int tries = 0;
  for (;;) {
    int retry = 0;
    long live = 0;
    p->sum += prune(p);
    for (int i = 0; i < p->n; i++) {
      if (!visible(p->flags[i], horizon)) {
        retry = 1;
        break;
      }
      live++;
    }
    if (!retry) {
      *out += live;
      break;
    }
    tries++;
  }
  *retries += tries;
}
// O0: vprof-loop: scan forever-retry.c:16:3 kind=loop depth=1
// O2: vprof-loop: scan forever-retry.c:16:12 kind=loop depth=1
// CHECK: vprof-loop: scan forever-retry.c:20:5 kind=loop depth=2

// TABLE: loop [[OUTER:[0-9]+]] scan linkage=scan /{{.*}}/forever-retry.c:16:12 end=31 kind=loop depth=1 parent=-1
// TABLE: loop {{[0-9]+}} scan linkage=scan /{{.*}}/forever-retry.c:20:5 end={{[0-9]+}} kind=loop depth=2 parent=[[OUTER]]
#ifdef MAIN
int prune(struct page *p) { return p->n; }
int visible(int f, int h) { return f < h; }
int main(void) { return 0; }
#endif
