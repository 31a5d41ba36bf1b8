// Loop induction variables (ScalarEvolution affine add recurrences) get
// `loop`, at -O0, -O2 and -O3 alike: for, while, do-while, nested loops, a
// pointer IV, a down-counting parameter.  Accumulators and list walks are
// not IVs.
// RUN: %vprof-cc -O0 -c %s -o %t0.o -mllvm -vprof-print-schema 2> %t0.txt
// RUN: FileCheck %s --input-file=%t0.txt
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t0.txt
// The schema is taken before optimization: the same at every -O level.
// RUN: %vprof-cc -O2 -c %s -o %t2.o -mllvm -vprof-print-schema 2> %t2.txt
// RUN: diff %t0.txt %t2.txt
// RUN: %vprof-cc -O3 -c %s -o %t3.o -mllvm -vprof-print-schema 2> %t3.txt
// RUN: diff %t0.txt %t3.txt

struct node { int value; struct node *next; };

int sum_for(const int *a, int n) {
// CHECK-DAG: fn=sum_for var=n line=[[@LINE-1]] tags=cond kind=sint size=4 pointee=0 arg=2 type="int"
// `a` is only indexed, `acc` only accumulates: neither is watched.
// NEG-NOT: fn=sum_for var=a{{ }}
// NEG-NOT: fn=sum_for var=acc
  int acc = 0;
  for (int i = 0; i < n; i++)
// CHECK-DAG: fn=sum_for var=i line=[[@LINE-1]] tags=loop,cond kind=sint size=4 pointee=0 arg=0
    acc += a[i] * i;
  return acc;
}

unsigned count_while(unsigned limit) {
// CHECK-DAG: fn=count_while var=limit line=[[@LINE-1]] tags=cond kind=uint size=4 pointee=0 arg=1
  unsigned steps = 0, k = 0;
// CHECK-DAG: fn=count_while var=k line=[[@LINE-1]] tags=loop,cond kind=uint
// CHECK-DAG: fn=count_while var=steps line=[[@LINE-2]] tags=loop kind=uint
  while (k < limit) {
    k += 3;
    steps++;
  }
  return steps;
}

int countdown(int n) {
// CHECK-DAG: fn=countdown var=n line=[[@LINE-1]] tags=loop,cond kind=sint size=4 pointee=0 arg=1
// NEG-NOT: fn=countdown var=work
  int work = 0;
  do {
    work ^= n;
  } while (--n > 0);
  return work;
}

long nested(long rows, long cols, long *m) {
// CHECK-DAG: fn=nested var=rows line=[[@LINE-1]] tags=cond kind=sint size=8 pointee=0 arg=1
// CHECK-DAG: fn=nested var=cols line=[[@LINE-2]] tags=cond kind=sint size=8 pointee=0 arg=2
  long total = 0;
  for (long r = 0; r < rows; r++)
// CHECK-DAG: fn=nested var=r line=[[@LINE-1]] tags=loop,cond kind=sint size=8
    for (long c = 0; c < cols; c += 2)
// CHECK-DAG: fn=nested var=c line=[[@LINE-1]] tags=loop,cond kind=sint size=8
      total += m[r * cols + c];
  return total;
}

int strlen_ptr(const char *s) {
  const char *p;
// CHECK-DAG: fn=strlen_ptr var=p line=[[@LINE-1]] tags=loop,cond kind=ptr_basic size=8 pointee=1 arg=0 type="const char *"
  for (p = s; *p; p++)
    ;
  return (int)(p - s);
}

int list_sum(struct node *head) {
  int s = 0;
  for (struct node *it = head; it; it = it->next)
// `it` follows pointers, no add recurrence: a condition variable only.
// CHECK-DAG: fn=list_sum var=it line=[[@LINE-2]] tags=cond kind=ptr_other size=8
// NEG-NOT: var=it {{.*}}tags=loop
// NEG-NOT: fn=list_sum var=s{{ }}
    s += it->value;
  return s;
}

// Exit-tested accumulators: a loop-carried integer that grows by a varying
// amount and that the exit tests counts the loop's progress like an IV
// (moz347306's note walk), so it gets `loop` (docs/schema-pass.md).
long note_offset(const unsigned char *notes, long target) {
  long offset = 0;
// CHECK-DAG: fn=note_offset var=offset line=[[@LINE-1]] tags=loop,cond kind=sint size=8
  for (const unsigned char *sn = notes; *sn; sn += 1 + (*sn >> 6)) {
    offset += *sn & 63;
    if (offset == target && (*sn & 1))
      return sn - notes;
  }
  return -1;
}

unsigned drain(unsigned budget, const unsigned *cost) {
  unsigned ops = 0;
// CHECK-DAG: fn=drain var=budget line=[[@LINE-2]] tags=loop,cond kind=uint size=4
  while (budget > cost[ops & 7])
    budget -= cost[ops++ & 7];
  return ops;
}

// An accumulator that a condition reads without leaving the loop is a
// condition variable only.
int over_limit(const int *a, int n) {
  long acc = 0;
// CHECK-DAG: fn=over_limit var=acc line=[[@LINE-1]] tags=cond kind=sint size=8
// NEG-NOT: fn=over_limit var=acc {{.*}}tags=loop
  int hits = 0;
  for (int i = 0; i < n; i++) {
    acc += a[i];
    if (acc > 100)
      hits++;
  }
  return hits;
}
