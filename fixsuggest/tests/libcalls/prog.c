/* C library calls that redo work in every iteration.  Setup work
 * (docs/redundancy.md, "Setup calls made again"): a log writer that opens
 * and closes its log for every event, a matcher that compiles the same
 * regex for every line, and one that compiles a new pattern for every line
 * (no repeat: the control).  The log writer's helper is not inlined, the
 * matcher's is.  A sort ("Sorts made again"): a leaderboard sorted again
 * after each score is added.
 * usage: prog LOGPATH EVENTS LINES SCORES */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>

/* not inlined: its fopen is lifted to the loop's call of it */
__attribute__((noinline)) static void log_event(const char *path, int id, int value)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    fprintf(f, "event %d value %d\n", id, value);
    fclose(f);
}

__attribute__((noinline)) long write_log(const char *path, int n)
{
    long acc = 0;
    for (int i = 0; i < n; i++) { /* LOG-LOOP */
        int v = (i * 1103515245 + 12345) & 0xffff;
        acc += v;
        log_event(path, i, v);
    }
    return acc;
}

static int line_matches(const char *pattern, const char *line)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
        return 0;
    int ok = regexec(&re, line, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

__attribute__((noinline)) int count_matches(int n)
{
    char line[128];
    int hits = 0;
    for (int i = 0; i < n; i++) { /* MATCH-LOOP */
        snprintf(line, sizeof line, "user%d@host%d.example.org id=%d", i % 977, i % 13, i);
        hits += line_matches("^user[0-9]+@host(1|3|5)\\.", line);
    }
    return hits;
}

__attribute__((noinline)) int count_ids(int n)
{
    char line[128], pattern[64];
    int hits = 0;
    for (int i = 0; i < n; i++) { /* IDS-LOOP */
        snprintf(line, sizeof line, "user%d@host%d.example.org id=%d", i % 977, i % 13, i);
        snprintf(pattern, sizeof pattern, "id=%d$", i * 7);
        hits += line_matches(pattern, line);
    }
    return hits;
}

static int by_score(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x < y) - (x > y);
}

__attribute__((noinline)) long leaderboard(long *board, int n)
{
    unsigned s = 7;
    long top = 0;
    for (int i = 0; i < n; i++) { /* SORT-LOOP */
        s = s * 1103515245u + 12345u;
        board[i] = (long)(s >> 8) % 100000;
        qsort(board, (size_t)i + 1, sizeof *board, by_score);
        top += board[0];
    }
    return top;
}

int main(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    remove(argv[1]);
    long acc = write_log(argv[1], atoi(argv[2]));
    int hits = count_matches(atoi(argv[3]));
    int ids = count_ids(atoi(argv[3]));
    int scores = atoi(argv[4]);
    long *board = malloc(sizeof *board * (size_t)(scores > 0 ? scores : 1));
    long top = board ? leaderboard(board, scores) : 0;
    free(board);
    printf("%ld %d %d %ld\n", acc, hits, ids, top);
    return 0;
}
