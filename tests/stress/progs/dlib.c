/* The library dlopen.c loads and unloads. */
long lib_work(long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            acc += (i * 7 + k) % 13;
    return acc;
}
