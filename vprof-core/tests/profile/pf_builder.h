/*
 * pf_builder.h - build synthetic profiles in tests (profile and cmd tests,
 * the fuzz seed generator).  Accumulates the sections in memory and writes
 * them with the real writer (vp_pw_*).  Aborts the test program on out of
 * memory: it is test scaffolding, not library code.
 */
#ifndef VPROF_TESTS_PF_BUILDER_H
#define VPROF_TESTS_PF_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "vprof/profile.h"

struct pf_buf {
    unsigned char *data;
    size_t len, cap;
};

struct pf_builder {
    struct vp_profile_header hdr;
    struct pf_buf strings;    /* profile string table                       */
    struct pf_buf modules;
    struct pf_buf vars;       /* struct vp_prof_var[]                        */
    struct pf_buf var_strings;
    struct pf_buf pcs;
    struct pf_buf values;
    int has_loss, has_coverage;
    struct vp_loss loss;
    struct vp_coverage coverage;
    struct pf_buf threads;
};

void pf_init(struct pf_builder *b);
void pf_free(struct pf_builder *b);
uint32_t pf_str(struct pf_builder *b, const char *s);
uint32_t pf_var_str(struct pf_builder *b, const char *s);
void pf_module(struct pf_builder *b, const char *path, uint64_t load_bias, uint64_t lo,
               uint64_t hi, uint32_t indexed);
uint32_t pf_var(struct pf_builder *b, const char *file, const char *function, const char *name,
                const char *type, uint32_t line, uint16_t tags, uint16_t type_kind,
                uint32_t size);
void pf_pc(struct pf_builder *b, uint64_t seq, uint64_t pc, uint32_t tid, uint16_t depth,
           const uint64_t *callers);
void pf_value(struct pf_builder *b, uint64_t seq, uint32_t var_id, uint64_t value,
              uint64_t pc, uint8_t status);
void pf_thread(struct pf_builder *b, uint32_t tid, uint64_t pc_samples, uint64_t cpu_ns);

/* Writes every non-empty section in the canonical order (STRINGS, MODULES,
   VARIABLES, PC_SAMPLES, VALUE_SAMPLES, LOSS, COVERAGE, THREADS).
   Returns 0 or -1 with err set. */
int pf_write(struct pf_builder *b, const char *path, char *err, size_t errlen);

/* Reads a whole file into 8-aligned heap memory; NULL on error. */
unsigned char *pf_slurp(const char *path, size_t *size);

#endif
