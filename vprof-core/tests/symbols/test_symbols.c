/*
 * test_symbols.c - vp_symtab and vp_resolver on prog.c built at DWARF 4 and
 * 5, without DWARF, and fully stripped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "vprof/symbols.h"

/* Line of the first line of `path` containing `marker`. */
static int marker_line_in(const char *path, const char *marker)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[512];
    int n = 0, found = 0;
    while (fgets(buf, sizeof buf, f)) {
        n++;
        if (strstr(buf, marker)) {
            found = n;
            break;
        }
    }
    fclose(f);
    assert_int_not_equal(found, 0);
    return found;
}

static int marker_line(const char *marker) { return marker_line_in(SYM_SRC, marker); }

static const struct vp_func *find_named(struct vp_symtab *st, const char *name)
{
    size_t n;
    const struct vp_func *f = vp_symtab_funcs(st, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].name, name) == 0)
            return &f[i];
    return NULL;
}

static struct vp_symtab *open_ok(const char *name)
{
    char path[1024], err[512] = "";
    snprintf(path, sizeof path, "%s/%s", SYM_DIR, name);
    struct vp_symtab *st = NULL;
    int rc = vp_symtab_open(path, NULL, 0, &st, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    return st;
}

static void check_dwarf_prog(const char *name)
{
    struct vp_symtab *st = open_ok(name);
    assert_true(vp_symtab_has_dwarf(st));

    /* Functions sorted and disjoint. */
    size_t n;
    const struct vp_func *all = vp_symtab_funcs(st, &n);
    assert_true(n >= 3);
    for (size_t i = 0; i + 1 < n; i++) {
        assert_true(all[i].lo < all[i].hi);
        assert_true(all[i].hi <= all[i + 1].lo);
    }

    const struct vp_func *work = find_named(st, "work");
    const struct vp_func *helper = find_named(st, "helper");
    const struct vp_func *mainf = find_named(st, "main");
    assert_non_null(work);
    assert_non_null(helper);
    assert_non_null(mainf);
    assert_string_equal(work->file, SYM_SRC);
    assert_string_equal(helper->file, SYM_SRC);
    assert_int_equal(work->line, marker_line("@work */"));
    assert_int_equal(helper->line, marker_line("@helper */"));
    assert_int_equal(mainf->line, marker_line("@main */"));
    assert_string_equal(work->linkage, "work");

    /* address -> function at both ends and past the end. */
    assert_ptr_equal(vp_symtab_func(st, work->lo), work);
    assert_ptr_equal(vp_symtab_func(st, work->hi - 1), work);
    assert_ptr_equal(vp_symtab_func(st, helper->lo + 1), helper);
    assert_null(vp_symtab_func(st, 0));
    assert_null(vp_symtab_func(st, UINT64_MAX));

    /* address -> line: every address of work() maps into work's lines, the
       entry to the declaration line, and the call line occurs. */
    const char *file;
    int line, saw_call = 0;
    int lwork = marker_line("@work */"), lcall = marker_line("@work_call");
    /* clang maps the entry to the subprogram's scope line: the "{". */
    assert_int_equal(vp_symtab_line(st, work->lo, &file, &line), 0);
    assert_string_equal(file, SYM_SRC);
    assert_int_equal(line, lwork + 1);
    for (uint64_t a = work->lo; a < work->hi; a++) {
        if (vp_symtab_line(st, a, &file, &line) != 0)
            continue;
        assert_string_equal(file, SYM_SRC);
        assert_in_range(line, lwork, lwork + 6);
        saw_call |= line == lcall;
    }
    assert_true(saw_call);
    assert_int_equal(vp_symtab_line(st, helper->lo + 4, &file, &line), 0);
    assert_in_range(line, marker_line("@helper */"), marker_line("@helper_body") + 1);
    assert_int_equal(vp_symtab_line(st, 0, &file, &line), -1);
    vp_symtab_close(st);
}

/* inline.c at -O2: churn's loop holds step() inlined from inline.h, which
   holds mix() inlined. */
static void check_inline_prog(const char *name)
{
    struct vp_symtab *st = open_ok(name);
    const struct vp_func *churn = find_named(st, "churn");
    assert_non_null(churn);
    int lcall = marker_line_in(SYM_INLINE_C, "@churn_call");
    int lmix = marker_line_in(SYM_INLINE_H, "@mix_body");
    int lrot = marker_line_in(SYM_INLINE_H, "@rot_body");
    int lstep = marker_line_in(SYM_INLINE_H, "@step_call");
    int saw_header = 0;
    uint64_t deep = 0;
    for (uint64_t a = churn->lo; a < churn->hi; a++) {
        struct vp_line_frame fr[VP_INLINE_FRAMES_MAX];
        const char *file;
        int line;
        size_t n = vp_symtab_inline_chain(st, a, fr, VP_INLINE_FRAMES_MAX);
        /* every address has a line: clang's line-0 rows (two in churn,
           compiler-generated code) take the line of the code beside them
           in the same scope (docs/reports.md, "Line 0") */
        assert_int_equal(vp_symtab_line(st, a, &file, &line), 0);
        assert_in_range(line, 1, 1000);
        /* frame 0 is the line table's; the last is churn's own code */
        assert_in_range(n, 1, 4);
        assert_string_equal(fr[0].file, file);
        assert_int_equal(fr[0].line, line);
        assert_string_equal(fr[n - 1].file, SYM_INLINE_C);
        assert_string_equal(fr[n - 1].function, "churn");
        if (strcmp(file, SYM_INLINE_H) != 0)
            continue;
        /* code from the header: called from the loop's line */
        saw_header = 1;
        assert_true(n >= 2);
        assert_int_equal(fr[n - 1].line, lcall);
        assert_string_equal(fr[n - 2].function, "step");
        assert_string_equal(fr[n - 2].linkage, "step"); /* C: the name */
        if (n == 4) {
            assert_string_equal(fr[0].function, "rot");
            assert_int_equal(fr[0].line, lrot);
            assert_string_equal(fr[1].function, "mix");
            assert_int_equal(fr[1].line, lmix);
            assert_string_equal(fr[2].file, SYM_INLINE_H);
            assert_int_equal(fr[2].line, lstep);
            deep = a;
        }
    }
    assert_true(saw_header);
    assert_int_not_equal(deep, 0);
    /* room for two: the innermost and the outermost */
    struct vp_line_frame two[2];
    assert_int_equal(vp_symtab_inline_chain(st, deep, two, 2), 2);
    assert_string_equal(two[0].function, "rot");
    assert_int_equal(two[1].line, lcall);
    assert_string_equal(two[1].function, "churn");
    assert_string_equal(two[0].linkage, "rot");
    assert_string_equal(two[1].linkage, "churn");
    /* room for three: the innermost and the two outermost (the program's
       own code is outward: a loop around an inlined call finds its line),
       the innermost callers dropped */
    struct vp_line_frame three[3];
    assert_int_equal(vp_symtab_inline_chain(st, deep, three, 3), 3);
    assert_string_equal(three[0].function, "rot");
    assert_string_equal(three[1].function, "step");
    assert_int_equal(three[1].line, lstep);
    assert_string_equal(three[2].function, "churn");
    assert_int_equal(vp_symtab_inline_chain(st, deep, two, 0), 0);
    assert_int_equal(vp_symtab_inline_chain(st, 0, two, 2), 0);
    vp_symtab_close(st);
}

static void test_inline4(void **state) { check_inline_prog("inline-dwarf4"); }
static void test_inline5(void **state) { check_inline_prog("inline-dwarf5"); }

static void test_dwarf4(void **state) { check_dwarf_prog("prog-dwarf4"); }
static void test_dwarf5(void **state) { check_dwarf_prog("prog-dwarf5"); }

/* No DWARF: functions from .symtab, with empty file and line 0. */
static void test_nodebug(void **state)
{
    struct vp_symtab *st = open_ok("prog-nodebug");
    assert_false(vp_symtab_has_dwarf(st));
    const struct vp_func *work = find_named(st, "work");
    const struct vp_func *helper = find_named(st, "helper"); /* static: .symtab only */
    assert_non_null(work);
    assert_non_null(helper);
    assert_string_equal(work->file, "");
    assert_int_equal(work->line, 0);
    assert_ptr_equal(vp_symtab_func(st, work->lo + 1), work);
    const char *file;
    int line;
    assert_int_equal(vp_symtab_line(st, work->lo, &file, &line), -1);
    vp_symtab_close(st);
}

/* Fully stripped: only .dynsym remains (--export-dynamic put work there). */
static void test_stripped(void **state)
{
    struct vp_symtab *st = open_ok("prog-stripped");
    assert_false(vp_symtab_has_dwarf(st));
    const struct vp_func *work = find_named(st, "work");
    assert_non_null(work);
    assert_null(find_named(st, "helper"));
    assert_ptr_equal(vp_symtab_func(st, work->lo), work);
    vp_symtab_close(st);
}

/* Runs a shell command; fails the test when it fails. */
static void sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("command failed: %s", cmd);
}

