// e2e.libcall: splits a line into words by copying the rest of the line
// with substr after every word, so the copies grow with the line: the time
// is in the C library's memmove, called from std::string code inlined here.
// usage: substr LENGTH
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    long len = argc > 1 ? atol(argv[1]) : 1000;
    std::string line((size_t)len, 'x');
    for (long i = 15; i < len; i += 16)
        line[(size_t)i] = ' ';
    size_t words = 0;
    std::string rest = line;
    for (;;) {
        size_t sp = rest.find(' ');
        if (sp == std::string::npos)
            break;
        words++;
        rest = rest.substr(sp + 1); /* REST-LINE */
    }
    printf("%zu\n", words);
    return 0;
}
