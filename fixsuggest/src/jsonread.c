/*
 * jsonread.c - strict recursive-descent JSON reader (jsonread.h).  Depth is
 * bounded so hostile input cannot exhaust the stack.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

#define MAX_DEPTH 64

struct parser {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
    int failed;
};

static void fail(struct parser *p, const char *what)
{
    if (!p->failed)
        snprintf(p->err, p->errlen, "offset %zu: %s", p->pos, what);
    p->failed = 1;
}

static void skip_ws(struct parser *p)
{
    while (p->pos < p->len && p->s[p->pos] && strchr(" \t\r\n", p->s[p->pos]))
        p->pos++;
}

static int push(struct vp_jr *j, char *key, struct vp_jr *item)
{
    struct vp_jr *items = realloc(j->items, (j->count + 1) * sizeof *items);
    if (!items)
        return -1;
    j->items = items;
    if (j->type == VP_JR_OBJECT) {
        char **keys = realloc(j->keys, (j->count + 1) * sizeof *keys);
        if (!keys)
            return -1;
        j->keys = keys;
        keys[j->count] = key;
    }
    items[j->count++] = *item;
    return 0;
}

static void put_utf8(char *out, size_t *o, unsigned cp)
{
    if (cp < 0x80) {
        out[(*o)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*o)++] = (char)(0xc0 | (cp >> 6));
        out[(*o)++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xe0 | (cp >> 12));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*o)++] = (char)(0x80 | (cp & 0x3f));
    } else {
        out[(*o)++] = (char)(0xf0 | (cp >> 18));
        out[(*o)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[(*o)++] = (char)(0x80 | (cp & 0x3f));
    }
}

static int hex4(struct parser *p, unsigned *v)
{
    if (p->len - p->pos < 4)
        return -1;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos++];
        *v <<= 4;
        if (c >= '0' && c <= '9')
            *v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            *v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            *v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    return 0;
}

/* At the opening quote. */
static char *parse_string(struct parser *p)
{
    p->pos++;
    size_t start = p->pos;
    /* Escapes only shrink (\uXXXX -> at most 4 bytes from 6). */
    size_t end = start;
    while (end < p->len && p->s[end] != '"') {
        if (p->s[end] == '\\')
            end++;
        end++;
    }
    if (end >= p->len) {
        fail(p, "unterminated string");
        return NULL;
    }
    char *out = malloc(end - start + 1);
    if (!out) {
        fail(p, "out of memory");
        return NULL;
    }
    size_t o = 0;
    while (p->pos < end) {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c < 0x20) {
            fail(p, "control character in string");
            free(out);
            return NULL;
        }
        if (c != '\\') {
            out[o++] = (char)c;
            p->pos++;
            continue;
        }
        p->pos++;
        char e = p->s[p->pos++];
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *k = e ? strchr(from, e) : NULL;
        if (k) {
            out[o++] = to[k - from];
        } else if (e == 'u') {
            unsigned cp;
            if (hex4(p, &cp) != 0) {
                fail(p, "bad \\u escape");
                free(out);
                return NULL;
            }
            if (cp >= 0xd800 && cp < 0xdc00 && p->pos + 6 <= end && p->s[p->pos] == '\\' &&
                p->s[p->pos + 1] == 'u') {
                unsigned lo;
                p->pos += 2;
                if (hex4(p, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff) {
                    fail(p, "bad surrogate pair");
                    free(out);
                    return NULL;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(out, &o, cp);
        } else {
            fail(p, "bad escape");
            free(out);
            return NULL;
        }
    }
    p->pos = end + 1;
    out[o] = '\0';
    return out;
}

static void free_node(struct vp_jr *j)
{
    free(j->string);
    for (size_t i = 0; i < j->count; i++) {
        if (j->keys)
            free(j->keys[i]);
        free_node(&j->items[i]);
    }
    free(j->keys);
    free(j->items);
}

static int parse_value(struct parser *p, struct vp_jr *out, int depth)
{
    memset(out, 0, sizeof *out);
    skip_ws(p);
    if (depth > MAX_DEPTH) {
        fail(p, "nested too deeply");
        return -1;
    }
    if (p->pos >= p->len) {
        fail(p, "unexpected end of input");
        return -1;
    }
    char c = p->s[p->pos];
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        out->type = c == '{' ? VP_JR_OBJECT : VP_JR_ARRAY;
        p->pos++;
        skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            return 0;
        }
        for (;;) {
            char *key = NULL;
            skip_ws(p);
            if (out->type == VP_JR_OBJECT) {
                if (p->pos >= p->len || p->s[p->pos] != '"') {
                    fail(p, "expected a string key");
                    return -1;
                }
                if (!(key = parse_string(p)))
                    return -1;
                skip_ws(p);
                if (p->pos >= p->len || p->s[p->pos] != ':') {
                    free(key);
                    fail(p, "expected ':'");
                    return -1;
                }
                p->pos++;
            }
            struct vp_jr item;
            if (parse_value(p, &item, depth + 1) != 0) {
                free(key);
                free_node(&item); /* what it had parsed before failing */
                return -1;
            }
            if (push(out, key, &item) != 0) {
                free(key);
                free_node(&item);
                fail(p, "out of memory");
                return -1;
            }
            skip_ws(p);
            if (p->pos < p->len && p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            if (p->pos < p->len && p->s[p->pos] == close) {
                p->pos++;
                return 0;
            }
            fail(p, out->type == VP_JR_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
            return -1;
        }
    }
    if (c == '"') {
        out->type = VP_JR_STRING;
        return (out->string = parse_string(p)) ? 0 : -1;
    }
    static const struct {
        const char *word;
        int type;
        double v;
    } words[] = {{"true", VP_JR_BOOL, 1}, {"false", VP_JR_BOOL, 0}, {"null", VP_JR_NULL, 0}};
    for (size_t i = 0; i < 3; i++) {
        size_t wl = strlen(words[i].word);
        if (p->len - p->pos >= wl && memcmp(p->s + p->pos, words[i].word, wl) == 0) {
            out->type = words[i].type;
            out->number = words[i].v;
            p->pos += wl;
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char buf[64];
        size_t n = 0;
        while (p->pos + n < p->len && n < sizeof buf - 1 &&
               p->s[p->pos + n] && strchr("+-.eE0123456789", p->s[p->pos + n]))
            n++;
        memcpy(buf, p->s + p->pos, n);
        buf[n] = '\0';
        char *end;
        errno = 0;
        out->number = strtod(buf, &end);
        if (end != buf + n || n == 0) {
            fail(p, "bad number");
            return -1;
        }
        out->type = VP_JR_NUMBER;
        p->pos += n;
        return 0;
    }
    fail(p, "unexpected character");
    return -1;
}

struct vp_jr *vp_jr_parse(const char *text, size_t len, char *err, size_t errlen)
{
    struct parser p = {.s = text, .len = len, .err = err, .errlen = errlen};
    struct vp_jr *root = calloc(1, sizeof *root);
    if (!root) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (parse_value(&p, root, 0) != 0) {
        free_node(root);
        free(root);
        return NULL;
    }
    skip_ws(&p);
    if (p.pos != p.len) {
        fail(&p, "trailing data after the document");
        free_node(root);
        free(root);
        return NULL;
    }
    return root;
}

void vp_jr_free(struct vp_jr *j)
{
    if (!j)
        return;
    free_node(j);
    free(j);
}

const struct vp_jr *vp_jr_get(const struct vp_jr *j, const char *key)
{
    if (!j || j->type != VP_JR_OBJECT)
        return NULL;
    for (size_t i = 0; i < j->count; i++)
        if (strcmp(j->keys[i], key) == 0)
            return &j->items[i];
    return NULL;
}

const char *vp_jr_str(const struct vp_jr *j, const char *key, const char *dflt)
{
    const struct vp_jr *v = vp_jr_get(j, key);
    return v && v->type == VP_JR_STRING ? v->string : dflt;
}

double vp_jr_num(const struct vp_jr *j, const char *key, double dflt)
{
    const struct vp_jr *v = vp_jr_get(j, key);
    return v && v->type == VP_JR_NUMBER ? v->number : dflt;
}

long long vp_jr_int(const struct vp_jr *j, const char *key, long long lo, long long hi,
                    long long dflt)
{
    const struct vp_jr *v = vp_jr_get(j, key);
    if (!v || v->type != VP_JR_NUMBER || v->number != v->number) /* absent, NaN */
        return dflt;
    /* Compare as doubles before converting: a double beyond the range of
       the integer type is undefined behaviour to convert. */
    if (v->number <= (double)lo)
        return lo;
    if (v->number >= (double)hi)
        return hi;
    return (long long)v->number;
}
