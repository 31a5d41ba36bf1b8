// The loop a source line is in, as `vprof rank` gives it to anomalous lines
// (vp_loop_locate over the .vprof.loops table; docs/rank.md,
// "Localisation"): the innermost natural loop of the function that holds
// the line; in a recursive function, outside its loops, the recursion (a
// loop of calls, whose table line is the function's); else none (0).
// RUN: %vprof-cc -O1 -g %s -o %t
// CHECK: :[[#INNER+1]] -> [[#INNER]]
// CHECK-NEXT: :[[#INNER]] -> [[#INNER]]
// CHECK-NEXT: :[[#INNER+3]] -> [[#OUTER]]
// CHECK-NEXT: :[[#OUTER+6]] -> 0
// CHECK-NEXT: :[[#REC+1]] -> [[#REC]]
// CHECK-NEXT: :[[#REC+5]] -> [[#REC+4]]
// CHECK-NEXT: :[[#REC+6]] -> [[#REC]]
// CHECK-NEXT: :[[#OTHER]] -> 0

// RUN: %loopclass-report --locate %t walk %s %(line+5) %(line+4) %(line+7) %(line+9) > %t.out
long walk(const int *a, int n, int m) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      s += a[i * m + j];
    }
    s ^= i;
  }
  return s;
}
// RUN: %loopclass-report --locate %t depth %s %(line+2) %(line+6) %(line+7) >> %t.out
__attribute__((noinline)) int depth(const int *a, int n) {
  if (n <= 0)
    return 0;
  int s = 0;
  for (int k = 0; k < 3; k++)
    s += a[k];
  return s + depth(a, n - 1);
}
// RUN: %loopclass-report --locate %t other %s %(line+1) >> %t.out
int other(int x) { return x + 1; }
// RUN: FileCheck %s --input-file=%t.out -D#OUTER=%(line-19) -D#INNER=%(line-18) -D#REC=%(line-10) -D#OTHER=%(line-1)

int main(int argc, char **argv) {
  static int a[64];
  (void)argv;
  return (int)walk(a, argc, 8) + depth(a, argc) + other(argc);
}
