/*
 * test_cmd.c - `vprof rank` end to end on synthetic profile files written
 * with the real writer, whose PCs point into small ELFs built by this test
 * (prog_rank.c, prog_other.c), so symbolization is real.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/commands.h"
#include "pf_builder.h"
#include "vprof/symbols.h"

static char dir[] = "/tmp/vprof-rank-cmd-XXXXXX";

static const struct vp_func *func(const char *elf, const char *name, struct vp_symtab **keep)
{
    char err[256];
    if (vp_symtab_open(elf, NULL, 0, keep, err, sizeof err))
        fail_msg("%s", err);
    size_t n;
    const struct vp_func *f = vp_symtab_funcs(*keep, &n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i].name, name))
            return &f[i];
    fail_msg("%s not in %s", name, elf);
    return NULL;
}

/* The PLT stub `<name>@plt` of elf. */
static const struct vp_func *plt_stub(const char *elf, const char *name, struct vp_symtab **keep)
{
    const struct vp_func *f = func(elf, name, keep);
    assert_true(f->plt);
    return f;
}

/* A profile of prog_rank: PC samples in helper/scan_list and values of
 * scan_list's loop variable i in [0, imax), 40 in vprof's own runtime
 * (its fork or signal handling: not the program's time) and plt_n in the
 * PLT stub of atoi, called from scan_list (the jump to a library
 * function: no candidate). */
static void write_rank_profile(const char *path, int helper_n, int scan_n, int imax, int plt_n)
{
    struct vp_symtab *st;
    const struct vp_func *h = func(PROG_RANK, "helper", &st);
    struct vp_symtab *st2;
    const struct vp_func *s = func(PROG_RANK, "scan_list", &st2);
    struct pf_builder b;
    pf_init(&b);
    /* a distinct recording each (vprof rank refuses one recording twice) */
    b.hdr.start_ns = 1000000000ull + (uint64_t)helper_n;
    b.hdr.end_ns = 2000000000ull + (uint64_t)scan_n;
    pf_module(&b, PROG_RANK, 0, 0x400000, 0x500000, 1);
    pf_module(&b, "/opt/vprof/lib/libvprof-rt.so", 0x7f0000000000, 0x7f0000001000,
              0x7f0000100000, 0);
    uint32_t v = pf_var(&b, s->file, "scan_list", "i", "int", (uint32_t)s->line + 3, 1 /* loop */,
                        1 /* sint */, 4);
    uint64_t seq = 1;
    for (int k = 0; k < helper_n; k++, seq++)
        pf_pc(&b, seq, h->lo + 4, 1, 0, NULL);
    for (int k = 0; k < 40; k++, seq++)
        pf_pc(&b, seq, 0x7f0000002000 + (uint64_t)k, 1, 0, NULL);
    struct vp_symtab *st3;
    const struct vp_func *stub = plt_stub(PROG_RANK, "atoi@plt", &st3);
    const uint64_t from_scan[1] = { s->lo + 9 };
    for (int k = 0; k < plt_n; k++, seq++)
        pf_pc(&b, seq, stub->lo + (uint64_t)(k % 8), 1, 1, from_scan);
    for (int k = 0; k < scan_n; k++, seq++) {
        uint64_t pc = s->lo + 8 + (uint64_t)(k % 3);
        pf_pc(&b, seq, pc, 1, 0, NULL);
        pf_value(&b, seq, v, (uint64_t)(k % imax), pc, 0);
    }
    char err[256];
    if (pf_write(&b, path, err, sizeof err))
        fail_msg("%s", err);
    pf_free(&b);
    vp_symtab_close(st);
    vp_symtab_close(st2);
    vp_symtab_close(st3);
}

static void write_other_profile(const char *path)
{
    struct vp_symtab *st;
    const struct vp_func *a = func(PROG_OTHER, "other_a", &st);
    struct pf_builder b;
    pf_init(&b);
    pf_module(&b, PROG_OTHER, 0, 0x400000, 0x500000, 1);
    for (int k = 0; k < 30; k++)
        pf_pc(&b, (uint64_t)k + 1, a->lo + 2, 1, 0, NULL);
    char err[256];
    if (pf_write(&b, path, err, sizeof err))
        fail_msg("%s", err);
    pf_free(&b);
    vp_symtab_close(st);
}

static void write_empty_profile(const char *path)
{
    struct pf_builder b;
    pf_init(&b);
    pf_module(&b, PROG_RANK, 0, 0x400000, 0x500000, 1);
    char err[256];
    if (pf_write(&b, path, err, sizeof err))
        fail_msg("%s", err);
    pf_free(&b);
}

