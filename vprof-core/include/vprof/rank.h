/*
 * rank.h - vProf's post-profiling analysis (vProf section 5): raw cost,
 * variable-discounter, hist-discounter, calibrated cost, bug-pattern
 * inference and localisation of anomalous samples.  docs/rank.md explains
 * every decision.
 *
 * The algorithm runs on an address-free model: per run, functions keyed by
 * (name, file) with PC-sample counts, and variables keyed by (function, file,
 * name, declaration line) with their value sequences.  Runs from different
 * builds of a program are matched by these names, never by address.  Tests
 * build models by hand; vp_rank_load_profile() builds one from a profile.
 *
 * Usage:
 *     struct vp_rank_model *m = vp_rank_model_new();
 *     for each file: vp_rank_load_profile(m, path, slow, err, sizeof err);
 *     struct vp_rank_params prm; vp_rank_params_default(&prm);
 *     struct vp_rank_result *r;
 *     if (vp_rank_run(m, &prm, &r, err, sizeof err) != 0) -> input error
 *     vp_rank_write(stdout, r, VP_RANK_TEXT, 10);
 *     vp_rank_result_free(r); vp_rank_model_free(m);
 */
#ifndef VPROF_RANK_H
#define VPROF_RANK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- model ------------------------------------------------------------ */

struct vp_rank_func {
    char *name;
    char *file;              /* declaration file ("" if unknown)              */
    int line;                /* declaration line (0 if unknown)               */
    char *module;            /* without a file: the last path component of its
                                module ("libc.so.6"), NULL if unknown; shown
                                where a file would be                          */
    uint64_t pc_samples;     /* PC samples whose interrupted PC is inside     */
    uint64_t value_ticks;    /* PC samples (ticks) with at least one value
                                sample in a frame of this function: value
                                samples at distinct PCs, each PC sample
                                counted once per function (docs/rank.md)      */
};

/* A global's sightings: the functions whose PCs sampled it. */
struct vp_rank_site {
    size_t func;             /* index into the run's functions                */
    uint64_t samples;
};

struct vp_rank_var {
    char *function;          /* "" for a global                               */
    char *file, *name, *type;
    int line;                /* declaration line                              */
    uint16_t tags;           /* enum vp_tag                                   */
    uint16_t type_kind;      /* enum vp_type_kind                             */
    uint32_t size;
    /* Readable samples in (thread, sequence) order.  A segment is a maximal
       stretch of one thread's consecutive readable samples; deltas and run
       lengths never cross a segment boundary. */
    size_t count, cap;
    uint64_t *values;        /* raw bits as in the profile                   */
    uint64_t *pcs;           /* frame PC used for attribution (pc, or pc-1 in
                                caller frames); NULL unless keep_pcs          */
    size_t nseg, seg_cap;
    size_t *seg_start;       /* segment s = [seg_start[s], seg_start[s+1])   */
    uint64_t unreadable;     /* samples excluded: status != VP_VAL_OK         */
    uint32_t last_tid;
    int open;                /* last sample readable: the segment continues   */
    struct vp_rank_site *sites;
    size_t nsites;
};

/* Resolves a slow run's frame PC to a source line, for localisation. */
struct vp_rank_symbolizer {
    /* 0 and *file, *line, *loop_line set, or -1.  The line is in the code
       of function `want` (the function being reported) when pc is in it,
       inlined or not, else in the code of the function containing pc; *func
       (may be NULL) names that function, used to keep a global's lines
       inside one function.  *loop_line: the line of the innermost loop
       enclosing the line, 0 if none or unknown (always 0 until
       vp_rank_use_loop_tables).  docs/rank.md, "Localisation". */
    int (*line)(void *ctx, uint64_t pc, const char *want, const char **file, int *line,
                const char **func, int *loop_line);
    void (*free)(void *ctx);
    void *ctx;
};

struct vp_rank_lib {
    char *name;              /* function key (C++: the mangled name)          */
    char *module;            /* base name of its module ("libc.so.6")         */
    uint64_t samples;        /* PC samples (weighted) under it                */
    char *site_file;         /* where the program called it most (the first
                                frame outside its module), NULL unknown      */
    int site_line;
    char *site_function;     /* the function there (inlined or not), or NULL  */
};

