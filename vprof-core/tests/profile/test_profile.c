/*
 * test_profile.c - profile reader and writer: round trip, the writer's file
 * discipline, and every reader error path on corrupted files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pf_builder.h"
#include "vprof/profile.h"

static char tmpdir[256];

static void path_in_tmp(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", tmpdir, name);
}

static const uint64_t callers3[3] = {0x401100, 0x401200, 0x401300};

/* A profile with every section the reader knows, plus an extra loop-stage
   section and an unknown optional one. */
static void build_full(struct pf_builder *b)
{
    pf_init(b);
    b->hdr.exit_status = 3;
    b->hdr.flags = VP_PROFF_FORKED;
    pf_module(b, "/usr/bin/app", 0x400000, 0x401000, 0x402000, 1);
    pf_module(b, "/lib/libc.so.6", 0x7f0000000000, 0x7f0000010000, 0x7f0000090000, 0);
    uint32_t n = pf_var(b, "app.c", "work", "n", "int", 10, VP_TAG_LOOP, VP_TYPE_SINT, 4);
    uint32_t g = pf_var(b, "app.c", "", "limit", "unsigned long", 3, VP_TAG_GLOBAL,
                        VP_TYPE_UINT, 8);
    pf_pc(b, 1, 0x401010, 7, 0, NULL);
    pf_pc(b, 2, 0x401020, 7, 3, callers3);
    pf_pc(b, 3, 0x7f0000010100, 8, 1, callers3);
    pf_value(b, 1, n, (uint64_t)-5, 0x401010, VP_VAL_OK);
    pf_value(b, 2, g, 100, 0x401020, VP_VAL_OK);
    pf_value(b, 2, n, 0, 0x401020, VP_VAL_UNREADABLE);
    b->has_loss = 1;
    b->loss.signals = 3;
    b->loss.pc_samples = 3;
    b->loss.values_dropped = 9;
    b->has_coverage = 1;
    b->coverage.schema_vars = 5;
    b->coverage.located = 2;
    b->coverage.by_reason[VP_COV_NO_LOCATION] = 2;
    b->coverage.by_reason[VP_COV_ENTRY_VALUE] = 1;
    pf_thread(b, 7, 2, 2000000);
    pf_thread(b, 8, 1, 1000000);
}

/* Writes the full profile with the writer. */
static void write_full(const char *path)
{
    struct pf_builder b;
    build_full(&b);
    char err[512];
    assert_int_equal(pf_write(&b, path, err, sizeof err), 0);
    pf_free(&b);
}

static unsigned char *load(const char *path, size_t *size)
{
    unsigned char *buf = pf_slurp(path, size);
    assert_non_null(buf);
    return buf;
}

/* File offset of the header of the first section of `type`, or 0. */
static size_t find_section(const unsigned char *buf, size_t size, uint32_t type)
{
    size_t off = sizeof(struct vp_profile_header);
    while (off + sizeof(struct vp_section_header) <= size) {
        struct vp_section_header sh;
        memcpy(&sh, buf + off, sizeof sh);
        if (sh.type == type)
            return off;
        if (sh.type == VP_SEC_END)
            return 0;
        off += sizeof sh + ((sh.size + 7) & ~7ull);
    }
    return 0;
}

static int parse_err(const void *buf, size_t size, char *err, size_t errlen)
{
    struct vp_profile *p = NULL;
    int rc = vp_profile_parse("t.vprof", buf, size, &p, err, errlen);
    if (rc == 0) {
        assert_non_null(p);
        vp_profile_close(p);
    } else {
        assert_null(p);
    }
    return rc;
}

/* Parses a corrupted buffer and checks that it fails with `what` at `off`. */
static void expect_error(const void *buf, size_t size, size_t off, const char *what)
{
    char err[512] = "";
    assert_int_equal(parse_err(buf, size, err, sizeof err), -1);
    char want[64];
    snprintf(want, sizeof want, "t.vprof: offset %zu: ", off);
    if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, what))
        fail_msg("got \"%s\", wanted \"%s...%s\"", err, want, what);
    assert_null(strchr(err, '\n'));
}

