/* The cost of the setup-call units (docs/redundancy.md, "Setup calls made
 * again") where it is highest: the cheapest setup calls there are, each
 * made again in a loop that does nothing else.  open() of a missing path
 * (a failing system call), fopen/fclose of /dev/null, regcomp of a
 * one-character pattern.  A sampled call (1 in 16) hashes its strings.
 *   setup_bench [N [WHICH]]   N calls (default 200000) of each, or of
 *                             WHICH only: open, fopen or regcomp */
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int missing_open(const char *path, int n)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            found++;
            close(fd);
        }
    }
    return found;
}

__attribute__((noinline)) int null_fopen(const char *path, int n)
{
    int ok = 0;
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(path, "w");
        if (f) {
            ok += fputc('x', f) != EOF;
            fclose(f);
        }
    }
    return ok;
}

__attribute__((noinline)) int tiny_regcomp(const char *pattern, int n)
{
    int ok = 0;
    for (int i = 0; i < n; i++) {
        regex_t re;
        if (regcomp(&re, pattern, REG_NOSUB) == 0) {
            ok++;
            regfree(&re);
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200000;
    const char *which = argc > 2 ? argv[2] : "all";
    int all = strcmp(which, "all") == 0, a = 0, b = 0, c = 0;
    if (all || strcmp(which, "open") == 0)
        a = missing_open("/nonexistent/vprof-setup-bench", n);
    if (all || strcmp(which, "fopen") == 0)
        b = null_fopen("/dev/null", n);
    if (all || strcmp(which, "regcomp") == 0)
        c = tiny_regcomp("a", n);
    printf("%d %d %d\n", a, b, c);
    return 0;
}
