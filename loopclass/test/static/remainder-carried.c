// A value one iteration hands to the next is not a result, even when the
// unroller carries it out of the unrolled body into the remainder it
// made of the same loop (docs/loopclass.md, "Values carried into the
// remainder").  Bubble sort's inner loop at -O2 is unrolled twice; GVN
// keeps `a[i + 1]` in a register for the next iteration's `a[i]`, and that
// register, with the counter, leaves the body for the one-iteration
// remainder.  Before, both were live-out results of every iteration, so
// the loop was 1* and a pass over sorted data (no swap) produced "results"
// in all of its iterations.  Its only results are the swap's stores.
// A sum whose total leaves through the remainder to the return stays a
// result (the remainder's copy of `s +=` hands it on to code that is no
// copy), and so does a value an enclosing loop brings round to the loop
// again (e2e computed-goto.c).
// RUN: %vprof-cc -O2 -c %s -o %t.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s

void bubble(int *a, int n) {
  for (int pass = 0; pass < n - 1; pass++)
    for (int i = 0; i < n - 1 - pass; i++)
      if (a[i] > a[i + 1]) {
        int t = a[i];
        a[i] = a[i + 1];
        a[i + 1] = t;
      }
}
// CHECK: vprof-loop: bubble remainder-carried.c:17:3 kind=loop depth=1 class=[0|1]* probed sites=2
// CHECK-NEXT: vprof-loop-site: 21:14 store body
// CHECK-NEXT: vprof-loop-site: 22:18 store body
// CHECK-NEXT: vprof-loop: bubble remainder-carried.c:18:5 kind=loop depth=2 class=[0|1]* unrolled(x2) probed sites=2
// CHECK-NEXT: vprof-loop-site: 21:14 store body
// CHECK-NEXT: vprof-loop-site: 22:18 store body
// CHECK-NOT: vprof-loop-site
// CHECK: vprof-loop: sum_odd

long sum_odd(const int *a, int n) {
  long s = 0;
#pragma clang loop vectorize(disable) unroll_count(2)
  for (int i = 0; i < n; i++)
    s += a[i] & 1 ? a[i] : 0;
  return s;
}
// (The counter reaches the return through the remainder's copy of `s +=`
// too: it stays an exit result, as before.)
// CHECK-SAME: remainder-carried.c:[[@LINE-6]]:3 kind=loop depth=1 class=1* liveout-iv unrolled(x2) probed sites=2
// CHECK-NEXT: vprof-loop-site: [[@LINE-6]]:7 liveout body
// CHECK-NEXT: vprof-loop-site: [[@LINE-8]]:27 liveout exit

// LICM keeps `nbytes` in a register and writes it back after the loop,
// with the location of the loop's own `nbytes++`: a copy of the loop's
// store, but to an address fixed before the loop.  That is the loop's
// result (the first form of the rule took it for the remainder's work).
static unsigned long nbytes;
static unsigned char out[1 << 16];
void put_uleb(unsigned v) {
  do {
    unsigned char b = v & 0x7f;
    v >>= 7;
    if (v)
      b |= 0x80;
    out[nbytes++ & 0xffff] = b;
  } while (v);
}
unsigned char get(int i) { return out[i & 0xffff]; }
// CHECK: vprof-loop: put_uleb remainder-carried.c:[[@LINE-9]]:3 kind=loop depth=1 class=1* liveout-iv probed sites=2
// CHECK-NEXT: vprof-loop-site: [[@LINE-5]]:28 store body
// CHECK-NEXT: vprof-loop-site: [[@LINE-6]]:15 liveout exit
