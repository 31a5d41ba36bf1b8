/*
 * test_html.c - the generic HTML pieces (vprof/html.h): escaping of
 * markup, invalid UTF-8 and control characters; number formatting; shared
 * binning (linear, integer, log, one value, NaN, empty); histogram and bar
 * chart markup; quoted source.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "vprof/html.h"

/* Run fn into a memory buffer; the caller frees the result. */
static char *capture_escape(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    vp_html_escape(f, s);
    fclose(f);
    return buf;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_escape(void **state)
{
    (void)state;
    char *s = capture_escape("<a href=\"x\">it's & done</a>");
    assert_string_equal(s, "&lt;a href=&quot;x&quot;&gt;it&#39;s &amp; done&lt;/a&gt;");
    free(s);
    /* valid UTF-8 passes, invalid bytes and control characters are replaced */
    s = capture_escape("caf\xc3\xa9 \xff\xfe x\x01y\tz");
    assert_string_equal(s, "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd x\xef\xbf\xbdy\tz");
    free(s);
    /* overlong encoding and a truncated sequence */
    s = capture_escape("\xc0\xaf|\xe2\x82");
    assert_string_equal(s, "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd");
    free(s);
    s = capture_escape(NULL);
    assert_true(s == NULL || s[0] == 0);
    free(s);
}

static void test_num(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(vp_html_num(b, sizeof b, 0), "0");
    assert_string_equal(vp_html_num(b, sizeof b, 9999), "9999");
    assert_string_equal(vp_html_num(b, sizeof b, 12500), "12.5k");
    assert_string_equal(vp_html_num(b, sizeof b, -3400000), "-3.4M");
    assert_string_equal(vp_html_num(b, sizeof b, 0.01234), "0.0123");
    assert_string_equal(vp_html_num(b, sizeof b, 2.5), "2.5");
    assert_string_equal(vp_html_num(b, sizeof b, NAN), "n/a");
}

static void test_binning_integer(void **state)
{
    (void)state;
    double a[] = {1, 2, 2, 3}, b[] = {3, 3, 4, NAN};
    struct vp_html_binning bn;
    assert_int_equal(vp_html_binning(a, 4, b, 4, 40, &bn), 0);
    assert_true(bn.integer);
    assert_false(bn.log);
    assert_int_equal(bn.nbins, 4); /* 1..4, one bin per integer */
    assert_true(bn.lo == 0.5 && bn.width == 1);
    size_t ea[] = {1, 2, 1, 0}, eb[] = {0, 0, 2, 1};
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(bn.count[0][k], ea[k]);
        assert_int_equal(bn.count[1][k], eb[k]);
    }
    assert_int_equal(bn.total[0], 4);
    assert_int_equal(bn.total[1], 3); /* NaN skipped */
    vp_html_binning_free(&bn);

    /* a wide integer range: whole-number width, every value in a bin */
    double w[1000];
    for (int i = 0; i < 1000; i++)
        w[i] = i * 3 - 50;
    assert_int_equal(vp_html_binning(w, 1000, NULL, 0, 40, &bn), 0);
    assert_true(bn.width == floor(bn.width) && bn.width > 1);
    assert_true(bn.nbins <= 40);
    assert_int_equal(bn.total[0], 1000);
    assert_true(bn.lo + bn.width * (double)bn.nbins > 2949);
    vp_html_binning_free(&bn);
}

static void test_binning_log_and_edges(void **state)
{
    (void)state;
    double a[] = {1, 1, 2}, b[] = {1000, 100000};
    struct vp_html_binning bn;
    assert_int_equal(vp_html_binning(a, 3, b, 2, 10, &bn), 0);
    assert_true(bn.log);
    assert_int_equal(bn.nbins, 10);
    assert_int_equal(bn.count[0][0], 3); /* log10(2) = 0.3 < width 0.5 */
    assert_int_equal(bn.count[1][9], 1); /* the maximum lands in the last bin */
    assert_int_equal(bn.count[1][6], 1); /* log10(1000) = 3 -> bin 6 */
    vp_html_binning_free(&bn);

    double one[] = {2.5, 2.5};
    assert_int_equal(vp_html_binning(one, 2, one, 1, 0, &bn), 0);
    assert_int_equal(bn.nbins, 1);
    assert_int_equal(bn.count[0][0], 2);
    assert_int_equal(bn.count[1][0], 1);
    vp_html_binning_free(&bn);

    double f[] = {0.5, -0.25, 0.75};
    assert_int_equal(vp_html_binning(f, 3, NULL, 0, 4, &bn), 0);
    assert_false(bn.integer);
    assert_int_equal(bn.nbins, 4);
    assert_int_equal(bn.count[0][0], 1); /* -0.25 */
    assert_int_equal(bn.count[0][3], 2); /* 0.5 starts bin 3; the maximum is kept in it */
    vp_html_binning_free(&bn);

    assert_int_equal(vp_html_binning(NULL, 0, NULL, 0, 0, &bn), 0);
    assert_int_equal(bn.nbins, 0);
    vp_html_binning_free(&bn);
}

