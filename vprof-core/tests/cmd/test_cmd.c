/*
 * test_cmd.c - the `vprof` command: usage errors, git-style dispatch,
 * report/dump on a synthetic profile whose PCs point into this very test
 * binary (so symbolization is real), corrupt input, and `vprof record`
 * against cmd_helper (exit status, signals, forwarding).
 *
 * usage: test_cmd VPROF CMD_HELPER PYTHON3 CHECK_REPORT_JSON
 *        test_cmd --e2e VPROF PROGRAM     (record a vprof-cc-built program)
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pf_builder.h"

extern char **environ;

static const char *g_vprof, *g_helper, *g_python, *g_checker, *g_program;
static char tmpdir[256];

/* ---- functions the synthetic profile's PCs point at -------------------- */

volatile int cmdtest_sink;

__attribute__((noinline, used)) int cmdtest_hot_function(int n)
{
    for (int i = 0; i < n; i++)
        cmdtest_sink += i;
    return cmdtest_sink;
}

__attribute__((noinline, used)) int cmdtest_tie_a(int n)
{
    return cmdtest_sink * n + 1;
}

__attribute__((noinline, used)) int cmdtest_tie_b(int n)
{
    return cmdtest_sink * n + 2;
}

__attribute__((noinline, used)) int cmdtest_no_pc_samples(int n)
{
    return cmdtest_sink * n + 3;
}

/* ---- running vprof ------------------------------------------------------ */

struct run {
    int status; /* wait status */
    char *out, *err;
};

static char *slurp_text(const char *path)
{
    size_t n;
    unsigned char *b = pf_slurp(path, &n);
    assert_non_null(b);
    b = realloc(b, n + 1);
    b[n] = '\0';
    return (char *)b;
}

/// Runs argv (NULL-terminated) with stdout/stderr captured, optionally in
/// directory `cwd`.  No shell.
static struct run run_in(const char *cwd, char *const argv[])
{
    char outp[300], errp[300];
    snprintf(outp, sizeof outp, "%s/run.out", tmpdir);
    snprintf(errp, sizeof errp, "%s/run.err", tmpdir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (cwd)
        posix_spawn_file_actions_addchdir_np(&fa, cwd);
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    struct run r;
    while (waitpid(pid, &r.status, 0) < 0)
        assert_int_equal(errno, EINTR);
    r.out = slurp_text(outp);
    r.err = slurp_text(errp);
    return r;
}

#define RUN(...) run_in(NULL, (char *const[]){(char *)g_vprof, __VA_ARGS__, NULL})

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

static int exit_code(const struct run *r)
{
    return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
}

/* Exit status `code` and, if `err_has`, stderr containing it. */
static void expect_exit(struct run *r, int code, const char *err_has)
{
    if (exit_code(r) != code)
        fail_msg("exit %d (status 0x%x), wanted %d; stderr: %s", exit_code(r), r->status, code,
                 r->err);
    if (err_has) {
        if (!strstr(r->err, err_has))
            fail_msg("stderr \"%s\" lacks \"%s\"", r->err, err_has);
        /* a diagnostic, or the usage text for a bare command */
        assert_true(strncmp(r->err, "vprof: ", 7) == 0 || strncmp(r->err, "usage: ", 7) == 0);
    }
}

/* ---- the synthetic profile --------------------------------------------- */

static int find_main_bias(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uint64_t *)data = info->dlpi_addr; /* the first object is the executable */
    return 1;
}

static void self_path(char *buf, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    assert_true(len > 0);
    buf[len] = '\0';
}

