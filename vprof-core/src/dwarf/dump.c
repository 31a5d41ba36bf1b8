/*
 * dump.c - vp_index_dump: print a PC index file (format.h, part 3) for
 * `vprof dump --index` and for tests.  Every offset and count is checked
 * against the file size before use.
 *
 * Output, one item per line:
 *   module <i> <path> build-id <hex> ranges <n>
 *   range <lo> <hi> <var>=<recipe> ...      (lo == hi == 0: the "always" list)
 *   var <id> <function>:<name> <file>:<line> ...
 *   coverage ...
 * A recipe prints as its ops separated by ';', e.g. "breg6-20;memory4".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/index.h"
#include "util/err.h"


static const char *op_name(unsigned code)
{
    static const char *names[] = {
        [VP_OP_END] = "end",     [VP_OP_REG] = "reg",     [VP_OP_BREG] = "breg",
        [VP_OP_CFA] = "cfa",     [VP_OP_ADDR] = "addr",   [VP_OP_CONST] = "const",
        [VP_OP_DEREF] = "deref", [VP_OP_PLUS] = "plus",   [VP_OP_MINUS] = "minus",
        [VP_OP_MUL] = "mul",     [VP_OP_PLUS_CONST] = "plus_const",
        [VP_OP_AND] = "and",     [VP_OP_OR] = "or",       [VP_OP_SHL] = "shl",
        [VP_OP_SHR] = "shr",     [VP_OP_SHRA] = "shra",   [VP_OP_NEG] = "neg",
        [VP_OP_DIV] = "div",     [VP_OP_XOR] = "xor",     [VP_OP_NOT] = "not",
        [VP_OP_DUP] = "dup",     [VP_OP_TLS] = "tls",     [VP_OP_VALUE] = "value",
        [VP_OP_MEMORY] = "memory",
    };
    if (code < sizeof names / sizeof names[0] && names[code])
        return names[code];
    return "?";
}

/* Print one op in the compact dump syntax. */
static void print_op(FILE *out, const struct vp_op *op)
{
    switch (op->code) {
    case VP_OP_REG:
        fprintf(out, "reg%u", op->reg);
        break;
    case VP_OP_BREG:
        fprintf(out, "breg%u%+" PRId64, op->reg, op->arg);
        break;
    case VP_OP_CFA:
    case VP_OP_PLUS_CONST:
        fprintf(out, "%s%+" PRId64, op_name(op->code), op->arg);
        break;
    case VP_OP_ADDR:
        fprintf(out, "addr0x%" PRIx64, (uint64_t)op->arg);
        break;
    case VP_OP_CONST:
        fprintf(out, "const%" PRId64, op->arg);
        break;
    case VP_OP_DEREF:
    case VP_OP_MEMORY:
    case VP_OP_VALUE:
        fprintf(out, "%s%u", op_name(op->code), op->size);
        break;
    default:
        fputs(op_name(op->code), out);
    }
}

/* A string of `tab` (size n) at off, or NULL if out of bounds / unterminated. */
static const char *str_at(const char *tab, size_t n, uint32_t off)
{
    if (off >= n || !memchr(tab + off, '\0', n - off))
        return NULL;
    return tab + off;
}

static int check_array(const struct vp_index_header *h, uint64_t off, uint64_t count,
                       uint64_t elem, const char *what, const char *path, char *err,
                       size_t errlen)
{
    if (off % 8 != 0 || off > h->file_size || count * elem > h->file_size - off) {
        vp_set_err(err, errlen, "%s: offset %" PRIu64 ": %s array (%" PRIu64 " x %" PRIu64
                             " bytes) outside the file",
                path, off, what, count, elem);
        return -1;
    }
    return 0;
}

int vp_index_dump(FILE *out, const char *index_path, char *err, size_t errlen)
{
    FILE *f = fopen(index_path, "rb");
    if (!f) {
        vp_set_err(err, errlen, "%s: %s", index_path, strerror(errno));
        return -1;
    }
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                vp_set_err(err, errlen, "%s: out of memory", index_path);
                return -1;
            }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    fclose(f);
    int rc = -1;
    struct vp_index_header h;
    if (len < sizeof h) {
        vp_set_err(err, errlen, "%s: offset 0: file too short for an index header", index_path);
        goto out;
    }
    memcpy(&h, buf, sizeof h);
    if (h.magic != VP_INDEX_MAGIC || h.version != VP_INDEX_VERSION ||
        h.header_size < sizeof h) {
        vp_set_err(err, errlen, "%s: offset 0: not a vprof PC index (magic/version)", index_path);
        goto out;
    }
    if (h.file_size != len) {
        vp_set_err(err, errlen, "%s: file_size %" PRIu64 " but the file has %zu bytes", index_path,
                h.file_size, len);
        goto out;
    }
    if (check_array(&h, h.modules_off, h.module_count, sizeof(struct vp_index_module),
                    "module", index_path, err, errlen) ||
        check_array(&h, h.ranges_off, h.range_count, sizeof(struct vp_index_range), "range",
                    index_path, err, errlen) ||
        check_array(&h, h.refs_off, h.refs_count, 4, "recipe-ref", index_path, err, errlen) ||
        check_array(&h, h.recipes_off, h.recipe_count, sizeof(struct vp_recipe), "recipe",
                    index_path, err, errlen) ||
        check_array(&h, h.ops_off, h.op_count, sizeof(struct vp_op), "op", index_path, err,
                    errlen) ||
        check_array(&h, h.strings_off, h.strings_size, 1, "string", index_path, err, errlen) ||
        check_array(&h, h.vartab_off, h.vartab_size, 1, "variable-table", index_path, err,
                    errlen) ||
        check_array(&h, h.coverage_off, h.coverage_size, 1, "coverage", index_path, err,
                    errlen))
        goto out;
    const struct vp_index_module *mods = (const void *)(buf + h.modules_off);
    const struct vp_index_range *ranges = (const void *)(buf + h.ranges_off);
    const uint32_t *refs = (const void *)(buf + h.refs_off);
    const struct vp_recipe *recipes = (const void *)(buf + h.recipes_off);
    const struct vp_op *ops = (const void *)(buf + h.ops_off);
    const char *strs = (const char *)buf + h.strings_off;

    /* Variable table (needed to name recipes). */
    struct vp_vartab_header vt = { 0 };
    const struct vp_prof_var *vars = NULL;
    const char *vstrs = "";
    if (h.vartab_size < sizeof vt) {
        vp_set_err(err, errlen, "%s: offset %u: variable table too short", index_path, h.vartab_off);
        goto out;
    }
    memcpy(&vt, buf + h.vartab_off, sizeof vt);
    if ((uint64_t)sizeof vt + (uint64_t)vt.var_count * sizeof *vars + vt.strings_size >
        h.vartab_size) {
        vp_set_err(err, errlen, "%s: offset %u: variable table counts exceed its size", index_path,
                h.vartab_off);
        goto out;
    }
    vars = (const void *)(buf + h.vartab_off + sizeof vt);
    vstrs = (const char *)(vars + vt.var_count);

