/*
 * report_sarif.c - the loop report as SARIF 2.1.0 for code scanning
 * (GitHub accepts it with `upload-sarif`).  One rule per root-cause
 * category with a stable id; one result per (loop, category); file names
 * relative to %SRCROOT% (--source-root, else the git toplevel of the
 * source); partialFingerprints hash (function, file, loop line, category)
 * so a result keeps its identity across runs and machines.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "report_internal.h"
#include "vprof/json.h"
#include "vprof/loopclass.h"

/* FNV-1a, 64 bit: small, stable, enough to tell results apart. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Percent-encodes what is not allowed in a URI path. */
static void uri_path(char *buf, size_t n, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < n; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-._~!$&'()*+,;=:@", *p)) {
            buf[o++] = (char)*p;
        } else {
            buf[o++] = '%';
            buf[o++] = hex[*p >> 4];
            buf[o++] = hex[*p & 15];
        }
    }
    buf[o] = '\0';
}

static void text_obj(struct vp_json *j, const char *key, const char *s)
{
    vp_json_key(j, key);
    vp_json_begin_object(j);
    vp_json_kv_str(j, "text", s);
    vp_json_end_object(j);
}

static int root_of(const struct vp_loop_report *r, char *root, size_t n)
{
    /* The root the first loop's file is relative to. */
    for (size_t i = 0; i < r->nloops; i++) {
        char rel[PATH_MAX];
        if (!vp_lr_relpath(r, r->loops[i].file, rel, sizeof rel))
            continue;
        size_t fl = strlen(r->loops[i].file), rl = strlen(rel);
        if (fl <= rl)
            continue;
        snprintf(root, n, "%.*s", (int)(fl - rl), r->loops[i].file);
        return 0;
    }
    return -1;
}

/* A "physicalLocation" member: `file` relative to %SRCROOT% when the report
   has a source root holding it, else a file: URI; lines line..end_line
   (end_line 0 or below line: one line). */
static void physical_location(struct vp_json *j, const struct vp_loop_report *r,
                              const char *file, uint32_t line, uint32_t end_line)
{
    char rel[PATH_MAX], uri[PATH_MAX * 3];
    vp_json_key(j, "physicalLocation");
    vp_json_begin_object(j);
    vp_json_key(j, "artifactLocation");
    vp_json_begin_object(j);
    if (vp_lr_relpath(r, file, rel, sizeof rel)) {
        uri_path(uri, sizeof uri, rel);
        vp_json_kv_str(j, "uri", uri);
        vp_json_kv_str(j, "uriBaseId", "%SRCROOT%");
    } else {
        char fileuri[PATH_MAX * 3 + 8];
        uri_path(uri, sizeof uri, file);
        snprintf(fileuri, sizeof fileuri, "file://%s", uri);
        vp_json_kv_str(j, "uri", fileuri);
    }
    vp_json_end_object(j);
    vp_json_key(j, "region");
    vp_json_begin_object(j);
    vp_json_kv_uint(j, "startLine", line ? line : 1);
    if (end_line >= line && line)
        vp_json_kv_uint(j, "endLine", end_line);
    vp_json_end_object(j);
    vp_json_end_object(j); /* physicalLocation */
}

