#include <stdio.h>
double vec_dot(const double *a, const double *b, int n);
int main(void) {
  double x[4] = {1, 2, 3, 4}, y[4] = {4, 3, 2, 1};
  int len = 4;
  printf("dot=%g\n", vec_dot(x, y, len));
  return 0;
}
