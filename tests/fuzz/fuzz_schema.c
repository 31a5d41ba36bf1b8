/*
 * fuzz_schema.c - libFuzzer target for the ".vprof.schema" section reader
 * (vprof-core/src/dwarf/schema.c, vp_dwarf_schema_parse): the input is the
 * section's bytes.  Accepted input: every string the reader hands out is
 * read; rejected input: the message is one line naming the file.
 */
#include <stdint.h>
#include <string.h>

#include "dwarf/dwarf_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct vp_dwarf_var *vars;
    size_t n;
    char err[512];
    if (vp_dwarf_schema_parse(data, size, "fuzz", &vars, &n, err, sizeof err) != 0) {
        if (strncmp(err, "fuzz: ", 6) != 0 || strchr(err, '\n'))
            __builtin_trap();
        return 0;
    }
    volatile size_t sink = 0;
    for (size_t i = 0; i < n; i++) {
        const struct vp_dwarf_var *v = &vars[i];
        sink += v->file ? strlen(v->file) : 0;
        sink += v->file_raw ? strlen(v->file_raw) : 0;
        sink += v->function ? strlen(v->function) : 0;
        sink += v->linkage ? strlen(v->linkage) : 0;
        sink += v->name ? strlen(v->name) : 0;
        sink += v->type ? strlen(v->type) : 0;
        for (uint32_t u = 0; u < v->nusers; u++)
            sink += v->users[u] ? strlen(v->users[u]) : 0;
    }
    (void)sink;
    vp_dwarf_schema_free(vars, n);
    return 0;
}