struct vp_rank_run {
    char *label;             /* file name, for reports                        */
    int slow;                /* 1 = buggy run, 0 = normal run                  */
    uint64_t period_ns;      /* sampling period                               */
    struct vp_rank_func *funcs;
    size_t nfuncs, funcs_cap;
    size_t *func_slots;      /* (name, file) hash of funcs: index + 1, 0 free */
    size_t func_slots_mask;
    struct vp_rank_var *vars;
    size_t nvars, vars_cap;
    uint64_t value_samples;  /* all value samples read (incl. unreadable)     */
    uint64_t pc_total;       /* PC samples (weighted) incl. unresolved ones:
                                the run's length; 0 = sum over funcs[]        */
    uint64_t input_bytes;
    struct vp_rank_symbolizer sym; /* optional; slow runs only                */
    /* Which recording this is (header pid, start and end time; all 0 for a
       run built by hand): vp_rank_load_profile refuses the same recording
       twice, which would count its samples as independent observations. */
    uint64_t rec_pid, rec_start_ns, rec_end_ns;
    /* The variables the run's build declares, sampled or not (its schema),
       as "function\x1fname\x1ffile base name"; sorted when `declared_sorted`.
       A normal run with none declared says nothing about which variables
       its build has (a model built by hand). */
    char **declared;
    size_t ndeclared, declared_cap;
    int declared_sorted;
    /* The base names of the source files the build's variable table names,
       outside the system headers (/usr/include, /usr/lib), sorted and
       distinct (vp_rank_run_add_source, vp_rank_run_sort_sources): which
       program this is, to refuse profiles of unrelated programs; none for
       a run built by hand. */
    char **sources;
    size_t nsources, sources_cap;
    /* PC samples in no candidate function (a library's internal code, or
       code without symbols), by the library function the program called:
       the first named caller of the same module on the sample's stack
       (docs/rank.md, "Library code"); vp_rank_run_add_lib. */
    struct vp_rank_lib *lib;
    size_t nlib, lib_cap;
    struct vp_rank_proc {    /* the processes the recording forked, loaded
                                into the run (pid, start, end): given again
                                on their own, refused                        */
        uint64_t pid, start_ns, end_ns;
    } *forked;
    size_t nforked, nforked_cap;
};

struct vp_rank_model {
    struct vp_rank_run *runs;
    size_t nruns, runs_cap;
};

/* All constructors return NULL / -1 only when out of memory. */
struct vp_rank_model *vp_rank_model_new(void);
void vp_rank_model_free(struct vp_rank_model *m);
struct vp_rank_run *vp_rank_add_run(struct vp_rank_model *m, const char *label, int slow,
                                    uint64_t period_ns);
/* Adds counts to the function (name, file), creating it; returns its index
 * or (size_t)-1 when out of memory. */
size_t vp_rank_add_func(struct vp_rank_run *r, const char *name, const char *file, int line,
                        uint64_t pc_samples, uint64_t value_ticks);
struct vp_rank_var *vp_rank_add_var(struct vp_rank_run *r, const char *function,
                                    const char *file, const char *name, const char *type,
                                    int line, uint16_t tags, uint16_t type_kind, uint32_t size);
/* Append one sample in (thread, sequence) order.  `readable` = 0 counts it
 * as unreadable and ends the current segment; a new tid starts a segment. */
int vp_rank_var_sample(struct vp_rank_var *v, uint32_t tid, uint64_t value, uint64_t pc,
                       int readable, int keep_pc);
/* Records that the run's build declares variable `name` of `function` (its
 * key; "" for a global) in `file`.  -1 when out of memory. */
int vp_rank_run_declare(struct vp_rank_run *r, const char *function, const char *name,
                        const char *file);
/* Sorts the declarations for lookup (optional: unsorted ones are scanned). */
void vp_rank_run_sort_declared(struct vp_rank_run *r);
/* Adds the base name of source file `path` to r->sources (a system header
 * or an empty path is left out); then vp_rank_run_sort_sources. */
