/*
 * fixsuggest.rescan: a string that grows and is scanned again
 * (docs/redundancy.md, "Strings scanned again").  to_csv() joins a row's
 * fields with strcat, the Schlemiel-the-painter loop: every call scans the
 * line from its start to find its end, so a row of n fields costs n^2.
 * to_lines() writes each field into a buffer of its own and takes its
 * length with strlen: each scan reads a different string, once.
 * sum_csv() parses the joined line with sscanf and an advancing pointer:
 * glibc's sscanf takes the length of the rest of the line on every call.
 *
 * usage: prog FIELDS ROWS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static char **fields;

NOINLINE static size_t to_csv(char *line, int n)
{
    line[0] = 0;
    for (int i = 0; i < n; i++) { /* JOIN-LOOP */
        strcat(line, fields[i]);
        if (i + 1 < n)
            strcat(line, ",");
    }
    return strlen(line);
}

NOINLINE static size_t to_lines(char *buf, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++) { /* LINES-LOOP */
        snprintf(buf, 4096, "%s-%0512d-%s", fields[i], i, fields[n - 1 - i]);
        total += strlen(buf);
    }
    return total;
}

NOINLINE static long sum_csv(const char *p)
{
    long sum = 0;
    char word[64];
    int k;
    while (sscanf(p, "%63[^,]%n", word, &k) == 1) { /* PARSE-LOOP */
        sum += (long)strlen(word);
        p += k;
        if (*p == ',')
            p++;
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, rows = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1 || n > 1000000 || rows < 1)
        return 2;
    fields = malloc((size_t)n * sizeof *fields);
    for (int i = 0; i < n; i++) {
        char b[32];
        snprintf(b, sizeof b, "field%d", i * 7919 % 100003);
        fields[i] = strdup(b);
    }
    char *line = malloc((size_t)n * 16 + 1), *buf = malloc(4096);
    size_t total = 0;
    for (int r = 0; r < rows; r++) {
        total += to_csv(line, n);
        total += (size_t)sum_csv(line);
        total += to_lines(buf, n);
    }
    printf("%zu\n", total);
    return 0;
}
