/*
 * writer.c - write a vprof profile file (analysis side: synthetic profiles,
 * tests, conversions; the runtime has its own async-signal-safe writer).
 *
 * The file is built as "<path>.tmp.<pid>", created exclusively and without
 * following a symlink, and renamed over `path` on commit, so a reader sees
 * either the old file or the complete new one.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vprof/profile.h"

struct vp_profile_writer {
    FILE *f;
    char *path;
    char *tmp;
    int failed;      /* sticky: first error is kept in `msg`            */
    char msg[256];
};

static void set_error(struct vp_profile_writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_error(struct vp_profile_writer *w, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
}

static void put(struct vp_profile_writer *w, const void *data, size_t n)
{
    if (!w->failed && n && fwrite(data, 1, n, w->f) != n)
        set_error(w, "%s: write failed: %s", w->tmp, strerror(errno));
}

static void put_section(struct vp_profile_writer *w, uint32_t type, uint32_t flags,
                        const void *data, uint64_t size)
{
    static const unsigned char zeros[8];
    struct vp_section_header sh = {.type = type, .flags = flags, .size = size};
    put(w, &sh, sizeof sh);
    put(w, data, size);
    put(w, zeros, (8 - size % 8) % 8);
}

void vp_profile_header_init(struct vp_profile_header *hdr)
{
    memset(hdr, 0, sizeof *hdr);
    memcpy(hdr->magic, VP_PROFILE_MAGIC, 8);
    hdr->version = VP_PROFILE_VERSION;
    hdr->header_size = sizeof *hdr;
    hdr->endian = VP_ENDIAN_MARK;
    hdr->word_size = 8;
    hdr->exit_status = -1;
}

struct vp_profile_writer *vp_pw_open(const char *path, const struct vp_profile_header *hdr,
                                     char *err, size_t errlen)
{
    struct vp_profile_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path)) ||
        asprintf(&w->tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
        snprintf(err, errlen, "%s: out of memory", path);
        if (w)
            free(w->path);
        free(w);
        return NULL;
    }
    int fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 || !(w->f = fdopen(fd, "wb"))) {
        snprintf(err, errlen, "%s: cannot create: %s", w->tmp, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(w->tmp);
        }
        free(w->tmp);
        free(w->path);
        free(w);
        return NULL;
    }
    /* The header is written as given, so tests can produce any variant;
       a header_size beyond the struct is padded with zeros. */
    put(w, hdr, sizeof *hdr);
    for (uint32_t i = sizeof *hdr; i < hdr->header_size && !w->failed; i++)
        put(w, "", 1);
    return w;
}

int vp_pw_section(struct vp_profile_writer *w, uint32_t type, uint32_t flags, const void *data,
                  uint64_t size)
{
    if (type == VP_SEC_END) {
        set_error(w, "%s: the END section is written by commit", w->tmp);
        return -1;
    }
    if (size && !data) {
        set_error(w, "%s: section type %u: no data for %llu bytes", w->tmp, type,
                  (unsigned long long)size);
        return -1;
    }
    put_section(w, type, flags, data, size);
    return w->failed ? -1 : 0;
}

static void discard(struct vp_profile_writer *w)
{
    if (w->f)
        fclose(w->f);
    unlink(w->tmp);
    free(w->tmp);
    free(w->path);
    free(w);
}

int vp_pw_commit(struct vp_profile_writer *w, char *err, size_t errlen)
{
    put_section(w, VP_SEC_END, 0, NULL, 0);
    if (!w->failed && fflush(w->f) != 0)
        set_error(w, "%s: write failed: %s", w->tmp, strerror(errno));
    if (!w->failed && fdatasync(fileno(w->f)) != 0)
        set_error(w, "%s: sync failed: %s", w->tmp, strerror(errno));
    if (!w->failed) {
        int rc = fclose(w->f);
        w->f = NULL;
        if (rc != 0)
            set_error(w, "%s: write failed: %s", w->tmp, strerror(errno));
    }
    if (!w->failed && rename(w->tmp, w->path) != 0)
        set_error(w, "%s: cannot rename to %s: %s", w->tmp, w->path, strerror(errno));
    if (w->failed) {
        snprintf(err, errlen, "%s", w->msg);
        discard(w);
        return -1;
    }
    free(w->tmp);
    free(w->path);
    free(w);
    return 0;
}

void vp_pw_abort(struct vp_profile_writer *w)
{
    if (w)
        discard(w);
}
