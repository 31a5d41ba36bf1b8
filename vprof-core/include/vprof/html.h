/*
 * html.h - generic pieces of vprof's HTML reports (vprof rank, vprof-loop,
 * vprof diagnose): escaping, a page skeleton with inline CSS, collapsible
 * sections, quoted source, and inline SVG charts drawn here (horizontal bar
 * chart, overlaid histograms with shared binning).
 *
 * Pages are self-contained: no network fetch, no external file, no script
 * framework.  Sections are <details> elements, so they collapse without
 * JavaScript; the few lines of script in the page only add "expand all" /
 * "collapse all" buttons.  Output is deterministic (fixed number formats).
 *
 * Writers print to a FILE and do not check for errors one by one: the
 * caller checks ferror() (vp_html_page_end returns it).
 *
 * Usage:
 *     vp_html_page_begin(out, "vprof rank", "normal.vprof vs slow.vprof");
 *     vp_html_section_begin(out, "ranking", "Ranked functions", 1);
 *     vp_html_bar_chart(out, &chart);
 *     vp_html_section_end(out);
 *     if (vp_html_page_end(out) != 0) -> write error
 */
#ifndef VPROF_HTML_H
#define VPROF_HTML_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- text ---------------------------------------------------------------- */

/* Write `s` escaped for HTML text and attribute values (& < > " ').  Bytes
 * that are not valid UTF-8 and control characters other than tab and
 * newline become U+FFFD, so a binary name cannot break the page.  NULL
 * writes nothing.  Can't fail (write errors show in ferror). */
void vp_html_escape(FILE *out, const char *s);
/* Same for the first `n` bytes of `s`. */
void vp_html_escape_n(FILE *out, const char *s, size_t n);

/* A number for people: integers below 10000 exactly, other values with 3
 * significant digits and an SI suffix from 10000 up ("12.5k", "3.4M",
 * "0.0123", "2.5").  Always NUL-terminates; returns buf. */
char *vp_html_num(char *buf, size_t len, double v);

/* ---- page ---------------------------------------------------------------- */

/* <!DOCTYPE html>, <head> with the title and the inline stylesheet, and the
 * page header (title + subtitle, either may be NULL). */
void vp_html_page_begin(FILE *out, const char *title, const char *subtitle);
/* Footer, the expand/collapse script, </html>.  Flushes; returns 0, or -1
 * if any write to `out` failed. */
int vp_html_page_end(FILE *out);

/* A collapsible section (<details>) with an anchor id (may be NULL) and a
 * heading; `open` = 1 to show it expanded.  Sections nest. */
void vp_html_section_begin(FILE *out, const char *id, const char *heading, int open);
void vp_html_section_end(FILE *out);

/* A badge: <span class="badge KIND">text</span>.  KIND is one of the
 * stylesheet's classes: "bad", "warn", "ok", "info" (NULL = neutral). */
void vp_html_badge(FILE *out, const char *kind, const char *text);

/* Quote lines [from, to] of source file `path` with line numbers, marking
 * line `mark` (0 = none).  Lines are clamped to the file; at most 60 lines.
 * Returns 0, or -1 if the file cannot be read (nothing is written then, so
 * callers can fall back to the bare location). */
int vp_html_source(FILE *out, const char *path, int from, int to, int mark);

/* The same for lines already read: lines[i] is line first_line + i (a
 * trailing newline is dropped).  n = 0 writes nothing.  Can't fail. */
void vp_html_code(FILE *out, const char *const *lines, size_t n, int first_line, int mark);

/* ---- charts (inline SVG) ------------------------------------------------- */

/* One row of a bar chart: up to two values drawn as two bars (series 0 on
 * top).  `note` (may be NULL) is printed after the bars; `href` (may be
 * NULL) makes the label a link, e.g. "#f3". */
struct vp_html_bar {
    const char *label;
    double value[2];
    const char *note;
    const char *href;
};

struct vp_html_bar_chart {
    const char *title;       /* caption, may be NULL                           */
    const char *series[2];   /* legend names; series[1] NULL = one bar per row */
    const char *unit;        /* appended to values, e.g. " s"; may be NULL      */
    const struct vp_html_bar *bars;
    size_t nbars;
};

/* Horizontal bars on one shared scale from 0.  Negative values are drawn
 * as 0.  An empty chart prints a "no data" line. */
void vp_html_bar_chart(FILE *out, const struct vp_html_bar_chart *c);

/* Shared binning of two samples, so their histograms compare bin by bin.
 * Linear bins over [lo, lo + nbins*width); for integer data the width is a
 * whole number and lo is the smallest value - 0.5, so a width-1 bin is
 * centred on its integer; with `log` (chosen when every
 * value is > 0 and max/min >= 100) bins are equal in log10 and lo/width are
 * in log10 units. */
struct vp_html_binning {
    double lo, width;
    size_t nbins;
    int log;
    int integer;
    size_t *count[2];        /* per bin, for sample a and sample b            */
    size_t total[2];
};

/* Bin `a` (na values) and `b` (nb values) with at most max_bins bins
 * (0 = 40).  NaN and infinities are skipped.  Returns 0, or -1 when out of
 * memory.  With no values at all nbins is 0.  Free with
 * vp_html_binning_free. */
int vp_html_binning(const double *a, size_t na, const double *b, size_t nb, size_t max_bins,
                    struct vp_html_binning *out);
void vp_html_binning_free(struct vp_html_binning *bn);

struct vp_html_hist {
    const char *title;       /* e.g. "values"                                 */
    const char *xlabel;      /* e.g. "n (unsigned long)"                       */
    const char *name[2];     /* e.g. "normal", "slow"                          */
    const double *x[2];      /* the two samples                               */
    size_t n[2];
    int highlight;           /* 1: the dimension that decided (framed, tagged) */
    const char *note;        /* under the plot (e.g. "p = 0.001, H = 0.92")    */
    size_t max_bins;         /* 0 = 40                                         */
};

/* Two overlaid histograms on shared bins, each normalised to its own
 * sample count (y = share of samples), so runs of different length
 * compare.  Returns 0, or -1 when out of memory (nothing written). */
int vp_html_histogram(FILE *out, const struct vp_html_hist *h);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_HTML_H */
