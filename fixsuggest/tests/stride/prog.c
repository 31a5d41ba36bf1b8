/* Strided walks (docs/vprof-loop.md, "Strided walks"): the sums of the
   columns and of the rows of one n x n matrix of doubles, stored row after
   row.  col_sums walks each column down, one row (8n bytes) per iteration:
   with n = 4096 every iteration touches another cache line and waits for
   memory; with n = 256 the matrix stays in the caches.  row_sums walks the
   same matrix in the order it is laid out.  usage: prog N REPEATS */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static double col_sums(const double *m, size_t n, double *out)
{
    double total = 0;
    for (size_t j = 0; j < n; j++) { /* COLUMNS */
        double s = 0;
        for (size_t i = 0; i < n; i++) /* COLUMN-LOOP */
            s += m[i * n + j]; /* COLUMN-READ */
        out[j] = s;
        total += s;
    }
    return total;
}

__attribute__((noinline)) static double row_sums(const double *m, size_t n, double *out)
{
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++) /* ROW-LOOP */
            s += m[i * n + j];
        out[i] = s;
        total += s;
    }
    return total;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], 0, 10) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    double *m = malloc(n * n * sizeof *m), *out = malloc(n * sizeof *out);
    if (!m || !out)
        return 1;
    for (size_t i = 0; i < n * n; i++)
        m[i] = (double)((i * 2654435761u) >> 7 & 1023);
    double t = 0;
    for (int r = 0; r < reps; r++)
        t += col_sums(m, n, out) + row_sums(m, n, out);
    printf("%.0f\n", t);
    free(m);
    free(out);
    return 0;
}
