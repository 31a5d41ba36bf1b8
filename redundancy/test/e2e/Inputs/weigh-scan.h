// The two loops signals.c and exit-while-recording.c select: scan's loop
// calls weigh, whose reads are sources of scan's iterations (a callee
// copy), over a table of 4,096 values.
static int tab[4096];

__attribute__((noinline)) int weigh(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * (i + 1);
  return s;
}

__attribute__((noinline)) long scan(const int *v, int n, int stride) {
  long total = 0;
  for (int i = 0; i < n; i++)
    total += weigh(v + ((i * stride) & 1023), 16) + v[(i * 7) & 4095];
  return total;
}
