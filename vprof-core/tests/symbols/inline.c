/* Test input for tests/symbols: built at -O2, its loop holds step()
 * inlined, which holds mix() inlined, which holds rot() inlined (depth 3).
 * Lines are found by their "@" markers. */
#include <stdio.h>
#include <stdlib.h>

#include "inline.h"

__attribute__((noinline)) int churn(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) /* @churn_loop */
        s = s * 31 + step(i ^ s); /* @churn_call */
    return s;
}

int main(int argc, char **argv)
{
    printf("%d\n", churn(argc > 1 ? atoi(argv[1]) : 100));
    return 0;
}
