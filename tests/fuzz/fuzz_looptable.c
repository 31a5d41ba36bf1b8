/*
 * fuzz_looptable.c - libFuzzer target for the loopclass readers: the
 * ".vprof.loops" section parser (loopclass/src/table.c,
 * vp_loop_table_parse) and the VP_SEC_LOOP_COUNTS payload parser
 * (counts.c), then the analysis that joins them (analyze.c).
 *
 * Input: a 4-byte little-endian length L, L bytes of section, the rest is
 * the counts payload (a short input is all section).  Everything accepted
 * is read back; messages are one line naming the input.
 */
#include "split.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/loopclass.h"

static void check_msg(const char *err)
{
    if (strncmp(err, "fuzz", 4) != 0 || strchr(err, '\n'))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sec, *cnt;
    size_t sec_size, cnt_size;
    vp_fuzz_split(data, size, &sec, &sec_size, &cnt, &cnt_size);
    char err[512];
    struct vp_loop_table *t = NULL;
    struct vp_loop_counts *c = NULL;
    volatile size_t sink = 0;
    if (vp_loop_table_parse("fuzz", sec, sec_size, &t, err, sizeof err) != 0) {
        check_msg(err);
        t = NULL;
    } else {
        for (size_t i = 0; i < t->loop_count; i++) {
            const struct vp_loop_info *l = &t->loops[i];
            sink += strlen(l->function) + strlen(l->linkage) + strlen(l->file) + l->line;
            for (size_t k = 0; k < l->site_count; k++)
                sink += l->sites[k].line + strlen(l->sites[k].callee);
            sink += strlen(vp_loop_class_name(l->static_class));
        }
    }
    if (cnt) {
        /* (the same payload the profile's VP_SEC_LOOP_COUNTS section holds) */
        if (vp_loop_counts_parse("fuzz-counts", cnt, cnt_size, &c, err, sizeof err) != 0) {
            check_msg(err);
            c = NULL;
        } else {
            for (size_t i = 0; i < c->module_count; i++)
                sink += strlen(c->module_paths[i]);
            for (size_t i = 0; i < c->record_count; i++)
                sink += c->records[i].iterations;
        }
    }
    if (t && c) {
        struct vp_loop_result *r = NULL;
        size_t n = 0;
        if (vp_loop_analyze(t, c, NULL, &r, &n, err, sizeof err) != 0) {
            if (strchr(err, '\n'))
                __builtin_trap();
        } else {
            for (size_t i = 0; i < n; i++) {
                /* an accepted profile gives a rate that is a rate */
                if (r[i].verdict != VP_LOOP_NOT_RUN &&
                    !(r[i].resultless_rate >= 0.0 && r[i].resultless_rate <= 1.0))
                    __builtin_trap();
                sink += (size_t)r[i].verdict + (r[i].resultless_rate > 0.5) + strlen(r[i].loop->file);
            }
            free(r);
        }
    }
    (void)sink;
    vp_loop_counts_free(c);
    vp_loop_table_free(t);
    return 0;
}
