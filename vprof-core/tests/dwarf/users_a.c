/* users_a.c + users_b.c: globals placed where they are used (schema v2).
 * `mode` is defined here and read only in users_b.c's check_mode (in a
 * condition: the use record gives it `cond`); `scale` only in scaled();
 * `unused_g` by no function. */
int mode;
long scale = 3;
int unused_g = 5;

int check_mode(int x);

__attribute__((noinline)) long scaled(long v) { return v * scale; }

int main(int argc, char **argv)
{
    (void)argv;
    return (int)scaled(argc) + check_mode(argc);
}
