// Two instantiations of one class template whose names are too long for a
// report's column: with their template arguments elided both read
// "shapes::Runner<...>::run".  The text reports show each where it differs
// from the other (vp_func_fit_list); before 2026-11-26 they were two rows
// of the same text.
#include <cstdio>
#include <cstdlib>
#include <vector>

static volatile long sink;

namespace shapes {
template <class Container, int Step> struct Policy {
    static long step() { return Step; }
};
template <class P> struct Runner {
    __attribute__((noinline)) long run(long n);
};
template <class P> long Runner<P>::run(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) { // RUN-LOOP
        s += (i ^ P::step()) % (i + 3);
        sink = s;
    }
    return s;
}
} // namespace shapes

typedef shapes::Policy<std::vector<long, std::allocator<long> >, 1> Growing;
typedef shapes::Policy<std::vector<long, std::allocator<long> >, 2> Steady;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2;
    shapes::Runner<Growing> g;
    shapes::Runner<Steady> f;
    long t = 0;
    for (int r = 0; r < 100; r++) {
        t += g.run(n * 20000);
        t += f.run(200000);
    }
    printf("%ld\n", t);
    return 0;
}
