/* Test input for tests/symbols: compiled with clang-14 -g at several DWARF
 * versions.  The test finds the lines below by their "@" markers, so edits
 * here need no change in the test. */
#include <stdio.h>
#include <stdlib.h>

static int helper(int x) /* @helper */
{
    int y = x * 3;  /* @helper_body */
    return y + 1;
}

int work(int n) /* @work */
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += helper(i); /* @work_call */
    return s;
}

int main(int argc, char **argv) /* @main */
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    printf("%d\n", work(n));
    return 0;
}