/// Writes the profile check_report_json.py expects: 100 PC samples (50 in
/// cmdtest_hot_function, 15 + 15 in the tie functions written b first, 12 in
/// a module whose file does not exist, 8 outside every module) and 9 value
/// samples over four variables and a global.
static void make_profile(const char *path)
{
    struct pf_builder b;
    pf_init(&b);
    char exe[PATH_MAX];
    self_path(exe, sizeof exe);
    uint64_t bias = 0;
    dl_iterate_phdr(find_main_bias, &bias);
    pf_module(&b, exe, bias, bias, bias + 0x10000000, 1);
    pf_module(&b, "/nonexistent/libfake.so", 0x7f0000000000, 0x7f0000001000, 0x7f0000100000, 0);

    uint64_t hot = (uint64_t)(uintptr_t)&cmdtest_hot_function + 4;
    uint64_t ta = (uint64_t)(uintptr_t)&cmdtest_tie_a + 1;
    uint64_t tb = (uint64_t)(uintptr_t)&cmdtest_tie_b + 1;
    uint64_t quiet_pc = (uint64_t)(uintptr_t)&cmdtest_no_pc_samples + 1;
    uint64_t seq = 1;
    const uint64_t callers[2] = {hot, ta};
    for (int i = 0; i < 50; i++)
        pf_pc(&b, seq++, hot, 1, (uint16_t)(i % 3), callers);
    for (int i = 0; i < 15; i++)
        pf_pc(&b, seq++, tb, 1, 0, NULL);
    for (int i = 0; i < 15; i++)
        pf_pc(&b, seq++, ta, 2, 1, callers);
    for (int i = 0; i < 12; i++)
        pf_pc(&b, seq++, 0x7f0000002000 + (uint64_t)i, 1, 0, NULL);
    for (int i = 0; i < 8; i++)
        pf_pc(&b, seq++, 0x10 + (uint64_t)i, 1, 0, NULL);

    uint32_t x = pf_var(&b, "test_cmd.c", "cmdtest_hot_function", "x", "float", 14, VP_TAG_ARGS,
                        VP_TYPE_FLOAT, 4);
    uint32_t n = pf_var(&b, "test_cmd.c", "cmdtest_hot_function", "n", "int", 12,
                        VP_TAG_LOOP | VP_TAG_COND, VP_TYPE_SINT, 4);
    uint32_t quiet = pf_var(&b, "test_cmd.c", "cmdtest_no_pc_samples", "quiet", "long", 30, 0,
                            VP_TYPE_SINT, 8);
    uint32_t g = pf_var(&b, "test_cmd.c", "", "g_limit", "unsigned int", 2, VP_TAG_GLOBAL,
                        VP_TYPE_UINT, 4);
    /* made by the compiler (a range-for's iterator): no declaration line */
    pf_var(&b, "test_cmd.c", "cmdtest_hot_function", "__begin1", "iterator", 0, VP_TAG_ARGS,
           VP_TYPE_PTR_OTHER, 8);
    pf_value(&b, 1, n, 7, hot, VP_VAL_OK);
    pf_value(&b, 2, n, 0xfffffffdu, hot, VP_VAL_OK); /* -3 as a 4-byte int */
    pf_value(&b, 3, n, 5, hot, VP_VAL_OK);
    pf_value(&b, 4, n, 0, hot, VP_VAL_UNREADABLE);
    float f1 = 2.5f, f2 = 1.5f;
    uint32_t b1, b2;
    memcpy(&b1, &f1, 4);
    memcpy(&b2, &f2, 4);
    pf_value(&b, 5, x, b1, hot, VP_VAL_OK);
    pf_value(&b, 6, x, b2, hot, VP_VAL_OK);
    pf_value(&b, 7, quiet, 0, quiet_pc, VP_VAL_UNREADABLE);
    pf_value(&b, 8, g, 4000000000u, hot, VP_VAL_OK);
    pf_value(&b, 9, g, 7, hot, VP_VAL_OK);

    b.has_coverage = 1;
    b.coverage.schema_vars = 10;
    b.coverage.located = 6;
    b.coverage.by_reason[VP_COV_NO_LOCATION] = 3;
    b.coverage.by_reason[VP_COV_ENTRY_VALUE] = 1;
    b.coverage.pc_bytes_total = 400;
    b.coverage.pc_bytes_located = 300;
    char err[512];
    if (pf_write(&b, path, err, sizeof err) != 0)
        fail_msg("%s", err);
    pf_free(&b);
}

static char profile_path[300];

/* ---- tests -------------------------------------------------------------- */