int vp_rank_run_add_source(struct vp_rank_run *r, const char *path);
void vp_rank_run_sort_sources(struct vp_rank_run *r);
/* Adds `samples` to the library time under function `name` of `module`,
   called at site_file:site_line in site_function (NULL, 0: unknown; the
   first site given stays). */
int vp_rank_run_add_lib(struct vp_rank_run *r, const char *name, const char *module,
                        uint64_t samples, const char *site_file, int site_line,
                        const char *site_function);
/* 1 when the run declares that variable, 0 when not, -1 out of memory. */
int vp_rank_run_declares(const struct vp_rank_run *r, const char *function, const char *name,
                         const char *file);
/* Reserve room for n more samples (optional, avoids regrowth). */
int vp_rank_var_reserve(struct vp_rank_var *v, size_t n, int keep_pc);
/* Record that a global was sampled `samples` times at PCs of function `func`. */
int vp_rank_var_site(struct vp_rank_var *v, size_t func, uint64_t samples);

/* Build a run from a profile file: symbolizes PCs with the profile's
 * modules, counts PC samples and value ticks per function, groups value
 * samples by variable and orders them by (thread, seq, depth).
 * Returns 0, or -1 with err "<path>: <problem>". */
int vp_rank_load_profile(struct vp_rank_model *m, const char *path, int slow, char *err,
                         size_t errlen);

/* Gives localisation's anomalous lines their enclosing loop (`loop_line`):
 * reads the .vprof.loops tables of the modules the slow runs recorded
 * (executable and libraries built with vprof-cc).  Call after loading the
 * profiles; free the result with vp_loop_locator_free (vprof/looptable.h)
 * after vp_rank_run.  NULL when out of memory (then no loop lines). */
struct vp_loop_locator;
struct vp_loop_locator *vp_rank_use_loop_tables(struct vp_rank_model *m);

/* ---- parameters and results --------------------------------------------- */

struct vp_rank_params {
    double default_discount; /* DefaultDiscount, 0.8                           */
    double valid_discount;   /* ValidDiscount, 0.1                             */
    double alpha;            /* A-D rejection level, 0.05: reject if p < alpha */
    size_t hellinger_bins;   /* VP_STATS_HELLINGER_BINS                        */
    size_t max_lines;        /* anomalous lines kept per function, 10          */
};
void vp_rank_params_default(struct vp_rank_params *p);

/* Localisation's second rule: when no slow sample is outside the normal
 * range of a rejected dimension, the samples in the value bins where the slow
 * run's share is at least this many times the normal run's. */
#define VP_RANK_OVERREP_FACTOR 4.0

/* ... and also when fewer than this share of its slow samples are: a stray
 * sample or two outside the range does not say where the slow run spends
 * its time (docs/rank.md, "Localisation"). */
#define VP_RANK_FEW_OUTSIDE 0.01

enum vp_rank_dim {
    VP_RANK_DIM_VALUES = 0,
    VP_RANK_DIM_DELTAS = 1,
    VP_RANK_DIM_PROC = 2,    /* processing cost: run lengths of equal values  */
    VP_RANK_DIM_COUNT = 3,
    VP_RANK_DIM_SLOW_ONLY = 3, /* sampled only in the slow run(s)             */
    VP_RANK_DIM_NONE = 4,
};
const char *vp_rank_dim_name(int dim); /* "values" "deltas" "processing-cost"
                                          "slow-only" "none" */

enum vp_rank_pattern {
    VP_RANK_PAT_NONE = 0,
    VP_RANK_PAT_MISSING_CONSTRAINT = 1,
    VP_RANK_PAT_SCALABILITY = 2,
    VP_RANK_PAT_WRONG_CONSTRAINT = 3,
};
const char *vp_rank_pattern_name(int pat); /* NULL for NONE */

enum vp_rank_discounter { VP_RANK_DISC_NONE = 0, VP_RANK_DISC_VARIABLE = 1, VP_RANK_DISC_HIST = 2 };
const char *vp_rank_discounter_name(int d); /* "none" "variable" "hist" */