int vp_lr_write_sarif(FILE *out, const struct vp_loop_report *r)
{
    struct vp_json *j = vp_json_new(out, 1);
    if (!j)
        return -1;
    vp_json_begin_object(j);
    vp_json_kv_str(j, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    vp_json_kv_str(j, "version", "2.1.0");
    vp_json_key(j, "runs");
    vp_json_begin_array(j);
    vp_json_begin_object(j);

    vp_json_key(j, "tool");
    vp_json_begin_object(j);
    vp_json_key(j, "driver");
    vp_json_begin_object(j);
    vp_json_kv_str(j, "name", VP_LR_TOOL_NAME);
    vp_json_kv_str(j, "version", VPROF_VERSION);
    vp_json_kv_str(j, "semanticVersion", VPROF_VERSION);
    vp_json_kv_str(j, "informationUri", VP_LR_TOOL_URI);
    vp_json_key(j, "rules");
    vp_json_begin_array(j);
    for (int i = 0; i < VP_FIX_CAT_COUNT; i++) {
        unsigned c = vp_fix_category_order[i];
        char name[64], help[512];
        vp_json_begin_object(j);
        vp_json_kv_str(j, "id", vp_fix_category_rule_id(c));
        /* rule names are PascalCase identifiers by SARIF convention */
        static const char *const names[] = {"ResultlessLoop", "ResultlessSearchLoop",
                                            "MostlyResultlessLoop", "CrossLoopRedundancy",
                                            "CrossIterationRedundancy", "ResultEveryIteration"};
        snprintf(name, sizeof name, "%s", names[i]);
        vp_json_kv_str(j, "name", name);
        text_obj(j, "shortDescription", vp_fix_category_name(c));
        text_obj(j, "fullDescription", vp_fix_category_description(c));
        static const int first_fix[] = {VP_FIX_DELETE_LOOP, VP_FIX_CHANGE_DATA_STRUCTURE,
                                        VP_FIX_SKIP_LOOP,   VP_FIX_MEMOIZATION,
                                        VP_FIX_MEMOIZATION, VP_FIX_NONE};
        snprintf(help, sizeof help, "Root cause %s (LDoctor taxonomy). Usual fix: %s: %s.",
                 vp_fix_category_name(c), vp_fix_strategy_name(first_fix[i]),
                 vp_fix_strategy_description(first_fix[i]));
        text_obj(j, "help", help);
        vp_json_key(j, "defaultConfiguration");
        vp_json_begin_object(j);
        vp_json_kv_str(j, "level", c == VP_FIX_CAT_ONE_STAR ? "note" : "warning");
        vp_json_end_object(j);
        vp_json_key(j, "properties");
        vp_json_begin_object(j);
        vp_json_key(j, "tags");
        vp_json_begin_array(j);
        vp_json_str(j, "performance");
        vp_json_str(j, "loop");
        vp_json_end_array(j);
        vp_json_end_object(j);
        vp_json_end_object(j);
    }
    vp_json_end_array(j);
    vp_json_end_object(j); /* driver */
    vp_json_end_object(j); /* tool */

    char root[PATH_MAX], uri[PATH_MAX * 3];
    if (root_of(r, root, sizeof root) == 0) {
        vp_json_key(j, "originalUriBaseIds");
        vp_json_begin_object(j);
        vp_json_key(j, "%SRCROOT%");
        vp_json_begin_object(j);
        char fileuri[PATH_MAX * 3 + 8];
        uri_path(uri, sizeof uri, root);
        snprintf(fileuri, sizeof fileuri, "file://%s", uri);
        vp_json_kv_str(j, "uri", fileuri);
        vp_json_end_object(j);
        vp_json_end_object(j);
    }

    vp_json_key(j, "results");
    vp_json_begin_array(j);
    for (size_t i = 0; i < r->nloops; i++) {
        const struct vp_lr_loop *l = &r->loops[i];
        char rel[PATH_MAX];
        vp_lr_relpath(r, l->file, rel, sizeof rel); /* the fingerprint's path */
        for (int k = 0; k < VP_FIX_CAT_COUNT; k++) {
            unsigned c = vp_fix_category_order[k];
            if (!(l->fix.categories & c))
                continue;
            char msg[2048], fp[32], line[16], label[32];
            int w = snprintf(msg, sizeof msg, "%s %s in %s: %s. Fix: ",
                             vp_lr_loop_label(l, label, sizeof label),
                             vp_fix_category_name(c), l->function,
                             c == VP_FIX_CAT_ONE_STAR ? "every iteration produces a result"
                                                      : "inefficient");
            for (size_t f = 0; f < l->fix.nfixes && w > 0 && (size_t)w < sizeof msg; f++)
                w += snprintf(msg + w, sizeof msg - (size_t)w, "%s%s", f ? ", " : "",
                              vp_fix_strategy_name(l->fix.fixes[f]));
            if (w > 0 && (size_t)w < sizeof msg)
                snprintf(msg + w, sizeof msg - (size_t)w, ". %s%s%s", l->fix.evidence,
                         l->fix.condition[0] ? " " : "", l->fix.condition);
            uint64_t h = 0xcbf29ce484222325ull;
            snprintf(line, sizeof line, "%u", l->line);
            h = fnv1a(h, l->function, strlen(l->function) + 1);
            h = fnv1a(h, rel, strlen(rel) + 1);
            h = fnv1a(h, line, strlen(line) + 1);
            h = fnv1a(h, vp_fix_category_name(c), strlen(vp_fix_category_name(c)));
            snprintf(fp, sizeof fp, "%016llx", (unsigned long long)h);

            vp_json_begin_object(j);
            vp_json_kv_str(j, "ruleId", vp_fix_category_rule_id(c));
            vp_json_kv_int(j, "ruleIndex", k);
            vp_json_kv_str(j, "level", c == VP_FIX_CAT_ONE_STAR ? "note" : "warning");
            text_obj(j, "message", msg);
            vp_json_key(j, "locations");
            vp_json_begin_array(j);
            vp_json_begin_object(j);
            /* a loop in a system header is shown where the program
               called it, the header's loop as a related location */
            if (l->call_file)
                physical_location(j, r, l->call_file, l->call_line, 0);
            else
                physical_location(j, r, l->file, l->line, l->end_line);
            vp_json_key(j, "logicalLocations");
            vp_json_begin_array(j);
            vp_json_begin_object(j);
            vp_json_kv_str(j, "name", l->function);
            vp_json_kv_str(j, "kind", "function");
            vp_json_end_object(j);
            vp_json_end_array(j);
            vp_json_end_object(j);
            vp_json_end_array(j); /* locations */
            if (l->call_file) {
                vp_json_key(j, "relatedLocations");
                vp_json_begin_array(j);
                vp_json_begin_object(j);
                vp_json_kv_int(j, "id", 0);
                physical_location(j, r, l->file, l->line, l->end_line);
                text_obj(j, "message", "the loop, in the system header the call inlined");
                vp_json_end_object(j);
                vp_json_end_array(j);
            }
            vp_json_key(j, "partialFingerprints");
            vp_json_begin_object(j);
            vp_json_kv_str(j, "vprofLoop/v1", fp);
            vp_json_end_object(j);
            vp_json_key(j, "properties");
            vp_json_begin_object(j);
            vp_json_kv_str(j, "static_class", vp_loop_class_name(l->static_class));
            vp_json_kv_double(j, "share", l->share);
            vp_json_kv_double(j, "resultless_rate", l->resultless_rate);
            vp_json_kv_uint(j, "iterations", l->in.slow.iterations);
            vp_json_kv_uint(j, "instances", l->in.slow.instances);
            if (l->ncopies) /* docs/vprof-loop.md, "Compiler copies" */
                vp_json_kv_uint(j, "compiler_copies", l->ncopies);
            if (l->rank_samples) { /* docs/vprof-loop.md, "Where the ranking's anomaly is" */
                vp_json_kv_uint(j, "rank_anomalous_samples", l->rank_samples);
                if (l->rank_variable && l->rank_variable[0])
                    vp_json_kv_str(j, "rank_anomalous_variable", l->rank_variable);
            }
            vp_json_key(j, "fix");
            vp_json_begin_array(j);
            for (size_t f = 0; f < l->fix.nfixes; f++)
                vp_json_str(j, vp_fix_strategy_name(l->fix.fixes[f]));
            vp_json_end_array(j);
            vp_json_end_object(j);
            vp_json_end_object(j);
        }
    }
    vp_json_end_array(j); /* results */
    vp_json_end_object(j); /* run */
    vp_json_end_array(j);
    vp_json_end_object(j);
    return vp_json_finish(j);
}
