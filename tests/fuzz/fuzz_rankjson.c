/*
 * fuzz_rankjson.c - libFuzzer target for the JSON reader vprof-loop reads
 * its `--rank RANK.json` with (fixsuggest/src/jsonread.c).  Parses the
 * input; an accepted document is walked entirely, then read the way
 * loopcmd.c's read_rank does (schema, inputs[].path/role, functions[] with
 * name/rank/file/line/costs/pattern and their numeric conversions).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "jsonread.h"

static volatile size_t sink;

static void walk(const struct vp_jr *j, int depth)
{
    if (depth > 10000)
        __builtin_trap(); /* the reader must bound nesting itself */
    switch (j->type) {
    case VP_JR_STRING:
        sink += strlen(j->string);
        break;
    case VP_JR_NUMBER:
    case VP_JR_BOOL:
        sink += j->number != 0;
        break;
    case VP_JR_ARRAY:
    case VP_JR_OBJECT:
        for (size_t i = 0; i < j->count; i++) {
            if (j->type == VP_JR_OBJECT)
                sink += strlen(j->keys[i]);
            walk(&j->items[i], depth + 1);
        }
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct vp_jr *j = vp_jr_parse((const char *)data, size, err, sizeof err);
    if (!j) {
        if (strncmp(err, "offset ", 7) != 0 || strchr(err, '\n'))
            __builtin_trap();
        return 0;
    }
    walk(j, 0);
    const char *schema = vp_jr_str(j, "schema", NULL);
    sink += schema ? strlen(schema) : 0;
    const struct vp_jr *inputs = vp_jr_get(j, "inputs");
    for (size_t i = 0; inputs && inputs->type == VP_JR_ARRAY && i < inputs->count; i++) {
        const char *p = vp_jr_str(&inputs->items[i], "path", NULL);
        const char *role = vp_jr_str(&inputs->items[i], "role", "");
        sink += (p ? strlen(p) : 0) + strlen(role);
    }
    const struct vp_jr *funcs = vp_jr_get(j, "functions");
    for (size_t i = 0; funcs && funcs->type == VP_JR_ARRAY && i < funcs->count; i++) {
        const struct vp_jr *f = &funcs->items[i];
        const char *name = vp_jr_str(f, "name", NULL);
        if (!name)
            continue;
        sink += (size_t)vp_jr_int(f, "rank", 1, INT_MAX, (long long)(i + 1));
        sink += (size_t)vp_jr_int(f, "line", 0, INT_MAX, 0);
        sink += strlen(vp_jr_str(f, "file", ""));
        double costs = vp_jr_num(f, "raw_cost", 0) + vp_jr_num(f, "calibrated_cost", 0) +
                       vp_jr_num(f, "discount", 1);
        sink += isnan(costs);
        const char *pat = vp_jr_str(f, "pattern", NULL);
        sink += pat ? strlen(pat) : 0;
    }
    vp_jr_free(j);
    return 0;
}
