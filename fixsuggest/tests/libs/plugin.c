/* Loads the library with dlopen, as a server loads its modules. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int n = argc > 2 ? atoi(argv[2]) : 20000, q = argc > 3 ? atoi(argv[3]) : 400;
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    int (*find)(const int *, int, int) = (int (*)(const int *, int, int))dlsym(h, "lib_find");
    if (!find)
        return 2;
    int *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++)
        a[i] = i % 1000;
    long s = 0;
    for (int k = 0; k < q; k++)
        s += find(a, n, k % 1000);
    printf("%ld\n", s);
    return 0;
}
