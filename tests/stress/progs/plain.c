/* An ordinary program for the builds without -g / stripped. */
#include "common.h"

int main(void)
{
    printf("%ld\n", hot(400000));
    return 0;
}
