/*
 * fuzz_redund.c - libFuzzer target for the redundancy readers: the
 * ".vprof.redund" section parser and the readers of the profile sections
 * the redundancy probes write (VP_SEC_LOOP_ITER_HASHES,
 * VP_SEC_LOOP_INSTANCES), followed by the rate computations that walk what
 * they accepted.  redundancy/src/analyze.c is included so its static
 * buffer entry points (vp_red_parse_section, vp_red_analyze_loops) are
 * reachable without an ELF file.
 *
 * Input: a 4-byte little-endian length L, L bytes of section, the rest is
 * a whole profile file (read by vprof-core's reader).  A short input is
 * all section.
 */
#include "split.h"
#include "../../redundancy/src/analyze.c"

#include "vprof/profile.h"

static void check_msg(const char *err)
{
    if (strncmp(err, "fuzz", 4) != 0 && strcmp(err, "out of memory") != 0)
        __builtin_trap();
    if (strchr(err, '\n'))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sec, *prof;
    size_t sec_size, prof_size;
    vp_fuzz_split(data, size, &sec, &sec_size, &prof, &prof_size);
    char err[512];
    struct vp_red_result *r = calloc(1, sizeof *r);
    if (!r)
        return 0;
    size_t cap = 0, used = 0;
    char *strs = NULL;
    if (vp_red_parse_section("fuzz", sec, sec_size, r, &cap, &strs, &used, err, sizeof err) != 0) {
        check_msg(err);
        free(strs);
        vp_red_result_free(r);
        return 0;
    }
    vp_red_fix_strings(r, strs);
    volatile size_t sink = 0;
    for (size_t i = 0; i < r->loop_count; i++) {
        sink += strlen(r->loops[i].function);
        if (r->loops[i].constant_object) /* VP_REDF_CL_CONST's global */
            sink += strlen(r->loops[i].constant_object);
    }
    struct vp_profile *p = NULL;
    if (!prof || vp_profile_parse("fuzz-profile", prof, prof_size, &p, err, sizeof err) != 0) {
        vp_red_result_free(r);
        return 0;
    }
    struct vp_red_params prm;
    vp_red_params_default(&prm);
    struct vp_red_result *out = NULL;
    const struct vp_profile *one = p;
    if (vp_red_analyze_loops(r, &one, 1, &prm, &out, err, sizeof err) != 0) {
        check_msg(err);
    } else {
        for (size_t i = 0; i < out->loop_count; i++) {
            const struct vp_red_loop_result *l = &out->loops[i];
            /* rates that are rates: sampled / distinct is 0 or at least 1,
               redundant / compared pairs is in [0, 1] */
            if (!(l->ci_rate == 0 || (l->ci_rate >= 1 && l->ci_rate <= (double)UINT64_MAX)) ||
                !(l->cl_rate >= 0 && l->cl_rate <= 1) ||
                !(l->mean_pair_distance == -1 ||
                  (l->mean_pair_distance >= 0 && l->mean_pair_distance <= 1e300)))
                __builtin_trap();
            sink += (size_t)l->ci_redundant + (size_t)l->cl_redundant;
        }
        vp_red_result_free(out);
    }
    (void)sink;
    vp_profile_close(p);
    return 0;
}
