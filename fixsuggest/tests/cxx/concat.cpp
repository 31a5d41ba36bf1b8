// Builds a CSV line by s = s + field: std::string's operator+ copies s into
// a new string (with _M_replace) in every iteration, so the loop is
// quadratic in the line's length (docs/redundancy.md, "Copies made again").
#include <cstdio>
#include <cstdlib>
#include <string>

__attribute__((noinline)) static std::string join(int n)
{
    std::string s;
    for (int i = 0; i < n; i++) // JOIN-LOOP
        s = s + std::to_string(i % 97) + ",";
    return s;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1000;
    int n = argc > 2 ? atoi(argv[2]) : 100;
    size_t t = 0;
    for (int r = 0; r < rounds; r++)
        t += join(n).size();
    printf("%zu\n", t);
    return 0;
}
