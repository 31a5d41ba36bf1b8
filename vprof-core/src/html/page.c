/*
 * page.c - the text side of vprof's HTML reports (vprof/html.h): escaping,
 * number formatting, the page skeleton with its stylesheet, collapsible
 * sections, badges and quoted source.
 */
#include "vprof/html.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len;
    uint32_t min;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0)
        len = 2, min = 0x80;
    else if ((s[0] & 0xf0) == 0xe0)
        len = 3, min = 0x800;
    else if ((s[0] & 0xf8) == 0xf0)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    uint32_t cp = s[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

void vp_html_escape_n(FILE *out, const char *s, size_t n)
{
    if (!s)
        return;
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n && p[i]) {
        unsigned char c = p[i];
        switch (c) {
        case '&': fputs("&amp;", out); i++; continue;
        case '<': fputs("&lt;", out); i++; continue;
        case '>': fputs("&gt;", out); i++; continue;
        case '"': fputs("&quot;", out); i++; continue;
        case '\'': fputs("&#39;", out); i++; continue;
        default: break;
        }
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
            fputs("\xef\xbf\xbd", out);
            i++;
            continue;
        }
        size_t len = utf8_len(p + i, n - i);
        if (!len) {
            fputs("\xef\xbf\xbd", out);
            i++;
            continue;
        }
        fwrite(p + i, 1, len, out);
        i += len;
    }
}

void vp_html_escape(FILE *out, const char *s)
{
    if (s)
        vp_html_escape_n(out, s, strlen(s));
}

char *vp_html_num(char *buf, size_t len, double v)
{
    if (!len)
        return buf;
    if (isnan(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    double a = fabs(v);
    if (v == floor(v) && a < 1e4) {
        snprintf(buf, len, "%.0f", v);
        return buf;
    }
    if (a >= 1e4 && a < 1e15) {
        static const char *sfx[] = {"k", "M", "G", "T"};
        int k = 0;
        double s = a / 1e3;
        while (s >= 999.5 && k < 3) {
            s /= 1e3;
            k++;
        }
        snprintf(buf, len, "%s%.3g%s", v < 0 ? "-" : "", s, sfx[k]);
        return buf;
    }
    snprintf(buf, len, "%.3g", v);
    return buf;
}

/* One stylesheet for every report: light, print-friendly, readable at
 * 1200 px and on a phone.  Chart colours: normal = blue, slow = orange. */
static const char css[] =
    ":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--card:#fff;"
    "--normal:#3572b0;--slow:#e8590c;--raw:#adb5bd;--cal:#d6336c;--mark:#fff3bf}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',"
    "'DejaVu Sans',sans-serif;color:var(--fg);background:var(--bg)}\n"
    "header.page{background:#24292f;color:#fff;padding:18px 32px}\n"
    "header.page h1{margin:0;font-size:22px;font-weight:600}\n"
    "header.page p{margin:4px 0 0;color:#c9d1d9;font-size:13px}\n"
    "header.page .tools{float:right;display:none}\n"
    "header.page .tools button{font:inherit;font-size:12px;margin-left:6px;padding:3px 10px;"
    "border-radius:6px;border:1px solid #57606a;background:#32383f;color:#fff;cursor:pointer}\n"
    "main{max-width:1240px;margin:0 auto;padding:14px 14px 40px}\n"
    "details.sec{background:var(--card);border:1px solid var(--line);border-radius:8px;"
    "margin:14px 0;padding:0 14px}\n"
    "details.sec details.sec{border-radius:6px;margin:10px 0;background:#fcfcfd}\n"
    "details.sec>summary{cursor:pointer;padding:12px 0;font-weight:600;font-size:17px;"
    "list-style-position:outside}\n"
    "details.sec details.sec>summary{font-size:15px;padding:9px 0}\n"
    "details.sec[open]>summary{border-bottom:1px solid var(--line);margin-bottom:10px}\n"
    "details.sec>:last-child{margin-bottom:14px}\n"
    "p.lead{font-size:16px;margin:10px 0}\n"
    "table{border-collapse:collapse;width:100%;font-size:13.5px;margin:8px 0}\n"
    "th,td{border-bottom:1px solid var(--line);padding:5px 7px;text-align:left;"
    "vertical-align:top}\n"
    "th{background:var(--bg);font-weight:600}\n"
    ".tablewrap{overflow-x:auto}\n"
    "table.ranking{font-size:13px}\n"
    "code.loc{white-space:nowrap}\n"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "code,pre{font-family:ui-monospace,'SFMono-Regular','DejaVu Sans Mono',Menlo,monospace;"
    "font-size:12.5px}\n"
    "code{background:var(--bg);padding:1px 4px;border-radius:4px}\n"
    ".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;"
    "font-weight:600;background:#eaeef2;color:var(--fg);white-space:nowrap}\n"
    ".badge.bad{background:#ffe3e3;color:#c92a2a}.badge.warn{background:#fff3bf;"
    "color:#8f5b00}\n"
    ".badge.ok{background:#d3f9d8;color:#2b8a3e}.badge.info{background:#dbe4ff;"
    "color:#364fc7}\n"
    "figure.chart{margin:8px 0;padding:0}\n"
    "figure.chart figcaption{font-size:13px;color:var(--muted);margin:2px 0 4px}\n"
    "figure.chart svg{display:block;width:100%;height:auto}\n"
    ".hists{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:12px}\n"
    ".hist{border:1px solid var(--line);border-radius:6px;padding:6px 8px;background:#fff}\n"
    ".hist.decided{border:2px solid var(--cal);box-shadow:0 0 0 3px #fcc2d7}\n"
    ".hist h4{margin:2px 0;font-size:13.5px}\n"
    ".hist .note{font-size:12px;color:var(--muted);margin:2px 0}\n"
    "p.note.unattributed{font-size:13px;color:var(--muted)}\n"
    "svg text{font-family:system-ui,'DejaVu Sans',sans-serif;fill:#1f2328}\n"
    "svg .axis{stroke:#8c959f;stroke-width:1}\n"
    "svg .grid{stroke:#eaeef2;stroke-width:1}\n"
    "svg .tick{font-size:11px;fill:#59636e}\n"
    "pre.src{background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:6px 0;"
    "overflow-x:auto;margin:6px 0}\n"
    "pre.src code{display:block;background:none;padding:0}\n"
    "pre.src span.ln{display:inline-block;width:4.5em;padding-right:1em;text-align:right;"
    "color:#8c959f;user-select:none}\n"
    "pre.src span.l{display:block;padding-right:10px}\n"
    "pre.src span.l.mark{background:var(--mark);font-weight:600}\n"
    ".muted{color:var(--muted)}\n"
    "footer{color:var(--muted);font-size:12px;text-align:center;padding:10px}\n"
    "@media print{header.page .tools{display:none!important}details.sec{break-inside:avoid}}\n";

/* The only script: expand/collapse-all buttons, shown only when it runs. */
static const char script[] =
    "(function(){var t=document.getElementById('vp-tools');if(!t)return;"
    "t.style.display='block';function all(o){var d=document.querySelectorAll('details.sec');"
    "for(var i=0;i<d.length;i++)d[i].open=o;}"
    "document.getElementById('vp-expand').onclick=function(){all(true);};"
    "document.getElementById('vp-collapse').onclick=function(){all(false);};})();";

void vp_html_page_begin(FILE *out, const char *title, const char *subtitle)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"vprof\">\n<title>",
          out);
    vp_html_escape(out, title ? title : "vprof");
    fputs("</title>\n<style>\n", out);
    fputs(css, out);
    fputs("</style>\n</head>\n<body>\n<header class=\"page\">"
          "<div class=\"tools\" id=\"vp-tools\"><button type=\"button\" id=\"vp-expand\">"
          "expand all</button><button type=\"button\" id=\"vp-collapse\">collapse all</button>"
          "</div>\n<h1>",
          out);
    vp_html_escape(out, title ? title : "vprof");
    fputs("</h1>\n", out);
    if (subtitle) {
        fputs("<p>", out);
        vp_html_escape(out, subtitle);
        fputs("</p>\n", out);
    }
    fputs("</header>\n<main>\n", out);
}

