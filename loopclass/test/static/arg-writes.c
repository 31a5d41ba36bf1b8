// A callee that writes only through some of its pointer arguments
// (docs/loopclass.md, "Calls"): the call is a side effect of the loop only
// when an argument it may write through points to memory visible after the
// loop.  `read_page` reads `*space` and writes `buf`; called with a buffer
// declared in the loop body, it writes nothing the loop's caller can see,
// even though `space` is heap memory (mdev15333's page scan).  The first
// version summarised a callee as "writes its pointer arguments", all of
// them, and called the scan 1*.  Not at -O0: there the callee's parameters
// live in stack slots, and a write through a pointer loaded from one counts
// as a write to unknown memory (docs/loopclass.md).
// RUN: %vprof-cc -O1 -c %s -o %t1.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-loops 2>&1 | FileCheck %s
#include <string.h>

struct space { unsigned id, corrupt; };
unsigned long pages_read;

// writes buf (argument 2), reads *s; the nested call passes buf on
__attribute__((noinline)) static void fill(unsigned char *p, unsigned seed) {
  for (int i = 0; i < 64; i++)
    p[i] = (unsigned char)(seed * 31u + (unsigned)i);
}
__attribute__((noinline)) void read_page(const struct space *s, unsigned no,
                                         unsigned char *buf) {
  fill(buf, s->id ^ no);
}

// the same, plus a statistics counter: a global write
__attribute__((noinline)) void read_page_counted(const struct space *s, unsigned no,
                                                 unsigned char *buf) {
  fill(buf, s->id ^ no);
  pages_read++;
}

// writes through its first argument only: called with heap memory there
__attribute__((noinline)) void copy_id(struct space *dst, const struct space *src) {
  dst->id = src->id;
}

void verify(struct space *s, unsigned n, int validate) {
  for (unsigned no = 0; no < n; no++) {
    unsigned char page[64];
    read_page(s, no, page);
    if (page[0] == 0xff && validate)
      s->corrupt++;
  }
}
// CHECK: vprof-loop: verify arg-writes.c:[[@LINE-7]]:3 kind=loop depth=1 class=[0|1]* probed sites=1
// CHECK-NEXT: vprof-loop-site: [[@LINE-4]]:{{[0-9]+}} store body

void verify_counted(struct space *s, unsigned n, int validate) {
  for (unsigned no = 0; no < n; no++) {
    unsigned char page[64];
    read_page_counted(s, no, page);
    if (page[0] == 0xff && validate)
      s->corrupt++;
  }
}
// CHECK: vprof-loop: verify_counted arg-writes.c:[[@LINE-7]]:3 kind=loop depth=1 class=1*
// CHECK: vprof-loop-site: [[@LINE-6]]:{{[0-9]+}} call body read_page_counted

void copy_all(struct space *dst, const struct space *src, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    struct space tmp;
    copy_id(&tmp, &src[i]);
    copy_id(&dst[i], &tmp);
  }
}
// CHECK: vprof-loop: copy_all arg-writes.c:[[@LINE-6]]:3 kind=loop depth=1 class=1* probed sites=1
// CHECK-NEXT: vprof-loop-site: [[@LINE-4]]:{{[0-9]+}} call body copy_id
