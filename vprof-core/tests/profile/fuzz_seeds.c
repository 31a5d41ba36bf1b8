/*
 * fuzz_seeds.c - writes a small corpus of valid profiles (made by the real
 * writer) into SEED_DIR, and creates an empty WORK_DIR for the fuzzer's own
 * finds.  Usage: profile_fuzz_seeds SEED_DIR WORK_DIR
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pf_builder.h"

static int write_seed(struct pf_builder *b, const char *dir, const char *name)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (pf_write(b, path, err, sizeof err) != 0) {
        fprintf(stderr, "profile_fuzz_seeds: %s\n", err);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: profile_fuzz_seeds SEED_DIR WORK_DIR\n");
        return 2;
    }
    for (int i = 1; i < 3; i++)
        if (mkdir(argv[i], 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "profile_fuzz_seeds: %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
    int rc = 0;
    struct pf_builder b;

    pf_init(&b); /* header and END only */
    rc |= write_seed(&b, argv[1], "empty.vprof");
    pf_free(&b);

    pf_init(&b); /* PC samples only, no variables */
    pf_module(&b, "/bin/app", 0, 0x1000, 0x2000, 0);
    static const uint64_t callers[4] = {0x1100, 0x1200, 0x1300, 0x1400};
    for (uint64_t i = 0; i < 6; i++)
        pf_pc(&b, i + 1, 0x1000 + 16 * i, 1, (uint16_t)(i % 5), callers);
    rc |= write_seed(&b, argv[1], "pcs.vprof");
    pf_free(&b);

    pf_init(&b); /* everything */
    pf_module(&b, "/bin/app", 0x400000, 0x401000, 0x402000, 1);
    pf_module(&b, "/lib/libm.so.6", 0x7f00000000, 0x7f00001000, 0x7f00009000, 0);
    uint32_t v0 = pf_var(&b, "a.c", "f", "i", "int", 4, VP_TAG_LOOP, VP_TYPE_SINT, 4);
    uint32_t v1 = pf_var(&b, "a.c", "f", "p", "double *", 5, VP_TAG_ARGS, VP_TYPE_PTR_BASIC, 8);
    uint32_t v2 = pf_var(&b, "b.c", "", "g", "unsigned", 1, VP_TAG_GLOBAL, VP_TYPE_UINT, 4);
    for (uint64_t i = 0; i < 4; i++) {
        pf_pc(&b, i + 1, 0x401000 + 8 * i, 2, (uint16_t)i, callers);
        pf_value(&b, i + 1, v0, i, 0x401000, VP_VAL_OK);
        pf_value(&b, i + 1, v1, 0x3ff0000000000000ull, 0x401000, (uint8_t)(i % 3));
        pf_value(&b, i + 1, v2, 7, 0x401000, VP_VAL_OK);
    }
    b.has_loss = 1;
    b.loss.signals = 4;
    b.has_coverage = 1;
    b.coverage.schema_vars = 4;
    b.coverage.located = 3;
    b.coverage.by_reason[VP_COV_NO_LOCATION] = 1;
    pf_thread(&b, 2, 4, 4000000);
    rc |= write_seed(&b, argv[1], "full.vprof");
    pf_free(&b);
    return rc ? 1 : 0;
}
