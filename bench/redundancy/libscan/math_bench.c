/* The cost of the math-call units (docs/redundancy.md, "Math calls made
 * again") where it is highest: loops that do little besides the call.
 *   gain:  pow of an argument that changes per row, for every element
 *          (redundant: its sampled calls hash and insert few signatures);
 *   wave:  sin of a new argument every time;
 *   lg:    log of an element, a new argument every time (glibc's log is
 *          the cheapest call here, so the unit's share is the largest).
 * Default rate (1 call in 1,000).
 *   math_bench [N [WHICH]]   20 passes of N calls (default 1000000) of
 *                            each, or of WHICH only */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) double gain(const double *x, int n, double step)
{
    double acc = 0;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < n / 4; i++)
            acc += x[i] * pow(10.0, r * step);
    return acc;
}

__attribute__((noinline)) double wave(double *x, int n)
{
    double acc = 0;
    for (int i = 0; i < n; i++) {
        x[i] = sin(i * 0.001);
        acc += x[i];
    }
    return acc;
}

__attribute__((noinline)) double lg(const double *x, int n)
{
    double acc = 0;
    for (int i = 0; i < n; i++)
        acc += log(x[i] + 1.0);
    return acc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    const char *which = argc > 2 ? argv[2] : "";
    double *x = malloc(sizeof *x * (size_t)(n > 0 ? n : 1));
    if (!x)
        return 1;
    for (int i = 0; i < n; i++)
        x[i] = i;
    double acc = 0;
    for (int pass = 0; pass < 20; pass++) {
        if (!*which || strcmp(which, "wave") == 0)
            acc += wave(x, n);
        for (int i = 0; i < n; i++)
            x[i] = i;
        if (!*which || strcmp(which, "gain") == 0)
            acc += gain(x, n, 0.25 + n * 1e-12);
        if (!*which || strcmp(which, "lg") == 0)
            acc += lg(x, n);
    }
    printf("%d\n", acc != 0);
    free(x);
    return 0;
}
