/*
 * mysql15811_addline -- a slice of the mysql command-line client: reading a
 * script, splitting it into statements in add_line() (quotes, comments,
 * delimiters, multi-byte characters), and handing each complete statement to
 * the server side, which tokenizes and checksums it.
 *
 * Modelled on MySQL15811 ("extremely long time for mysql client to execute
 * long INSERT"; LDoctor Table 3: cross-loop redundancy, fixed by
 * memoization).  For every character of the line, add_line() asks whether a
 * multi-byte character starts there with
 *
 *     my_ismbchar(charset_info, pos, strend(pos))
 *
 * and strend() walks to the end of the line each time: every instance of the
 * strend loop re-reads the tail that the previous instance read (one byte
 * shorter).  Scripts with ordinary lines are fine; a dump with one long
 * extended INSERT on a single line is quadratic.  The fix computes the end of
 * the line once (end_of_line) before the character loop.  LDoctor notes the
 * loop's only result is the string length, an induction variable, so static
 * analysis rules out cross-iteration redundancy.  Our reconstruction of the
 * client code; the shape of add_line follows client/mysql.cc.
 *
 * usage: mysql15811_addline NLINES ROWS_PER_LINE NSTATEMENT_PASSES SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct { char *str; size_t length, alloced; } String;

typedef struct {
    const char *name;
    unsigned mbmaxlen;
} CHARSET_INFO;

static const CHARSET_INFO my_charset_utf8 = { "utf8", 3 };
static const CHARSET_INFO *charset_info = &my_charset_utf8;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static char delimiter[16] = ";";
static size_t delimiter_length = 1;
static uint64_t statements, stmt_bytes, server_hash = 1469598103934665603ull;

/* mysys/strend.c: pointer to the terminating NUL */
NOINLINE const char *strend(const char *s)
{
    while (*s++) /* ROOT-CAUSE LOOP */
        ;
    return s - 1;
}

/* strings/ctype-utf8.c: length of the utf8 character at p, or 0 if single-byte */
NOINLINE unsigned my_ismbchar_utf8(const CHARSET_INFO *cs, const char *p, const char *e)
{
    unsigned char c = (unsigned char)*p;
    if (c < 0x80) return 0;
    if (c < 0xc2) return 0;
    if (c < 0xe0) return (e - p >= 2 && ((unsigned char)p[1] ^ 0x80) < 0x40) ? 2 : 0;
    if (c < 0xf0 && cs->mbmaxlen >= 3)
        return (e - p >= 3 && ((unsigned char)p[1] ^ 0x80) < 0x40 && ((unsigned char)p[2] ^ 0x80) < 0x40) ? 3 : 0;
    return 0;
}

static void string_append(String *s, const char *p, size_t n)
{
    if (s->length + n + 1 > s->alloced) {
        while (s->length + n + 1 > s->alloced) s->alloced = s->alloced ? s->alloced * 2 : 1024;
        s->str = realloc(s->str, s->alloced);
    }
    memcpy(s->str + s->length, p, n);
    s->length += n;
    s->str[s->length] = 0;
}

/* the server: tokenize the statement and fold it into a checksum (the work
   the statement causes; necessary in both runs) */
NOINLINE void com_go(String *buffer)
{
    uint64_t h = server_hash;
    int tokens = 0, in_word = 0;
    uint64_t h2 = h >> 7;
    for (size_t i = 0; i < buffer->length; i++) { /* HOT LOOP */
        unsigned char c = (unsigned char)buffer->str[i];
        int w = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c >= 0x80;
        tokens += w && !in_word;                  /* lexer */
        in_word = w;
        h = (h ^ c) * 1099511628211ull;           /* parser: statement digest */
        h2 = (h2 + c + (h >> 29)) * 0x9e3779b97f4a7c15ull;   /* binlog checksum */
    }
    h ^= h2;
    server_hash = h ^ (uint64_t)tokens;
    statements++;
    stmt_bytes += buffer->length;
    buffer->length = 0;
}

/* client/mysql.cc: add_line() -- append a line to the statement buffer,
   executing every complete statement */
