/* check_csv.c: the CSV line splitter (base/csv.c) that the trace,
 * reference-table and calibration readers share: plain, quoted and empty
 * fields, doubled quotes, blanks, columns, and the two errors; and the one
 * text-cell writer (quoting, formula neutralisation). */
#include "clustersim/base/csv.h"
#include "test_util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_csv_spans)
{
    /* cols:           1234567890123456789012 */
    const char *line = "a, \"b,c\" ,,\"d\"\"e\"";
    struct cs_csv_field f[8];
    int n = cs_csv_split(line, strlen(line), f, 8, NULL);
    ck_assert_int_eq(n, 4);
    ck_assert(f[0].len == 1 && f[0].s[0] == 'a' && f[0].col == 1 && !f[0].quoted);
    ck_assert(f[1].len == 3 && strncmp(f[1].s, "b,c", 3) == 0 && f[1].col == 4 && f[1].quoted);
    ck_assert(f[2].len == 0 && f[2].col == 11);
    ck_assert(f[3].len == 4 && strncmp(f[3].s, "d\"\"e", 4) == 0 && f[3].col == 12);
    char buf[8];
    ck_assert_uint_eq(cs_csv_field_copy(&f[3], buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "d\"e");
    ck_assert_uint_eq(cs_csv_field_copy(&f[1], buf, 3), 3);  /* truncated to 2 + NUL */
    ck_assert_str_eq(buf, "b,");
    /* An empty line is one empty field; a trailing comma adds one. */
    ck_assert_int_eq(cs_csv_split("", 0, f, 8, NULL), 1);
    ck_assert_int_eq(cs_csv_split("x,", 2, f, 8, NULL), 2);
    ck_assert_uint_eq(f[1].len, 0);
}
END_TEST

START_TEST(test_csv_errors)
{
    struct cs_csv_field f[2];
    int bad = 0;
    ck_assert_int_eq(cs_csv_split("a,b,c", 5, f, 2, &bad), -1);
    ck_assert_int_eq(bad, 5);  /* the third field */
    ck_assert_int_eq(cs_csv_split("a,\"bc", 5, f, 2, &bad), -2);
    ck_assert_int_eq(bad, 3);  /* the opening quote */
    ck_assert_int_eq(cs_csv_split("\"a\"x", 4, f, 2, &bad), -2);
    ck_assert_int_eq(bad, 4);  /* text after the closing quote */
}
END_TEST

START_TEST(test_csv_inplace)
{
    char line[] = " m , \"say \"\"hi\"\"\",7 ";
    char *fields[4];
    int cols[4];
    ck_assert_int_eq(cs_csv_split_inplace(line, fields, cols, 4, NULL), 3);
    ck_assert_str_eq(fields[0], "m");
    ck_assert_str_eq(fields[1], "say \"hi\"");
    ck_assert_str_eq(fields[2], "7");
    ck_assert_int_eq(cols[0], 2);
    ck_assert_int_eq(cols[1], 6);
    ck_assert_int_eq(cols[2], 19);
}
END_TEST

/* The one text-cell writer (base/csv.h): RFC 4180 quoting only where it
 * must, and the formula cells of OWASP's CSV-injection list neutralised by
 * a leading apostrophe inside quotes; whole numbers and a lone "-" kept. */
static char *cell(const char *s, bool always)
{
    struct cs_strbuf b = {0};
    cs_csv_text(&b, s, always);
    if (!b.s)
        cs_strbuf_puts(&b, "");
    return b.s;
}

#define CELL_IS(in, always, want)            \
    do {                                     \
        char *got_ = cell((in), (always));   \
        ck_assert_str_eq(got_, (want));      \
        free(got_);                          \
    } while (0)

START_TEST(test_csv_write_quoting)
{
    CELL_IS("plain", false, "plain");
    CELL_IS("plain", true, "\"plain\"");
    CELL_IS("", false, "");
    CELL_IS(NULL, true, "\"\"");
    CELL_IS("a,b", false, "\"a,b\"");
    CELL_IS("big \"test\", 2", false, "\"big \"\"test\"\", 2\"");
    CELL_IS("two\nlines", false, "\"two\nlines\"");
    CELL_IS("cr\r", false, "\"cr\r\"");
    CELL_IS(" padded", false, "\" padded\""); /* readers trim unquoted blanks */
    /* what the writer wrote, split back: one field, the text intact */
    char *w = cell("x,\"y\"", false);
    struct cs_csv_field f[4];
    ck_assert_int_eq(cs_csv_split(w, strlen(w), f, 4, NULL), 1);
    char back[32];
    cs_csv_field_copy(&f[0], back, sizeof back);
    ck_assert_str_eq(back, "x,\"y\"");
    free(w);
}
END_TEST

START_TEST(test_csv_write_formulas)
{
    CELL_IS("=1+2", false, "\"'=1+2\"");
    CELL_IS("=HYPERLINK(\"http://x\")", false, "\"'=HYPERLINK(\"\"http://x\"\")\"");
    CELL_IS("+cmd|' /C calc'!A0", false, "\"'+cmd|' /C calc'!A0\"");
    CELL_IS("-2+3", false, "\"'-2+3\"");
    CELL_IS("@SUM(A1)", false, "\"'@SUM(A1)\"");
    CELL_IS("\t=1", false, "\"'\t=1\"");
    CELL_IS("=x", true, "\"'=x\"");
    /* numbers and the "none" placeholder are data */
    CELL_IS("-3", false, "-3");
    CELL_IS("+1e9", false, "+1e9");
    CELL_IS("-0.5", false, "-0.5");
    CELL_IS("-.5E-3", false, "-.5E-3");
    CELL_IS("-", false, "-");
    CELL_IS("-e5", false, "\"'-e5\"");
    CELL_IS("-1e", false, "\"'-1e\"");
    CELL_IS("a=b", false, "a=b"); /* only the first character counts */
    ck_assert(cs_csv_is_formula("=A1"));
    ck_assert(!cs_csv_is_formula("A1"));
    ck_assert(!cs_csv_is_formula(""));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("csv");
    TCase *tc = tcase_create("split");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_csv_spans);
    tcase_add_test(tc, test_csv_errors);
    tcase_add_test(tc, test_csv_inplace);
    suite_add_tcase(s, tc);
    TCase *tw = tcase_create("write");
    tcase_set_timeout(tw, 10);
    tcase_add_test(tw, test_csv_write_quoting);
    tcase_add_test(tw, test_csv_write_formulas);
    suite_add_tcase(s, tw);
    return s;
}

int main(void) { return cs_test_run(suite()); }
