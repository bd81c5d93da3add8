/* check_html.c: the self-contained HTML writers of `clustersim report`
 * (report/html.c): escaping, tables, SVG bars, inlined SVG files. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/report/html.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs fn(f) into a memory stream and returns the text (caller frees). */
static char *capture(void (*fn)(FILE *f, const void *ctx), const void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    fn(f, ctx);
    fclose(f);
    return buf;
}

static void esc(FILE *f, const void *ctx) { cs_html_escape(f, ctx); }

START_TEST(test_html_escape_all_five)
{
    char *s = capture(esc, "<a href='x'>\"Q&A\"</a>");
    ck_assert_str_eq(s, "&lt;a href=&#39;x&#39;&gt;&quot;Q&amp;A&quot;&lt;/a&gt;");
    free(s);
}
END_TEST

static void table(FILE *f, const void *ctx)
{
    (void)ctx;
    const char *head[] = {"name", "value"};
    const char *cells[] = {"<b>", "3.14159265358979", "x", NULL};
    cs_html_table(f, 2, head, 2, cells);
}

START_TEST(test_html_table_escapes_and_aligns_numbers)
{
    char *s = capture(table, NULL);
    ck_assert_ptr_nonnull(strstr(s, "<th>name</th><th>value</th>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>&lt;b&gt;</td>"));
    /* a long number is shortened to 6 significant digits, right-aligned */
    ck_assert_ptr_nonnull(strstr(s, "<td class=\"n\">3.14159</td>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>x</td><td></td>")); /* NULL: empty cell */
    ck_assert_ptr_null(strstr(s, "<b>"));
    free(s);
}
END_TEST

static void bars(FILE *f, const void *ctx)
{
    (void)ctx;
    const char *labels[] = {"a<1>", "b"};
    double v[] = {2.0, NAN};
    cs_html_svg_bars(f, "T&T", "s", 2, labels, v);
}

START_TEST(test_html_svg_bars_scale_and_escape)
{
    char *s = capture(bars, NULL);
    ck_assert_ptr_nonnull(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    ck_assert_ptr_nonnull(strstr(s, "T&amp;T (s)"));
    ck_assert_ptr_nonnull(strstr(s, "a&lt;1&gt;"));
    /* The largest bar spans the plot width: 900 - 260 - 120 = 520 px. */
    ck_assert_ptr_nonnull(strstr(s, "width=\"520.0\""));
    ck_assert_ptr_nonnull(strstr(s, ">n/a</text>"));
    free(s);
}
END_TEST

static void inl(FILE *f, const void *ctx) { ck_assert(cs_html_svg_file(f, ctx)); }

START_TEST(test_html_svg_file_drops_prolog)
{
    char path[] = "/tmp/check_html.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg width=\"1\"><g/></svg>\n";
    ck_assert_int_eq(write(fd, doc, strlen(doc)), (int)strlen(doc));
    close(fd);
    char *s = capture(inl, path);
    ck_assert_str_eq(s, "<figure><svg width=\"1\"><g/></svg>\n</figure>\n");
    free(s);
    unlink(path);
    FILE *f = fopen("/dev/null", "w");
    ck_assert(!cs_html_svg_file(f, "/nonexistent/x.svg"));
    fclose(f);
}
END_TEST

static Suite *html_suite(void)
{
    Suite *s = suite_create("html");
    TCase *tc = tcase_create("html");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_html_escape_all_five);
    tcase_add_test(tc, test_html_table_escapes_and_aligns_numbers);
    tcase_add_test(tc, test_html_svg_bars_scale_and_escape);
    tcase_add_test(tc, test_html_svg_file_drops_prolog);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(html_suite()); }
