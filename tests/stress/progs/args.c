/* args.c - prints its arguments and works (shellsafe.sh). */
#include "common.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        printf("arg[%d]=%s\n", i, argv[i]);
    printf("%ld\n", hot(argc > 1 && argv[1][0] == 'b' ? 600000 : 150000));
    return 0;
}