static void test_histogram_markup(void **state)
{
    (void)state;
    double a[] = {1, 2, 2, 3}, b[] = {30, 31, 32, 33, 34};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct vp_html_hist h = {.title = "values", .xlabel = "n <int>", .name = {"normal", "slow"},
                             .x = {a, b}, .n = {4, 5}, .highlight = 1, .note = "p & q"};
    assert_int_equal(vp_html_histogram(f, &h), 0);
    fclose(f);
    assert_non_null(strstr(buf, "class=\"hist decided\""));
    assert_non_null(strstr(buf, "n &lt;int&gt;"));
    assert_non_null(strstr(buf, "p &amp; q"));
    assert_non_null(strstr(buf, "(n=4)"));
    assert_non_null(strstr(buf, "(n=5)"));
    assert_int_equal(count(buf, "<svg"), 1);
    assert_int_equal(count(buf, "</svg>"), 1);
    assert_int_equal(count(buf, "class=\"outline s"), 2);
    assert_null(strstr(buf, "nan"));
    assert_null(strstr(buf, "inf"));
    free(buf);

    /* no samples at all: a note, not a broken chart */
    buf = NULL;
    f = open_memstream(&buf, &len);
    struct vp_html_hist e = {.title = "deltas"};
    assert_int_equal(vp_html_histogram(f, &e), 0);
    fclose(f);
    assert_non_null(strstr(buf, "no samples"));
    assert_null(strstr(buf, "decided"));
    free(buf);
}

/* Values no variable of a sane run has, but a damaged or adversarial
 * profile can (found by fuzz.rankmodel): a range wider than a double holds
 * (-1e308 .. 1e308: the bin index was NaN) and a narrow range far from 0
 * (2^60 + 0..100: the tick loop's t += step did not move t, and never
 * ended).  Each gives a finite chart with its ticks. */
static void test_histogram_extreme_ranges(void **state)
{
    (void)state;
    double wide[] = {-1e308, 0, 1e308}, far[] = {1152921504606846976.0, 1152921504606847232.0};
    const double *cases[] = {wide, far};
    size_t ns[] = {3, 2};
    for (int c = 0; c < 2; c++) {
        struct vp_html_binning bn;
        assert_int_equal(vp_html_binning(cases[c], ns[c], NULL, 0, 10, &bn), 0);
        assert_true(bn.nbins >= 1 && bn.nbins <= 10);
        assert_true(isfinite(bn.lo) && isfinite(bn.width) && bn.width > 0);
        assert_int_equal(bn.total[0], ns[c]);
        vp_html_binning_free(&bn);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        struct vp_html_hist h = {.title = "values", .name = {"normal", "slow"},
                                 .x = {cases[c], cases[c]}, .n = {ns[c], ns[c]}};
        assert_int_equal(vp_html_histogram(f, &h), 0);
        fclose(f);
        assert_int_equal(count(buf, "</svg>"), 1);
        /* five on the y axis; on the x axis at most 65 (the wide range's
           span overflows too: none there, but a chart) */
        int ticks = count(buf, "class=\"tick\"");
        assert_true(ticks >= 5 + (c == 1) && ticks <= 5 + 65);
        assert_null(strstr(buf, "nan"));
        free(buf);
    }
}