static void test_usage_errors(void **state)
{
    struct run r = run_in(NULL, (char *const[]){(char *)g_vprof, NULL});
    expect_exit(&r, 2, "usage: vprof");
    run_free(&r);

    r = RUN("--help");
    expect_exit(&r, 0, NULL);
    assert_non_null(strstr(r.out, "usage: vprof <command>"));
    run_free(&r);

    r = RUN("--version");
    expect_exit(&r, 0, NULL);
    assert_int_equal(strncmp(r.out, "vprof ", 6), 0);
    run_free(&r);

    r = RUN("--bogus");
    expect_exit(&r, 2, "vprof: unknown option '--bogus'");
    run_free(&r);

    r = RUN("no-such-subcommand");
    expect_exit(&r, 2, "vprof: 'no-such-subcommand' is not a vprof command");
    run_free(&r);

    r = RUN("../../bin/sh");
    expect_exit(&r, 2, "is not a vprof command");
    run_free(&r);

    r = RUN("report");
    expect_exit(&r, 2, "usage: vprof report");
    run_free(&r);

    r = RUN("report", "--format", "xml", profile_path);
    expect_exit(&r, 2, "vprof: report: unknown format 'xml'");
    run_free(&r);

    r = RUN("report", "--top", "-1", profile_path);
    expect_exit(&r, 2, "--top wants a count");
    run_free(&r);

    r = RUN("report", profile_path, profile_path);
    expect_exit(&r, 2, "one profile at a time");
    run_free(&r);

    r = RUN("report", "--frobnicate", profile_path);
    expect_exit(&r, 2, "vprof: report: bad option");
    run_free(&r);

    r = RUN("report", "--help");
    expect_exit(&r, 0, NULL);
    assert_non_null(strstr(r.out, "usage: vprof report"));
    run_free(&r);

    r = RUN("dump");
    expect_exit(&r, 2, "usage: vprof dump");
    run_free(&r);

    r = RUN("dump", "--index");
    expect_exit(&r, 2, "usage: vprof dump");
    run_free(&r);

    r = RUN("record");
    expect_exit(&r, 2, "vprof: record: no command to run");
    run_free(&r);

    r = RUN("record", "--");
    expect_exit(&r, 2, "no command to run");
    run_free(&r);

    r = RUN("record", "-F", "0", "--", "true");
    expect_exit(&r, 2, "-F wants a frequency");
    run_free(&r);

    r = RUN("record", "--depth", "x", "--", "true");
    expect_exit(&r, 2, "--depth wants");
    run_free(&r);

    r = RUN("record", "--max-samples", "0", "--", "true");
    expect_exit(&r, 2, "--max-samples wants");
    run_free(&r);

    r = RUN("record", "--no-such-flag", "--", "true");
    expect_exit(&r, 2, "vprof: record: bad option");
    run_free(&r);

    r = RUN("record", "-o");
    expect_exit(&r, 2, "-o needs a value");
    run_free(&r);

    r = RUN("record", "--", "vprof-test-no-such-command-xyz");
    expect_exit(&r, 2, "vprof: record: vprof-test-no-such-command-xyz: command not found");
    run_free(&r);
}

/* `vprof NAME` runs vprof-NAME from vprof's own directory, argv passed on. */
static void test_external_dispatch(void **state)
{
    char dir[300], copy[340], ext[340];
    snprintf(dir, sizeof dir, "%s/bin", tmpdir);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(copy, sizeof copy, "%s/vprof", dir);
    snprintf(ext, sizeof ext, "%s/vprof-echo", dir);
    assert_int_equal(symlink("/bin/echo", ext), 0);
    /* A copy (not a symlink): /proc/self/exe must name the directory. */
    size_t n;
    unsigned char *bin = pf_slurp(g_vprof, &n);
    int fd = open(copy, O_WRONLY | O_CREAT | O_EXCL, 0755);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bin, n), (ssize_t)n);
    close(fd);
    free(bin);

    struct run r = run_in(NULL, (char *const[]){copy, "echo", "hello", "--world", NULL});
    expect_exit(&r, 0, NULL);
    assert_string_equal(r.out, "hello --world\n");
    run_free(&r);
    r = run_in(NULL, (char *const[]){copy, "nothere", NULL});
    expect_exit(&r, 2, "'nothere' is not a vprof command");
    run_free(&r);
    unlink(ext);
    unlink(copy);
    rmdir(dir);
}

/* The line after the one containing `header`: the first row of a table. */
static const char *row_after(const char *text, const char *header)
{
    const char *h = strstr(text, header);
    assert_non_null(h);
    const char *nl = strchr(h, '\n');
    assert_non_null(nl);
    return nl + 1;
}

/// The first row of a report's table, which must be cmdtest_hot_function's:
/// its self%, cum% and self samples.
static const char *hot_row(const char *out, double *self, double *cum, unsigned long *samples)
{
    const char *first = row_after(out, "function");
    char name[64];
    assert_int_equal(sscanf(first, "%lf %lf %lu %63s", self, cum, samples, name), 4);
    assert_string_equal(name, "cmdtest_hot_function");
    return first;
}

