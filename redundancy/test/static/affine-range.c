// The affine-range optimisation (LDoctor 3.2.5): the inner loop walks
// text[] with an affine address and the outer loop never writes text, so a
// sampled instance records only the first and last address.  pat[] is
// written by the outer loop: its reads keep their values.
// RUN: %vprof-cc -O1 -fno-inline -fno-unroll-loops -c %s -o /dev/null -mllvm -vprof-print-sources 2>&1 | FileCheck %s
int count_prefix(const char *restrict text, char *restrict pat, int n, int m) {
  int found = 0;
  for (int s = 0; s < m; s++) {
    pat[s] = 'a' + s % 2;
    int j = 0;
    while (j < n && text[j] == 'a')
      j++;
    found += j;
  }
  return found;
}
// CHECK-LABEL: vprof-sources: count_prefix affine-range.c:11:5
// CHECK-DAG: vprof-source: 11:{{[0-9]+}} load ci=iv cl=range
