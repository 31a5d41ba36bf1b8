/*
 * svg.c - the charts of vprof's HTML reports (vprof/html.h), drawn as inline
 * SVG: a horizontal bar chart with up to two series, and two overlaid
 * histograms on shared bins.  Coordinates are printed with one decimal, so
 * the same input gives the same bytes.
 */
#include "vprof/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COL_NORMAL "#3572b0"
#define COL_SLOW "#e8590c"
#define COL_RAW "#adb5bd"
#define COL_CAL "#d6336c"

/* A "nice" step (1, 2 or 5 times a power of ten) giving about `want`
 * intervals over `span` (> 0). */
static double nice_step(double span, int want)
{
    double raw = span / want;
    double p = pow(10, floor(log10(raw)));
    double f = raw / p;
    double m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return m * p;
}

/* SVG text, escaped, truncated to `max` characters (UTF-8 aware) with an
 * ellipsis; returns 1 if it was truncated. */
static int text_trunc(FILE *out, const char *s, size_t max)
{
    size_t chars = 0, i = 0, n = strlen(s);
    while (i < n && chars < max) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
        if (i + len > n)
            len = n - i;
        i += len;
        chars++;
    }
    if (i >= n) {
        vp_html_escape(out, s);
        return 0;
    }
    vp_html_escape_n(out, s, i);
    fputs("\xe2\x80\xa6", out);
    return 1;
}

/* ---- bar chart ------------------------------------------------------------- */

void vp_html_bar_chart(FILE *out, const struct vp_html_bar_chart *c)
{
    int two = c->series[1] != NULL;
    fputs("<figure class=\"chart bars\">", out);
    if (c->title) {
        fputs("<figcaption>", out);
        vp_html_escape(out, c->title);
        fputs("</figcaption>", out);
    }
    if (!c->nbars) {
        fputs("<p class=\"muted\">no data</p></figure>\n", out);
        return;
    }
    double max = 0;
    for (size_t i = 0; i < c->nbars; i++)
        for (int s = 0; s <= two; s++)
            if (c->bars[i].value[s] > max)
                max = c->bars[i].value[s];
    if (!(max > 0))
        max = 1;
    double step = nice_step(max, 5);
    double top = ceil(max / step - 1e-9) * step;
    const double W = 1000, L = 300, R = 150, PW = W - L - R;
    const double legend = 26, bar = two ? 12 : 14, gap = 3, pad = 10;
    double row = two ? 2 * bar + gap + pad : bar + pad;
    double H = legend + row * (double)c->nbars + 26;
    const char *unit = c->unit ? c->unit : "";
    char num[64];

    fprintf(out, "<svg viewBox=\"0 0 %.0f %.1f\" "
                 "role=\"img\" class=\"barchart\">\n", W, H);
    /* legend */
    const char *cols[2] = {two ? COL_RAW : COL_CAL, COL_CAL};
    double lx = L;
    for (int s = 0; s <= two; s++) {
        const char *name = c->series[s] ? c->series[s] : "";
        fprintf(out, "<rect x=\"%.1f\" y=\"6\" width=\"12\" height=\"12\" rx=\"2\" fill=\"%s\"/>"
                     "<text x=\"%.1f\" y=\"16.5\" font-size=\"13\">", lx, cols[s], lx + 17);
        vp_html_escape(out, name);
        fputs("</text>\n", out);
        lx += 40 + 7.5 * (double)strlen(name);
    }
    /* grid and ticks */
    double y0 = legend, y1 = legend + row * (double)c->nbars;
    for (double t = 0; t <= top + step / 2; t += step) {
        double x = L + PW * t / top;
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                     "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s%s"
                     "</text>\n",
                x, y0, x, y1, x, y1 + 16, vp_html_num(num, sizeof num, t), unit);
    }
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", L, y0,
            L, y1);
    for (size_t i = 0; i < c->nbars; i++) {
        const struct vp_html_bar *b = &c->bars[i];
        double y = legend + row * (double)i + pad / 2;
        double mid = y + (two ? bar + gap / 2 : bar / 2);
        fputs("<g class=\"row\">", out);
        if (b->href) {
            fputs("<a href=\"", out);
            vp_html_escape(out, b->href);
            fputs("\">", out);
        }
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"13\"%s>",
                L - 8, mid + 4.5, b->href ? " fill=\"#0969da\"" : "");
        if (text_trunc(out, b->label ? b->label : "", 40)) {
            fputs("<title>", out);
            vp_html_escape(out, b->label);
            fputs("</title>", out);
        }
        fputs("</text>", out);
        if (b->href)
            fputs("</a>", out);
        double end = 0;
        for (int s = 0; s <= two; s++) {
            double v = b->value[s] > 0 ? b->value[s] : 0;
            double w = PW * v / top;
            double by = y + (double)s * (bar + gap);
            fprintf(out, "<rect class=\"s%d\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" rx=\"2\" fill=\"%s\"><title>",
                    s, L, by, w, bar, cols[s]);
            vp_html_escape(out, c->series[s]);
            fprintf(out, ": %s%s</title></rect>", vp_html_num(num, sizeof num, v), unit);
            if (L + w > end)
                end = L + w;
            fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\">"
                         "%s%s</text>",
                    L + w + 5, by + bar - 2.5, vp_html_num(num, sizeof num, v), unit);
        }
        if (b->note) {
            fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" font-weight=\"600\">",
                    W - R + 70, mid + 4.5);
            text_trunc(out, b->note, 14);
            fputs("</text>", out);
        }
        fputs("</g>\n", out);
    }
    fputs("</svg></figure>\n", out);
}

