/* A shared library whose search keeps scanning after it has found the key
   (the last match wins): a 0*1?-style resultless scan, the loop vprof-loop
   must find although it is not in the executable. */
int lib_find(const int *a, int n, int key)
{
    int pos = -1;
    for (int i = 0; i < n; i++)
        if (a[i] == key)
            pos = i;
    return pos;
}

/* Sums the array once: every iteration has a result. */
long lib_sum(const int *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}
