/* common.h - shared by the stress targets: a hot function with loops that
 * the loop probes instrument, and output that is the same on every run. */
#ifndef STRESS_COMMON_H
#define STRESS_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <unistd.h>

/* CPU work with a nested loop; the result depends only on n. */
__attribute__((noinline)) static long hot(long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++) {
        long v = i;
        for (int k = 0; k < 8; k++)
            v = (v * 2654435761u + (unsigned)k) % 1000003;
        acc += v & 7;
    }
    return acc;
}

/* How many entries directory `dir` has (/proc/self/fd: open descriptors),
   -1 if it cannot be read. */
static inline int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Writes a line with write(2): no stdio buffer to duplicate across fork. */
static inline void say(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    ssize_t w = write(1, s, n);
    (void)w;
}
#endif
