/*
 * rt_dump.c - test-only profile parser for the sampler-rt tests.
 *
 * Validates the structure of a profile written by libvprof-rt.so (header,
 * section framing and padding, END present and last, PC records fitting
 * their section, value samples referring to an existing PC sample, depths
 * within max_depth) and prints a line-oriented summary the test scripts grep:
 *   header pid=.. ppid=.. root_pid=.. flags=.. exit_status=.. clock=.. depth=..
 *   modules count=.. indexed=..
 *   module <i> text=<lo - load_bias>+<hi - lo> build_id=<hex> path=<path>
 *                                               (after the sections: the
 *                                                paths are in STRINGS)
 *   pc samples=.. with_callers=.. unwind_failed=.. weighted=..
 *   tid <tid> samples=<n> weighted=<w>          (from PC samples; w sums
 *                                                VP_PC_SAMPLE_WEIGHT)
 *   thread <tid> pc_samples=<n> cpu_ns=<ns>     (THREADS section)
 *   var <id> depth=<d> status=<s> count=<n> min=<v> max=<v>   (values, hex)
 *   loss signals=.. pc_dropped=.. values_dropped=.. unreadable=.. unwind_errors=.. reentrant=..
 *   ok
 * Exit status 0 if valid, 1 with a message naming the offset otherwise.
 * The real reader lives in vprof-core/src/profile/; this one stays small.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vprof/format.h>

#define FAIL(...)                                                                         \
    do {                                                                                  \
        fprintf(stderr, "rt_dump: %s: ", path);                                           \
        fprintf(stderr, __VA_ARGS__);                                                     \
        fputc('\n', stderr);                                                              \
        return 1;                                                                         \
    } while (0)

struct agg {
    uint32_t var;
    uint8_t depth, status;
    uint64_t count, min, max;
};

static int seq_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rt_dump FILE\n");
        return 2;
    }
    const char *path = argv[1];
    FILE *f = fopen(path, "rb");
    if (!f)
        FAIL("cannot open");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(size > 0 ? size : 1);
    if (!b || fread(b, 1, size, f) != (size_t)size)
        FAIL("cannot read");
    fclose(f);

    struct vp_profile_header h;
    if ((size_t)size < sizeof h)
        FAIL("shorter than the header");
    memcpy(&h, b, sizeof h);
    if (memcmp(h.magic, VP_PROFILE_MAGIC, 8) || h.version != VP_PROFILE_VERSION ||
        h.header_size != sizeof h || h.endian != VP_ENDIAN_MARK || h.word_size != 8)
        FAIL("bad header at offset 0");
    printf("header pid=%u ppid=%u root_pid=%u flags=%u exit_status=%d clock=%u depth=%u period_ns=%" PRIu64
           "\n",
           h.pid, h.ppid, h.root_pid, h.flags, h.exit_status, h.clock, h.max_depth, h.period_ns);
    if (h.end_ns < h.start_ns)
        FAIL("end_ns before start_ns");

    uint64_t off = sizeof h;
    int seen_end = 0, seen[32] = {0};
    uint64_t *seqs = NULL, nseq = 0;
    struct agg *ag = NULL;
    size_t nag = 0;
    const uint8_t *vals = NULL;
    uint64_t nvals = 0;
    const uint8_t *mods = NULL, *strs = NULL;
    uint64_t nmods = 0, strs_size = 0;
    uint64_t tid_s[64] = {0}, tid_w[64] = {0};
    uint32_t tid_id[64] = {0};
    while (!seen_end) {
        struct vp_section_header s;
        if (off + sizeof s > (uint64_t)size)
            FAIL("truncated: no END section (offset %" PRIu64 ")", off);
        memcpy(&s, b + off, sizeof s);
        uint64_t p = off + sizeof s;
        if (s.size > (uint64_t)size - p)
            FAIL("section type %u at offset %" PRIu64 " overruns the file", s.type, off);
        const uint8_t *d = b + p;
        if (s.type < 32) {
            if (seen[s.type] && s.type != VP_SEC_END)
                FAIL("duplicate section %u at offset %" PRIu64, s.type, off);
            seen[s.type] = 1;
        }
        switch (s.type) {
        case VP_SEC_END:
            if (s.size != 0)
                FAIL("END with payload");
            seen_end = 1;
            break;
        case VP_SEC_STRINGS:
            if (s.size == 0 || d[0] != 0 || d[s.size - 1] != 0)
                FAIL("bad string table at offset %" PRIu64, off);
            strs = d;
            strs_size = s.size;
            break;
        case VP_SEC_MODULES: {
            if (s.size % sizeof(struct vp_prof_module))
                FAIL("bad MODULES size");
            unsigned n = s.size / sizeof(struct vp_prof_module), ix = 0;
            for (unsigned i = 0; i < n; i++) {
                struct vp_prof_module m;
                memcpy(&m, d + i * sizeof m, sizeof m);
                ix += m.indexed;
                if (m.lo >= m.hi)
                    FAIL("module %u: empty text range", i);
            }
            printf("modules count=%u indexed=%u\n", n, ix);
            mods = d;
            nmods = n;
            break;
        }
        case VP_SEC_PC_SAMPLES: {
            uint64_t q = 0, n = 0, callers = 0, failed = 0, weighted = 0;
            seqs = malloc((s.size / sizeof(struct vp_pc_sample) + 1) * 8);
            while (q < s.size) {
                struct vp_pc_sample r;
                if (s.size - q < sizeof r)
                    FAIL("PC record overruns its section at offset %" PRIu64, p + q);
                memcpy(&r, d + q, sizeof r);
                if (r.depth > h.max_depth || s.size - q - sizeof r < 8ull * r.depth)
                    FAIL("PC record depth %u bad at offset %" PRIu64, r.depth, p + q);
                if (r.tid == 0 || r.pc == 0)
                    FAIL("PC record without tid/pc at offset %" PRIu64, p + q);
                q += sizeof r + 8ull * r.depth;
                seqs[n++] = r.seq;
                callers += r.depth > 0;
                failed += (r.flags & VP_PCF_UNWIND_FAILED) != 0;
                int k = 0;
                while (k < 63 && tid_id[k] && tid_id[k] != r.tid)
                    k++;
                tid_id[k] = r.tid;
                tid_s[k]++;
                tid_w[k] += VP_PC_SAMPLE_WEIGHT(r.flags);
                weighted += VP_PC_SAMPLE_WEIGHT(r.flags);
            }
            nseq = n;
            qsort(seqs, n, 8, seq_cmp);
            for (uint64_t i = 1; i < n; i++)
                if (seqs[i] == seqs[i - 1])
                    FAIL("duplicate sequence number %" PRIu64, seqs[i]);
            printf("pc samples=%" PRIu64 " with_callers=%" PRIu64 " unwind_failed=%" PRIu64
                   " weighted=%" PRIu64 "\n",
                   n, callers, failed, weighted);
            for (int k = 0; k < 64 && tid_id[k]; k++)
                printf("tid %u samples=%" PRIu64 " weighted=%" PRIu64 "\n", tid_id[k], tid_s[k],
                       tid_w[k]);
            break;
        }
        case VP_SEC_VALUE_SAMPLES:
            if (s.size % sizeof(struct vp_value_sample))
                FAIL("bad VALUE_SAMPLES size");
            vals = d;
            nvals = s.size / sizeof(struct vp_value_sample);
            break;
        case VP_SEC_LOSS: {
            struct vp_loss l;
            if (s.size != sizeof l)
                FAIL("bad LOSS size");
            memcpy(&l, d, sizeof l);
            printf("loss signals=%" PRIu64 " pc_samples=%" PRIu64 " pc_dropped=%" PRIu64
                   " value_samples=%" PRIu64 " values_dropped=%" PRIu64 " unreadable=%" PRIu64
                   " unwind_errors=%" PRIu64 " reentrant=%" PRIu64 " threads=%" PRIu64
                   " timer_failures=%" PRIu64 "\n",
                   l.signals, l.pc_samples, l.pc_dropped, l.value_samples, l.values_dropped,
                   l.values_unreadable, l.unwind_errors, l.reentrant, l.threads, l.timer_failures);
            break;
        }
        case VP_SEC_THREADS: {
            if (s.size % sizeof(struct vp_prof_thread))
                FAIL("bad THREADS size");
            for (uint64_t i = 0; i < s.size / sizeof(struct vp_prof_thread); i++) {
                struct vp_prof_thread t;
                memcpy(&t, d + i * sizeof t, sizeof t);
                printf("thread %u pc_samples=%" PRIu64 " cpu_ns=%" PRIu64 "\n", t.tid, t.pc_samples,
                       t.cpu_ns);
            }
            break;
        }
        case VP_SEC_VARIABLES: {
            struct vp_vartab_header vh;
            if (s.size < sizeof vh)
                FAIL("bad VARIABLES size");
            memcpy(&vh, d, sizeof vh);
            if (sizeof vh + (uint64_t)vh.var_count * sizeof(struct vp_prof_var) + vh.strings_size >
                s.size)
                FAIL("VARIABLES counts exceed the section");
            printf("variables count=%u\n", vh.var_count);
            break;
        }
        case VP_SEC_COVERAGE:
            if (s.size < sizeof(struct vp_coverage))
                FAIL("bad COVERAGE size");
            break;
        default:
            if (!(s.flags & VP_SECF_OPTIONAL))
                FAIL("unknown section type %u at offset %" PRIu64, s.type, off);
        }
        off = p + ((s.size + 7) & ~7ull);
    }
    if (off != (uint64_t)size)
        FAIL("%" PRIu64 " bytes after END", (uint64_t)size - off);
    if (!seen[VP_SEC_PC_SAMPLES] || !seen[VP_SEC_LOSS] || !seen[VP_SEC_MODULES])
        FAIL("a required section is missing");

    for (uint64_t i = 0; i < nvals; i++) {
        struct vp_value_sample v;
        memcpy(&v, vals + i * sizeof v, sizeof v);
        if (!bsearch(&v.seq, seqs, nseq, 8, seq_cmp))
            FAIL("value sample %" PRIu64 " refers to missing PC sample %" PRIu64, i, v.seq);
        if (v.depth > h.max_depth || v.status > VP_VAL_POINTEE_UNREADABLE)
            FAIL("value sample %" PRIu64 ": bad depth/status", i);
        size_t k = 0;
        while (k < nag && !(ag[k].var == v.var_id && ag[k].depth == v.depth && ag[k].status == v.status))
            k++;
        if (k == nag) {
            ag = realloc(ag, (nag + 1) * sizeof *ag);
            ag[nag++] = (struct agg){v.var_id, v.depth, v.status, 0, UINT64_MAX, 0};
        }
        ag[k].count++;
        if (v.value < ag[k].min)
            ag[k].min = v.value;
        if (v.value > ag[k].max)
            ag[k].max = v.value;
    }
    for (size_t k = 0; k < nag; k++)
        printf("var %u depth=%u status=%u count=%" PRIu64 " min=0x%" PRIx64 " max=0x%" PRIx64 "\n",
               ag[k].var, ag[k].depth, ag[k].status, ag[k].count, ag[k].min, ag[k].max);
    for (uint64_t i = 0; i < nmods; i++) {
        struct vp_prof_module m;
        memcpy(&m, mods + i * sizeof m, sizeof m);
        if (!strs || m.path >= strs_size)
            FAIL("module %" PRIu64 ": path outside the string table", i);
        printf("module %" PRIu64 " text=%#" PRIx64 "+%#" PRIx64 " build_id=", i, m.lo - m.load_bias,
               m.hi - m.lo);
        for (uint32_t k = 0; k < m.build_id_len && k < sizeof m.build_id; k++)
            printf("%02x", m.build_id[k]);
        printf(" path=%s\n", (const char *)strs + m.path);
    }
    printf("ok\n");
    free(seqs);
    free(ag);
    free(b);
    return 0;
}
