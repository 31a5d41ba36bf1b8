/*
 * report_common.h - what the rank reports (text/JSON/Markdown in
 * report_rank.c, HTML in report_html.c) and rank.c's name matching share.
 * Internal to vprof-core/src/rank.
 */
#ifndef VPROF_RANK_REPORT_COMMON_H
#define VPROF_RANK_REPORT_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vprof/format.h"
#include "vprof/oneline.h"
#include "vprof/rank.h"

/* The last path component. */
/* The note under the ranking of every format (docs/rank.md, "Output"),
   without its ending: the unattributed share of the slow runs and the
   library functions it ran under.  NULL when the share is under
   VP_RANK_UNATTRIBUTED_NOTE.  Can't fail. */
static inline const char *vp_rank_unattributed_note(const struct vp_rank_result *r, char *buf,
                                                    size_t cap)
{
    if (r->slow_unattributed < VP_RANK_UNATTRIBUTED_NOTE)
        return NULL;
    char clause[1024];
    snprintf(buf, cap,
             "%.0f%% of the slow run's PC samples are in code no ranked function holds (a "
             "library's internal functions, or code without symbols%s): their time counts only "
             "for the functions whose variables were sampled on their stacks",
             r->slow_unattributed * 100,
             vp_rank_lib_clause(r->lib, r->nlib, clause, sizeof clause));
    return buf;
}

static inline const char *vp_rank_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* "file.c:12" (the last path component), or "-" for code without a source
   position (a library without debug info, a PLT stub): not ":0". */
static inline const char *vp_rank_loc(char *buf, size_t n, const char *file, int line)
{
    if ((!file || !file[0]) && line <= 0)
        return "-";
    snprintf(buf, n, "%s:%d", vp_rank_base_name(file), line);
    return vp_oneline(buf); /* a name from debug info may hold a newline */
}

/* A function's location: vp_rank_loc, or for one without a source position
   its module in brackets ("[libc.so.6]"), as vprof report names unresolved
   code. */
static inline const char *vp_rank_func_loc(char *buf, size_t n,
                                           const struct vp_rank_func_result *f)
{
    if ((!f->file || !f->file[0]) && f->line <= 0 && f->module) {
        snprintf(buf, n, "[%s]", f->module);
        return vp_oneline(buf);
    }
    return vp_rank_loc(buf, n, f->file, f->line);
}

/* How many functions a report with `--top top` (0: all) shows. */
static inline size_t vp_rank_shown(const struct vp_rank_result *r, size_t top)
{
    return top && top < r->nfuncs ? top : r->nfuncs;
}

/* The variable a report names for a function: the one that decided its
   pattern, else the one localised, else its most anomalous; NULL if none. */
static inline const struct vp_rank_var_result *vp_rank_decider(const struct vp_rank_result *r,
                                                               const struct vp_rank_func_result *f)
{
    long v = f->pattern_var >= 0 ? f->pattern_var : f->loc_var >= 0 ? f->loc_var : f->top_var;
    return v >= 0 ? &r->vars[v] : NULL;
}

/* The schema's type kind as the reports spell it. */
static inline const char *vp_rank_kind_name(int k)
{
    static const char *n[] = {"unknown", "sint", "uint", "float", "ptr-basic", "ptr-other",
                              "aggregate"};
    return k >= 0 && k <= VP_TYPE_AGGREGATE ? n[k] : "unknown";
}

#endif