/* ---- round trip -------------------------------------------------------- */

static void test_round_trip(void **state)
{
    char path[300];
    path_in_tmp(path, sizeof path, "full.vprof");
    write_full(path);

    struct vp_profile *p;
    char err[512];
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), 0);
    assert_string_equal(p->path, path);
    assert_int_equal(p->hdr.version, VP_PROFILE_VERSION);
    assert_int_equal(p->hdr.exit_status, 3);
    assert_int_equal(p->hdr.flags, VP_PROFF_FORKED);
    assert_int_equal(p->hdr.pid, 4242);

    assert_int_equal(p->module_count, 2);
    assert_string_equal(vp_profile_str(p, p->modules[0].path), "/usr/bin/app");
    assert_string_equal(vp_profile_str(p, p->modules[1].path), "/lib/libc.so.6");
    assert_int_equal(p->modules[1].load_bias, 0x7f0000000000);
    assert_ptr_equal(vp_profile_module_of(p, 0x401fff), &p->modules[0]);
    assert_ptr_equal(vp_profile_module_of(p, 0x7f0000010000), &p->modules[1]);
    assert_null(vp_profile_module_of(p, 0x402000));
    assert_null(vp_profile_module_of(p, 0));

    assert_int_equal(p->var_count, 2);
    assert_string_equal(vp_profile_var_str(p, p->vars[0].name), "n");
    assert_string_equal(vp_profile_var_str(p, p->vars[0].function), "work");
    assert_string_equal(vp_profile_var_str(p, p->vars[1].function), "");
    assert_string_equal(vp_profile_var_str(p, p->vars[1].type), "unsigned long");
    assert_int_equal(p->vars[1].type_kind, VP_TYPE_UINT);
    assert_int_equal(p->vars[1].line, 3);

    assert_int_equal(p->pc_count, 3);
    assert_int_equal(p->pc_samples[0]->pc, 0x401010);
    assert_int_equal(p->pc_samples[0]->depth, 0);
    assert_int_equal(p->pc_samples[1]->depth, 3);
    assert_memory_equal(vp_pc_sample_callers(p->pc_samples[1]), callers3, sizeof callers3);
    assert_int_equal(p->pc_samples[2]->tid, 8);
    assert_int_equal(vp_pc_sample_callers(p->pc_samples[2])[0], callers3[0]);
    for (size_t i = 0; i < p->pc_count; i++)
        assert_int_equal((uintptr_t)p->pc_samples[i] % 8, 0);

    assert_int_equal(p->value_count, 3);
    assert_int_equal(p->values[0].value, (uint64_t)-5);
    assert_int_equal(p->values[1].var_id, 1);
    assert_int_equal(p->values[2].status, VP_VAL_UNREADABLE);

    assert_int_equal(p->loss.signals, 3);
    assert_int_equal(p->loss.values_dropped, 9);
    assert_true(p->has_coverage);
    assert_int_equal(p->coverage.schema_vars, 5);
    assert_int_equal(p->coverage.by_reason[VP_COV_ENTRY_VALUE], 1);
    assert_int_equal(p->thread_count, 2);
    assert_int_equal(p->threads[1].cpu_ns, 1000000);
    assert_int_equal(p->extra_count, 0);
    assert_null(vp_profile_extra(p, VP_SEC_LOOP_COUNTS));
    assert_string_equal(vp_profile_str(p, 0), "");
    vp_profile_close(p);
}

