/*
 * fuzz_profile.c - libFuzzer target for the profile reader.  Parses the
 * input and, when it is accepted, touches everything the reader hands out
 * (strings, callers, records) so the sanitizers see any out-of-bounds view.
 */
#include <stdint.h>
#include <string.h>

#include "vprof/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct vp_profile *p;
    char err[512];
    if (vp_profile_parse("fuzz", data, size, &p, err, sizeof err) != 0) {
        /* Messages are one line and name the input. */
        if (strncmp(err, "fuzz: ", 6) != 0 || strchr(err, '\n'))
            __builtin_trap();
        return 0;
    }
    volatile uint64_t sink = 0;
    for (size_t i = 0; i < p->module_count; i++) {
        sink += strlen(vp_profile_str(p, p->modules[i].path));
        sink += vp_profile_module_of(p, p->modules[i].lo) != NULL;
    }
    for (size_t i = 0; i < p->var_count; i++) {
        const struct vp_prof_var *v = &p->vars[i];
        sink += strlen(vp_profile_var_str(p, v->file)) + strlen(vp_profile_var_str(p, v->function)) +
                strlen(vp_profile_var_str(p, v->linkage)) + strlen(vp_profile_var_str(p, v->name)) +
                strlen(vp_profile_var_str(p, v->type));
    }
    for (size_t i = 0; i < p->pc_count; i++) {
        const uint64_t *c = vp_pc_sample_callers(p->pc_samples[i]);
        sink += p->pc_samples[i]->pc;
        for (uint16_t d = 0; d < p->pc_samples[i]->depth; d++)
            sink += c[d];
    }
    for (size_t i = 0; i < p->value_count; i++)
        sink += p->vars[p->values[i].var_id].line + p->values[i].value;
    for (size_t i = 0; i < p->thread_count; i++)
        sink += p->threads[i].cpu_ns;
    for (size_t i = 0; i < p->extra_count; i++)
        if (p->extras[i].size)
            sink += ((const uint8_t *)p->extras[i].data)[p->extras[i].size - 1];
    (void)sink;
    vp_profile_close(p);
    return 0;
}