/* A stripped file's separate debug file names what its .dynsym does not
   (the static `helper`), found by build-id under a debug directory
   (VPROF_DEBUG_DIRS) or by its .gnu_debuglink name next to it; one with
   another build-id is not taken. */
static void test_debug_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/vprof-symdbg-XXXXXX", id[64], hexid[130] = "";
    assert_non_null(mkdtemp(dir));
    char path[1024];
    snprintf(path, sizeof path, "%s/prog-stripped", SYM_DIR);
    size_t n = vp_elf_build_id(path, (uint8_t *)id, sizeof id);
    assert_true(n > 2);
    for (size_t i = 0; i < n; i++)
        snprintf(hexid + 2 * i, 3, "%02x", (uint8_t)id[i]);

    /* no debug directory holds it: .dynsym only */
    setenv("VPROF_DEBUG_DIRS", dir, 1);
    struct vp_symtab *st = open_ok("prog-stripped");
    assert_null(find_named(st, "helper"));
    vp_symtab_close(st);

    /* by build-id, the second of two directories: the first holds a file
       that is not ELF at that path, and one cut short, which are passed over */
    sh("mkdir -p '%s/b/.build-id/%.2s' && cp '%s/prog-dwarf5.debug' '%s/b/.build-id/%.2s/%s.debug'",
       dir, hexid, SYM_DIR, dir, hexid, hexid + 2);
    sh("mkdir -p '%s/a/.build-id/%.2s' && echo garbage > '%s/a/.build-id/%.2s/%s.debug'", dir,
       hexid, dir, hexid, hexid + 2);
    sh("mkdir -p '%s/c/.build-id/%.2s' && head -c 3000 '%s/prog-dwarf5.debug' > "
       "'%s/c/.build-id/%.2s/%s.debug'", dir, hexid, SYM_DIR, dir, hexid, hexid + 2);
    char cut[2200];
    snprintf(cut, sizeof cut, "%s/a:%s/c", dir, dir);
    setenv("VPROF_DEBUG_DIRS", cut, 1);
    st = open_ok("prog-stripped");
    assert_null(find_named(st, "helper"));
    assert_non_null(find_named(st, "work"));
    vp_symtab_close(st);
    char dirs[2200];
    snprintf(dirs, sizeof dirs, "%s/a:%s/b", dir, dir);
    setenv("VPROF_DEBUG_DIRS", dirs, 1);
    st = open_ok("prog-stripped");
    const struct vp_func *helper = find_named(st, "helper"), *work = find_named(st, "work");
    assert_non_null(helper);
    assert_non_null(work);
    assert_ptr_equal(vp_symtab_func(st, helper->lo + 1), helper);
    assert_false(vp_symtab_has_dwarf(st)); /* symbols only */
    vp_symtab_close(st);

    /* by .gnu_debuglink, next to the file */
    setenv("VPROF_DEBUG_DIRS", dir, 1);
    st = open_ok("prog-linked");
    assert_non_null(find_named(st, "helper"));
    vp_symtab_close(st);

    /* a debug file of that name with another build-id: not taken */
    sh("cp '%s/prog-linked' '%s/prog-linked' && cp '%s/prog-dwarf4.debug' '%s/prog-dwarf5.debug'",
       SYM_DIR, dir, SYM_DIR, dir);
    snprintf(path, sizeof path, "%s/prog-linked", dir);
    char err[512];
    assert_int_equal(vp_symtab_open(path, NULL, 0, &st, err, sizeof err), 0);
    assert_null(find_named(st, "helper"));
    assert_non_null(find_named(st, "work"));
    vp_symtab_close(st);
    unsetenv("VPROF_DEBUG_DIRS");
    sh("rm -rf '%s'", dir);
}

