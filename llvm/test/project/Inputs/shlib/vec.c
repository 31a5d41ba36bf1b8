/* A shared library built with vprof-cc carries its own schema. */
double vec_dot(const double *a, const double *b, int n) {
  double dot = 0;
  for (int j = 0; j < n; j++)
    dot += a[j] * b[j];
  return dot;
}