static void test_report_text(void **state)
{
    struct run r = RUN("report", profile_path);
    expect_exit(&r, 0, NULL);
    /* the unresolvable module is reported once, as a warning */
    assert_non_null(strstr(r.err, "vprof: warning: "));
    assert_non_null(strstr(r.err, "libfake.so"));
    assert_non_null(strstr(r.out, "100 PC samples, 9 value samples"));
    assert_non_null(strstr(r.out, "location coverage: 6 of 10 schema variables have a usable "
                                  "location (75% of their code); range lost to: 3 optimised out, "
                                  "1 entry_value\n"));
    double self, cum;
    unsigned long samples;
    const char *first = hot_row(r.out, &self, &cum, &samples);
    assert_true(self == 50.0 && cum == 50.0 && samples == 50);
    assert_non_null(strstr(first, "test_cmd.c:"));
    /* its variables, by declaration line: n (12) before x (14) */
    const char *n = strstr(first, "\n      n ");
    const char *x = strstr(first, "\n      x ");
    assert_non_null(n);
    assert_non_null(x);
    assert_true(n < x);
    long line, got, unread, mn, md, mx;
    char tags[32], type[32];
    assert_int_equal(sscanf(n + 1, " n %ld %31s %31s %ld %ld %ld %ld %ld", &line, tags, type,
                            &got, &unread, &mn, &md, &mx),
                     8);
    assert_int_equal(line, 12);
    /* a variable without a declaration line shows "-", not line 0 */
    const char *it = strstr(first, "\n      __begin1 ");
    assert_non_null(it);
    char shown[16];
    assert_int_equal(sscanf(it + 1, " __begin1 %15s", shown), 1);
    assert_string_equal(shown, "-");
    assert_string_equal(tags, "loop,cond");
    assert_int_equal(got, 3);
    assert_int_equal(unread, 1);
    assert_int_equal(mn, -3);
    assert_int_equal(md, 5);
    assert_int_equal(mx, 7);
    assert_non_null(strstr(x, "1.5          1.5          2.5"));
    /* ties broken by name; unresolved groups named after their module */
    const char *a = strstr(r.out, "cmdtest_tie_a"), *b = strstr(r.out, "cmdtest_tie_b");
    assert_true(a && b && a < b);
    const char *tie_line = a;
    while (tie_line > r.out && tie_line[-1] != '\n')
        tie_line--;
    assert_int_equal(sscanf(tie_line, "%lf %lf %lu", &self, &cum, &samples), 3);
    assert_true(self == 15.0 && cum == 65.0 && samples == 15);
    assert_non_null(strstr(r.out, "[libfake.so]"));
    assert_non_null(strstr(r.out, "[unknown]"));
    assert_non_null(strstr(r.out, "\nglobals:\n"));
    assert_non_null(strstr(r.out, "4000000000"));
    run_free(&r);

    /* --top limits the rows and says so */
    r = RUN("report", "--top", "1", profile_path);
    expect_exit(&r, 0, NULL);
    assert_null(strstr(r.out, "cmdtest_tie_a"));
    assert_non_null(strstr(r.out, "(5 more functions; --top 0 shows all)"));
    run_free(&r);
}

static void test_report_deterministic(void **state)
{
    struct run r1 = RUN("report", "--format", "json", profile_path);
    struct run r2 = RUN("report", profile_path, "--format=json");
    expect_exit(&r1, 0, NULL);
    expect_exit(&r2, 0, NULL);
    assert_string_equal(r1.out, r2.out);
    run_free(&r1);
    run_free(&r2);
}

static void test_report_json(void **state)
{
    struct run r = RUN("report", "--format", "json", profile_path);
    expect_exit(&r, 0, NULL);
    char jpath[300];
    snprintf(jpath, sizeof jpath, "%s/report.json", tmpdir);
    FILE *f = fopen(jpath, "w");
    fputs(r.out, f);
    fclose(f);
    run_free(&r);
    struct run c = run_in(NULL, (char *const[]){(char *)g_python, (char *)g_checker, jpath, NULL});
    if (exit_code(&c) != 0)
        fail_msg("JSON check failed: %s%s", c.out, c.err);
    run_free(&c);
    unlink(jpath);
}

