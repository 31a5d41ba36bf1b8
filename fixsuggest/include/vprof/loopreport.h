/*
 * loopreport.h - the loop diagnosis of one slow run (what vprof-loop and
 * vprof-diagnose print) and its writers: text, JSON ("vprof-loop/1"),
 * Markdown for a bug-tracker comment, SARIF 2.1.0.  docs/vprof-loop.md.
 *
 * The model is plain data filled by the driver (vp_loopcmd_run); writers
 * read it and never fail except on write errors.  Every writer is
 * deterministic for the same model.
 */
#ifndef VPROF_LOOPREPORT_H
#define VPROF_LOOPREPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vprof/fixsuggest.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One row of the `vprof rank` table shown above the loops. */
struct vp_lr_rank_row {
    size_t rank;
    char *name, *file;
    char *module;            /* without a file: its module ("libc.so.6"), or
                                NULL; shown "[libc.so.6]" in place of one     */
    int line;
    double raw_cost, calibrated_cost, discount; /* seconds, seconds, ratio    */
    char *pattern;           /* NULL when none                                */
    int selected;            /* its loops were probed (within --top)          */
};

struct vp_lr_loop {
    uint64_t loop_id, parent_id;
    char *function, *file;   /* file: absolute, as in the loop table          */
    char *inlined_into;      /* the selected function whose code holds this
                                loop, inlined from `function`; NULL when
                                `function` was selected itself               */
    uint32_t line, column, end_line, parent_line, parent_column;
    char *call_file;         /* a loop in a system header (/usr/include): the
                                program's line that called the code holding
                                it, the one with most slow-run samples; NULL
                                otherwise or when no sample shows it           */
    uint32_t call_line;
    char *call_text;         /* that line, trimmed; NULL when unreadable      */
    int kind;                /* enum vp_loop_kind                             */
    int depth;               /* nesting, 1 = outermost                        */
    int static_class;        /* enum vp_loop_class                            */
    unsigned flags;          /* enum vp_loop_flags                            */
    size_t function_rank;    /* rank of its function, 0 if chosen by name     */
    uint64_t rank_samples;   /* the ranking's anomalous samples in this loop
                                and the loops inside it, when this is the loop
                                the anomaly points to (docs/vprof-loop.md);
                                0 otherwise                                   */
    uint64_t rank_total;     /* ... in all the loops of its function          */
    char *rank_variable;     /* the variable they are of ("" unknown; NULL
                                when rank_samples is 0)                       */
    uint64_t samples;        /* slow-run PC samples inside the loop (callees
                                included)                                     */
    double share;            /* samples / all slow-run samples                */
    double resultless_rate;
    int verdict;             /* enum vp_loop_verdict (slow run)               */
    int normal_recorded;     /* the normal run had this loop's probes on (its
                                counts are in.normal, none if it never ran)   */
    struct vp_fix_input in;  /* what the strategy saw                         */
    struct vp_fix_result fix;
    char **source;           /* quoted lines line.., NULL if unreadable       */
    size_t nsource;
    /* The compiler's other copies of this source loop that ran (the same
       function, file, line and column: the vectorizer's scalar remainder, a
       versioned or unswitched copy), each diagnosed on its own; this entry
       is the first of them in report order.  NULL when none. */
    struct vp_lr_loop *copies;
    size_t ncopies;
};

/* A selected loop that never ran, or that has no probes (reported, not
   diagnosed). */
struct vp_lr_idle {
    char *function, *file;
    char *inlined_into;      /* as vp_lr_loop's                               */
    uint32_t line;
    int kind;
    int unprobed;            /* no probes (VP_LOOPF_PROBED clear): vprof-cc
                                could not copy its function, so no count
                                says whether it ran                          */
};

struct vp_loop_report {
    char **command;          /* the slow command (argv)                       */
    size_t ncommand;
    char **normal_command;   /* NULL when no normal run was probed            */
    char *input;             /* the slow command's `< FILE`, or NULL          */
    char *normal_input;      /* the normal command's, or NULL                 */
    size_t nnormal_command;
    size_t top;              /* --top N (0 when only --function)              */
    char **functions;        /* functions whose loops were probed             */
    size_t nfunctions;
    struct vp_lr_rank_row *rank;
    size_t nrank;
    /* The rank's note under its table (vprof rank's text): the share of the
       slow run in code no ranked function holds, and the clause naming the
       library functions it ran under (vp_rank_lib_clause), or NULL. */
    double rank_unattributed;
    char *rank_unattributed_under;
    struct vp_lr_loop *loops;/* ordered by share of the slow run, descending  */
    size_t nloops;
    struct vp_lr_idle *idle;
    size_t nidle;
    uint64_t total_samples;  /* slow-run PC samples the shares are out of    */
    uint64_t probe_samples;  /* ... left out: in vprof's own probes and
                                runtime (a probed run's overhead)             */
    char *samples_from;      /* "rank" (its slow profiles) or "probe-run"     */
    int normal_counts;       /* 1 when normal-run counts are shown            */
    int redundancy_measured; /* 1 when the redundancy analysis ran            */
    int workload_status;     /* slow command's exit code (-1 killed)          */
    uint32_t slow_processes; /* processes of the probed slow run whose counts
                                these are: its own and those it forked (0
                                when it wrote no profile)                     */
    uint32_t normal_processes; /* the same for the probed normal run         */
    char *source_root;       /* SARIF %SRCROOT% (absolute), NULL: git toplevel */
};

enum vp_lr_format { VP_LR_TEXT = 0, VP_LR_JSON = 1, VP_LR_MD = 2, VP_LR_SARIF = 3, VP_LR_HTML = 4 };

/* Parses "text" | "json" | "md" | "sarif" | "html"; -1 otherwise. */
int vp_lr_format_parse(const char *s);

/* Writes the report.  `color` only affects text.  Returns 0, or -1 on a
 * write error. */
int vp_lr_write(FILE *out, const struct vp_loop_report *r, int format, int color);

/* Frees everything the report owns (not `r` itself). */
void vp_lr_free(struct vp_loop_report *r);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_LOOPREPORT_H */