int vp_html_page_end(FILE *out)
{
    fputs("</main>\n<footer>generated by vprof &middot; self-contained page: no network, "
          "sections collapse without JavaScript</footer>\n<script>",
          out);
    fputs(script, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

void vp_html_section_begin(FILE *out, const char *id, const char *heading, int open)
{
    fputs("<details class=\"sec\"", out);
    if (id) {
        fputs(" id=\"", out);
        vp_html_escape(out, id);
        fputc('"', out);
    }
    fputs(open ? " open><summary>" : "><summary>", out);
    vp_html_escape(out, heading);
    fputs("</summary>\n", out);
}

void vp_html_section_end(FILE *out)
{
    fputs("</details>\n", out);
}

void vp_html_badge(FILE *out, const char *kind, const char *text)
{
    fputs("<span class=\"badge", out);
    if (kind) {
        fputc(' ', out);
        vp_html_escape(out, kind);
    }
    fputs("\">", out);
    vp_html_escape(out, text);
    fputs("</span>", out);
}

/* One quoted line: number, text, marked or not. */
static void code_line(FILE *out, const char *text, size_t n, int line, int marked)
{
    fprintf(out, "<span class=\"l%s\"><span class=\"ln\">%d</span>", marked ? " mark" : "",
            line);
    vp_html_escape_n(out, text, n);
    fputs("</span>", out);
}

void vp_html_code(FILE *out, const char *const *lines, size_t n, int first_line, int mark)
{
    if (!n)
        return;
    fputs("<pre class=\"src\"><code>", out);
    for (size_t i = 0; i < n; i++) {
        const char *t = lines[i] ? lines[i] : "";
        size_t len = strlen(t);
        if (len && t[len - 1] == '\n')
            len--;
        code_line(out, t, len, first_line + (int)i, first_line + (int)i == mark);
    }
    fputs("</code></pre>\n", out);
}

int vp_html_source(FILE *out, const char *path, int from, int to, int mark)
{
    if (!path || !*path)
        return -1;
    if (from < 1)
        from = 1;
    if (to < from)
        to = from;
    if (to - from > 59)
        to = from + 59;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    /* Collect the wanted lines first, so an unreadable file writes nothing. */
    char *buf = NULL, *text = NULL;
    size_t len = 0, cap = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        fclose(f);
        return -1;
    }
    int printed = 0;
    ssize_t n;
    for (int line = 1; line <= to && (n = getline(&text, &cap, f)) > 0; line++) {
        if (line < from)
            continue;
        if (text[n - 1] == '\n')
            n--;
        code_line(mem, text, (size_t)n, line, line == mark);
        printed++;
    }
    free(text);
    int bad = ferror(f);
    fclose(f);
    if (fclose(mem) != 0 || bad || !printed) {
        free(buf);
        return -1;
    }
    fputs("<pre class=\"src\"><code>", out);
    fwrite(buf, 1, len, out);
    fputs("</code></pre>\n", out);
    free(buf);
    return 0;
}