/* The address objdump gives the PLT stub of `fn` (`<fn@plt>:`), or 0. */
static uint64_t objdump_plt(const char *path, const char *fn)
{
    char cmd[1200], want[128], buf[512];
    snprintf(cmd, sizeof cmd, "objdump -d '%s'", path);
    snprintf(want, sizeof want, "<%s@plt>:", fn);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    uint64_t addr = 0;
    while (fgets(buf, sizeof buf, p))
        if (!addr && strstr(buf, want))
            addr = strtoull(buf, NULL, 16);
    pclose(p);
    return addr;
}

/* Function keys and the names reports show (vp_func_key, vp_func_display):
 * mangled names from clang++-14, with what c++filt prints for them. */
static void test_display(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"_ZNK2ns1A1fEi", "ns::A::f"},                      /* ns::A::f(int) const */
        {"_ZNO2ns1A1gEv", "ns::A::g"},                      /* ns::A::g() && */
        {"_ZNK2ns1AcvlEv", "ns::A::operator long"},         /* conversion, spaces */
        {"_ZNK2ns1AltERKS0_", "ns::A::operator<"},          /* '<' in the name */
        {"_ZN2ns1A1hIiEERSt6vectorIT_SaIS3_EES3_", "ns::A::h<int>"}, /* return type */
        {"_ZN12_GLOBAL__N_14anonEi", "(anonymous namespace)::anon"},
        {"_ZZ7useanoniENK3$_0clEi", "useanon(int)::$_0::operator()"}, /* a lambda */
        {"_ZSt8_DestroyIPiEvT_S1_", "std::_Destroy<int*>"},
        {"_Z3fooi.cold", "foo"},                            /* "[clone .cold]" */
        {"_ZNSt6vectorIiSaIiEED2Ev", "std::vector<int, std::allocator<int> >::~vector"},
        {"_ZNK2ns1A1fEi@plt", "ns::A::f@plt"},              /* a PLT stub */
        {"memcmp@plt", "memcmp@plt"},
        {"_Zgarbage@plt", "_Zgarbage@plt"},
    };
    char buf[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(vp_func_display(cases[i][0], buf, sizeof buf), cases[i][1]);
    /* not mangled, or not demangleable: the key itself */
    const char *plain = "main", *bad = "_Zgarbage";
    assert_ptr_equal(vp_func_display(plain, buf, sizeof buf), plain);
    assert_ptr_equal(vp_func_display(bad, buf, sizeof buf), bad);
    /* truncated to the buffer */
    char small[8];
    assert_string_equal(vp_func_display("_ZNK2ns1A1fEi", small, sizeof small), "ns::A::");
    /* a stub whose name and "@plt" do not fit: the key */
    const char *stub = "_ZNK2ns1A1fEi@plt";
    char tiny[12];
    assert_ptr_equal(vp_func_display(stub, tiny, sizeof tiny), stub);
    /* fitted into a column: template argument lists elided, then the end */
    char fit[128];
    const char *map = "std::map<std::__cxx11::basic_string<char, std::char_traits<char>, "
                      "std::allocator<char> >, int, std::less<int> >::operator[]";
    assert_string_equal(vp_func_fit(map, 64, fit, sizeof fit), "std::map<...>::operator[]");
    assert_ptr_equal(vp_func_fit("main", 64, fit, sizeof fit), "main");
    assert_string_equal(vp_func_fit("ns::Cmp<int, long>::operator<<", 24, fit, sizeof fit),
                        "ns::Cmp<...>::operator<<"); /* '<' in the name kept */
    assert_string_equal(vp_func_fit("a_very_long_function_name_without_templates", 20, fit,
                                    sizeof fit),
                        "...without_templates");
    assert_string_equal(vp_func_fit("bad>unbalanced::name_that_is_long", 16, fit, sizeof fit),
                        "..._that_is_long");
    assert_string_equal(vp_func_fit("std::_Rb_tree<std::string, std::pair<std::str", 24, fit,
                                    sizeof fit),
                        "std::_Rb_tree<...>..."); /* a name cut short */
    /* a column of names: two instantiations that would look alike show
       where they differ; the same name twice (two static functions) and
       names that fit stay as they are */
    const char *col[] = {
        "std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::$_0> > >::_M_run",
        "std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::$_1> > >::_M_run",
        map,
        "worker",
        "worker",
        "std::vector<int, std::allocator<int> >::push_back_the_value_with_a_long_name_here_x",
        "std::vector<long, std::allocator<long> >::push_back_the_value_with_a_long_name_here_x",
    };
    char **fits = vp_func_fit_list(col, 7, 64);
    assert_non_null(fits);
    assert_string_equal(fits[0],
                        "...std::thread::_Invoker<std::tuple<main::$_0> > >::_M_run");
    assert_string_equal(fits[1],
                        "...std::thread::_Invoker<std::tuple<main::$_1> > >::_M_run");
    assert_string_equal(fits[2], "std::map<...>::operator[]");
    assert_string_equal(fits[3], "worker");
    assert_string_equal(fits[4], "worker");
    assert_string_equal(fits[5],
                        "std::vector<int, std::allocator<int> >::push_back_the_value_w...");
    assert_string_equal(fits[6],
                        "std::vector<long, std::allocator<long> >::push_back_the_value...");
    for (int i = 0; i < 7; i++)
        assert_true(strlen(fits[i]) <= 64);
    vp_func_fit_list_free(fits, 7);
    vp_func_fit_list_free(vp_func_fit_list(col, 0, 64), 0);

    /* the key: a mangled linkage name, else the name */
    assert_string_equal(vp_func_key("f", "_ZNK2ns1A1fEi"), "_ZNK2ns1A1fEi");
    assert_string_equal(vp_func_key("count", "count"), "count");
    assert_string_equal(vp_func_key("count", NULL), "count");
    assert_string_equal(vp_func_key("s", "s.llvm.123"), "s");
}

