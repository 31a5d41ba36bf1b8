// Deduplicates ids with a vector and std::find: quadratic when few repeat.
// The search loop is libstdc++'s, inlined from a system header; the
// program's line is the call.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__attribute__((noinline)) static std::vector<int> dedup(const std::vector<int> &in)
{
    std::vector<int> out;
    for (int x : in)
        if (std::find(out.begin(), out.end(), x) == out.end()) // FIND-CALL
            out.push_back(x);
    return out;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, mod = argc > 2 ? atoi(argv[2]) : 100;
    std::vector<int> in;
    for (int i = 0; i < n; i++)
        in.push_back((int)((i * 2654435761u) % (unsigned)mod));
    std::printf("%zu\n", dedup(in).size());
}
