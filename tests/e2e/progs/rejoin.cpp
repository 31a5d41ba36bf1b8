// Joins fields with s = s + field (slow when there are many): each step copies
// the whole string, in glibc's memmove called from libstdc++'s string code.
#include <cstdio>
#include <cstdlib>
#include <string>

__attribute__((noinline)) static std::string join(int n)
{
    std::string s;
    for (int i = 0; i < n; i++)
        s = s + std::to_string(i) + ","; // JOIN-LINE
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    std::printf("%zu\n", join(n).size());
}
