/* fixsuggest.stdin: a program whose slow input comes on standard input.
 * It capitalises the vowels of each paragraph with strlen in the loop
 * condition, so a long paragraph costs the square of its length, and it
 * prints the count.  The input is its standard input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static long vowels(char *s)
{
    long n = 0;
    for (size_t i = 0; i < strlen(s); i++) /* VOWEL-LOOP */
        if (strchr("aeiou", s[i])) {
            s[i] -= 'a' - 'A'; /* in place: strlen cannot be hoisted */
            n++;
        }
    return n;
}

int main(void)
{
    size_t cap = 1 << 16, len = 0, r;
    char *buf = malloc(cap);
    if (!buf)
        return 2;
    while ((r = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
        len += r;
        if (cap - len < 2 && !(buf = realloc(buf, cap *= 2)))
            return 2;
    }
    buf[len] = 0;
    long total = 0;
    char *start = buf;
    for (char *p = buf;; p++) /* paragraphs: blank-line separated */
        if (!*p || (p[0] == '\n' && p[1] == '\n')) {
            char c = *p;
            *p = 0;
            total += vowels(start);
            if (!c)
                break;
            start = p + 1;
        }
    printf("%ld\n", total);
    return 0;
}
