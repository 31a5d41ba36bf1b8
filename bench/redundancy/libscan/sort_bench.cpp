/* The cost of the std::sort unit (docs/redundancy.md, "Sorts made again")
 * where it is highest: a loop that does nothing but sort a small vector
 * (24 longs, the smallest sizes std::sort hands to __introsort_loop are
 * 17 and up), 2,000,000 times, so that the unit's countdown is next to
 * the least work.
 *   sort_bench [N] */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__attribute__((noinline)) long sorts(long n)
{
    std::vector<long> v(24);
    long s = 0;
    unsigned x = 1;
    for (long i = 0; i < n; i++) {
        for (auto &e : v) {
            x = x * 1103515245u + 12345u;
            e = (long)(x >> 8);
        }
        std::sort(v.begin(), v.end());
        s += v[12] & 1023;
    }
    return s;
}

int main(int argc, char **argv)
{
    printf("%ld\n", sorts(argc > 1 ? atol(argv[1]) : 2000000));
    return 0;
}
