/* prog_stacks.c - functions whose addresses the export tests put into
 * synthetic PC samples (never run; built -O0 -fno-pie so addresses are
 * the ELF's). */
__attribute__((noinline)) int work(int x) { return x * 3 + 1; }
__attribute__((noinline)) int other(int x) { return x - 7; }
__attribute__((noinline)) int outer(int x) { return work(x) + other(x); }
int main(int argc, char **argv) { (void)argv; return outer(argc); }
