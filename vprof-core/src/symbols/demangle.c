/*
 * demangle.c - the name a report shows for a C++ function: the Itanium
 * demangling of its linkage name (libstdc++'s __cxa_demangle), qualified by
 * its namespaces and classes, without what tells overloads apart (parameter
 * list, cv/ref qualifiers, clone suffix) and without a template function's
 * return type.  Reports give file:line next to the name, which tells
 * overloads apart; the identity used to match functions is the mangled name
 * itself (vp_func_key).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/symbols.h"

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* Index of the '(' that opens the parameter list ending at s[end] == ')',
   or -1 when the brackets do not balance. */
static long open_of(const char *s, long end)
{
    int depth = 0;
    for (long i = end; i >= 0; i--) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0)
            return i;
    }
    return -1;
}

/* Start of the qualified name in s[0, len): after the last space outside
   every bracket, which separates a template function's return type.  The
   scan stops at an operator's name ("operator<<", "operator new",
   "operator unsigned long"), whose characters are not brackets. */
static size_t name_start(const char *s, size_t len)
{
    int angle = 0, paren = 0, brace = 0, square = 0;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (strncmp(s + i, "operator", 8) == 0 && (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ') &&
            angle == 0 && paren == 0 && brace == 0 && square == 0)
            break;
        switch (s[i]) {
        case '<': angle++; break;
        case '>': angle--; break;
        case '(': paren++; break;
        case ')': paren--; break;
        case '{': brace++; break;
        case '}': brace--; break;
        case '[': square++; break;
        case ']': square--; break;
        case ' ':
            if (angle == 0 && paren == 0 && brace == 0 && square == 0)
                start = i + 1;
            break;
        }
        if (angle < 0 || paren < 0 || brace < 0 || square < 0)
            return 0; /* "->" in a decltype, or anything unexpected: keep all */
    }
    return start;
}

const char *vp_func_display(const char *key, char *buf, size_t n)
{
    if (!key || key[0] != '_' || key[1] != 'Z' || n == 0)
        return key;
    /* a PLT stub, "<linkage>@plt" (symbols.c): the function's name, then
       "@plt", as perf shows it */
    size_t klen = strlen(key);
    if (klen > 4 && strcmp(key + klen - 4, "@plt") == 0) {
        char *fn = strndup(key, klen - 4);
        if (!fn)
            return key;
        const char *d = vp_func_display(fn, buf, n);
        if (d == fn || strlen(d) + 5 > n) { /* not demangled, or no room */
            free(fn);
            return key;
        }
        strcat(buf, "@plt");
        free(fn);
        return buf;
    }
    int status = -1;
    char *d = __cxa_demangle(key, NULL, NULL, &status);
    if (status != 0 || !d) {
        free(d);
        return key;
    }
    long len = (long)strlen(d);
    /* " [clone .cold]" and the like (symbol-table names of split parts) */
    for (char *c; (c = strstr(d, " [clone ")) != NULL;)
        len = (long)(c - d), d[len] = 0;
    /* cv and ref qualifiers of a method: "...) const &" */
    for (;;) {
        while (len > 0 && d[len - 1] == ' ')
            len--;
        if (len >= 1 && d[len - 1] == '&')
            len--;
        else if (len >= 6 && strncmp(d + len - 6, " const", 6) == 0)
            len -= 6;
        else if (len >= 9 && strncmp(d + len - 9, " volatile", 9) == 0)
            len -= 9;
        else
            break;
    }
    if (len > 0 && d[len - 1] == ')') {
        long open = open_of(d, len - 1);
        if (open > 0)
            len = open;
    }
    size_t start = name_start(d, (size_t)len);
    size_t out = (size_t)len - start;
    if (out >= n)
        out = n - 1;
    memcpy(buf, d + start, out);
    buf[out] = 0;
    free(d);
    return buf;
}

/* Length of an operator's name at s ("operator<<", "operator->"): the
   brackets in it are no template's.  0 when s is not at one. */
static size_t operator_len(const char *s, const char *start)
{
    if (strncmp(s, "operator", 8) != 0 || (s > start && s[-1] != ':'))
        return 0;
    size_t k = 8;
    while (s[k] && strchr("<>=-!", s[k]))
        k++;
    return k;
}

