// C++ variables without a name are left out of the schema: an unnamed
// parameter, and the `Holder &&` of Holder's implicit move constructor,
// which passes its members on to Buf's.  One such entry made the schema
// reader reject the whole blob, so a C++ program lost all its value samples.
// RUN: %vprof-cxx -O0 -g %s -o %t -mllvm -vprof-print-schema 2> %t.txt
// RUN: FileCheck %s --input-file=%t.txt
// RUN: not grep -e "var= " %t.txt
// RUN: %vprof record -o %t.vprof -- %t 2> %t.rec
// RUN: FileCheck %s --check-prefix=REC --input-file=%t.rec

struct Buf {
  long n;
  Buf() : n(3) {}
  Buf(Buf &&o) : n(o.n) { o.n = 0; }
};
struct Holder {
  Buf b;
  int tag;
};

// The first parameter has no name; the second is tagged by the condition.
__attribute__((noinline)) int pick(int, int limit) {
// CHECK-DAG: fn=pick var=limit line=[[@LINE-1]] tags=cond
  return limit > 4 ? 1 : 0;
}

volatile long sink;

int main(int argc, char **argv) {
  long total = 0;
  for (long i = 0; i < 20000000; i++) {
// CHECK-DAG: fn=main var=i line=[[@LINE-1]] tags=loop,cond
    Holder h;
    h.tag = (int)i;
    Holder g(static_cast<Holder &&>(h));
    total += g.b.n + pick(argc, (int)(i & 7));
  }
  sink = total;
  return argv[0] ? 0 : 1;
}
// REC-NOT: cannot build the variable index
// REC: vprof: wrote {{.*}}: {{[0-9,]+}} PC samples, {{[1-9][0-9,]*}} value samples