struct vp_rank_dim_result {
    int available;           /* both sides had samples in this dimension       */
    int tested;              /* A-D test computable (else: not rejected)        */
    int rejected;            /* p < alpha                                      */
    double statistic, pvalue, hellinger, discount;
    uint64_t n_normal, n_slow;
    uint64_t normal_lo, normal_hi; /* normal range, as order keys              */
    uint64_t normal_median, slow_median; /* order keys (upper median)          */
    double slow_outside;     /* share of the slow observations outside
                                [normal_lo, normal_hi]: values the normal
                                run never reached                           */
};

struct vp_rank_var_result {
    const char *function, *file, *name, *type; /* point into the model        */
    int line;
    uint16_t tags, type_kind;
    int global;
    int basic;               /* values/deltas apply (basic type)               */
    double discount;
    int dim;                 /* enum vp_rank_dim that gave the discount       */
    int anomalous;           /* deciding dimension rejected, or slow-only      */
    struct vp_rank_dim_result dims[VP_RANK_DIM_COUNT];
    uint64_t normal_samples, slow_samples;
    uint64_t normal_unreadable, slow_unreadable;
    int new_in_build;        /* slow-only, and no normal run's build declares
                                it (another version): anomalous, but it
                                decides no pattern (docs/rank.md)            */
};

struct vp_rank_line {
    char *file;
    int line;
    int loop_line;           /* enclosing loop's line; 0 until .vprof.loops is read */
    uint64_t count;
};

struct vp_rank_func_result {
    const char *name, *file; /* point into the model; name is the function's
                                key (vp_func_key: C++'s mangled name)        */
    const char *module;      /* vp_rank_func.module of a slow run, or NULL    */
    char *display;           /* the name reports show (vp_func_display), owned;
                                NULL when it is name: vp_rank_func_name()  */
    int line;
    size_t rank;             /* 1-based, by calibrated cost                    */
    size_t raw_rank;         /* 1-based, by raw cost (what a plain profiler says) */
    uint64_t pc_samples, value_ticks; /* summed over slow runs                 */
    double pc_cost_ns, var_cost_ns; /* samples x period, summed over slow runs  */
    double raw_cost_ns;      /* sum over slow runs of max(pc cost, excess
                                variable cost), see var_excess_ns            */
    double calibrated_cost_ns;
    double discount;
    int discounter;          /* enum vp_rank_discounter                        */
    int dim;                 /* dimension of the deciding variable             */
    int pattern;             /* enum vp_rank_pattern                           */
    long pattern_var;        /* index into vars[] of the variable that decided
                                the pattern, -1 if none                        */
    int pattern_dim;
    int pattern_rule;        /* vProf's rule (1-4) that set `pattern`, 0 none   */
    long top_var;            /* most anomalous variable (min discount), -1     */
    uint64_t hist_h, hist_c; /* hist-discounter counts                         */
    size_t *var_idx;         /* this function's variables (indices into vars[]) */
    size_t nvars;
    struct vp_rank_line *lines; /* slow samples outside the normal range       */
    size_t nlines;
    uint64_t outside;        /* total of those samples (lines may be truncated) */
    int loc_dim;             /* dimension used for localisation                */
    int loc_share;           /* 1: no slow sample (or fewer than
                                VP_RANK_FEW_OUTSIDE of them) was outside the
                                normal range; lines are where the slow run's
                                share is VP_RANK_OVERREP_FACTOR x the normal
                                run's                                         */
    uint64_t loc_stray;      /* with loc_share: the slow samples outside the
                                normal range (their lines are not listed)     */
    long loc_var;            /* variable localised, -1 if none                 */
    /* Inclusive share of each side: value ticks / PC samples, pooled over
       the normal runs and over the slow runs. */
    double normal_share, slow_share;
    double var_excess_ns;    /* variable cost beyond the normal share: sum over
                                slow runs of max(0, value ticks - normal_share
                                x PC samples of the run) x period; raw cost is
                                max(pc cost, this) per slow run (docs/rank.md) */
};

struct vp_rank_input {
    const char *label;
    int slow;
    uint64_t period_ns, pc_samples, value_samples, unreadable;
    unsigned processes;      /* the recording's processes in it (1 + forked)  */
};

/* The share of the slow runs' PC samples in no candidate function from
   which the text and Markdown reports say so under the table. */
#define VP_RANK_UNATTRIBUTED_NOTE 0.25
/* How many of the library functions over that code the result keeps, and
   the least share of the slow runs one needs to be named. */
