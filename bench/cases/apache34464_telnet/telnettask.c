/*
 * apache34464_telnet -- a slice of Apache Ant's <telnet> task: a telnet
 * client that decodes the server stream (IAC option negotiation, CR/NUL
 * handling), logs the session, and after each command waits for the prompt
 * with TelnetTask.waitForString().
 *
 * Modelled on Apache34464 (LDoctor Figure 6 / Table 3: cross-loop
 * redundancy, fixed by memoization).  waitForString appends one character
 * and then searches the *whole* buffer again for the prompt:
 *
 *     while (sb.toString().indexOf(s) == -1)
 *         sb.append((char) is.read());
 *
 * so every instance of the search loop in indexOf re-scans the prefix that
 * the previous instance already scanned.  With short command outputs this is
 * harmless; a command that prints a long listing before the prompt makes the
 * wait quadratic in the output length.  The fix keeps a window index and only
 * searches the tail that can still contain a new match.
 *
 * The Java code is re-implemented in C (as LDoctor did for its Java bugs):
 * StringBuffer is a growable char array, String.indexOf is the JDK algorithm
 * of Figure 6.
 *
 * usage: apache34464_telnet NCOMMANDS OUTPUT_CHARS SESSION_KB SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* telnet protocol bytes (RFC 854) */
#define IAC  255
#define DONT 254
#define DO   253
#define WONT 252
#define WILL 251
#define SB   250
#define SE   240
#define OPT_ECHO 1
#define OPT_SGA  3
#define OPT_TTYPE 24

typedef struct {
    char *value;
    int count, cap;
} StringBuffer;

/* the simulated server side: a byte stream with option negotiation mixed in */
typedef struct {
    uint8_t *data;
    size_t len, pos;
} ServerStream;

typedef struct {
    ServerStream *in;
    int echo, sga;          /* negotiated options */
    uint64_t negotiations;
    uint64_t crc;           /* session log checksum (the Ant log of the task) */
} TelnetInputStream;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static void sb_init(StringBuffer *sb) { sb->cap = 64; sb->count = 0; sb->value = malloc((size_t)sb->cap); }

NOINLINE void sb_append(StringBuffer *sb, char c)
{
    if (sb->count + 1 >= sb->cap) {
        sb->cap *= 2;
        sb->value = realloc(sb->value, (size_t)sb->cap);
    }
    sb->value[sb->count++] = c;
}

/* java.lang.String.indexOf(char[] source, int sourceCount, char[] target, int targetCount) */
NOINLINE int indexOf(const char *source, int sourceCount, const char *target, int targetCount)
{
    if (targetCount == 0)
        return 0;
    char first = target[0];
    int max = sourceCount - targetCount;
    for (int i = 0; i <= max; i++) { /* ROOT-CAUSE LOOP */
        /* Look for first character. */
        if (source[i] != first)
            while (++i <= max && source[i] != first)
                ;
        /* Found first character, now look at the rest of target */
        if (i <= max) {
            int j = i + 1;
            int end = j + targetCount - 1;
            for (int k = 1; j < end && source[j] == target[k]; j++, k++)
                ;
            if (j == end)
                return i;       /* Found whole string. */
        }
    }
    return -1;
}

static void tn_send_option(TelnetInputStream *t, int cmd, int opt)
{
    (void)cmd; (void)opt;
    t->negotiations++;      /* the reply goes to the socket; counted only */
}

/* a small table-driven CRC-32 of the session log, written per character */
static uint32_t crc_table[256];
static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

/* log the line to the task's output (Ant's Project.log): pads and checksums */
NOINLINE void session_log(TelnetInputStream *t, const char *line, int n)
{
    uint32_t c = (uint32_t)t->crc, c2 = (uint32_t)(t->crc >> 32);
    for (int i = 0; i < n; i++) { /* HOT LOOP */
        c = crc_table[(c ^ (uint8_t)line[i]) & 0xff] ^ (c >> 8);           /* log file */
        c2 = crc_table[(c2 ^ (uint8_t)line[i] ^ (c >> 24)) & 0xff] ^ (c2 >> 8);  /* XML log record */
        c2 = crc_table[(c2 ^ (c2 >> 13)) & 0xff] ^ (c2 >> 8);
    }
    t->crc = (uint64_t)c2 << 32 | c;
}

