// Every variable passed to a call gets `args` (address-of, field accesses
// and by-value structs included); intrinsics (llvm.dbg.*, llvm.memcpy,
// lifetime markers) are not calls for this purpose.  Parameters carry arg_no.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-schema 2> %t0.txt
// RUN: FileCheck %s --input-file=%t0.txt
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t0.txt
// The schema is taken before optimization: the same at every -O level.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-schema 2> %t2.txt
// RUN: diff %t0.txt %t2.txt

#include <string.h>

struct pair { long a, b; };
struct big { long v[16]; };
void sink(long x, const char *tag);
void sink_ptr(int *p);
void sink_pair(struct pair p);
void sink_big(struct big b);
int (*callback)(int);
// The callee operand of an indirect call is not an argument.
// CHECK-DAG: fn=#global var=callback line=[[@LINE-2]] tags=global kind=ptr_other size=8 pointee=0 arg=0 type="int (*)(int)"

void caller(long amount, const char *label, struct pair *pp) {
// CHECK-DAG: fn=caller var=amount line=[[@LINE-1]] tags=args kind=sint size=8 pointee=0 arg=1 type="long"
// CHECK-DAG: fn=caller var=label line=[[@LINE-2]] tags=args kind=ptr_basic size=8 pointee=1 arg=2 type="const char *"
// CHECK-DAG: fn=caller var=pp line=[[@LINE-3]] tags=args kind=ptr_other size=8 pointee=0 arg=3 type="struct pair *"
  int local = 4;
// CHECK-DAG: fn=caller var=local line=[[@LINE-1]] tags=args kind=sint size=4
  struct pair copy = *pp;
// CHECK-DAG: fn=caller var=copy line=[[@LINE-1]] tags=args kind=aggregate size=16
  struct big blob = {{0}};
// CHECK-DAG: fn=caller var=blob line=[[@LINE-1]] tags=args kind=aggregate size=128
  char dst[8], src[8] = "abc";
// memcpy became llvm.memcpy: an intrinsic, so dst/src are not call arguments.
// NEG-NOT: var=dst
// NEG-NOT: var=src
  sink(amount, label);
  sink_ptr(&local);
  sink(pp->b, "field");
  sink_pair(copy);
  sink_big(blob);
  callback(local);
  memcpy(dst, src, sizeof dst);
}
