/* Test input for test_cmd.c: a small ELF whose functions the synthetic
 * profiles sample.  Built with -g -O0 -no-pie so ELF addresses are the
 * runtime addresses (load bias 0). */
#include <stdlib.h>

int helper(int x)
{
    return x * 3 + 1;
}

long scan_list(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += helper(i);
    return s;
}

int main(int argc, char **argv)
{
    return (int)scan_list(argc > 1 ? atoi(argv[1]) : 10);
}
