static inline int inner_scan(const int *v, int n) {
  int hits = 0;
  for (int x = 0; x < n; x++)
    if (v[x])
      hits++;
  return hits;
}
