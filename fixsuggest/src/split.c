/*
 * split.c - shell-like word splitting without expansion (vprof/loopcmd.h),
 * so `vprof diagnose --buggy './app "big input"'` runs ./app with one
 * argument and nothing is ever handed to a shell.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "vprof/loopcmd.h"
#include "vprof/oneline.h"

int vp_loopcmd_split(const char *line, char ***argv, size_t *argc, char *err, size_t errlen)
{
    size_t len = strlen(line), n = 0;
    char **v = calloc(len / 2 + 2, sizeof *v); /* at most one word per two chars, +1 */
    char *word = malloc(len + 1);
    if (!v || !word) {
        free(v);
        free(word);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t w = 0;
    int in_word = 0;
    const char *p = line;
    for (;;) {
        char c = *p;
        if (c == '\0' || c == ' ' || c == '\t' || c == '\n') {
            if (in_word) {
                word[w] = '\0';
                if (!(v[n++] = strdup(word)))
                    goto oom;
                w = 0;
                in_word = 0;
            }
            if (!c)
                break;
            p++;
            continue;
        }
        in_word = 1;
        if (c == '\'') {
            const char *end = strchr(p + 1, '\'');
            if (!end) {
                snprintf(err, errlen, "unterminated ' quote in: %s", line);
                goto fail;
            }
            memcpy(word + w, p + 1, (size_t)(end - p - 1));
            w += (size_t)(end - p - 1);
            p = end + 1;
        } else if (c == '"') {
            p++;
            for (;;) {
                if (!*p) {
                    snprintf(err, errlen, "unterminated \" quote in: %s", line);
                    goto fail;
                }
                if (*p == '"') {
                    p++;
                    break;
                }
                if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1])) {
                    if (p[1] != '\n')
                        word[w++] = p[1];
                    p += 2;
                    continue;
                }
                word[w++] = *p++;
            }
        } else if (c == '\\') {
            if (!p[1]) {
                snprintf(err, errlen, "trailing backslash in: %s", line);
                goto fail;
            }
            if (p[1] != '\n')
                word[w++] = p[1];
            p += 2;
        } else {
            word[w++] = c;
            p++;
        }
    }
    free(word);
    if (!n) {
        free(v);
        snprintf(err, errlen, "empty command");
        return -1;
    }
    *argv = v;
    *argc = n;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    vp_oneline(err); /* the quoted command may span lines */
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
    free(word);
    return -1;
}
