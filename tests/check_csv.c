/* check_csv.c: the CSV line splitter (base/csv.c) that the trace,
 * reference-table and calibration readers share: plain, quoted and empty
 * fields, doubled quotes, blanks, columns, and the two errors. */
#include "clustersim/base/csv.h"
#include "test_util.h"

#include <check.h>
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

static Suite *suite(void)
{
    Suite *s = suite_create("csv");
    TCase *tc = tcase_create("split");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_csv_spans);
    tcase_add_test(tc, test_csv_errors);
    tcase_add_test(tc, test_csv_inplace);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(suite()); }
