// Two classes of one file with a method of the same name (DW_AT_name
// "work"): Grows::work's time grows with the input, Fixed::work's does not.
// Before 2026-11-22 vprof rank keyed functions by (name, file) and showed
// one "work" row holding both; they are two functions.
#include <cstdio>
#include <cstdlib>

static volatile long sink;

namespace shapes {
struct Grows {
    long work(long n);
};
struct Fixed {
    long work(long n);
};
} // namespace shapes

__attribute__((noinline)) long shapes::Grows::work(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) // GROWS-LOOP
        for (long j = 0; j < 20000; j++) {
            s += (i ^ j) % (j + 3);
            sink = s;
        }
    return s;
}

__attribute__((noinline)) long shapes::Fixed::work(long n)
{
    long s = 0;
    for (long i = 0; i < 400000; i++) { // FIXED-LOOP
        s += (i * n) & 3;
        sink = s;
    }
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2;
    shapes::Grows g;
    shapes::Fixed f;
    long t = 0;
    for (int r = 0; r < 200; r++) {
        t += f.work(r);
        t += g.work(n);
    }
    printf("%ld\n", t);
    return 0;
}
