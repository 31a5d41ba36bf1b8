// Allocates and frees a small buffer per step (slow when there are many):
// operator new (libstdc++) calls the C library's malloc, which the
// program never calls itself.
#include <cstdio>
#include <cstdlib>

__attribute__((noinline)) static long churn(int n)
{
    long sum = 0;
    char *keep[16] = {};
    for (int i = 0; i < n; i++) {
        char *p = new char[64 + (i & 255)]; // NEW-LINE
        p[0] = (char)i;
        delete[] keep[i & 15];
        keep[i & 15] = p;
        sum += p[0];
    }
    for (char *p : keep)
        delete[] p;
    return sum;
}

int main(int argc, char **argv)
{
    std::printf("%ld\n", churn(argc > 1 ? atoi(argv[1]) : 1000));
}