/* ---- binning ---------------------------------------------------------------- */

void vp_html_binning_free(struct vp_html_binning *bn)
{
    if (!bn)
        return;
    free(bn->count[0]);
    free(bn->count[1]);
    memset(bn, 0, sizeof *bn);
}

int vp_html_binning(const double *a, size_t na, const double *b, size_t nb, size_t max_bins,
                    struct vp_html_binning *out)
{
    memset(out, 0, sizeof *out);
    if (!max_bins)
        max_bins = 40;
    const double *x[2] = {a, b};
    size_t n[2] = {na, nb};
    double min = INFINITY, max = -INFINITY;
    int integer = 1;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < n[s]; i++) {
            double v = x[s][i];
            if (!isfinite(v))
                continue;
            if (v < min)
                min = v;
            if (v > max)
                max = v;
            if (integer && v != floor(v))
                integer = 0;
        }
    if (min > max)
        return 0; /* no finite value */
    out->integer = integer;
    if (min > 0 && max / min >= 100) {
        out->log = 1;
        out->integer = 0;
        double l0 = log10(min), l1 = log10(max);
        out->nbins = max_bins;
        out->lo = l0;
        out->width = (l1 - l0) / (double)max_bins;
    } else if (!isfinite(max - min)) {
        /* the range itself overflows a double (-1e308 .. 1e308) */
        out->integer = 0;
        out->nbins = max_bins;
        out->lo = min;
        out->width = max / (double)max_bins - min / (double)max_bins;
    } else if (integer) {
        double values = max - min + 1;
        double w = ceil(values / (double)max_bins);
        out->width = w < 1 ? 1 : w;
        out->lo = min - 0.5;
        out->nbins = (size_t)ceil(values / out->width);
    } else if (max > min) {
        out->nbins = max_bins;
        out->lo = min;
        out->width = (max - min) / (double)max_bins;
    } else {
        double half = min != 0 ? fabs(min) * 0.05 : 0.5;
        out->nbins = 1;
        out->lo = min - half;
        out->width = 2 * half;
    }
    for (int s = 0; s < 2; s++) {
        out->count[s] = calloc(out->nbins, sizeof(size_t));
        if (!out->count[s]) {
            vp_html_binning_free(out);
            return -1;
        }
        for (size_t i = 0; i < n[s]; i++) {
            double v = x[s][i];
            if (!isfinite(v))
                continue;
            double pos = out->log ? log10(v) : v;
            double k = floor((pos - out->lo) / out->width);
            size_t bin = !(k > 0) ? 0 : k >= (double)out->nbins ? out->nbins - 1 : (size_t)k;
            out->count[s][bin]++;
            out->total[s]++;
        }
    }
    return 0;
}

/* ---- histogram --------------------------------------------------------------- */

