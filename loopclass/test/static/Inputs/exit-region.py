"""Prints a C function whose search loop exits into a 300-way switch: 300
blocks after the loop, each with a side effect whose slice reaches its own
global (deterministic.test)."""
N = 300
print("void g(int);\nextern int out[%d];" % N)
for k in range(N):
    print("extern int v%d; void g%d(int);" % (k, k))
print("int find_then_act(const int *a, int n, int k)\n{\n  int i;")
print("  for (i = 0; i < n; i++)\n    if (a[i] == k)\n      goto found;\n  return -1;")
print("found:\n  switch (a[i + 1] %% %d) {" % N)
for k in range(N):
    print("  case %d: if (v%d > a[i]) g%d(v%d + a[i]); else out[%d] = a[i] * %d; break;"
          % (k, k, k, k, k, k + 3))
print("  }\n  return i;\n}")