/* Minimal file: header and END only; absent sections read as empty. */
static void test_empty_profile(void **state)
{
    char path[300], err[512];
    path_in_tmp(path, sizeof path, "empty.vprof");
    struct vp_profile_header hdr;
    vp_profile_header_init(&hdr);
    struct vp_profile_writer *w = vp_pw_open(path, &hdr, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(vp_pw_commit(w, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, sizeof hdr + sizeof(struct vp_section_header));

    struct vp_profile *p;
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), 0);
    assert_int_equal(p->pc_count + p->value_count + p->var_count + p->module_count, 0);
    assert_false(p->has_coverage);
    assert_int_equal(p->loss.signals, 0);
    assert_string_equal(vp_profile_str(p, 0), "");
    assert_string_equal(vp_profile_var_str(p, 0), "");
    vp_profile_close(p);
}

/* Loop-stage sections become extras in file order; unknown optional
   sections are skipped; odd payload sizes are padded. */
static void test_extras_and_optional(void **state)
{
    char path[300], err[512];
    path_in_tmp(path, sizeof path, "extras.vprof");
    struct vp_profile_header hdr;
    vp_profile_header_init(&hdr);
    struct vp_profile_writer *w = vp_pw_open(path, &hdr, err, sizeof err);
    assert_non_null(w);
    const char loops1[5] = {1, 0, 0, 0, 42};
    const char loops2[12] = {1, 0, 0, 0, 7};
    assert_int_equal(vp_pw_section(w, VP_SEC_LOOP_COUNTS, 0, loops1, sizeof loops1), 0);
    assert_int_equal(vp_pw_section(w, 12, VP_SECF_OPTIONAL, "abc", 3), 0);
    assert_int_equal(vp_pw_section(w, 999, VP_SECF_OPTIONAL, "", 0), 0);
    assert_int_equal(vp_pw_section(w, VP_SEC_LOOP_INSTANCES, 0, loops2, sizeof loops2), 0);
    assert_int_equal(vp_pw_section(w, VP_SEC_LOOP_COUNTS, VP_SECF_OPTIONAL, loops2, 4), 0);
    assert_int_equal(vp_pw_commit(w, err, sizeof err), 0);

    struct vp_profile *p;
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), 0);
    assert_int_equal(p->extra_count, 3);
    assert_int_equal(p->extras[0].type, VP_SEC_LOOP_COUNTS);
    assert_int_equal(p->extras[0].size, 5);
    assert_memory_equal(p->extras[0].data, loops1, 5);
    assert_int_equal((uintptr_t)p->extras[1].data % 8, 0);
    assert_int_equal(p->extras[1].type, VP_SEC_LOOP_INSTANCES);
    assert_int_equal(p->extras[2].flags, VP_SECF_OPTIONAL);
    assert_ptr_equal(vp_profile_extra(p, VP_SEC_LOOP_COUNTS), &p->extras[0]);
    assert_ptr_equal(vp_profile_extra(p, VP_SEC_LOOP_INSTANCES), &p->extras[1]);
    assert_null(vp_profile_extra(p, VP_SEC_LOOP_ITER_HASHES));
    vp_profile_close(p);
}

/* A misaligned buffer is parsed through an aligned copy. */
static void test_parse_misaligned_buffer(void **state)
{
    char path[300];
    path_in_tmp(path, sizeof path, "mis.vprof");
    write_full(path);
    size_t size;
    unsigned char *buf = load(path, &size);
    unsigned char *shifted = malloc(size + 1);
    memcpy(shifted + 1, buf, size);
    struct vp_profile *p;
    char err[512];
    assert_int_equal(vp_profile_parse("m", shifted + 1, size, &p, err, sizeof err), 0);
    assert_int_equal(p->pc_count, 3);
    assert_int_equal((uintptr_t)p->pc_samples[1] % 8, 0);
    assert_int_equal(vp_pc_sample_callers(p->pc_samples[1])[2], callers3[2]);
    vp_profile_close(p);
    free(shifted);
    free(buf);
}

/* ---- writer discipline ------------------------------------------------- */