static void test_bar_chart(void **state)
{
    (void)state;
    struct vp_html_bar bars[] = {
        {.label = "1. work<T>", .value = {4, 0.5}, .note = "raw rank 1", .href = "#f1"},
        {.label = "2. a_very_long_function_name_that_goes_on_and_on_and_on_forever",
         .value = {1, 2}},
    };
    struct vp_html_bar_chart c = {.title = "cost", .series = {"raw", "calibrated"},
                                  .unit = " s", .bars = bars, .nbars = 2};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    vp_html_bar_chart(f, &c);
    fclose(f);
    assert_non_null(strstr(buf, "1. work&lt;T&gt;"));
    assert_non_null(strstr(buf, "href=\"#f1\""));
    assert_int_equal(count(buf, "<rect class=\"s0\""), 2);
    assert_int_equal(count(buf, "<rect class=\"s1\""), 2);
    /* the long label is cut with an ellipsis and kept whole in a tooltip */
    assert_non_null(strstr(buf, "\xe2\x80\xa6<title>2. a_very_long"));
    /* the largest value spans the plot: 4 s on a 0..4 scale = 550 units */
    assert_non_null(strstr(buf, "width=\"550.0\""));
    free(buf);

    buf = NULL;
    f = open_memstream(&buf, &len);
    struct vp_html_bar_chart empty = {.title = "none", .series = {"raw", NULL}};
    vp_html_bar_chart(f, &empty);
    fclose(f);
    assert_non_null(strstr(buf, "no data"));
    free(buf);
}

static void test_source(void **state)
{
    (void)state;
    char path[] = "/tmp/vp_html_srcXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "int main(void)\n{\n    if (a < b && c)\n        return 1;\n}\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(vp_html_source(f, path, 2, 4, 3), 0);
    fclose(f);
    assert_non_null(strstr(buf, "<span class=\"l mark\"><span class=\"ln\">3</span>    if (a "
                                "&lt; b &amp;&amp; c)</span>"));
    assert_int_equal(count(buf, "class=\"ln\""), 3);
    assert_null(strstr(buf, "int main"));
    free(buf);
    /* past the end: clamped; a missing file writes nothing */
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_int_equal(vp_html_source(f, path, 4, 40, 0), 0);
    assert_int_equal(vp_html_source(f, "/nonexistent/x.c", 1, 3, 1), -1);
    assert_int_equal(vp_html_source(f, path, 50, 60, 0), -1);
    fclose(f);
    assert_int_equal(count(buf, "class=\"ln\""), 2);
    free(buf);
    unlink(path);
    /* lines already read */
    const char *lines[] = {"for (i = 0; i < n; i++)\n", "    s += a[i];"};
    buf = NULL;
    f = open_memstream(&buf, &len);
    vp_html_code(f, lines, 2, 41, 41);
    vp_html_code(f, lines, 0, 1, 1);
    fclose(f);
    assert_string_equal(buf, "<pre class=\"src\"><code><span class=\"l mark\"><span class=\"ln\">41"
                             "</span>for (i = 0; i &lt; n; i++)</span><span class=\"l\"><span "
                             "class=\"ln\">42</span>    s += a[i];</span></code></pre>\n");
    free(buf);
}

static void test_page(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    vp_html_page_begin(f, "t <1>", "sub & title");
    vp_html_section_begin(f, "s1", "Section \"one\"", 1);
    vp_html_badge(f, "bad", "wrong-constraint");
    vp_html_section_end(f);
    vp_html_section_begin(f, NULL, "closed", 0);
    vp_html_section_end(f);
    assert_int_equal(vp_html_page_end(f), 0);
    fclose(f);
    assert_true(strncmp(buf, "<!DOCTYPE html>", 15) == 0);
    assert_non_null(strstr(buf, "<title>t &lt;1&gt;</title>"));
    assert_non_null(strstr(buf, "<details class=\"sec\" id=\"s1\" open><summary>Section "
                                "&quot;one&quot;</summary>"));
    assert_non_null(strstr(buf, "<details class=\"sec\"><summary>closed</summary>"));
    assert_int_equal(count(buf, "<details"), count(buf, "</details>"));
    assert_non_null(strstr(buf, "</html>\n"));
    /* self-contained: nothing fetched */
    assert_null(strstr(buf, "http:"));
    assert_null(strstr(buf, "https:"));
    assert_null(strstr(buf, " src="));
    assert_null(strstr(buf, "<link"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_num),
        cmocka_unit_test(test_binning_integer),
        cmocka_unit_test(test_binning_log_and_edges),
        cmocka_unit_test(test_histogram_markup),
        cmocka_unit_test(test_histogram_extreme_ranges),
        cmocka_unit_test(test_bar_chart),
        cmocka_unit_test(test_source),
        cmocka_unit_test(test_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
