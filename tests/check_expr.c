/* check_expr.c: the derive:/constraints: expression language
 * (config/expr.c). Every expected value is worked out by hand from the
 * grammar in clustersim/config/expr.h; the comments show the working. */
#include "clustersim/config/expr.h"
#include "test_util.h"

#include <check.h>
#include <string.h>

/* x = 6, zero = 0, tp2 = 3, cluster.nodes = 4; anything else is unknown. */
static bool names(void *ctx, const char *name, size_t len, double *out)
{
    static const struct {
        const char *n;
        double v;
    } tab[] = {{"x", 6}, {"zero", 0}, {"tp2", 3}, {"cluster.nodes", 4}};
    int *calls = ctx;
    if (calls)
        (*calls)++;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strlen(tab[i].n) == len && memcmp(tab[i].n, name, len) == 0) {
            *out = tab[i].v;
            return true;
        }
    return false;
}

static double ok(const char *e)
{
    double v = -12345;
    char err[256] = "";
    ck_assert_msg(cs_expr_eval(e, names, NULL, &v, err, sizeof err), "\"%s\": %s", e, err);
    return v;
}

/* Fails to evaluate; *out is untouched; the message is exactly `want`. */
static void bad(const char *e, const char *want)
{
    double v = 42;
    char err[256] = "";
    ck_assert_msg(!cs_expr_eval(e, names, NULL, &v, err, sizeof err), "\"%s\" evaluated", e);
    ck_assert_double_eq(v, 42);
    ck_assert_msg(strcmp(err, want) == 0, "\"%s\": got \"%s\", want \"%s\"", e, err, want);
}

START_TEST(test_expr_precedence)
{
    ck_assert_double_eq(ok("2 + 3 * 4"), 14);  /* 2 + 12 */
    ck_assert_double_eq(ok("2 * 3 + 4"), 10);  /* 6 + 4 */
    ck_assert_double_eq(ok("10 - 4 - 3"), 3);  /* (10 - 4) - 3, not 10 - 1 */
    ck_assert_double_eq(ok("64 / 4 / 2"), 8);  /* (64 / 4) / 2, not 64 / 2 */
    ck_assert_double_eq(ok("7 % 3 * 2"), 2);   /* (7 % 3) * 2 = 1 * 2 */
    ck_assert_double_eq(ok("2 + 3 < 6"), 1);   /* 5 < 6; not 2 + (3 < 6) = 3 */
    ck_assert_double_eq(ok("3 > 2 > 1"), 0);   /* (3 > 2) > 1 = 1 > 1 */
    ck_assert_double_eq(ok("1 < 2 == 1"), 1);  /* (1 < 2) == 1 */
    ck_assert_double_eq(ok("1 || 0 && 0"), 1); /* 1 || (0 && 0); left to right would be 0 */
    ck_assert_double_eq(ok("0 && 1 || 1"), 1); /* (0 && 1) || 1 */
    ck_assert_double_eq(ok("1 + 1 == 2 && 2 * 2 == 4"), 1);
    ck_assert_double_eq(ok("-2 * 3"), -6);
    ck_assert_double_eq(ok("2 - -1"), 3);
    ck_assert_double_eq(ok("- -1"), 1);
    ck_assert_double_eq(ok("+5"), 5);
    ck_assert_double_eq(ok("!0 + 1"), 2);      /* (!0) + 1 */
    ck_assert_double_eq(ok("!x == 0"), 1);     /* (!6) == 0 = 0 == 0 */
    ck_assert_double_eq(ok("-7 % 3"), -1);     /* fmod keeps the dividend's sign */
    ck_assert_double_eq(ok("7.5 % 2"), 1.5);
    ck_assert_double_eq(ok("x / (1 + 2) % 4"), 2); /* (6 / 3) % 4 */
    /* Comparisons give exactly 1 or 0; any nonzero operand is true. */
    ck_assert_double_eq(ok("x <= 6"), 1);
    ck_assert_double_eq(ok("x < 6"), 0);
    ck_assert_double_eq(ok("x >= 7"), 0);
    ck_assert_double_eq(ok("x > 5"), 1);
    ck_assert_double_eq(ok("x == 6"), 1);
    ck_assert_double_eq(ok("x != 6"), 0);
    ck_assert_double_eq(ok("x && 2"), 1);
    ck_assert_double_eq(ok("zero || -3"), 1);
    ck_assert_double_eq(ok("x >= 6 && !(x == 5) || 0"), 1);
}
END_TEST