int vp_html_histogram(FILE *out, const struct vp_html_hist *h)
{
    struct vp_html_binning bn;
    if (vp_html_binning(h->x[0], h->n[0], h->x[1], h->n[1], h->max_bins, &bn))
        return -1;
    char num[64];
    fprintf(out, "<div class=\"hist%s\">", h->highlight ? " decided" : "");
    fputs("<h4>", out);
    vp_html_escape(out, h->title);
    if (h->highlight) {
        fputs(" ", out);
        vp_html_badge(out, "bad", "decided");
    }
    fputs("</h4>\n", out);
    const double W = 440, H = 230, L = 46, R = 12, T = 26, B = 42;
    const double PW = W - L - R, PH = H - T - B;
    fprintf(out, "<figure class=\"chart\"><svg "
                 "viewBox=\"0 0 %.0f %.0f\" role=\"img\" class=\"histogram\">\n", W, H);
    const char *cols[2] = {COL_NORMAL, COL_SLOW};
    double lx = L;
    for (int s = 0; s < 2; s++) {
        fprintf(out, "<rect x=\"%.1f\" y=\"7\" width=\"11\" height=\"11\" rx=\"2\" fill=\"%s\" "
                     "fill-opacity=\"0.55\"/><text x=\"%.1f\" y=\"16.5\" font-size=\"12\">",
                lx, cols[s], lx + 15);
        vp_html_escape(out, h->name[s] ? h->name[s] : (s ? "slow" : "normal"));
        fprintf(out, " (n=%s)</text>\n", vp_html_num(num, sizeof num, (double)bn.total[s]));
        lx += 150;
    }
    if (!bn.nbins || (!bn.total[0] && !bn.total[1])) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tick\">"
                     "no samples</text>\n", L + PW / 2, T + PH / 2);
    } else {
        double ymax = 0;
        for (int s = 0; s < 2; s++)
            for (size_t k = 0; bn.total[s] && k < bn.nbins; k++) {
                double f = (double)bn.count[s][k] / (double)bn.total[s];
                if (f > ymax)
                    ymax = f;
            }
        double ystep = nice_step(ymax, 4);
        double ytop = ceil(ymax / ystep - 1e-9) * ystep;
        for (double t = 0; t <= ytop + ystep / 2; t += ystep) {
            double y = T + PH - PH * t / ytop;
            fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                         "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s%%"
                         "</text>\n",
                    L, y, L + PW, y, L - 4, y + 3.5, vp_html_num(num, sizeof num, t * 100));
        }
        double bw = PW / (double)bn.nbins;
        for (int s = 0; s < 2; s++) {
            if (!bn.total[s])
                continue;
            fprintf(out, "<g class=\"series s%d\" fill=\"%s\" fill-opacity=\"0.45\">", s, cols[s]);
            for (size_t k = 0; k < bn.nbins; k++) {
                if (!bn.count[s][k])
                    continue;
                double f = (double)bn.count[s][k] / (double)bn.total[s];
                double bh = PH * f / ytop;
                fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                        L + bw * (double)k, T + PH - bh, bw, bh);
            }
            fputs("</g>\n", out);
            /* A step outline keeps each shape visible where the two overlap. */
            fprintf(out, "<path class=\"outline s%d\" fill=\"none\" stroke=\"%s\" "
                         "stroke-width=\"1.5\" d=\"M%.1f %.1f",
                    s, cols[s], L, T + PH);
            for (size_t k = 0; k < bn.nbins; k++) {
                double f = (double)bn.count[s][k] / (double)bn.total[s];
                double y = T + PH - PH * f / ytop;
                fprintf(out, "V%.1fH%.1f", y, L + bw * (double)(k + 1));
            }
            fprintf(out, "V%.1f\"/>\n", T + PH);
        }
        /* x ticks: value positions mapped through the binning */
        double x0 = bn.lo, x1 = bn.lo + bn.width * (double)bn.nbins;
        if (bn.log) {
            double estep = ceil((x1 - x0) / 6) > 1 ? ceil((x1 - x0) / 6) : 1;
            for (double e = ceil(x0); e <= x1 + 1e-9; e += estep) {
                double x = L + PW * (e - x0) / (x1 - x0);
                fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                             "y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
                             "text-anchor=\"middle\">%s</text>\n",
                        x, T + PH, x, T + PH + 4, x, T + PH + 15,
                        vp_html_num(num, sizeof num, pow(10, e)));
            }
        } else {
            double step = nice_step(x1 - x0, 5);
            if (bn.integer && step < 1)
                step = 1;
            /* counted, not t += step: next to 1e18 a step of 1 is lost */
            double t0 = ceil(x0 / step) * step, span = (x1 + 1e-9 * fabs(x1) - t0) / step;
            size_t nticks = !(span >= 0) ? 0 : span >= 64 ? 65 : (size_t)span + 1;
            for (size_t i = 0; i < nticks; i++) {
                double t = t0 + step * (double)i;
                double x = L + PW * (t - x0) / (x1 - x0);
                fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                             "y2=\"%.1f\"/><text class=\"tick\" x=\"%.1f\" y=\"%.1f\" "
                             "text-anchor=\"middle\">%s</text>\n",
                        x, T + PH, x, T + PH + 4, x, T + PH + 15,
                        vp_html_num(num, sizeof num, fabs(t) < step * 1e-9 ? 0 : t));
            }
        }
        fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                L, T + PH, L + PW, T + PH);
    }
    if (h->xlabel || bn.log) {
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">",
                L + PW / 2, H - 6);
        vp_html_escape(out, h->xlabel);
        fputs(bn.log ? " (log scale)" : "", out);
        fputs("</text>\n", out);
    }
    fputs("</svg></figure>", out);
    if (h->note) {
        fputs("<p class=\"note\">", out);
        vp_html_escape(out, h->note);
        fputs("</p>", out);
    }
    fputs("</div>\n", out);
    vp_html_binning_free(&bn);
    return 0;
}
