/* e2e.libdebug: a shared library whose time is in an internal (static)
 * function, stripped, with its symbols in a separate debug file. */
__attribute__((noinline)) static unsigned long scan_internal(const unsigned char *s, long n)
{
    unsigned long h = 5381;
    for (long i = 0; i < n; i++)
        h = (h * 33) ^ s[i];
    return h;
}

unsigned long lib_scan(const unsigned char *s, long n)
{
    return scan_internal(s, n) + 1;
}
