/*
 * report_internal.h - what the loop-report writers share (fixsuggest/src).
 */
#ifndef VP_FIX_REPORT_INTERNAL_H
#define VP_FIX_REPORT_INTERNAL_H

#include <stdio.h>

#include "vprof/format.h"
#include "vprof/loopreport.h"

#define VP_LR_TOOL_NAME "vprof-loop"
#define VP_LR_TOOL_URI "https://github.com/vprof/vprof/blob/main/docs/vprof-loop.md"
#ifndef VPROF_VERSION
#define VPROF_VERSION "0.1.0"
#endif

/* `file` relative to the source root (--source-root, else the git toplevel
 * above it) into buf; returns 1 if made relative, 0 if copied as is. */
int vp_lr_relpath(const struct vp_loop_report *r, const char *file, char *buf, size_t n);
/* vp_lr_relpath for the reports read by people (text, Markdown, HTML):
 * control bytes shown as '?', so a file name holding a newline or an
 * escape sequence (possible in debug info, e.g. through #line) cannot break
 * a line or drive the terminal.  JSON and SARIF keep the name exact. */
int vp_lr_shown_path(const struct vp_loop_report *r, const char *file, char *buf, size_t n);
/* Category names of `cats` in report order; names must hold 6. */
void vp_lr_categories(unsigned cats, const char **names, size_t *n);
const char *vp_lr_kind_name(int kind);
/* What the reports call a loop: "recursion", "loop", "tail-call loop"
 * for the loop the compiler made of a recursive function's tail call,
 * "vectorized loop" for the vectorizer's body or "loop unrolled x4" for the
 * unroller's (each of their iterations covers several of the source
 * loop's), written into `buf` (32 bytes are enough) when it is not a
 * constant. */
const char *vp_lr_loop_label(const struct vp_lr_loop *l, char *buf, size_t n);
/* Whether a loop of `function` (inlined into `inlined_into`, or NULL) is a
   loop of the selected function `selected`. */
int vp_lr_in_function(const char *function, const char *inlined_into, const char *selected);
/* What became of the loops of the selected function `function` (a name
 * of functions[] or of a selected rank row): a loop of it (or inlined into
 * it) was diagnosed; it has no loop in any loop table (a library function
 * not built with vprof-cc, a PLT stub, a function without loops); none of
 * its loops ran; its loops ran without probes (vprof-cc could not copy
 * the function).  The order is the text summary's. */
enum { VP_LR_FN_DIAGNOSED, VP_LR_FN_NO_LOOP, VP_LR_FN_NONE_RAN, VP_LR_FN_UNPROBED };
int vp_lr_function_loops(const struct vp_loop_report *r, const char *function);
/* JSON's name of a state: "diagnosed", "none", "none-ran", "not-probed". */
const char *vp_lr_function_loops_name(int state);
/* Iterations per instance: "2.5" below 100, else "4,812". */
char *vp_lr_avg(char *buf, size_t n, double avg);
/* What compiler copy `c` of loop `l` is: a part of a loop LoopSimplify split
   in two (an outer and an inner loop at the same line and column), or a
   copy the vectorizer, loop versioning or unswitching made. */
const char *vp_lr_copy_kind(const struct vp_lr_loop *l, const struct vp_lr_loop *c);
/* One compiler copy of a loop (vp_lr_loop.copies) in a line: "15,000
 * instances, 30,000 iterations; root cause 1*". */
char *vp_lr_copy_summary(char *buf, size_t n, const struct vp_lr_loop *c);
/* Where the ranking's anomaly is, for a loop with rank_samples: "2,023 of
 * the 2,041 anomalous samples of i in the loops of indexOf fall in this
 * loop or the loops inside it", names between `q` ("" or "`"); writers
 * escape the rest. */
char *vp_lr_anomaly_text(char *buf, size_t n, const struct vp_lr_loop *l, const char *q);
/* Frees loops[0..n) and what they own, copies included. */
void vp_lr_free_loops(struct vp_lr_loop *loops, size_t n);

int vp_lr_write_text(FILE *out, const struct vp_loop_report *r, int color);
int vp_lr_write_json(FILE *out, const struct vp_loop_report *r);
int vp_lr_write_md(FILE *out, const struct vp_loop_report *r);
int vp_lr_write_sarif(FILE *out, const struct vp_loop_report *r);
int vp_lr_write_html(FILE *out, const struct vp_loop_report *r); /* report_html.c */

#endif
