/*
 * loopmods.c - the modules whose loops vprof-loop diagnoses (loopmods.h).
 */
#define _GNU_SOURCE
#include "loopmods.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int vp_loopmods_add(struct vp_loopmods *m, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < m->n; i++)
        if (m->mod[i].dev == st.st_dev && m->mod[i].ino == st.st_ino)
            return 0;
    struct vp_loop_table *t = NULL;
    int bad = vp_loop_table_read(path, &t, err, errlen) != 0;
    if (!bad && !t->loop_count) {
        vp_loop_table_free(t);
        return 0;
    }
    /* an unreadable module is kept too, without a table, so that it is
       reported once however often it is met */
    char *p = strdup(path);
    struct vp_loopmod *nm = realloc(m->mod, (m->n + 1) * sizeof *nm);
    if (nm)
        m->mod = nm;
    if (!p || !nm) {
        free(p);
        vp_loop_table_free(t);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->mod[m->n++] = (struct vp_loopmod){.path = p, .dev = st.st_dev, .ino = st.st_ino, .table = t};
    return bad ? -1 : 1;
}

/* The program interpreter (PT_INTERP) of `exe`, or NULL (static, not ELF). */
static char *interpreter(const char *exe)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return NULL;
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *interp = NULL;
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t nph = 0;
    if (e && elf_kind(e) == ELF_K_ELF && elf_getphdrnum(e, &nph) == 0) {
        for (size_t i = 0; i < nph && !interp; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
                continue;
            size_t len = 0;
            char *raw = elf_rawfile(e, &len);
            if (raw && ph.p_offset < len && ph.p_filesz > 1 && ph.p_filesz <= len - ph.p_offset &&
                memchr(raw + ph.p_offset, 0, ph.p_filesz))
                interp = strdup(raw + ph.p_offset);
        }
    }
    if (e)
        elf_end(e);
    close(fd);
    return interp;
}

/* Output of `argv` (stdout only, at most `cap` - 1 bytes, NUL-terminated),
   or NULL when it cannot be run, fails, or takes more than 10 s (killed). */
static char *capture(char *const argv[], size_t cap)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return NULL;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        dup2(pfd[1], 1);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pfd[1]);
    char *buf = malloc(cap);
    size_t used = 0;
    int ok = buf != NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (ok) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = 10000 - ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
        struct pollfd p = {.fd = pfd[0], .events = POLLIN};
        int r = left > 0 ? poll(&p, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            ok = 0; /* timed out */
            break;
        }
        ssize_t k = read(pfd[0], buf + used, cap - 1 - used);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        used += (size_t)k;
        if (used == cap - 1)
            break;
    }
    close(pfd[0]);
    if (!ok)
        kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!ok || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(buf);
        return NULL;
    }
    buf[used] = 0;
    return buf;
}

size_t vp_loopmods_add_needed(struct vp_loopmods *m, const char *exe,
                              void (*warn)(void *ctx, const char *msg), void *ctx)
{
    char *interp = interpreter(exe);
    if (!interp)
        return 0;
    /* glibc's and musl's loaders both take --list: they map the libraries
       and print them, and run none of the program's code. */
    char *argv[] = {interp, "--list", (char *)exe, NULL};
    char *out = capture(argv, 1 << 20);
    free(interp);
    if (!out)
        return 0;
    size_t kept = 0;
    char err[1024];
    /* "\tlibfoo.so.1 => /path/libfoo.so.1 (0x...)" */
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        char *arrow = strstr(line, " => ");
        if (!arrow)
            continue;
        char *path = arrow + 4;
        char *end = strstr(path, " (0x");
        if (end)
            *end = 0;
        if (path[0] != '/')
            continue; /* "not found" */
        int r = vp_loopmods_add(m, path, err, sizeof err);
        if (r == 1)
            kept++;
        else if (r < 0 && warn)
            warn(ctx, err);
    }
    free(out);
    return kept;
}

int vp_loopmods_merge(struct vp_loopmods *m)
{
    size_t total = 0;
    for (size_t i = 0; i < m->n; i++)
        total += m->mod[i].table ? m->mod[i].table->loop_count : 0;
    struct vp_loop_table *t = calloc(1, sizeof *t);
    struct vp_loop_info *loops = malloc((total ? total : 1) * sizeof *loops);
    if (!t || !loops) {
        free(t);
        free(loops);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t j = 0; m->mod[i].table && j < m->mod[i].table->loop_count; j++)
            loops[k++] = m->mod[i].table->loops[j];
    t->loops = loops;
    t->loop_count = total;
    vp_loop_table_free(m->merged); /* its sites and strings are the parts' */
    m->merged = t;
    return 0;
}

int vp_loopmods_redundancy(const struct vp_loopmods *m, const struct vp_profile *prof,
                           struct vp_red_result **out, char *err, size_t errlen)
{
    struct vp_red_params prm;
    vp_red_params_default(&prm);
    struct vp_red_result **part = calloc(m->n ? m->n : 1, sizeof *part);
    if (!part) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    size_t nloops = 0, nchars = 0, ok = 0;
    char first[1024] = "";
    for (size_t i = 0; i < m->n; i++) {
        char e[1024];
        if (!m->mod[i].table)
            continue; /* unreadable, reported when met */
        if (vp_red_analyze(m->mod[i].path, prof, &prm, &part[i], e, sizeof e) != 0) {
            part[i] = NULL;
            if (!first[0])
                snprintf(first, sizeof first, "%s", e);
            continue;
        }
        ok++;
        nloops += part[i]->loop_count;
        for (size_t j = 0; j < part[i]->loop_count; j++)
            nchars += strlen(part[i]->loops[j].function) + 1;
    }
    int rc = -1;
    struct vp_red_result *r = NULL;
    if (!ok) {
        snprintf(err, errlen, "%s", first[0] ? first : "no module with loops");
        goto done;
    }
    /* One result owning its loops and their function names. */
    r = calloc(1, sizeof *r);
    if (r) {
        r->loops = malloc((nloops ? nloops : 1) * sizeof *r->loops);
        r->strings_ = malloc(nchars ? nchars : 1);
    }
    if (!r || !r->loops || !r->strings_) {
        vp_red_result_free(r);
        r = NULL;
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    char *s = r->strings_;
    int have_loss = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (!part[i])
            continue;
        if (!have_loss) {
            have_loss = 1;
            /* the loss counts are the profile's: the same in every part */
            r->iterations_dropped = part[i]->iterations_dropped;
            r->iterations_truncated = part[i]->iterations_truncated;
            r->instances_dropped = part[i]->instances_dropped;
            r->values_dropped = part[i]->values_dropped;
        }
        for (size_t j = 0; j < part[i]->loop_count; j++) {
            struct vp_red_loop_result *l = &r->loops[r->loop_count++];
            *l = part[i]->loops[j];
            size_t len = strlen(l->function) + 1;
            memcpy(s, l->function, len);
            l->function = s;
            s += len;
        }
    }
    *out = r;
    rc = 0;
done:
    for (size_t i = 0; i < m->n; i++)
        vp_red_result_free(part[i]);
    free(part);
    return rc;
}

void vp_loopmods_free(struct vp_loopmods *m)
{
    vp_loop_table_free(m->merged);
    for (size_t i = 0; i < m->n; i++) {
        vp_loop_table_free(m->mod[i].table);
        free(m->mod[i].path);
    }
    free(m->mod);
    memset(m, 0, sizeof *m);
}