#define VSTR(o) (str_at(vstrs, vt.strings_size, (o)) ? str_at(vstrs, vt.strings_size, (o)) : "?")
    for (uint32_t mi = 0; mi < h.module_count; mi++) {
        const struct vp_index_module *m = &mods[mi];
        const char *p = str_at(strs, h.strings_size, m->path);
        if (!p || m->build_id_len > sizeof m->build_id ||
            (uint64_t)m->first_range + m->range_count > h.range_count) {
            vp_set_err(err, errlen, "%s: module %u: bad path, build-id or range span", index_path,
                    mi);
            goto out;
        }
        fprintf(out, "module %u %s build-id ", mi, p);
        for (uint32_t k = 0; k < m->build_id_len; k++)
            fprintf(out, "%02x", m->build_id[k]);
        fprintf(out, " ranges %u\n", m->range_count);
        for (uint32_t ri = m->first_range; ri < m->first_range + m->range_count; ri++) {
            const struct vp_index_range *r = &ranges[ri];
            if ((uint64_t)r->first_recipe + r->recipe_count > h.refs_count) {
                vp_set_err(err, errlen, "%s: range %u: recipe refs out of bounds", index_path, ri);
                goto out;
            }
            fprintf(out, "range 0x%" PRIx64 " 0x%" PRIx64, r->lo, r->hi);
            for (uint32_t k = 0; k < r->recipe_count; k++) {
                uint32_t ref = refs[r->first_recipe + k];
                if (ref >= h.recipe_count) {
                    vp_set_err(err, errlen, "%s: range %u: recipe %u out of bounds", index_path,
                            ri, ref);
                    goto out;
                }
                const struct vp_recipe *rc_ = &recipes[ref];
                if (rc_->op_count == 0 || rc_->op_count > VP_RECIPE_MAX_OPS ||
                    (uint64_t)rc_->first_op + rc_->op_count > h.op_count ||
                    rc_->var_id >= vt.var_count) {
                    vp_set_err(err, errlen, "%s: recipe %u: bad ops or variable id", index_path,
                            ref);
                    goto out;
                }
                fprintf(out, " %u:%s=", rc_->var_id, VSTR(vars[rc_->var_id].name));
                for (uint32_t o = 0; o < rc_->op_count; o++) {
                    if (o)
                        fputc(';', out);
                    print_op(out, &ops[rc_->first_op + o]);
                }
                if (rc_->flags & VP_RECIPE_DEREF_BASIC)
                    fprintf(out, ";*%u", rc_->pointee_size);
                if (rc_->flags & VP_RECIPE_CALLER_OK)
                    fputs(";caller", out);
            }
            fputc('\n', out);
        }
    }
    for (uint32_t i = 0; i < vt.var_count; i++) {
        const struct vp_prof_var *v = &vars[i];
        fprintf(out, "var %u %s:%s %s:%u type \"%s\" tags 0x%x kind %u size %u module %u\n", i,
                VSTR(v->function), VSTR(v->name), VSTR(v->file), v->line, VSTR(v->type), v->tags,
                v->type_kind, v->size, v->module);
    }
#undef VSTR
    if (h.coverage_size >= sizeof(struct vp_coverage)) {
        struct vp_coverage c;
        memcpy(&c, buf + h.coverage_off, sizeof c);
        static const char *why[VP_COV_REASONS] = { "ok",           "no-die",       "no-location",
                                                   "entry-value",  "unsupported",  "pieces",
                                                   "too-long",     "tls" };
        fprintf(out, "coverage vars %u located %u", c.schema_vars, c.located);
        for (int k = 0; k < VP_COV_REASONS; k++)
            fprintf(out, " %s %u", why[k], c.by_reason[k]);
        fprintf(out, " pc-bytes %" PRIu64 "/%" PRIu64 "\n", c.pc_bytes_located,
                c.pc_bytes_total);
    }
    rc = 0;
out:
    free(buf);
    return rc;
}