/* TelnetInputStream.read(): next data character, handling IAC sequences */
NOINLINE int tn_read(TelnetInputStream *t)
{
    ServerStream *s = t->in;
    while (s->pos < s->len) {
        int b = s->data[s->pos++];
        if (b != IAC)
            return b == 0 ? '\r' : b;         /* CR NUL -> CR */
        if (s->pos >= s->len) break;
        int cmd = s->data[s->pos++];
        if (cmd == IAC) return IAC;           /* escaped 255 */
        if (cmd == SB) {                      /* subnegotiation: skip to IAC SE */
            while (s->pos + 1 < s->len && !(s->data[s->pos] == IAC && s->data[s->pos + 1] == SE))
                s->pos++;
            s->pos += 2;
            tn_send_option(t, SB, OPT_TTYPE);
            continue;
        }
        int opt = s->data[s->pos++];
        if (cmd == WILL) { if (opt == OPT_ECHO) t->echo = 1; if (opt == OPT_SGA) t->sga = 1; tn_send_option(t, DO, opt); }
        else if (cmd == WONT) { if (opt == OPT_ECHO) t->echo = 0; tn_send_option(t, DONT, opt); }
        else if (cmd == DO || cmd == DONT) tn_send_option(t, WONT, opt);
    }
    return -1;
}

/* TelnetTask.waitForString(s): read until the buffer contains s */
NOINLINE int waitForString(TelnetInputStream *t, const char *s, StringBuffer *sb)
{
    int slen = (int)strlen(s);
    sb->count = 0;
    while (indexOf(sb->value, sb->count, s, slen) == -1) {
        int c = tn_read(t);
        if (c < 0)
            return -1;
        sb_append(sb, (char)c);
    }
    /* log the received output line by line */
    int start = 0;
    for (int i = 0; i < sb->count; i++)
        if (sb->value[i] == '\n') { session_log(t, sb->value + start, i - start); start = i + 1; }
    session_log(t, sb->value + start, sb->count - start);
    return sb->count;
}

/* server output of one command: text lines, option noise, then the prompt */
static void emit(ServerStream *s, size_t *cap, uint8_t b)
{
    if (s->len == *cap) { *cap *= 2; s->data = realloc(s->data, *cap); }
    s->data[s->len++] = b;
}

static const char *words[] = { "drwxr-xr-x", "-rw-r--r--", "build", "root", "4096", "Jan",
                               "src", "lib", "classes", "dist", "report.xml", "12:01" };

static void make_session(ServerStream *s, int ncmd, int outchars, const char *prompt)
{
    size_t cap = 1 << 16;
    s->data = malloc(cap); s->len = 0; s->pos = 0;
    const uint8_t neg[] = { IAC, WILL, OPT_ECHO, IAC, WILL, OPT_SGA, IAC, DO, OPT_TTYPE,
                            IAC, SB, OPT_TTYPE, 1, IAC, SE };
    for (size_t i = 0; i < sizeof neg; i++) emit(s, &cap, neg[i]);
    for (int c = 0; c < ncmd; c++) {
        int n = 0, col = 0;
        while (n < outchars) {
            const char *w = words[rnd() % 12];
            for (; *w && n < outchars; w++, n++, col++) emit(s, &cap, (uint8_t)*w);
            if (col > 60) { emit(s, &cap, '\r'); emit(s, &cap, 0); emit(s, &cap, '\n'); col = 0; n += 3; }
            else { emit(s, &cap, ' '); n++; col++; }
            if (rnd() % 512 == 0) { emit(s, &cap, IAC); emit(s, &cap, WONT); emit(s, &cap, OPT_ECHO); }
        }
        for (const char *p = prompt; *p; p++) emit(s, &cap, (uint8_t)*p);
    }
}

/* the rest of the build: the task's <read>/<write> pairs run commands whose
   output is post-processed by a filter chain (necessary work in both runs) */
NOINLINE uint64_t filter_chain(int kb)
{
    uint64_t h = 1469598103934665603ull;
    for (long i = 0; i < (long)kb * 1024; i++) /* HOT LOOP */
        h = (h ^ (uint64_t)(i & 0xff)) * 1099511628211ull;
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NCOMMANDS OUTPUT_CHARS SESSION_KB SEED\n", argv[0]);
        return 2;
    }
    int ncmd = atoi(argv[1]), outchars = atoi(argv[2]), kb = atoi(argv[3]);
    rs = 2463534242u ^ (uint32_t)atoi(argv[4]);
    crc_init();
    const char *prompt = "build@ci:~$ ";
    ServerStream srv;
    make_session(&srv, ncmd, outchars, prompt);
    TelnetInputStream tin = { &srv, 0, 0, 0, 0 };
    StringBuffer sb;
    sb_init(&sb);
    long total = 0;
    int waits = 0;
    for (int c = 0; c < ncmd; c++) {
        int n = waitForString(&tin, prompt, &sb);
        if (n < 0) break;
        total += n;
        waits++;
    }
    uint64_t f = filter_chain(kb);
    printf("commands=%d chars=%ld negotiations=%llu echo=%d log=%08llx filter=%016llx\n", waits, total,
           (unsigned long long)tin.negotiations, tin.echo, (unsigned long long)tin.crc, (unsigned long long)f);
    return 0;
}
