/* C library calls that redo work in every iteration.  Setup work
 * (docs/redundancy.md, "Setup calls made again"): a log writer that opens
 * and closes its log for every event, a matcher that compiles the same
 * regex for every line, and one that compiles a new pattern for every line
 * (no repeat: the control).  The log writer's helper is not inlined, the
 * matcher's is.  A sort ("Sorts made again"): a leaderboard sorted again
 * after each score is added.
 * usage: prog LOGPATH EVENTS LINES SCORES */
#include <math.h>
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

/* A math call ("Math calls made again"): the gain of a channel, computed
   again for every sample of it, and a level meter whose log has a new
   argument (a new sample's) every time. */
static double channel_gain(int ch, int nch)
{
    return pow(10.0, (double)ch / nch - 0.5);
}

__attribute__((noinline)) double mix(const double *sig, int len, int nch)
{
    double acc = 0;
    for (int ch = 0; ch < nch; ch++)
        for (int i = 0; i < len; i++) /* GAIN-LOOP */
            acc += sig[i] * channel_gain(ch, nch);
    return acc;
}

__attribute__((noinline)) double waveform(double *sig, int len)
{
    for (int i = 0; i < len; i++)
        sig[i] = sin(i * 0.001);
    double sum = 0;
    for (int i = 0; i < len; i++) /* WAVE-LOOP */
        sum += log(sig[i] + 2.0);
    return sum;
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
    int len = argc > 5 ? atoi(argv[5]) : 0;
    double *sig = malloc(sizeof *sig * (size_t)(len > 0 ? len : 1));
    double wave = sig ? waveform(sig, len) : 0, mixed = sig ? mix(sig, len, 8) : 0;
    free(sig);
    printf("%ld %d %d %ld %d\n", acc, hits, ids, top, wave + mixed != 0);
    return 0;
}
