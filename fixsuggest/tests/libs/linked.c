/* Calls the library it is linked with (DT_NEEDED). */
#include <stdio.h>
#include <stdlib.h>

int lib_find(const int *a, int n, int key);
long lib_sum(const int *a, int n);

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000, q = argc > 2 ? atoi(argv[2]) : 400;
    int *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = i % 1000;
    long s = lib_sum(a, n);
    for (int k = 0; k < q; k++)
        s += lib_find(a, n, k % 1000);
    printf("%ld\n", s);
    return 0;
}
