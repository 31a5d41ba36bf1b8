/*
 * cmd_dump.c - `vprof dump FILE`: a profile record by record, one per line,
 * for debugging the runtime and the analysis; `vprof dump --index FILE`
 * prints a PC index file (vp_index_dump).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "vprof/index.h"
#include "vprof/profile.h"

static void dump_usage(FILE *out)
{
    fputs("usage: vprof dump FILE\n"
          "       vprof dump --index INDEXFILE\n"
          "  print a profile (header, modules, variables, samples) or a PC index file,\n"
          "  one record per line.\n",
          out);
}

static void hex(FILE *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%02x", b[i]);
}

static void dump_header(FILE *out, const struct vp_profile *p)
{
    const struct vp_profile_header *h = &p->hdr;
    fprintf(out,
            "header version=%u header_size=%u word_size=%u clock=%u max_depth=%u "
            "period_ns=%" PRIu64 " start_ns=%" PRIu64 " end_ns=%" PRIu64
            " pid=%u ppid=%u root_pid=%u exit_status=%d flags=0x%x%s%s%s%s%s\n",
            h->version, h->header_size, h->word_size, h->clock, h->max_depth, h->period_ns,
            h->start_ns, h->end_ns, h->pid, h->ppid, h->root_pid, h->exit_status, h->flags,
            h->flags & VP_PROFF_FORKED ? " forked" : "",
            h->flags & VP_PROFF_SIGNALLED ? " signalled" : "",
            h->flags & VP_PROFF_EXECED ? " execed" : "",
            h->flags & VP_PROFF_MODULES_STALE ? " modules-stale" : "",
            h->flags & VP_PROFF_JITTERED ? " jittered" : "");
}

static void dump_profile(FILE *out, const struct vp_profile *p)
{
    dump_header(out, p);
    for (size_t i = 0; i < p->module_count; i++) {
        const struct vp_prof_module *m = &p->modules[i];
        fprintf(out, "module %zu path=%s load_bias=0x%" PRIx64 " text=0x%" PRIx64 "-0x%" PRIx64
                     " indexed=%u build_id=",
                i, vp_profile_str(p, m->path), m->load_bias, m->lo, m->hi, m->indexed);
        hex(out, m->build_id, m->build_id_len);
        fputc('\n', out);
    }
    for (size_t i = 0; i < p->var_count; i++) {
        const struct vp_prof_var *v = &p->vars[i];
        char tags[64];
        vp_cmd_format_tags(tags, sizeof tags, v->tags);
        fprintf(out,
                "var %zu name=%s function=%s linkage=%s file=%s line=%u type=\"%s\" kind=%s "
                "size=%u tags=%s module=%u\n",
                i, vp_profile_var_str(p, v->name), vp_profile_var_str(p, v->function),
                vp_profile_var_str(p, v->linkage), vp_profile_var_str(p, v->file), v->line,
                vp_profile_var_str(p, v->type), vp_cmd_kind_name(v->type_kind), v->size, tags,
                v->module);
    }
    if (p->has_coverage) {
        const struct vp_coverage *c = &p->coverage;
        fprintf(out, "coverage schema_vars=%u located=%u pc_bytes_total=%" PRIu64
                     " pc_bytes_located=%" PRIu64,
                c->schema_vars, c->located, c->pc_bytes_total, c->pc_bytes_located);
        for (unsigned r = 1; r < VP_COV_REASONS; r++)
            fprintf(out, " \"%s\"=%u", vp_cmd_coverage_reason(r), c->by_reason[r]);
        fputc('\n', out);
    }
    const struct vp_loss *l = &p->loss;
    fprintf(out,
            "loss signals=%" PRIu64 " pc_samples=%" PRIu64 " pc_dropped=%" PRIu64
            " value_samples=%" PRIu64 " values_dropped=%" PRIu64 " values_unreadable=%" PRIu64
            " unwind_errors=%" PRIu64 " reentrant=%" PRIu64 " threads=%" PRIu64
            " timer_failures=%" PRIu64 "\n",
            l->signals, l->pc_samples, l->pc_dropped, l->value_samples, l->values_dropped,
            l->values_unreadable, l->unwind_errors, l->reentrant, l->threads, l->timer_failures);
    for (size_t i = 0; i < p->thread_count; i++)
        fprintf(out, "thread tid=%u pc_samples=%" PRIu64 " cpu_ns=%" PRIu64 "\n",
                p->threads[i].tid, p->threads[i].pc_samples, p->threads[i].cpu_ns);
    for (size_t i = 0; i < p->extra_count; i++)
        fprintf(out, "section type=%u flags=0x%x size=%" PRIu64 "\n", p->extras[i].type,
                p->extras[i].flags, p->extras[i].size);
    for (size_t i = 0; i < p->pc_count; i++) {
        const struct vp_pc_sample *s = p->pc_samples[i];
        fprintf(out, "pc seq=%" PRIu64 " time_ns=%" PRIu64 " tid=%u pc=0x%" PRIx64 " flags=0x%x",
                s->seq, s->time_ns, s->tid, s->pc, s->flags);
        const uint64_t *callers = vp_pc_sample_callers(s);
        fputs(" callers=", out);
        for (uint16_t d = 0; d < s->depth; d++)
            fprintf(out, "%s0x%" PRIx64, d ? "," : "", callers[d]);
        if (!s->depth)
            fputc('-', out);
        fputc('\n', out);
    }
    static const char *const status[] = {"ok", "unreadable", "pointee-unreadable"};
    for (size_t i = 0; i < p->value_count; i++) {
        const struct vp_value_sample *s = &p->values[i];
        const struct vp_prof_var *v = &p->vars[s->var_id];
        char val[48];
        vp_cmd_format_value(val, sizeof val, v, vp_cmd_decode_value(v, s->value));
        fprintf(out,
                "value seq=%" PRIu64 " tid=%u var=%u(%s) depth=%u pc=0x%" PRIx64
                " status=%s raw=0x%" PRIx64 " value=%s\n",
                s->seq, s->tid, s->var_id, vp_profile_var_str(p, v->name), s->depth, s->pc,
                status[s->status], s->value, s->status == VP_VAL_OK ? val : "-");
    }
}

int vp_cmd_dump(int argc, char **argv)
{
    char err[1024];
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        dump_usage(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--index") == 0) {
        if (vp_index_dump(stdout, argv[2], err, sizeof err) != 0) {
            fprintf(stderr, "vprof: %s\n", err);
            return 2;
        }
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-') {
        dump_usage(stderr);
        return 2;
    }
    struct vp_profile *p;
    if (vp_profile_open(argv[1], &p, err, sizeof err) != 0) {
        fprintf(stderr, "vprof: %s\n", err);
        return 2;
    }
    dump_profile(stdout, p);
    vp_profile_close(p);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "vprof: dump: cannot write: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