/* PLT stubs are named as objdump and perf name them, in the full binary and
 * in the stripped one (from .rela.plt and .dynsym); before, they fell into
 * the extent of crti's size-0 `_init` and a hot library call was `_init`. */
static void test_plt(void **state)
{
    (void)state;
    const char *progs[] = { "prog-dwarf5", "prog-stripped" };
    for (int k = 0; k < 2; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SYM_DIR, progs[k]);
        struct vp_symtab *st = open_ok(progs[k]);
        const char *fns[] = { "printf", "atoi" };
        for (int i = 0; i < 2; i++) {
            uint64_t a = objdump_plt(path, fns[i]);
            assert_true(a != 0);
            char want[64];
            snprintf(want, sizeof want, "%s@plt", fns[i]);
            const struct vp_func *f = vp_symtab_func(st, a);
            assert_non_null(f);
            assert_string_equal(f->name, want);
            assert_ptr_equal(vp_symtab_func(st, a + 15), f);
            assert_string_equal(f->file, "");
        }
        const struct vp_func *init = find_named(st, "_init");
        if (init) /* in .init only, not over the PLT after it */
            assert_true(init->hi <= objdump_plt(path, "printf"));
        vp_symtab_close(st);
    }
}

/* Reads the build-id with libdwelf independently of the code under test. */
static size_t read_build_id(const char *path, uint8_t *id)
{
    elf_version(EV_CURRENT);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    const void *p;
    ssize_t n = dwelf_elf_gnu_build_id(e, &p);
    assert_true(n > 0 && n <= 32);
    memcpy(id, p, (size_t)n);
    elf_end(e);
    close(fd);
    return (size_t)n;
}