static void test_writer_tmp_and_abort(void **state)
{
    char path[300], tmp[340], err[512];
    path_in_tmp(path, sizeof path, "w.vprof");
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    struct vp_profile_header hdr;
    vp_profile_header_init(&hdr);

    struct vp_profile_writer *w = vp_pw_open(path, &hdr, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(access(tmp, F_OK), 0);   /* written under the temp name */
    assert_int_equal(access(path, F_OK), -1); /* nothing at the final name yet */
    vp_pw_abort(w);
    assert_int_equal(access(tmp, F_OK), -1);
    assert_int_equal(access(path, F_OK), -1);

    /* A caller may not write END itself; the error surfaces at commit and
       the temporary file is removed. */
    w = vp_pw_open(path, &hdr, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(vp_pw_section(w, VP_SEC_END, 0, NULL, 0), -1);
    assert_int_equal(vp_pw_commit(w, err, sizeof err), -1);
    assert_non_null(strstr(err, "END"));
    assert_int_equal(access(tmp, F_OK), -1);
    assert_int_equal(access(path, F_OK), -1);

    /* An existing file (or symlink planted by someone else) at the temporary
       name is never followed or truncated. */
    char target[300];
    path_in_tmp(target, sizeof target, "victim");
    FILE *f = fopen(target, "w");
    fputs("keep", f);
    fclose(f);
    assert_int_equal(symlink(target, tmp), 0);
    assert_null(vp_pw_open(path, &hdr, err, sizeof err));
    assert_non_null(strstr(err, tmp));
    assert_non_null(strstr(err, "File exists"));
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_size, 4);
    unlink(tmp);

    /* Commit replaces an existing profile atomically. */
    write_full(path);
    w = vp_pw_open(path, &hdr, err, sizeof err);
    assert_int_equal(vp_pw_commit(w, err, sizeof err), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, sizeof hdr + sizeof(struct vp_section_header));
    assert_int_equal(access(tmp, F_OK), -1);

    /* Unwritable directory: a clear error naming the temporary file. */
    assert_null(vp_pw_open("/nonexistent-dir/x.vprof", &hdr, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent-dir/x.vprof.tmp."));
}

static void test_open_errors(void **state)
{
    char path[300], err[512];
    struct vp_profile *p = (void *)1;
    path_in_tmp(path, sizeof path, "does-not-exist");
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), -1);
    assert_null(p);
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "No such file"));

    assert_int_equal(vp_profile_open(tmpdir, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));

    path_in_tmp(path, sizeof path, "zero");
    close(open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644));
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, ": offset 0: empty file"));

    /* open() reports the same validation errors as parse(), with the path. */
    path_in_tmp(path, sizeof path, "text");
    FILE *f = fopen(path, "w");
    fputs("this is not a profile, but it is long enough to hold a whole profile header.\n", f);
    fclose(f);
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), -1);
    char want[400];
    snprintf(want, sizeof want, "%s: offset 0: not a vprof profile", path);
    assert_non_null(strstr(err, want));
}

/* ---- corruption -------------------------------------------------------- */

/* Every proper prefix of a valid file is rejected with a one-line message. */
static void test_truncated_every_offset(void **state)
{
    char path[300];
    path_in_tmp(path, sizeof path, "trunc.vprof");
    write_full(path);
    size_t size;
    unsigned char *buf = load(path, &size);
    char err[512];
    assert_int_equal(parse_err(buf, size, err, sizeof err), 0);
    for (size_t n = 0; n < size; n++) {
        unsigned char *cut = malloc(n ? n : 1);
        memcpy(cut, buf, n);
        err[0] = 0;
        if (parse_err(cut, n, err, sizeof err) != -1)
            fail_msg("prefix of %zu bytes accepted", n);
        if (strncmp(err, "t.vprof: offset ", 16) != 0)
            fail_msg("prefix %zu: bad message \"%s\"", n, err);
        free(cut);
    }
    /* The last section boundary before END: clearly "no END section". */
    size_t end_off = size - sizeof(struct vp_section_header);
    expect_error(buf, end_off, end_off, "truncated: no END section");
    free(buf);
}

