// A token sum that skips the tokens that are not numbers by catching
// std::stoi's exception: fast when every token is a number, slow when most
// are words (each throw unwinds through libgcc_s).
#include <cstdio>
#include <stdexcept>
#include <cstdlib>
#include <string>
#include <vector>

// Sums the numeric tokens of a line; a token that is not a number is
// skipped -- by catching std::stoi's exception.
__attribute__((noinline)) long sum_numbers(const std::vector<std::string> &toks)
{
    long sum = 0;
    for (const std::string &t : toks) { // TOKEN-LOOP
        try {
            sum += std::stoi(t); // STOI-LINE
        } catch (const std::invalid_argument &) {
            /* not a number */
        }
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int words = argc > 2 ? atoi(argv[2]) : 0; /* per cent of tokens that are words */
    std::vector<std::string> toks;
    unsigned x = 1;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        if ((int)((x >> 8) % 100) < words)
            toks.push_back("word" + std::to_string(i % 50));
        else
            toks.push_back(std::to_string((x >> 4) % 1000));
    }
    long s = 0;
    for (int r = 0; r < 20; r++)
        s += sum_numbers(toks);
    printf("%ld\n", s);
    return 0;
}
