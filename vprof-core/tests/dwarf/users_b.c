/* See users_a.c. */
extern int mode;

__attribute__((noinline)) int check_mode(int x)
{
    if (mode > x)
        return 1;
    return 0;
}