#define VP_RANK_LIB_MAX 3
#define VP_RANK_LIB_MIN_SHARE 0.05

struct vp_rank_result {
    struct vp_rank_params params;
    struct vp_rank_input *inputs;
    size_t ninputs;
    struct vp_rank_func_result *funcs; /* sorted by rank                       */
    size_t nfuncs;
    struct vp_rank_var_result *vars;   /* sorted by (function, file, name, line) */
    size_t nvars;
    const struct vp_rank_model *model; /* the model analysed (set by vp_rank_run,
                                          NULL in hand-built results); the HTML
                                          report reads distributions from it */
    double slow_unattributed;          /* share of the slow runs' PC samples in
                                          no candidate function: a library's
                                          internal code, or no symbol (self
                                          cost nobody is ranked for)          */
    /* The library functions the program called that most of that code ran
       under, largest first (their share of the slow runs' PC samples);
       names are the model's. */
    struct vp_rank_lib_share {
        const char *name, *module;
        double share;
        const char *site_file;   /* where the program called it, NULL unknown */
        int site_line;
        const char *site_function;
    } lib[VP_RANK_LIB_MAX];
    size_t nlib;
};

/* "; 78% under regcomp [libc.so.6] (called at filter.c:15), 9% under free
   [libc.so.6]": the clause
   the text, Markdown and loop reports add to the note of the unattributed
   share, into buf (empty when n is 0).  Returns buf. */
char *vp_rank_lib_clause(const struct vp_rank_lib_share *lib, size_t n, char *buf, size_t cap);

/* Run the analysis.  Returns 0, or -1 with a one-line err for inputs that
 * cannot be compared: no normal or no slow run, no samples, no function
 * names in common (unrelated programs).  The result does not own the
 * model's strings: free the result before the model. */
int vp_rank_run(const struct vp_rank_model *m, const struct vp_rank_params *p,
                struct vp_rank_result **out, char *err, size_t errlen);
void vp_rank_result_free(struct vp_rank_result *r);

/* The name a report shows for a ranked function. */
static inline const char *vp_rank_func_name(const struct vp_rank_func_result *f)
{
    return f->display ? f->display : f->name;
}

/* ---- distributions (for plots) ------------------------------------------ */

/* The observations one dimension of a variable was tested on, as numbers,
 * pooled over the normal runs and over the slow runs: values (signed,
 * unsigned or floating as the type says; a basic pointer's pointee), deltas
 * between consecutive samples of a segment, or processing cost (lengths of
 * runs of equal values).  Each array is sorted ascending; NaNs are dropped,
 * as in the test.  The normal range of localisation is
 * [normal[0], normal[n_normal-1]]. */
struct vp_rank_dist {
    double *normal, *slow;
    size_t n_normal, n_slow;
};

/* Fill *out for variable `v` of a result of model `m` in dimension `dim`
 * (VP_RANK_DIM_VALUES, _DELTAS or _PROC); runs are matched as vp_rank_run
 * matches them.  Returns 0, or -1 with err set (bad dimension, out of
 * memory); *out is then empty.  Free with vp_rank_dist_free. */
int vp_rank_var_dist(const struct vp_rank_model *m, const struct vp_rank_var_result *v, int dim,
                     struct vp_rank_dist *out, char *err, size_t errlen);
void vp_rank_dist_free(struct vp_rank_dist *d);

/* ---- reports (report_rank.c, report_html.c) ------------------------------ */

/* VP_RANK_HTML: one self-contained page (report_html.c, docs/reports.md);
 * plots need r->model, without it the page has the tables only. */
enum vp_rank_format { VP_RANK_TEXT = 0, VP_RANK_JSON = 1, VP_RANK_MD = 2, VP_RANK_HTML = 3 };
/* Write the top `top` functions (0 = all).  Returns 0 or -1 on write error. */
int vp_rank_write(FILE *out, const struct vp_rank_result *r, int format, size_t top);
/* The HTML page alone (what vp_rank_write does for VP_RANK_HTML).
 * Returns 0 or -1 on write error or out of memory. */
int vp_rank_write_html(FILE *out, const struct vp_rank_result *r, size_t top);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_RANK_H */