static void test_dump(void **state)
{
    struct run r = RUN("dump", profile_path);
    expect_exit(&r, 0, NULL);
    assert_int_equal(strncmp(r.out, "header version=1 header_size=72 word_size=8", 43), 0);
    assert_non_null(strstr(r.out, "\nmodule 1 path=/nonexistent/libfake.so load_bias="));
    assert_non_null(strstr(r.out, "\nvar 1 name=n function=cmdtest_hot_function"));
    assert_non_null(strstr(r.out, "kind=signed size=4 tags=loop,cond"));
    assert_non_null(strstr(r.out, "\ncoverage schema_vars=10 located=6"));
    assert_non_null(strstr(r.out, "\npc seq=1 "));
    assert_non_null(strstr(r.out, "\npc seq=100 "));
    assert_non_null(strstr(r.out, "status=ok raw=0xfffffffd value=-3\n"));
    assert_non_null(strstr(r.out, "var=2(quiet) depth=0"));
    assert_non_null(strstr(r.out, "status=unreadable raw=0x0 value=-\n"));
    size_t lines = 0;
    for (const char *c = r.out; *c; c++)
        lines += *c == '\n';
    /* header, 2 modules, 5 vars, coverage, loss, 100 PCs, 9 values */
    assert_int_equal(lines, 1 + 2 + 5 + 1 + 1 + 100 + 9);
    run_free(&r);
}

static void test_corrupt_input(void **state)
{
    char bad[300];
    snprintf(bad, sizeof bad, "%s/corrupt.vprof", tmpdir);
    size_t n;
    unsigned char *buf = pf_slurp(profile_path, &n);
    FILE *f = fopen(bad, "wb");
    fwrite(buf, 1, n - 16, f); /* drop END */
    fclose(f);
    free(buf);
    char want[400];
    snprintf(want, sizeof want, "vprof: %s: offset %zu: truncated: no END section\n", bad,
             n - 16);
    struct run r = RUN("report", bad);
    expect_exit(&r, 2, NULL);
    assert_string_equal(r.err, want);
    assert_string_equal(r.out, "");
    run_free(&r);
    r = RUN("dump", bad);
    expect_exit(&r, 2, NULL);
    assert_string_equal(r.err, want);
    run_free(&r);
    r = RUN("report", "--format", "json", "/nonexistent/p.vprof");
    expect_exit(&r, 2, "vprof: /nonexistent/p.vprof: No such file or directory");
    run_free(&r);
    r = RUN("dump", "--index", bad);
    expect_exit(&r, 2, bad);
    run_free(&r);
    unlink(bad);
}

/* An empty profile: the report is printed, and "found nothing" is exit 1. */
/* A recording that forked: the root is make_profile's, its child (pid
   4243) ran cmdtest_hot_function 20 more times and read n as 9 and 11.  The
   report adds them up; --one is the root alone. */
static void test_report_forked(void **state)
{
    char root[300], child[320], err[512];
    snprintf(root, sizeof root, "%s/forked.vprof", tmpdir);
    snprintf(child, sizeof child, "%s.4243", root);
    make_profile(root);
    struct pf_builder b;
    pf_init(&b);
    b.hdr.pid = 4243;
    b.hdr.flags = VP_PROFF_FORKED;
    char exe[PATH_MAX];
    self_path(exe, sizeof exe);
    uint64_t bias = 0;
    dl_iterate_phdr(find_main_bias, &bias);
    pf_module(&b, exe, bias, bias, bias + 0x10000000, 1);
    uint64_t hot = (uint64_t)(uintptr_t)&cmdtest_hot_function + 4;
    for (int i = 0; i < 20; i++)
        pf_pc(&b, (uint64_t)i + 1, hot, 1, 0, NULL);
    uint32_t n = pf_var(&b, "test_cmd.c", "cmdtest_hot_function", "n", "int", 12,
                        VP_TAG_LOOP | VP_TAG_COND, VP_TYPE_SINT, 4);
    pf_value(&b, 1, n, 9, hot, VP_VAL_OK);
    pf_value(&b, 2, n, 11, hot, VP_VAL_OK);
    assert_int_equal(pf_write(&b, child, err, sizeof err), 0);
    pf_free(&b);

    struct run r = RUN("report", root);
    expect_exit(&r, 0, NULL);
    assert_non_null(strstr(r.out, "forked.vprof and the 1 process it forked"));
    assert_non_null(strstr(r.out, "pid 4242 and 4243, 120 PC samples, 11 value samples"));
    double self, cum;
    unsigned long samples;
    const char *first = hot_row(r.out, &self, &cum, &samples);
    assert_int_equal(samples, 70);
    /* n: -3, 5, 7 in the root and 9, 11 in the child */
    const char *nv = strstr(first, "\n      n ");
    assert_non_null(nv);
    long line, got, unread, mn, md, mx;
    char tags[32], type[32];
    assert_int_equal(sscanf(nv + 1, " n %ld %31s %31s %ld %ld %ld %ld %ld", &line, tags, type,
                            &got, &unread, &mn, &md, &mx),
                     8);
    assert_true(got == 5 && unread == 1 && mn == -3 && md == 7 && mx == 11);
    /* each variable once, whichever processes had it */
    assert_null(strstr(nv + 1, "\n      n "));
    run_free(&r);

    r = RUN("report", "--one", root);
    expect_exit(&r, 0, NULL);
    assert_non_null(strstr(r.out, "pid 4242, 100 PC samples, 9 value samples"));
    assert_null(strstr(r.out, "process it forked"));
    run_free(&r);
    unlink(child);
    unlink(root);
}