/* Flipping any byte of a valid file either still parses or fails cleanly. */
static void test_flipped_bytes(void **state)
{
    char path[300];
    path_in_tmp(path, sizeof path, "flip.vprof");
    write_full(path);
    size_t size;
    unsigned char *buf = load(path, &size);
    static const unsigned char masks[] = {0x01, 0x10, 0x80, 0xff};
    size_t rejected = 0;
    for (size_t i = 0; i < size; i++) {
        for (size_t m = 0; m < sizeof masks; m++) {
            buf[i] ^= masks[m];
            char err[512] = "";
            struct vp_profile *p = NULL;
            if (vp_profile_parse("t.vprof", buf, size, &p, err, sizeof err) == 0) {
                /* Accepted: everything handed out must be in bounds. */
                for (size_t k = 0; k < p->pc_count; k++) {
                    const uint8_t *rec = (const uint8_t *)p->pc_samples[k];
                    assert_true(rec >= buf && rec + sizeof(struct vp_pc_sample) +
                                                      p->pc_samples[k]->depth * 8 <=
                                                  buf + size);
                }
                for (size_t k = 0; k < p->value_count; k++)
                    assert_true(p->values[k].var_id < p->var_count);
                for (size_t k = 0; k < p->module_count; k++)
                    (void)strlen(vp_profile_str(p, p->modules[k].path));
                vp_profile_close(p);
            } else {
                rejected++;
                assert_int_equal(strncmp(err, "t.vprof: offset ", 16), 0);
            }
            buf[i] ^= masks[m];
        }
    }
    /* Most flips land in a checked field; a few (sample payloads) don't. */
    assert_true(rejected > size);
    free(buf);
}

static unsigned char *valid(size_t *size)
{
    char path[300];
    path_in_tmp(path, sizeof path, "base.vprof");
    write_full(path);
    return load(path, size);
}

static void put32(unsigned char *buf, size_t off, uint32_t v)
{
    memcpy(buf + off, &v, 4);
}

static void put64(unsigned char *buf, size_t off, uint64_t v)
{
    memcpy(buf + off, &v, 8);
}

static void test_bad_header(void **state)
{
    size_t size;
    unsigned char *buf = valid(&size);
    unsigned char *b = malloc(size);
    const size_t H = sizeof(struct vp_profile_header);

    expect_error(buf, H - 1, H - 1, "file too short");
    expect_error(buf, 0, 0, "file too short");

    memcpy(b, buf, size);
    b[0] = 'X';
    expect_error(b, size, 0, "bad magic");

    memcpy(b, buf, size);
    put32(b, offsetof(struct vp_profile_header, endian), 0x04030201);
    expect_error(b, size, offsetof(struct vp_profile_header, endian), "other byte order");
    put32(b, offsetof(struct vp_profile_header, endian), 0x12345678);
    expect_error(b, size, offsetof(struct vp_profile_header, endian), "bad endianness");

    memcpy(b, buf, size);
    put32(b, offsetof(struct vp_profile_header, version), 2);
    expect_error(b, size, offsetof(struct vp_profile_header, version), "profile version 2");

    memcpy(b, buf, size);
    b[offsetof(struct vp_profile_header, word_size)] = 4;
    expect_error(b, size, offsetof(struct vp_profile_header, word_size), "word size 4");

    memcpy(b, buf, size);
    put32(b, offsetof(struct vp_profile_header, header_size), 64);
    expect_error(b, size, offsetof(struct vp_profile_header, header_size), "bad header size");
    put32(b, offsetof(struct vp_profile_header, header_size), 76);
    expect_error(b, size, offsetof(struct vp_profile_header, header_size), "bad header size");
    put32(b, offsetof(struct vp_profile_header, header_size), 1u << 30);
    expect_error(b, size, offsetof(struct vp_profile_header, header_size), "overruns the file");

    memcpy(b, buf, size);
    b[offsetof(struct vp_profile_header, clock)] = 9;
    expect_error(b, size, offsetof(struct vp_profile_header, clock), "unknown clock 9");
    free(b);
    free(buf);
}

