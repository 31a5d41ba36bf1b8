// Every variable a branch condition reads gets `cond`: traced through
// loads, casts, compares, arithmetic, && / ||, GEP field and index
// accesses (p->len -> p), switch and ?: conditions, __builtin_expect.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-schema 2> %t0.txt
// RUN: FileCheck %s --input-file=%t0.txt
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t0.txt
// The schema is taken before optimization: the same at every -O level.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-schema 2> %t2.txt
// RUN: diff %t0.txt %t2.txt

struct buf { unsigned len; unsigned cap; char *data; };
struct buf global_buf;
// CHECK-DAG: fn=#global var=global_buf line=[[@LINE-1]] tags=cond,global kind=aggregate size=16
int verbose;
// CHECK-DAG: fn=#global var=verbose line=[[@LINE-1]] tags=cond,global kind=sint size=4

int classify(struct buf *p, unsigned need, int mode, int *flags, int idx) {
// CHECK-DAG: fn=classify var=p line=[[@LINE-1]] tags=cond kind=ptr_other size=8 pointee=0 arg=1 type="struct buf *"
// CHECK-DAG: fn=classify var=need line=[[@LINE-2]] tags=cond kind=uint size=4 pointee=0 arg=2 type="unsigned int"
// CHECK-DAG: fn=classify var=mode line=[[@LINE-3]] tags=cond kind=sint size=4 pointee=0 arg=3
// CHECK-DAG: fn=classify var=flags line=[[@LINE-4]] tags=cond kind=ptr_basic size=8 pointee=4 arg=4 type="int *"
// CHECK-DAG: fn=classify var=idx line=[[@LINE-5]] tags=cond kind=sint size=4 pointee=0 arg=5
  int result = 0, unrelated = 5;
// CHECK-DAG: fn=classify var=result line=[[@LINE-1]] tags=cond kind=sint
// CHECK-DAG: fn=classify var=unrelated line=[[@LINE-2]] tags=cond kind=sint
  if (p->len + need > p->cap)
    result = 1;
  switch (mode) {
  case 0: result += 2; break;
  case 7: result += 3; break;
  default: break;
  }
  if (flags[idx] && __builtin_expect(verbose, 0))
    result = -result;
  if (global_buf.len > 4 || result < 0)
    result++;
  return unrelated > 0 ? result : -1;
}

int not_watched(int a, int b) {
  int c = a * b;
  return c + 1;
}
// Neither a condition nor a call nor a loop: nothing of not_watched.
// NEG-NOT: fn=not_watched