const char *vp_func_fit(const char *shown, size_t width, char *buf, size_t n)
{
    if (!shown || n < 4 || width < 4 || strlen(shown) <= width)
        return shown;
    if (width > n - 1)
        width = n - 1;
    /* each outermost template argument list becomes "<...>" */
    size_t w = 0;
    int depth = 0;
    for (const char *s = shown; *s && w + 5 < n;) {
        size_t op = depth == 0 ? operator_len(s, shown) : 0;
        if (op) {
            if (w + op + 5 >= n)
                break;
            memcpy(buf + w, s, op);
            w += op;
            s += op;
            continue;
        }
        if (*s == '<') {
            if (depth++ == 0) {
                memcpy(buf + w, "<...>", 5);
                w += 5;
            }
        } else if (*s == '>') {
            if (--depth < 0) { /* unbalanced: cut the name as it is */
                w = 0;
                break;
            }
        } else if (depth == 0) {
            buf[w++] = *s;
        }
        s++;
    }
    buf[w] = 0;
    if (depth > 0 && w + 4 <= n) /* a name cut inside its arguments */
        memcpy(buf + w, "...", 4);
    else if (depth != 0 || w == 0)
        snprintf(buf, n, "%s", shown);
    size_t len = strlen(buf);
    if (len > width) /* still too long: its end, the function's own name, is kept */
        memmove(buf + 3, buf + len - (width - 3), width - 3 + 1), memcpy(buf, "...", 3);
    return buf;
}

struct fit_entry {
    const char *fit, *name;
    size_t i;
};

static int fit_entry_cmp(const void *a, const void *b)
{
    const struct fit_entry *x = a, *y = b;
    int c = strcmp(x->fit, y->fit);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The first position from `from` on that starts a name part (after "::",
   '<', ',' or ' '), if there is one up to `d`; else `from`. */
static size_t fit_boundary(const char *name, size_t from, size_t d)
{
    for (size_t k = from > 0 ? from : 1; k <= d && name[k]; k++)
        if (strchr("<, ", name[k - 1]) || (k >= 2 && name[k - 1] == ':' && name[k - 2] == ':'))
            return k;
    return from;
}

/* `name` shown in `width` characters so that it differs from a name that
   first differs from it at byte d. */
static char *fit_apart(const char *name, size_t d, size_t width)
{
    size_t len = strlen(name);
    char *out = malloc(width + 1 > len + 1 ? width + 1 : len + 1);
    if (!out)
        return NULL;
    if (len <= width) {
        memcpy(out, name, len + 1);
    } else if (len - (width - 3) <= d) { /* the end tells them apart */
        size_t from = fit_boundary(name, len - (width - 3), d);
        memcpy(out, "...", 3);
        memcpy(out + 3, name + from, len - from + 1);
    } else if (d + 12 < width - 3) { /* the start tells them apart */
        memcpy(out, name, width - 3);
        memcpy(out + width - 3, "...", 4);
    } else { /* a stretch from a little before the difference */
        size_t from = fit_boundary(name, d - 12, d);
        memcpy(out, "...", 3);
        memcpy(out + 3, name + from, width - 6);
        memcpy(out + width - 3, "...", 4);
    }
    return out;
}

char **vp_func_fit_list(const char *const *names, size_t count, size_t width)
{
    if (width < 16)
        width = 16;
    char **fits = calloc(count ? count : 1, sizeof *fits);
    struct fit_entry *e = calloc(count ? count : 1, sizeof *e);
    if (!fits || !e)
        goto oom;
    for (size_t i = 0; i < count; i++) {
        char buf[256];
        const char *name = names[i] ? names[i] : "";
        fits[i] = strdup(vp_func_fit(name, width, buf, sizeof buf));
        if (!fits[i])
            goto oom;
        e[i] = (struct fit_entry){fits[i], name, i};
    }
    qsort(e, count, sizeof *e, fit_entry_cmp);
    for (size_t g = 0; g < count;) {
        size_t end = g + 1;
        while (end < count && strcmp(e[end].fit, e[g].fit) == 0)
            end++;
        /* within a group that looks alike: each name against the others
           that are different, at the first byte where they differ */
        for (size_t a = g; end - g > 1 && a < end; a++) {
            size_t d = (size_t)-1;
            for (size_t b = g; b < end; b++) {
                const char *x = e[a].name, *y = e[b].name;
                size_t k = 0;
                while (x[k] && x[k] == y[k])
                    k++;
                if ((x[k] || y[k]) && k < d)
                    d = k;
            }
            if (d == (size_t)-1)
                continue; /* the same name: its location tells them apart */
            char *apart = fit_apart(e[a].name, d, width);
            if (!apart)
                goto oom;
            free(fits[e[a].i]);
            fits[e[a].i] = apart;
        }
        g = end;
    }
    free(e);
    return fits;
oom:
    vp_func_fit_list_free(fits, count);
    free(e);
    return NULL;
}

void vp_func_fit_list_free(char **fits, size_t count)
{
    if (!fits)
        return;
    for (size_t i = 0; i < count; i++)
        free(fits[i]);
    free(fits);
}
