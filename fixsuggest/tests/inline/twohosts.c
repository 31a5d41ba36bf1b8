/* One static helper's loop inlined into two functions: two loops, each a
   loop of the function whose code holds it, with its own counts and its own
   share (fixsuggest.inline; docs/vprof-loop.md, "Loops inlined into a
   selected function").  heavy() calls mix() with 20x the rounds light()
   does (argv[2] and argv[3]). */
#include <stdio.h>
#include <stdlib.h>

static unsigned long mix(unsigned long v, int rounds)
{
    for (int i = 0; i < rounds; i++) /* MIX-LOOP */
        v = (v ^ (v >> 31)) * 0x7fb5d329728ea185UL + (unsigned long)i;
    return v;
}

__attribute__((noinline)) unsigned long heavy(const unsigned long *v, int n, int rounds)
{
    unsigned long h = 0;
    for (int k = 0; k < n; k++) /* HEAVY-LOOP */
        h += mix(v[k], rounds);
    return h;
}

__attribute__((noinline)) unsigned long light(const unsigned long *v, int n, int rounds)
{
    unsigned long h = 0;
    for (int k = 0; k < n; k++) /* LIGHT-LOOP */
        h ^= mix(v[k], rounds);
    return h;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int hr = argc > 2 ? atoi(argv[2]) : 400, lr = argc > 3 ? atoi(argv[3]) : 20;
    unsigned long *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!v)
        return 1;
    for (int k = 0; k < n; k++)
        v[k] = (unsigned long)k * 2654435761UL;
    unsigned long h = 0;
    for (int r = 0; r < 20; r++) {
        v[r % n] += h;
        h += heavy(v, n, hr) + light(v, n, lr);
    }
    printf("%lu\n", h);
    free(v);
    return 0;
}