START_TEST(test_expr_parentheses_numbers_names)
{
    ck_assert_double_eq(ok("(2 + 3) * 4"), 20);
    ck_assert_double_eq(ok("(2 + 3) * 4 - -1"), 21);
    ck_assert_double_eq(ok("2 * (3 + 4)"), 14);
    ck_assert_double_eq(ok("-(2 + 3) * 2"), -10);
    ck_assert_double_eq(ok("!(0 + 1)"), 0);
    ck_assert_double_eq(ok("((1))"), 1);
    ck_assert_double_eq(ok("64 / (4 / 2)"), 32);
    ck_assert_double_eq(ok("\t1 +\t2 "), 3);
    ck_assert_double_eq(ok(".5 * 4"), 2);
    ck_assert_double_eq(ok("1e3 / 10"), 100);
    ck_assert_double_eq(ok("2.5"), 2.5);
    ck_assert_double_eq(ok("cluster.nodes * 2"), 8);
    ck_assert_double_eq(ok("tp2*tp2"), 9);
    ck_assert_double_eq(ok("x / (tp2 * 2)"), 1);
    /* The lookup is asked once per name occurrence. */
    int calls = 0;
    double v;
    ck_assert(cs_expr_eval("x + x * tp2", names, &calls, &v, NULL, 0));
    ck_assert_double_eq(v, 24);
    ck_assert_int_eq(calls, 3);
    /* Nesting: a number inside 63 parentheses is 64 levels, the limit. */
    char deep[300];
    memset(deep, '(', 63);
    deep[63] = '7';
    memset(deep + 64, ')', 63);
    deep[127] = '\0';
    ck_assert_double_eq(ok(deep), 7);
    memset(deep, '-', 63);
    deep[63] = '1';
    deep[64] = '\0';
    ck_assert_double_eq(ok(deep), -1); /* 63 minus signs: (-1)^63 */
}
END_TEST

START_TEST(test_expr_division_by_zero)
{
    bad("1 / 0", "division by zero");
    bad("1 % 0", "division by zero");
    bad("0 / 0", "division by zero");
    bad("x / (x - 6)", "division by zero");
    bad("1 / zero + 5", "division by zero");
    bad("2 * (3 % (tp2 - 3))", "division by zero");
    ck_assert_double_eq(ok("1 / 0.5"), 2);
    ck_assert_double_eq(ok("zero / 4"), 0);
    /* Not finite: overflow in the arithmetic, or in a literal. */
    bad("1e308 * 10", "the result is not a finite number");
    bad("1e400", "bad number at column 1");
    bad("2 + 1e999", "bad number at column 5");
}
END_TEST

START_TEST(test_expr_unknown_names)
{
    bad("y + 1", "unknown name or not a number: y");
    bad("x + yy_z", "unknown name or not a number: yy_z");
    bad("cluster.gpus", "unknown name or not a number: cluster.gpus");
    bad("x.", "unknown name or not a number: x.");
    bad("system(1)", "unknown name or not a number: system"); /* no calls */
    /* The first error is reported, not the last. */
    bad("a / 0", "unknown name or not a number: a");
    bad("1 / 0 + b", "division by zero");
}
END_TEST

START_TEST(test_expr_malformed)
{
    bad("", "expression ends too early");
    bad("   ", "expression ends too early");
    bad("1 +", "expression ends too early");
    bad("-", "expression ends too early");
    bad("(1 + 2", "expected ')' at column 7");
    bad("1 + 2)", "unexpected ')' at column 6");
    bad("2 3", "unexpected '3' at column 3");
    bad("1 # 2", "unexpected '#' at column 3");
    bad("1 = 2", "unexpected '=' at column 3"); /* no assignment */
    bad("1 & 2", "unexpected '&' at column 3");
    bad("1 | 2", "unexpected '|' at column 3");
    bad("* 2", "unexpected '*' at column 1");
    bad("1 + * 2", "unexpected '*' at column 5");
    bad("()", "unexpected ')' at column 2");
    bad("1 2 3", "unexpected '2' at column 3");
    /* One level too many: 64 parentheses around a number, 64 minus signs. */
    char deep[300];
    memset(deep, '(', 64);
    deep[64] = '1';
    memset(deep + 65, ')', 64);
    deep[129] = '\0';
    bad(deep, "expression nested too deeply (more than 64 levels)");
    memset(deep, '-', 64);
    deep[64] = '1';
    deep[65] = '\0';
    bad(deep, "expression nested too deeply (more than 64 levels)");
    memset(deep, '(', 200);
    deep[200] = '\0';
    bad(deep, "expression nested too deeply (more than 64 levels)");
}
END_TEST

START_TEST(test_expr_error_buffer)
{
    double v = 3;
    /* No buffer: still false, nothing written. */
    ck_assert(!cs_expr_eval("1 / 0", names, NULL, &v, NULL, 0));
    ck_assert_double_eq(v, 3);
    /* A short buffer holds a terminated prefix of the message. */
    char err[8];
    memset(err, 'z', sizeof err);
    ck_assert(!cs_expr_eval("1 / 0", names, NULL, &v, err, sizeof err));
    ck_assert_str_eq(err, "divisio");
}
END_TEST

static Suite *expr_suite(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("expr");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_expr_precedence);
    tcase_add_test(tc, test_expr_parentheses_numbers_names);
    tcase_add_test(tc, test_expr_division_by_zero);
    tcase_add_test(tc, test_expr_unknown_names);
    tcase_add_test(tc, test_expr_malformed);
    tcase_add_test(tc, test_expr_error_buffer);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(expr_suite()); }
