/*
 * index_plan.c - test helper: build the PC index of a binary with
 * vp_index_build, then write every (range, recipe) as one text line for
 * gdb_check.py, which evaluates the recipes at breakpoints and compares
 * them with gdb's own view of the variables.
 *
 *   index_plan BINARY INDEX_OUT PLAN_OUT
 *
 * Plan lines:
 *   main <elf vaddr of main>
 *   r <lo> <hi> <function> <name> <size> <flags> <pointee_size> <code:reg:size:arg>...
 * (function "-" for globals; lo == hi == 0 for the module's "always" list)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/index.h"
#include "vprof/symbols.h"

int main(int argc, char **argv)
{
    char err[1024];
    if (argc != 4) {
        fprintf(stderr, "usage: index_plan BINARY INDEX PLAN\n");
        return 2;
    }
    const char *paths[1] = { argv[1] };
    struct vp_index_stats st;
    if (vp_index_build(paths, 1, argv[2], &st, err, sizeof err) != 0) {
        fprintf(stderr, "index_plan: %s\n", err);
        return 1;
    }
    FILE *f = fopen(argv[2], "rb");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    unsigned char *buf = malloc((size_t)len);
    if (fread(buf, 1, (size_t)len, f) != (size_t)len)
        return 1;
    fclose(f);
    struct vp_index_header h;
    memcpy(&h, buf, sizeof h);
    const struct vp_index_range *ranges = (const void *)(buf + h.ranges_off);
    const uint32_t *refs = (const void *)(buf + h.refs_off);
    const struct vp_recipe *recipes = (const void *)(buf + h.recipes_off);
    const struct vp_op *ops = (const void *)(buf + h.ops_off);
    const struct vp_vartab_header *vt = (const void *)(buf + h.vartab_off);
    const struct vp_prof_var *vars = (const void *)(vt + 1);
    const char *vs = (const char *)(vars + vt->var_count);

    FILE *out = fopen(argv[3], "w");
    struct vp_symtab *sym;
    if (vp_symtab_open(argv[1], NULL, 0, &sym, err, sizeof err) != 0) {
        fprintf(stderr, "index_plan: %s\n", err);
        return 1;
    }
    size_t nf;
    const struct vp_func *fs = vp_symtab_funcs(sym, &nf);
    for (size_t i = 0; i < nf; i++)
        if (strcmp(fs[i].name, "main") == 0)
            fprintf(out, "main %" PRIu64 "\n", fs[i].lo);
    vp_symtab_close(sym);
    for (uint32_t i = 0; i < h.range_count; i++) {
        for (uint32_t k = 0; k < ranges[i].recipe_count; k++) {
            const struct vp_recipe *r = &recipes[refs[ranges[i].first_recipe + k]];
            const struct vp_prof_var *v = &vars[r->var_id];
            fprintf(out, "r %" PRIu64 " %" PRIu64 " %s %s %u %u %u", ranges[i].lo, ranges[i].hi,
                    vs[v->function] ? vs + v->function : "-", vs + v->name, r->size, r->flags,
                    r->pointee_size);
            for (uint32_t o = 0; o < r->op_count; o++) {
                const struct vp_op *op = &ops[r->first_op + o];
                fprintf(out, " %u:%u:%u:%" PRId64, op->code, op->reg, op->size, op->arg);
            }
            fputc('\n', out);
        }
    }
    fclose(out);
    printf("index_plan: %s: %u vars, %u located, %u ranges, %u recipes, %.3f ms, "
           "pc bytes %" PRIu64 "/%" PRIu64 "\n",
           argv[1], st.coverage.schema_vars, st.coverage.located, st.ranges, st.recipes,
           st.build_ms, st.coverage.pc_bytes_located, st.coverage.pc_bytes_total);
    free(buf);
    return 0;
}
