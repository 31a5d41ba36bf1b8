// MySQL#15811: strend(pos) is called with pos, pos+1, ...; each instance
// re-reads the characters the previous one read.  The reads are an affine
// range (first/last address per instance); the start pointer is the
// range's first address already, so it is not recorded on its own (it
// would make every pair differ by one whole source).
// RUN: %vprof-cc -O2 -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
const char *strend(const char *s) {
  while (*s++)
    ;
  return s - 1;
}
// CHECK-LABEL: vprof-sources: strend range-start.c:8:3
// CHECK-DAG: vprof-source: 8:{{[0-9]+}} load ci=iv cl=record
// CHECK-DAG: vprof-source: 7:0 outside ci=- cl=-