static void test_report_empty(void **state)
{
    char path[300], err[512];
    snprintf(path, sizeof path, "%s/empty.vprof", tmpdir);
    struct pf_builder b;
    pf_init(&b);
    assert_int_equal(pf_write(&b, path, err, sizeof err), 0);
    pf_free(&b);
    struct run r = RUN("report", path);
    expect_exit(&r, 1, "no PC samples");
    assert_non_null(strstr(r.out, "0 PC samples"));
    run_free(&r);
    unlink(path);
}

/* ---- record -------------------------------------------------------------- */

static int runtime_present(void)
{
    char rt[PATH_MAX + 32];
    snprintf(rt, sizeof rt, "%s", g_vprof);
    char *slash = strrchr(rt, '/');
    *slash = '\0';
    strcat(rt, "/../lib/libvprof-rt.so");
    return access(rt, R_OK) == 0;
}

static void test_record_status(void **state)
{
    if (!runtime_present())
        skip();
    char out[300];
    snprintf(out, sizeof out, "%s/rec.vprof", tmpdir);
    /* exit status passes through; the helper has no schema: one warning */
    struct run r = RUN("record", "-o", out, "--", (char *)g_helper, "exit", "3");
    expect_exit(&r, 3, NULL);
    assert_non_null(strstr(r.err, "not built with vprof-cc"));
    assert_non_null(strstr(r.err, "PC profiling still works"));
    /* the helper exits at once: usually 0 PC samples, but a slow start (the
       ASan build's, on a loaded machine) can take one; it has no schema, so
       no value samples either way */
    char want[400];
    snprintf(want, sizeof want, "vprof: wrote %s: ", out);
    const char *w = strstr(r.err, want);
    assert_non_null(w);
    w += strlen(want);
    assert_true(*w >= '0' && *w <= '9');
    assert_non_null(strstr(w, " PC samples, 0 value samples\n"));
    run_free(&r);

    /* a CPU-bound run gets samples; the profile is valid and written by it */
    r = RUN("record", "-o", out, "-F", "997", "--depth", "4", "--", (char *)g_helper, "spin",
            "300");
    expect_exit(&r, 0, "vprof: wrote ");
    struct vp_profile *p;
    char err[512];
    assert_int_equal(vp_profile_open(out, &p, err, sizeof err), 0);
    assert_true(p->pc_count > 20);
    /* max_depth: the callers recorded (VPROF_STACK_DEPTH, 32); --depth is
       the frames whose variables are read */
    assert_int_equal(p->hdr.max_depth, 32);
    assert_true(p->hdr.period_ns > 1000000 && p->hdr.period_ns < 1010000);
    vp_profile_close(p);
    run_free(&r);

    /* killed by a signal: vprof dies the same way (no core) */
    r = RUN("record", "-o", out, "--", (char *)g_helper, "signal", "6");
    assert_true(WIFSIGNALED(r.status));
    assert_int_equal(WTERMSIG(r.status), SIGABRT);
    assert_false(WCOREDUMP(r.status));
    run_free(&r);

    /* a script: no index, one warning, its status still passes through */
    char script[300];
    snprintf(script, sizeof script, "%s/script", tmpdir);
    FILE *f = fopen(script, "w");
    fputs("#!/bin/sh\nexit 4\n", f);
    fclose(f);
    chmod(script, 0755);
    r = RUN("record", "-o", out, "--", script);
    expect_exit(&r, 4, "is not an ELF executable (a script?)");
    run_free(&r);
    unlink(script);

    /* default output name, in the current directory */
    char cwd[300], def[340];
    snprintf(cwd, sizeof cwd, "%s/cwd", tmpdir);
    assert_int_equal(mkdir(cwd, 0755), 0);
    r = run_in(cwd, (char *const[]){(char *)g_vprof, "record", (char *)g_helper, "exit", "0",
                                    NULL});
    expect_exit(&r, 0, "vprof: wrote vprof.out: ");
    snprintf(def, sizeof def, "%s/vprof.out", cwd);
    assert_int_equal(access(def, R_OK), 0);
    run_free(&r);
    unlink(def);
    rmdir(cwd);
    unlink(out);
}