NOINLINE int add_line(String *buffer, char *line, char *in_string, int *ml_comment)
{
    char buff[80];
    size_t out = 0;
    for (char *pos = line; *pos; pos++) {
        unsigned length;
        if ((length = my_ismbchar_utf8(charset_info, pos, strend(pos)))) {
            /* a multi-byte character is copied as a unit */
            if (!*ml_comment) {
                if (out + length >= sizeof buff) { string_append(buffer, buff, out); out = 0; }
                memcpy(buff + out, pos, length); out += length;
            }
            pos += length - 1;
            continue;
        }
        char inchar = *pos;
        if (!*ml_comment && inchar == '\\' && *in_string != '`') {
            if (out + 2 >= sizeof buff) { string_append(buffer, buff, out); out = 0; }
            buff[out++] = *pos++;
            if (!*pos) break;
            buff[out++] = *pos;
            continue;
        }
        if (!*ml_comment && !*in_string && !strncmp(pos, delimiter, delimiter_length)) {
            string_append(buffer, buff, out); out = 0;
            com_go(buffer);
            pos += delimiter_length - 1;
            continue;
        }
        if (!*ml_comment && !*in_string && inchar == '-' && pos[1] == '-' && (pos[2] == ' ' || !pos[2]))
            break;                                        /* -- comment: rest of line */
        if (!*in_string && inchar == '/' && pos[1] == '*' && pos[2] != '!') {
            *ml_comment = 1; pos++; continue;
        }
        if (*ml_comment && !*in_string && inchar == '*' && pos[1] == '/') {
            *ml_comment = 0; pos++; continue;
        }
        if (*in_string && inchar == *in_string) *in_string = 0;
        else if (!*ml_comment && !*in_string && (inchar == '\'' || inchar == '"' || inchar == '`'))
            *in_string = inchar;
        if (!*ml_comment) {
            if (out + 1 >= sizeof buff) { string_append(buffer, buff, out); out = 0; }
            buff[out++] = inchar;
        }
    }
    string_append(buffer, buff, out);
    if (buffer->length) string_append(buffer, "\n", 1);
    return 0;
}

/* a mysqldump-style script: NLINES lines, each an extended INSERT of ROWS rows */
static char *make_line(int rows, size_t *len)
{
    static const char *const names[] = { "M\xc3\xbcller", "\xe5\xb1\xb1\xe7\x94\xb0", "Smith", ("Garc\xc3\xad" "a"),
                                         "O'Brien", "\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd" };
    size_t cap = 64 + (size_t)rows * 64, n = 0;
    char *s = malloc(cap);
    n += (size_t)sprintf(s, "INSERT INTO `customer` VALUES ");
    for (int r = 0; r < rows; r++) {
        uint32_t x = rnd();
        const char *nm = names[x % 6];
        char esc[32]; size_t k = 0;
        for (const char *p = nm; *p; p++) { if (*p == '\'') esc[k++] = '\\'; esc[k++] = *p; }
        esc[k] = 0;
        n += (size_t)sprintf(s + n, "%s(%u,'%s',%u.%02u)", r ? "," : "", x % 100000, esc, (x >> 8) % 10000, x % 100);
    }
    n += (size_t)sprintf(s + n, "; -- dump line\n");
    *len = n;
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NLINES ROWS_PER_LINE NSTATEMENT_PASSES SEED\n", argv[0]);
        return 2;
    }
    int nlines = atoi(argv[1]), rows = atoi(argv[2]), passes = atoi(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    String buffer = { 0, 0, 0 };
    char in_string = 0;
    int ml_comment = 0;
    size_t total = 0;
    for (int p = 0; p < passes; p++)              /* source dump.sql, several times */
        for (int l = 0; l < nlines; l++) {
            size_t len;
            char *line = make_line(rows, &len);
            line[len - 1] = 0;                    /* batch_readline strips the newline */
            total += len;
            add_line(&buffer, line, &in_string, &ml_comment);
            free(line);
        }
    printf("lines=%d bytes=%zu statements=%llu stmt_bytes=%llu hash=%016llx\n", nlines * passes, total,
           (unsigned long long)statements, (unsigned long long)stmt_bytes, (unsigned long long)server_hash);
    return 0;
}
