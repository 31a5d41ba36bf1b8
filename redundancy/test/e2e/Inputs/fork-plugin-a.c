/* fork-after-dlclose.c's first plugin: a selected loop, probed. */
long plugin_scan(const long *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * 3;
    return s;
}
