/* CPU-bound: naive matrix multiply (1* loops, long instances). */
#include <stdio.h>
#include <stdlib.h>

#define N 320

__attribute__((noinline)) void matmul(const double *a, const double *b, double *c) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++)
        s += a[i * N + k] * b[k * N + j];
      c[i * N + j] = s;
    }
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 8;
  double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N),
         *c = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N * N; i++) {
    a[i] = i % 13;
    b[i] = i % 7;
  }
  double t = 0;
  for (int r = 0; r < reps; r++) {
    matmul(a, b, c);
    t += c[r];
  }
  printf("%.0f\n", t);
  return 0;
}