/* SIGTERM sent to vprof reaches CMD, and CMD's status comes back. */
static void test_record_forwards_signals(void **state)
{
    if (!runtime_present())
        skip();
    char out[300], ready[300];
    snprintf(out, sizeof out, "%s/fwd.vprof", tmpdir);
    snprintf(ready, sizeof ready, "%s/ready", tmpdir);
    char *const argv[] = {(char *)g_vprof, "record", "-o", out, "--", (char *)g_helper, "wait",
                          ready, NULL};
    pid_t pid;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    assert_int_equal(posix_spawn(&pid, g_vprof, &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    for (int i = 0; i < 200 && access(ready, F_OK) != 0; i++)
        usleep(20000);
    assert_int_equal(access(ready, F_OK), 0);
    usleep(50000);
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 40 + SIGTERM);
    unlink(ready);
    unlink(out);
}

/* ---- end to end (vprof-cc + runtime) ------------------------------------- */

static void test_record_e2e(void **state)
{
    char out[300];
    snprintf(out, sizeof out, "%s/e2e.vprof", tmpdir);
    struct run r = RUN("record", "-o", out, "--", (char *)g_program, "3000");
    expect_exit(&r, 0, "vprof: wrote ");
    assert_null(strstr(r.err, "warning"));
    assert_non_null(strstr(r.err, "variables located"));
    run_free(&r);
    r = RUN("report", "--format", "json", out);
    expect_exit(&r, 0, NULL);
    /* the hot function comes first, with its loop variable sampled */
    const char *f = strstr(r.out, "\"functions\"");
    assert_non_null(f);
    const char *name = strstr(f, "\"name\": \"");
    assert_non_null(name);
    if (strncmp(name, "\"name\": \"e2e_hot\"", 17) != 0)
        fail_msg("first function is not e2e_hot:\n%s", r.out);
    run_free(&r);
    r = RUN("report", out);
    expect_exit(&r, 0, NULL);
    const char *row = row_after(r.out, "function");
    assert_non_null(strstr(row, "e2e_hot"));
    const char *cold = strstr(r.out, "e2e_cold"); /* may be too short to be sampled */
    assert_true(!cold || strstr(row, "e2e_hot") < cold);
    run_free(&r);
    unlink(out);
}

static int setup(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/vprof-cmd-test.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir))
        return -1;
    snprintf(profile_path, sizeof profile_path, "%s/synthetic.vprof", tmpdir);
    make_profile(profile_path);
    return 0;
}

static int teardown(void **state)
{
    static const char *const names[] = {"synthetic.vprof", "run.out", "run.err"};
    char path[300];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    if (rmdir(tmpdir) != 0) {
        fprintf(stderr, "test_cmd: %s not empty after the tests\n", tmpdir);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--e2e") == 0) {
        g_vprof = argv[2];
        g_program = argv[3];
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_record_e2e)};
        return cmocka_run_group_tests(tests, setup, teardown);
    }
    if (argc != 5) {
        fprintf(stderr, "usage: test_cmd VPROF CMD_HELPER PYTHON3 CHECK_REPORT_JSON\n");
        return 2;
    }
    g_vprof = argv[1];
    g_helper = argv[2];
    g_python = argv[3];
    g_checker = argv[4];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_external_dispatch),
        cmocka_unit_test(test_report_text),
        cmocka_unit_test(test_report_deterministic),
        cmocka_unit_test(test_report_json),
        cmocka_unit_test(test_dump),
        cmocka_unit_test(test_corrupt_input),
        cmocka_unit_test(test_report_empty),
        cmocka_unit_test(test_report_forked),
        cmocka_unit_test(test_record_status),
        cmocka_unit_test(test_record_forwards_signals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
