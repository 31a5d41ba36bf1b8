/* Two versions of one program (tests/e2e/rank_new_code.sh): built with
 * -DV2, the tokenizer's word test moves into a new function, is_word.  Its
 * variables exist only in v2's build, so a v1 normal run never samples
 * them: new code, not a path the normal run did not take. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef V2
__attribute__((noinline)) int is_word(int c)
{
    int word = isalnum(c) || c == '-' || c == '_';
    if (word) /* NEW */
        return 1;
    return 0;
}
#else
#define is_word(c) (isalnum(c) || (c) == '_')
#endif

volatile long g_calls; /* a side effect: every call runs */

__attribute__((noinline)) long count_words(const char *s, long n)
{
    long words = 0;
    g_calls++;
    for (long i = 0; i < n;) {
        while (i < n && !is_word((unsigned char)s[i]))
            i++;
        if (i < n)
            words++;
        while (i < n && is_word((unsigned char)s[i]))
            i++;
    }
    return words;
}

int main(int argc, char **argv)
{
    long reps = argc > 1 ? atol(argv[1]) : 2000, n = 1 << 16, words = 0;
    char *s = malloc((size_t)n);
    unsigned x = 1;
    for (long i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        s[i] = "abc de-f_g 12;\n"[(x >> 16) % 15];
    }
    for (long r = 0; r < reps; r++)
        words += count_words(s, n);
    printf("words=%ld\n", words);
    free(s);
    return 0;
}
