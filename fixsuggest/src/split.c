/*
 * split.c - shell-like word splitting without expansion (vprof/loopcmd.h),
 * so `vprof diagnose --buggy './app "big input"'` runs ./app with one
 * argument and nothing is ever handed to a shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vprof/loopcmd.h"
#include "vprof/oneline.h"

int vp_loopcmd_split(const char *line, char ***argv, size_t *argc, char *err, size_t errlen)
{
    return vp_loopcmd_split_io(line, argv, argc, NULL, err, errlen);
}

void vp_loopcmd_io_free(struct vp_loopcmd_io *io)
{
    free(io->in);
    free(io->out);
    io->in = io->out = NULL;
}

/* Opens a redirection's file: the input for reading, the output for
   writing (created; truncated with `trunc`).  The fd, or -1 with `err`
   naming the file. */
static int open_redir(const char *path, int out, int trunc, char *err, size_t errlen)
{
    int fd = out ? open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (trunc ? O_TRUNC : 0), 0666)
                 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open the %s '%c %s': %s", out ? "output" : "input",
                 out ? '>' : '<', path, strerror(errno));
        vp_oneline(err);
    }
    return fd;
}

int vp_loopcmd_io_open(const struct vp_loopcmd_io *io, int *in_fd, int *out_fd, char *err,
                       size_t errlen)
{
    *in_fd = *out_fd = -1;
    if (io && io->in && (*in_fd = open_redir(io->in, 0, 1, err, errlen)) < 0)
        return -1;
    if (io && io->out && (*out_fd = open_redir(io->out, 1, 1, err, errlen)) < 0) {
        if (*in_fd >= 0)
            close(*in_fd);
        *in_fd = -1;
        return -1;
    }
    return 0;
}

int vp_loopcmd_io_check(const struct vp_loopcmd_io *io, char *err, size_t errlen)
{
    for (int out = 0; io && out < 2; out++) {
        const char *path = out ? io->out : io->in;
        int fd = path ? open_redir(path, out, 0, err, errlen) : -2;
        if (fd == -1)
            return -1;
        if (fd >= 0)
            close(fd);
    }
    return 0;
}

int vp_loopcmd_split_io(const char *line, char ***argv, size_t *argc, struct vp_loopcmd_io *io,
                        char *err, size_t errlen)
{
    if (io)
        io->in = io->out = NULL;
    char redir = 0; /* an unquoted < or > began this word or the blank before it */
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
                if (redir) { /* the file of `< FILE` or `> FILE` */
                    char **slot = redir == '<' ? &io->in : &io->out;
                    if (*slot) {
                        snprintf(err, errlen, "two '%c' redirections in: %s", redir, line);
                        goto fail;
                    }
                    if (!(*slot = strdup(word)))
                        goto oom;
                    redir = 0;
                } else if (!(v[n++] = strdup(word))) {
                    goto oom;
                }
                w = 0;
                in_word = 0;
            }
            if (!c)
                break;
            p++;
            continue;
        }
        if (io && !in_word && (c == '<' || c == '>')) {
            if (redir) {
                snprintf(err, errlen, "'%c' needs a file name in: %s", redir, line);
                goto fail;
            }
            redir = c;
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
    if (redir) {
        snprintf(err, errlen, "'%c' needs a file name in: %s", redir, line);
        goto fail;
    }
    free(word);
    if (!n) {
        free(v);
        if (io)
            vp_loopcmd_io_free(io);
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
    if (io)
        vp_loopcmd_io_free(io);
    return -1;
}
