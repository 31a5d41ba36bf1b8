// A memo table whose key type truncates: the cache never hits for keys
// above 255, so every iteration recomputes expensive() from the same input.
// Cross-iteration sources: the loaded input and the (truncated) cached key;
// nothing is an induction variable, so iterations are compared by value.
// RUN: %vprof-cc -O1 -fno-inline -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
int expensive(int x);
unsigned char cache_key;
int cache_val;
int total;
void run(const int *in, int n) {
  for (int i = 0; i < n; i++) {
    int v;
    if (cache_key == in[i])
      v = cache_val;
    else {
      v = expensive(in[i]);
      cache_key = in[i];
      cache_val = v;
    }
    total += v;
  }
}
// CHECK-LABEL: vprof-sources: run memo-truncated-key.c:11:3
// CHECK-NOT: IV source
// CHECK-DAG: vprof-source: 13:{{[0-9]+}} load ci=record cl=record
// CHECK-DAG: vprof-source: 13:{{[0-9]+}} load ci=record cl=record
// CHECK-DAG: vprof-source: 16:{{[0-9]+}} call-result ci=record cl=record
// CHECK-DAG: vprof-source: 20:{{[0-9]+}} load ci=record cl=record