static void test_bad_sections(void **state)
{
    size_t size;
    unsigned char *buf = valid(&size);
    unsigned char *b = malloc(size + 64);
    size_t mod = find_section(buf, size, VP_SEC_MODULES);
    size_t loss = find_section(buf, size, VP_SEC_LOSS);
    size_t end = size - 16;
    assert_true(mod && loss);

    /* section size beyond the end of the file, including 64-bit wrap-around */
    memcpy(b, buf, size);
    put64(b, mod + 8, size);
    expect_error(b, size, mod, "overruns the file");
    put64(b, mod + 8, UINT64_MAX - 8);
    expect_error(b, size, mod, "overruns the file");

    /* unknown flags */
    memcpy(b, buf, size);
    put32(b, mod + 4, 0x80);
    expect_error(b, size, mod + 4, "unknown flags");

    /* a known section type twice: turn LOSS into a second MODULES */
    memcpy(b, buf, size);
    put32(b, loss, VP_SEC_MODULES);
    expect_error(b, size, loss, "duplicate MODULES section");

    /* unknown section type, not optional; then optional: skipped */
    memcpy(b, buf, size);
    put32(b, loss, 11);
    expect_error(b, size, loss, "unknown section type 11");
    put32(b, loss, 1000);
    expect_error(b, size, loss, "unknown section type 1000");
    put32(b, loss + 4, VP_SECF_OPTIONAL);
    char err[512];
    assert_int_equal(parse_err(b, size, err, sizeof err), 0);

    /* END with a payload size */
    memcpy(b, buf, size);
    put64(b, end + 8, 8);
    expect_error(b, size, end, "overruns the file");
    memset(b + size, 0, 16); /* END claims the 16 bytes that follow it */
    put64(b, end + 8, 16);
    expect_error(b, size + 16, end, "END section with size 16");

    /* data after END */
    memcpy(b, buf, size);
    memset(b + size, 0, 8);
    expect_error(b, size + 8, size, "trailing data after the END section");

    free(b);
    free(buf);
}

/* Writes one section of `size` zero bytes and checks the reader's verdict:
   `what` at the section header, or at its payload if `at_payload`. */
static void expect_bad_size(uint32_t type, uint64_t size, int at_payload, const char *what)
{
    char path[300], err[512];
    path_in_tmp(path, sizeof path, "size.vprof");
    struct vp_profile_header hdr;
    vp_profile_header_init(&hdr);
    struct vp_profile_writer *w = vp_pw_open(path, &hdr, err, sizeof err);
    assert_non_null(w);
    void *zeros = calloc(1, size + 1);
    assert_int_equal(vp_pw_section(w, type, 0, zeros, size), 0);
    free(zeros);
    assert_int_equal(vp_pw_commit(w, err, sizeof err), 0);
    size_t n;
    unsigned char *buf = load(path, &n);
    expect_error(buf, n, sizeof hdr + (at_payload ? sizeof(struct vp_section_header) : 0),
                 what);
    free(buf);
}

static void test_bad_fixed_sizes(void **state)
{
    expect_bad_size(VP_SEC_MODULES, sizeof(struct vp_prof_module) + 8, 0,
                    "MODULES section size 80 is not a multiple of 72");
    expect_bad_size(VP_SEC_VALUE_SAMPLES, 41, 0, "VALUE_SAMPLES section size 41");
    expect_bad_size(VP_SEC_THREADS, 25, 0, "THREADS section size 25");
    expect_bad_size(VP_SEC_LOSS, sizeof(struct vp_loss) - 8, 0, "LOSS section has 120 bytes");
    expect_bad_size(VP_SEC_LOSS, sizeof(struct vp_loss) + 8, 0, "LOSS section has 136 bytes");
    expect_bad_size(VP_SEC_COVERAGE, 8, 0, "COVERAGE section has 8 bytes");
    expect_bad_size(VP_SEC_VARIABLES, 4, 0, "VARIABLES section too short");
    expect_bad_size(VP_SEC_PC_SAMPLES, 24, 1, "PC sample 0 truncated");
}