static void test_build_id(void **state)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/prog-dwarf5", SYM_DIR);
    uint8_t id[32];
    size_t n = read_build_id(path, id);
    struct vp_symtab *st = NULL;
    assert_int_equal(vp_symtab_open(path, id, n, &st, err, sizeof err), 0);
    vp_symtab_close(st);

    id[0] ^= 0xff;
    st = NULL;
    assert_int_equal(vp_symtab_open(path, id, n, &st, err, sizeof err), -1);
    assert_null(st);
    assert_non_null(strstr(err, "build-id differs from the recorded one"));
    assert_int_equal(strncmp(err, path, strlen(path)), 0);
}

static void test_open_errors(void **state)
{
    char err[512];
    struct vp_symtab *st = NULL;
    assert_int_equal(vp_symtab_open("/nonexistent/x", NULL, 0, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/x: "));
    assert_int_equal(vp_symtab_open(SYM_SRC, NULL, 0, &st, err, sizeof err), -1);
    assert_non_null(strstr(err, "not an ELF file"));
}

static void test_normpath(void **state)
{
    static const char *cases[][3] = {
        { "/a/b", "c.c", "/a/b/c.c" },
        { "/a/b", "/x/y.c", "/x/y.c" },
        { "/a/b/", "./c.c", "/a/b/c.c" },
        { "/a/b", "../c.c", "/a/c.c" },
        { "/a//b/./", "d/../../e/f.c", "/a/e/f.c" },
        { "/", "../../c.c", "/c.c" },
        { NULL, "x/../../y.c", "../y.c" },
        { NULL, "./a/", "a" },
        { "/a", "..", "/" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *p = vp_symtab_normpath(cases[i][0], cases[i][1]);
        assert_non_null(p);
        assert_string_equal(p, cases[i][2]);
        free(p);
    }
}

/* A profile with the PIE mapped at a load bias, built by hand. */
static void test_resolver(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/prog-dwarf4", SYM_DIR);
    struct vp_symtab *st = open_ok("prog-dwarf4");
    const struct vp_func *work = find_named(st, "work");
    uint64_t wlo = work->lo;

    char strings[1100] = "";
    memcpy(strings + 1, path, strlen(path) + 1);
    struct vp_prof_module mods[2] = { 0 };
    const uint64_t bias = 0x555555554000ull;
    mods[0].load_bias = bias;
    mods[0].lo = bias;
    mods[0].hi = bias + 0x100000;
    mods[0].path = 1;
    mods[0].build_id_len = (uint32_t)read_build_id(path, mods[0].build_id);
    mods[1] = mods[0];
    mods[1].lo = mods[1].load_bias = 0x7f0000000000ull;
    mods[1].hi = mods[1].lo + 0x100000;
    mods[1].build_id[0] ^= 1; /* "the binary changed since recording" */

    struct vp_profile p = { 0 };
    p.strings = strings;
    p.strings_size = sizeof strings;
    p.modules = mods;
    p.module_count = 2;
    struct vp_resolver *r = vp_resolver_new(&p);
    assert_non_null(r);
    const struct vp_func *f = vp_resolve_func(r, bias + wlo + 2);
    assert_non_null(f);
    assert_string_equal(f->name, "work");
    const char *file;
    int line;
    assert_int_equal(vp_resolve_line(r, bias + wlo, &file, &line), 0);
    assert_int_equal(line, marker_line("@work */") + 1);
    assert_null(vp_resolver_error(r));
    assert_null(vp_resolve_func(r, 0x1000)); /* no module */
    assert_null(vp_resolve_func(r, mods[1].lo + wlo));
    assert_non_null(vp_resolver_error(r));
    assert_non_null(strstr(vp_resolver_error(r), "build-id differs"));
    vp_resolver_free(r);
    vp_symtab_close(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normpath),   cmocka_unit_test(test_dwarf4),
        cmocka_unit_test(test_dwarf5),     cmocka_unit_test(test_nodebug),
        cmocka_unit_test(test_stripped),   cmocka_unit_test(test_build_id),
        cmocka_unit_test(test_debug_file),
        cmocka_unit_test(test_open_errors), cmocka_unit_test(test_resolver),
        cmocka_unit_test(test_plt),        cmocka_unit_test(test_inline4),
        cmocka_unit_test(test_inline5),    cmocka_unit_test(test_display),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