static char *path_of(const char *name)
{
    static char buf[8][512];
    static int k;
    char *p = buf[k++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

/* Runs vp_cmd_rank on n arguments with stderr captured; returns the exit
 * status. */
static int rank(char *stderr_buf, size_t len, int n, ...)
{
    char *argv[32];
    va_list ap;
    va_start(ap, n);
    argv[0] = "rank";
    for (int i = 1; i <= n; i++)
        argv[i] = va_arg(ap, char *);
    va_end(ap);
    int argc = n + 1;
    argv[argc] = NULL;
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path_of("stderr.txt"), O_CREAT | O_TRUNC | O_RDWR, 0644);
    dup2(fd, 2);
    int rc = vp_cmd_rank(argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, stderr_buf, len - 1);
    stderr_buf[got > 0 ? got : 0] = 0;
    close(fd);
    return rc;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    return buf;
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    write_rank_profile(path_of("normal.vprof"), 50, 20, 10, 0);
    write_rank_profile(path_of("normal2.vprof"), 45, 25, 10, 0);
    write_rank_profile(path_of("slow.vprof"), 60, 80, 1000, 100);
    write_other_profile(path_of("other.vprof"));
    write_empty_profile(path_of("empty.vprof"));
    FILE *f = fopen(path_of("garbage.vprof"), "w");
    fputs("not a profile", f);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (getenv("RANK_TEST_KEEP")) /* debugging aid: keep the files */
        return 0;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_rank_json(void **state)
{
    (void)state;
    char e[4096];
    char *out = path_of("rank.json");
    int rc = rank(e, sizeof e, 9, "--normal", path_of("normal.vprof"), path_of("normal2.vprof"),
                  "--buggy", path_of("slow.vprof"), "--format", "json", "-o", out);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, e);
    char *j = slurp(out);
    assert_non_null(j);
    assert_non_null(strstr(j, "\"schema\": \"vprof-rank/1\""));
    /* scan_list is rank 1, scalability on i, lines in prog_rank.c */
    char *first = strstr(j, "\"rank\": 1,");
    assert_non_null(first);
    char *name = strstr(first, "\"name\": ");
    assert_non_null(name);
    assert_int_equal(strncmp(name, "\"name\": \"scan_list\"", 19), 0);
    assert_non_null(strstr(first, "\"pattern\": \"scalability\""));
    assert_non_null(strstr(first, "prog_rank.c"));
    assert_non_null(strstr(first, "\"anomalous_lines\": ["));
    /* vprof's runtime's samples are nobody's, not unattributed time; the
       PLT stub's are unattributed, under atoi@plt called in scan_list */
    assert_non_null(strstr(j, "\"slow_unattributed\": 0.41666"));
    assert_null(strstr(j, "libvprof-rt"));
    assert_null(strstr(j, "\"name\": \"atoi@plt\", \"file\""));
    char *under = strstr(j, "\"slow_unattributed_under\"");
    assert_non_null(under);
    assert_non_null(strstr(under, "\"name\": \"atoi@plt\""));
    assert_non_null(strstr(under, "\"function\": \"scan_list\""));
    assert_null(access(path_of("rank.json.tmp"), F_OK) == 0 ? "tmp left" : NULL);
    /* same inputs, same bytes */
    char *out2 = path_of("rank2.json");
    assert_int_equal(rank(e, sizeof e, 9, "--normal", path_of("normal.vprof"),
                          path_of("normal2.vprof"), "--buggy", path_of("slow.vprof"), "--format",
                          "json", "-o", out2),
                     0);
    char *j2 = slurp(out2);
    assert_string_equal(j, j2);
    free(j);
    free(j2);
}

static void test_rank_text_md(void **state)
{
    (void)state;
    char e[4096];
    assert_int_equal(rank(e, sizeof e, 8, "--normal", path_of("normal.vprof"), "--buggy",
                          path_of("slow.vprof"), "--top", "1", "-o", path_of("rank.txt")),
                     0);
    char *t = slurp(path_of("rank.txt"));
    assert_non_null(strstr(t, "scan_list"));
    assert_null(strstr(t, "helper")); /* --top 1 */
    assert_non_null(strstr(t, "anomalous samples: prog_rank.c:"));
    free(t);
    assert_int_equal(rank(e, sizeof e, 8, "--normal", path_of("normal.vprof"), "--buggy",
                          path_of("slow.vprof"), "--format", "md", "-o", path_of("rank.md")),
                     0);
    t = slurp(path_of("rank.md"));
    assert_non_null(strstr(t, "most likely root cause is `scan_list`"));
    assert_non_null(strstr(t, "**scalability**"));
    free(t);
}

static void expect_exit2(const char *needle, int n, char *a1, char *a2, char *a3, char *a4)
{
    char e[4096];
    int rc = rank(e, sizeof e, n, a1, a2, a3, a4);
    assert_int_equal(rc, 2);
    if (!strstr(e, needle))
        fail_msg("stderr '%s' lacks '%s'", e, needle);
    char *nl = strchr(e, '\n');
    assert_true(nl && nl[1] == 0); /* exactly one line */
}

static void test_errors(void **state)
{
    (void)state;
    expect_exit2("no function names in common", 4, "--normal", path_of("other.vprof"), "--buggy",
                 path_of("slow.vprof"));
    expect_exit2("no samples", 4, "--normal", path_of("normal.vprof"), "--buggy",
                 path_of("empty.vprof"));
    expect_exit2("garbage.vprof", 4, "--normal", path_of("garbage.vprof"), "--buggy",
                 path_of("slow.vprof"));
    expect_exit2("missing.vprof", 4, "--normal", path_of("missing.vprof"), "--buggy",
                 path_of("slow.vprof"));
    expect_exit2("--format must be", 4, "--format", "xml", "--buggy", path_of("slow.vprof"));
    expect_exit2("--alpha needs a number", 4, "--alpha", "2", "--buggy", path_of("slow.vprof"));
    /* one recording twice: as two slow runs, and as normal and slow */
    char e[4096];
    assert_int_equal(rank(e, sizeof e, 5, "--normal", path_of("normal.vprof"), "--buggy",
                          path_of("slow.vprof"), path_of("slow.vprof")),
                     2);
    if (!strstr(e, "the same recording as"))
        fail_msg("stderr '%s' lacks 'the same recording as'", e);
    expect_exit2("give each run once", 4, "--normal", path_of("slow.vprof"), "--buggy",
                 path_of("slow.vprof"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_json),
        cmocka_unit_test(test_rank_text_md),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