static void test_bad_strings(void **state)
{
    size_t size;
    unsigned char *buf = valid(&size);
    unsigned char *b = malloc(size);
    size_t str = find_section(buf, size, VP_SEC_STRINGS) + 16;
    size_t mod = find_section(buf, size, VP_SEC_MODULES) + 16;
    size_t var = find_section(buf, size, VP_SEC_VARIABLES) + 16;
    struct vp_section_header sh;
    memcpy(&sh, buf + str - 16, sizeof sh);

    /* profile string table must start and end with NUL */
    memcpy(b, buf, size);
    b[str] = 'x';
    expect_error(b, size, str, "does not start with an empty string");
    memcpy(b, buf, size);
    b[str + sh.size - 1] = 'x';
    expect_error(b, size, str + sh.size - 1, "not NUL-terminated");

    /* module path: out of range, then in the middle of a string */
    size_t path_field = mod + offsetof(struct vp_prof_module, path);
    memcpy(b, buf, size);
    put32(b, path_field, (uint32_t)sh.size);
    expect_error(b, size, path_field, "module path string offset");
    put32(b, path_field, 0xffffffffu);
    expect_error(b, size, path_field, "out of range");
    put32(b, path_field, 3);
    expect_error(b, size, path_field, "not at the start of a string");

    /* variable strings */
    const size_t v0 = var + sizeof(struct vp_vartab_header);
    size_t name_field = v0 + offsetof(struct vp_prof_var, name);
    memcpy(b, buf, size);
    put32(b, name_field, 100000);
    expect_error(b, size, name_field, "variable name string offset 100000 out of range");
    size_t type_field = v0 + sizeof(struct vp_prof_var) + offsetof(struct vp_prof_var, type);
    memcpy(b, buf, size);
    put32(b, type_field, 2);
    expect_error(b, size, type_field, "variable type string offset 2 is not at the start");

    /* variable table strings not terminated: the last byte of the table */
    struct vp_vartab_header vh;
    memcpy(&vh, buf + var, sizeof vh);
    size_t vstr = v0 + vh.var_count * sizeof(struct vp_prof_var);
    memcpy(b, buf, size);
    b[vstr + vh.strings_size - 1] = 'z';
    expect_error(b, size, vstr + vh.strings_size - 1, "variable string table is not NUL");
    free(b);
    free(buf);
}

