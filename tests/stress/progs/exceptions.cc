// C++ exceptions thrown through probed loops (and through a recursive
// function), caught outside them, thousands of times.
#include <cstdio>
#include <stdexcept>

struct Found {
    long at;
};

__attribute__((noinline)) static void check(long v, long target)
{
    if (v == target)
        throw Found{v};
}

__attribute__((noinline)) static long scan(long n, long target)
{
    long acc = 0;
    for (long i = 0; i < n; i++)
        for (long k = 0; k < 8; k++) {
            acc += i * k;
            check(i * 8 + k, target);
        }
    return acc;
}

__attribute__((noinline)) static long rec(long d, long target)
{
    if (d == 0)
        return scan(100, target);
    return rec(d - 1, target) + 1;
}

int main()
{
    long found = 0, total = 0, errors = 0;
    for (long round = 0; round < 3000; round++) {
        try {
            total += rec(round % 20, (round * 37) % 1000);
        } catch (const Found &f) {
            found += f.at;
        }
        try {
            if (round % 100 == 0)
                throw std::runtime_error("x");
        } catch (const std::exception &) {
            errors++;
        }
    }
    std::printf("found %ld total %ld errors %ld\n", found, total, errors);
    return 0;
}