static void test_bad_counts(void **state)
{
    size_t size;
    unsigned char *buf = valid(&size);
    unsigned char *b = malloc(size);
    size_t var = find_section(buf, size, VP_SEC_VARIABLES) + 16;
    size_t pcs = find_section(buf, size, VP_SEC_PC_SAMPLES) + 16;
    size_t vals = find_section(buf, size, VP_SEC_VALUE_SAMPLES) + 16;
    size_t mod = find_section(buf, size, VP_SEC_MODULES) + 16;
    size_t cov = find_section(buf, size, VP_SEC_COVERAGE) + 16;

    /* var_count larger than the section */
    memcpy(b, buf, size);
    put32(b, var, 3);
    expect_error(b, size, var, "variable count 3 overruns");
    put32(b, var, 0xffffffffu);
    expect_error(b, size, var, "variable count 4294967295 overruns");
    /* strings_size larger than what is left */
    memcpy(b, buf, size);
    put32(b, var + 4, 0xfffffff0u);
    expect_error(b, size, var + 4, "variable string table size");
    /* smaller: unexplained bytes at the end */
    struct vp_vartab_header vh;
    memcpy(&vh, buf + var, sizeof vh);
    memcpy(b, buf, size);
    put32(b, var, 1);
    expect_error(b, size, var + 8 + sizeof(struct vp_prof_var) + vh.strings_size,
                 "40 unexplained bytes");

    /* unknown type kind */
    memcpy(b, buf, size);
    b[var + 8 + offsetof(struct vp_prof_var, type_kind)] = 7;
    expect_error(b, size, var + 8 + offsetof(struct vp_prof_var, type_kind),
                 "unknown type kind 7");

    /* PC sample depth running past the section (second record has depth 3) */
    size_t rec1 = pcs + sizeof(struct vp_pc_sample);
    size_t depth1 = rec1 + offsetof(struct vp_pc_sample, depth);
    memcpy(b, buf, size);
    b[depth1] = 200;
    expect_error(b, size, depth1, "PC sample 1: depth 200 overruns the section");
    b[depth1] = 0xff;
    b[depth1 + 1] = 0xff;
    expect_error(b, size, depth1, "depth 65535 overruns");

    /* value sample referencing a variable beyond the table */
    size_t vid = vals + sizeof(struct vp_value_sample) + offsetof(struct vp_value_sample, var_id);
    memcpy(b, buf, size);
    put32(b, vid, 2);
    expect_error(b, size, vid, "value sample 1: variable id 2 beyond the variable table (2)");
    size_t st = vals + offsetof(struct vp_value_sample, status);
    memcpy(b, buf, size);
    b[st] = 3;
    expect_error(b, size, st, "unknown status 3");

    /* module build-id length and text range */
    memcpy(b, buf, size);
    put32(b, mod + offsetof(struct vp_prof_module, build_id_len), 33);
    expect_error(b, size, mod + offsetof(struct vp_prof_module, build_id_len),
                 "build-id length 33");
    memcpy(b, buf, size);
    put64(b, mod + offsetof(struct vp_prof_module, lo), UINT64_MAX);
    expect_error(b, size, mod + offsetof(struct vp_prof_module, lo), "text range start");

    /* coverage that claims more located than schema variables */
    memcpy(b, buf, size);
    put32(b, cov + offsetof(struct vp_coverage, located), 6);
    expect_error(b, size, cov + offsetof(struct vp_coverage, located),
                 "6 located of only 5 schema variables");
    free(b);
    free(buf);
}

/* Value samples with no VARIABLES section at all: every var_id is invalid. */
static void test_values_without_variables(void **state)
{
    char path[300], err[512];
    path_in_tmp(path, sizeof path, "novars.vprof");
    struct pf_builder b;
    pf_init(&b);
    pf_value(&b, 1, 0, 5, 0, VP_VAL_OK);
    assert_int_equal(pf_write(&b, path, err, sizeof err), 0);
    pf_free(&b);
    struct vp_profile *p;
    assert_int_equal(vp_profile_open(path, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "variable id 0 beyond the variable table (0)"));
}

static int setup(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/vprof-profile-test.XXXXXX",
             base && *base ? base : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    /* Remove what the tests created; the names are ours. */
    static const char *const names[] = {"full.vprof", "empty.vprof", "extras.vprof",
                                        "mis.vprof",  "w.vprof",     "victim",
                                        "zero",       "text",        "trunc.vprof",
                                        "flip.vprof", "base.vprof",  "novars.vprof", "size.vprof"};
    char path[300];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        path_in_tmp(path, sizeof path, names[i]);
        unlink(path);
    }
    return rmdir(tmpdir) == 0 || errno == ENOENT ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_empty_profile),
        cmocka_unit_test(test_extras_and_optional),
        cmocka_unit_test(test_parse_misaligned_buffer),
        cmocka_unit_test(test_writer_tmp_and_abort),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_truncated_every_offset),
        cmocka_unit_test(test_flipped_bytes),
        cmocka_unit_test(test_bad_header),
        cmocka_unit_test(test_bad_sections),
        cmocka_unit_test(test_bad_fixed_sizes),
        cmocka_unit_test(test_bad_strings),
        cmocka_unit_test(test_bad_counts),
        cmocka_unit_test(test_values_without_variables),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
