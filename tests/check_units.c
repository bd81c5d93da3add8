/* check_units.c: Check suite for config/units.c: parsing every kind of
 * quantity into SI values, every kind of rejection with its message, and
 * formatting back for people. Expected values are derived by hand in the
 * comments. */
#include "clustersim/base/numparse.h"
#include "clustersim/base/units.h"

#include "test_util.h"

#include <math.h>
#include <string.h>

#define SENTINEL 123.456

/* Parses `text` as `kind` and checks the value within a relative 1e-12. */
static void check_value(const char *text, enum cs_unit_kind kind, double want)
{
    double v = SENTINEL;
    char err[256] = "";
    cs_status st = cs_units_parse(text, kind, &v, err, sizeof err);
    ck_assert_msg(st == CS_OK, "\"%s\": %s (%s)", text, cs_strerror(st), err);
    ck_assert_msg(fabs(v - want) <= 1e-12 * fabs(want), "\"%s\" -> %.17g, want %.17g", text, v,
                  want);
}

/* Parses `text` expecting failure `want_st`; checks that *out is untouched
 * and that the message contains `want_msg`. */
static void check_reject(const char *text, enum cs_unit_kind kind, cs_status want_st,
                         const char *want_msg)
{
    double v = SENTINEL;
    char err[256] = "";
    cs_status st = cs_units_parse(text, kind, &v, err, sizeof err);
    ck_assert_msg(st == want_st, "\"%s\": got %s, want %s (%s)", text, cs_strerror(st),
                  cs_strerror(want_st), err);
    ck_assert_msg(v == SENTINEL, "\"%s\": *out was written on failure", text);
    ck_assert_msg(strstr(err, want_msg) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text, err,
                  want_msg);
}

START_TEST(test_units_bytes)
{
    check_value("80GiB", CS_UNIT_BYTES, 85899345920.0); /* 80 * 2^30 */
    check_value("1.5 MiB", CS_UNIT_BYTES, 1572864.0);   /* 1.5 * 2^20 */
    check_value("16TB", CS_UNIT_BYTES, 16e12);
    check_value("1 KB", CS_UNIT_BYTES, 1000.0);
    check_value("1kB", CS_UNIT_BYTES, 1000.0);
    check_value("2PiB", CS_UNIT_BYTES, 2251799813685248.0); /* 2 * 2^50 */
    check_value("512", CS_UNIT_BYTES, 512.0);               /* plain number = bytes */
    check_value("  141GB  ", CS_UNIT_BYTES, 141e9);
}
END_TEST

START_TEST(test_units_bandwidth)
{
    check_value("400Gbps", CS_UNIT_BANDWIDTH, 5e10); /* 400e9 bits / 8 */
    check_value("50GB/s", CS_UNIT_BANDWIDTH, 5e10);
    check_value("100 Mbps", CS_UNIT_BANDWIDTH, 1.25e7);
    check_value("200Gb/s", CS_UNIT_BANDWIDTH, 2.5e10);
    check_value("1.6Tbps", CS_UNIT_BANDWIDTH, 2e11);
    check_value("25GiB/s", CS_UNIT_BANDWIDTH, 26843545600.0); /* 25 * 2^30 */
    check_value("3.35TB/s", CS_UNIT_BANDWIDTH, 3.35e12);
    check_value("8bps", CS_UNIT_BANDWIDTH, 1.0);
}
END_TEST

START_TEST(test_units_time)
{
    check_value("90s", CS_UNIT_TIME, 90.0);
    check_value("15min", CS_UNIT_TIME, 900.0);
    check_value("1h", CS_UNIT_TIME, 3600.0);
    check_value("54d", CS_UNIT_TIME, 4665600.0);   /* 54 * 86400 */
    check_value("1y", CS_UNIT_TIME, 31536000.0);   /* 365 * 86400 */
    check_value("2w", CS_UNIT_TIME, 1209600.0);    /* 14 * 86400 */
    check_value("50000h", CS_UNIT_TIME, 1.8e8);    /* 50000 * 3600 */
    check_value("500ms", CS_UNIT_TIME, 0.5);
    check_value("2us", CS_UNIT_TIME, 2e-6);
    check_value("2\xC2\xB5s", CS_UNIT_TIME, 2e-6); /* micro sign */
    check_value("10ns", CS_UNIT_TIME, 1e-8);
    check_value("3 hours", CS_UNIT_TIME, 10800.0);
}
END_TEST

START_TEST(test_units_power_money)
{
    check_value("700W", CS_UNIT_POWER, 700.0);
    check_value("1.2kW", CS_UNIT_POWER, 1200.0);
    check_value("2MW", CS_UNIT_POWER, 2e6);
    check_value("$30000", CS_UNIT_MONEY, 30000.0);
    check_value("$30K", CS_UNIT_MONEY, 30000.0);
    check_value("$1.2M", CS_UNIT_MONEY, 1200000.0);
    check_value("$3B", CS_UNIT_MONEY, 3e9);
    check_value("250000", CS_UNIT_MONEY, 250000.0);
}
END_TEST

START_TEST(test_units_rates)
{
    check_value("$2.10/GPU-h", CS_UNIT_USD_PER_GPU_HOUR, 2.10);
    check_value("$6.88/GPU-hr", CS_UNIT_USD_PER_GPU_HOUR, 6.88);
    check_value("$3.50/GPU-hour", CS_UNIT_USD_PER_GPU_HOUR, 3.50);
    check_value("$0.08/kWh", CS_UNIT_USD_PER_KWH, 0.08);
    check_value("$80/MWh", CS_UNIT_USD_PER_KWH, 0.08); /* 80 / 1000 */
    check_value("$184/kW-month", CS_UNIT_USD_PER_KW_MONTH, 184.0);
    check_value("$120/TB", CS_UNIT_USD_PER_TB, 120.0);
    check_value("$0.023/GB", CS_UNIT_USD_PER_TB, 23.0); /* 0.023 * 1000 GB per TB */
    check_value("0.08/kWh", CS_UNIT_USD_PER_KWH, 0.08);  /* '$' is optional */
}
END_TEST

START_TEST(test_units_count_flops_ratio)
{
    check_value("2T", CS_UNIT_COUNT, 2e12);
    check_value("300B", CS_UNIT_COUNT, 3e11);
    check_value("1.5M", CS_UNIT_COUNT, 1.5e6);
    check_value("10K", CS_UNIT_COUNT, 1e4);
    check_value("1536", CS_UNIT_COUNT, 1536.0);
    check_value("989TFLOPS", CS_UNIT_FLOPS, 9.89e14);
    check_value("312 TFLOP/s", CS_UNIT_FLOPS, 3.12e14);
    check_value("1.9PFLOPS", CS_UNIT_FLOPS, 1.9e15);
    check_value("0.7", CS_UNIT_RATIO, 0.7);
    /* The decimal exponent is shifted before strtod, so these are exact. */
    double v = 0;
    ck_assert_int_eq(cs_units_parse("70%", CS_UNIT_RATIO, &v, NULL, 0), CS_OK);
    ck_assert_double_eq(v, 0.7);
    ck_assert_int_eq(cs_units_parse("$1.2M", CS_UNIT_MONEY, &v, NULL, 0), CS_OK);
    ck_assert_double_eq(v, 1200000.0);
    ck_assert_int_eq(cs_units_parse("1.2e3", CS_UNIT_COUNT, &v, NULL, 0), CS_OK);
    ck_assert_double_eq(v, 1200.0);
    ck_assert_int_eq(cs_units_parse("2e3K", CS_UNIT_COUNT, &v, NULL, 0), CS_OK);
    ck_assert_double_eq(v, 2e6);
}
END_TEST

START_TEST(test_units_negative)
{
    /* A leading '-' parses, so the caller can say "must be positive". */
    check_value("-5GB/s", CS_UNIT_BANDWIDTH, -5e9);
    check_value("-$5", CS_UNIT_MONEY, -5.0);
    check_value("$-5K", CS_UNIT_MONEY, -5000.0);
    check_value("+90s", CS_UNIT_TIME, 90.0);
}
END_TEST

START_TEST(test_units_reject_text)
{
    check_reject("", CS_UNIT_BANDWIDTH, CS_EINVAL, "got an empty string");
    check_reject("   ", CS_UNIT_BANDWIDTH, CS_EINVAL, "got an empty string");
    check_reject(NULL, CS_UNIT_TIME, CS_EINVAL, "got an empty string");
    check_reject("fast", CS_UNIT_BANDWIDTH, CS_EINVAL,
                 "expected a bandwidth like \"400Gbps\" or \"50GB/s\", got \"fast\"");
    check_reject("NaN", CS_UNIT_BYTES, CS_EINVAL, "got \"NaN\"");
    check_reject("nan", CS_UNIT_RATIO, CS_EINVAL, "got \"nan\"");
    check_reject("inf", CS_UNIT_BYTES, CS_EINVAL, "got \"inf\"");
    check_reject("-inf", CS_UNIT_TIME, CS_EINVAL, "got \"-inf\"");
    check_reject("$", CS_UNIT_MONEY, CS_EINVAL, "expected an amount of money");
    check_reject("$30K", CS_UNIT_COUNT, CS_EINVAL, "expected a count");
}
END_TEST

START_TEST(test_units_reject_range)
{
    check_reject("1e999", CS_UNIT_BYTES, CS_ERANGE, "out of range");
    check_reject("1e999GB/s", CS_UNIT_BANDWIDTH, CS_ERANGE, "out of range");
    check_reject("1e-999s", CS_UNIT_TIME, CS_ERANGE, "out of range");
    /* Finite number, infinite after scaling: 1e300 * 1e15. */
    check_reject("1e300PB", CS_UNIT_BYTES, CS_ERANGE, "out of range");
    check_reject("1e99999999999999999999", CS_UNIT_COUNT, CS_ERANGE, "out of range");
}
END_TEST

START_TEST(test_units_reject_unit)
{
    check_reject("10 Gbs", CS_UNIT_BANDWIDTH, CS_EINVAL,
                 "unknown unit \"Gbs\" in \"10 Gbs\" (did you mean \"Gbps\"?)");
    /* Case matters (bits vs bytes); the suggestion has the right case. */
    check_reject("400gbps", CS_UNIT_BANDWIDTH, CS_EINVAL, "(did you mean \"Gbps\"?)");
    check_reject("10GBs", CS_UNIT_BANDWIDTH, CS_EINVAL, "(did you mean \"GB/s\"?)");
    check_reject("80gib", CS_UNIT_BYTES, CS_EINVAL, "(did you mean \"GiB\"?)");
    check_reject("5 parsecs", CS_UNIT_TIME, CS_EINVAL, "unknown unit \"parsecs\"");
    /* A unit of another kind says so. */
    check_reject("50GB", CS_UNIT_BANDWIDTH, CS_EINVAL,
                 "\"GB\" is a unit of a size in bytes, not of a bandwidth");
    check_reject("700W", CS_UNIT_TIME, CS_EINVAL, "\"W\" is a unit of a power");
    /* Plain numbers only where documented. */
    check_reject("90", CS_UNIT_TIME, CS_EINVAL,
                 "missing unit in \"90\": expected a duration like \"90s\"");
    check_reject("400", CS_UNIT_BANDWIDTH, CS_EINVAL, "missing unit");
    check_reject("0.08", CS_UNIT_USD_PER_KWH, CS_EINVAL, "missing unit");
}
END_TEST

START_TEST(test_units_reject_trailing)
{
    check_reject("5GB/s extra", CS_UNIT_BANDWIDTH, CS_EINVAL,
                 "unexpected \"extra\" after \"5GB/s\"");
    check_reject("5 GB/s 6", CS_UNIT_BANDWIDTH, CS_EINVAL, "unexpected \"6\" after \"5 GB/s\"");
    check_reject("5 5GB/s", CS_UNIT_BANDWIDTH, CS_EINVAL, "expected one number");
    check_reject("1.2.3GB", CS_UNIT_BYTES, CS_EINVAL, "expected one number");
    check_reject("0x10", CS_UNIT_BYTES, CS_EINVAL, "unknown unit \"x10\"");
    check_reject("70%%", CS_UNIT_RATIO, CS_EINVAL, "unknown unit \"%%\"");
}
END_TEST

START_TEST(test_units_reject_misc)
{
    double v = SENTINEL;
    char err[8];
    /* Truncated message, NUL-terminated. */
    ck_assert_int_eq(cs_units_parse("fast", CS_UNIT_TIME, &v, err, sizeof err), CS_EINVAL);
    ck_assert_uint_eq(strlen(err), sizeof err - 1);
    /* No message buffer at all. */
    ck_assert_int_eq(cs_units_parse("fast", CS_UNIT_TIME, &v, NULL, 0), CS_EINVAL);
    ck_assert_int_eq(cs_units_parse("1s", (enum cs_unit_kind)99, &v, NULL, 0), CS_EINVAL);
    ck_assert(v == SENTINEL);
}
END_TEST

START_TEST(test_units_names)
{
    ck_assert_str_eq(cs_units_example(CS_UNIT_BANDWIDTH), "400Gbps");
    ck_assert_str_eq(cs_units_example(CS_UNIT_USD_PER_GPU_HOUR), "$2.10/GPU-h");
    ck_assert_str_eq(cs_units_kind_name(CS_UNIT_BANDWIDTH), "a bandwidth");
    ck_assert_str_eq(cs_units_kind_name(CS_UNIT_TIME), "a duration");
    ck_assert_str_eq(cs_units_kind_name((enum cs_unit_kind)99), "a quantity");
    /* Every kind's example parses as that kind. */
    for (int k = 0; k < CS_UNIT_KIND_COUNT; k++) {
        double v;
        char err[256];
        ck_assert_msg(cs_units_parse(cs_units_example((enum cs_unit_kind)k),
                                     (enum cs_unit_kind)k, &v, err, sizeof err) == CS_OK,
                      "example of kind %d: %s", k, err);
    }
}
END_TEST

static void check_format(double v, enum cs_unit_kind kind, const char *want)
{
    char buf[64];
    ck_assert_ptr_eq(cs_units_format(v, kind, buf, sizeof buf), buf);
    ck_assert_msg(strcmp(buf, want) == 0, "%.17g -> \"%s\", want \"%s\"", v, buf, want);
}

START_TEST(test_units_format)
{
    check_format(5e10, CS_UNIT_BANDWIDTH, "50 GB/s");
    check_format(7.2e3, CS_UNIT_TIME, "2 h");
    check_format(90, CS_UNIT_TIME, "1.5 min");
    check_format(4665600, CS_UNIT_TIME, "54 d");
    check_format(31536000, CS_UNIT_TIME, "1 y");
    check_format(0.5, CS_UNIT_TIME, "500 ms");
    check_format(0, CS_UNIT_TIME, "0 s");
    check_format(85899345920.0, CS_UNIT_BYTES, "80 GiB");
    check_format(1e12, CS_UNIT_BYTES, "1 TB");
    check_format(1234567, CS_UNIT_BYTES, "1.235 MB");
    check_format(700, CS_UNIT_POWER, "700 W");
    check_format(1200, CS_UNIT_POWER, "1.2 kW");
    check_format(30000, CS_UNIT_MONEY, "$30K");
    check_format(2.1, CS_UNIT_MONEY, "$2.10");
    check_format(-1.2e6, CS_UNIT_MONEY, "-$1.2M");
    check_format(2.1, CS_UNIT_USD_PER_GPU_HOUR, "$2.1/GPU-h");
    check_format(0.08, CS_UNIT_USD_PER_KWH, "$0.08/kWh");
    check_format(184, CS_UNIT_USD_PER_KW_MONTH, "$184/kW-month");
    check_format(120, CS_UNIT_USD_PER_TB, "$120/TB");
    check_format(2e12, CS_UNIT_COUNT, "2T");
    check_format(3e11, CS_UNIT_COUNT, "300B");
    check_format(42, CS_UNIT_COUNT, "42");
    check_format(9.89e14, CS_UNIT_FLOPS, "989 TFLOP/s");
    check_format(0.7, CS_UNIT_RATIO, "70%");
    check_format(NAN, CS_UNIT_TIME, "nan");
    check_format(-INFINITY, CS_UNIT_BYTES, "-inf");
    /* Truncation keeps the string terminated. */
    char small[4];
    cs_units_format(5e10, CS_UNIT_BANDWIDTH, small, sizeof small);
    ck_assert_str_eq(small, "50 ");
}
END_TEST

START_TEST(test_units_format_roundtrip)
{
    /* Formatted text parses back to the value within 4 significant digits. */
    static const struct {
        double v;
        enum cs_unit_kind kind;
    } cases[] = {{5e10, CS_UNIT_BANDWIDTH}, {85899345920.0, CS_UNIT_BYTES},
                 {4665600, CS_UNIT_TIME},   {1200, CS_UNIT_POWER},
                 {30000, CS_UNIT_MONEY},    {2e12, CS_UNIT_COUNT},
                 {9.89e14, CS_UNIT_FLOPS},  {0.7, CS_UNIT_RATIO},
                 {0.08, CS_UNIT_USD_PER_KWH}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64], err[256];
        double back = 0;
        cs_units_format(cases[i].v, cases[i].kind, buf, sizeof buf);
        ck_assert_msg(cs_units_parse(buf, cases[i].kind, &back, err, sizeof err) == CS_OK,
                      "\"%s\": %s", buf, err);
        ck_assert_double_eq_tol(back, cases[i].v, 1e-4 * cases[i].v);
    }
}
END_TEST


/* Strict plain numbers (base/numparse.c): the whole string, finite, decimal. */
START_TEST(test_units_strict_numbers)
{
    double d = 7.0;
    ck_assert(cs_num_parse_double("12", &d) && d == 12.0);
    ck_assert(cs_num_parse_double("-3.5e9", &d) && d == -3.5e9);
    ck_assert(cs_num_parse_double(".5", &d) && d == 0.5);
    ck_assert(cs_num_parse_double("+2", &d) && d == 2.0);
    d = 7.0;
    const char *bad[] = {"", " 1", "1 ", "1x", "inf", "-inf", "nan", "0x10", "1e999", "-", ".", "e5", NULL};
    for (int i = 0; bad[i]; i++)
        ck_assert_msg(!cs_num_parse_double(bad[i], &d), "accepted \"%s\"", bad[i]);
    ck_assert(d == 7.0);  /* untouched on failure */
    ck_assert(!cs_num_parse_double(NULL, &d));
    long v = 3;
    ck_assert(cs_num_parse_long("42", 10, 0, 100, &v) && v == 42);
    ck_assert(cs_num_parse_long("-5", 10, -10, 10, &v) && v == -5);
    ck_assert(cs_num_parse_long("0x10", 0, 0, 100, &v) && v == 16);
    v = 3;
    ck_assert(!cs_num_parse_long("0x10", 10, 0, 100, &v));
    ck_assert(!cs_num_parse_long("101", 10, 0, 100, &v));   /* over max */
    ck_assert(!cs_num_parse_long("-1", 10, 0, 100, &v));    /* under min */
    ck_assert(!cs_num_parse_long("", 10, 0, 100, &v));      /* empty: --samples "" once read 0 */
    ck_assert(!cs_num_parse_long("1.5", 10, 0, 100, &v));
    ck_assert(!cs_num_parse_long(" 1", 10, 0, 100, &v));
    ck_assert(!cs_num_parse_long("99999999999999999999", 10, 0, 100000, &v));
    ck_assert(v == 3);
}
END_TEST

static Suite *units_suite(void)
{
    Suite *s = suite_create("units");
    TCase *tc = tcase_create("parse");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_units_bytes);
    tcase_add_test(tc, test_units_strict_numbers);
    tcase_add_test(tc, test_units_bandwidth);
    tcase_add_test(tc, test_units_time);
    tcase_add_test(tc, test_units_power_money);
    tcase_add_test(tc, test_units_rates);
    tcase_add_test(tc, test_units_count_flops_ratio);
    tcase_add_test(tc, test_units_negative);
    suite_add_tcase(s, tc);

    TCase *tr = tcase_create("reject");
    tcase_set_timeout(tr, 10);
    tcase_add_test(tr, test_units_reject_text);
    tcase_add_test(tr, test_units_reject_range);
    tcase_add_test(tr, test_units_reject_unit);
    tcase_add_test(tr, test_units_reject_trailing);
    tcase_add_test(tr, test_units_reject_misc);
    suite_add_tcase(s, tr);

    TCase *tf = tcase_create("format");
    tcase_set_timeout(tf, 10);
    tcase_add_test(tf, test_units_names);
    tcase_add_test(tf, test_units_format);
    tcase_add_test(tf, test_units_format_roundtrip);
    suite_add_tcase(s, tf);
    return s;
}

int main(void) { return cs_test_run(units_suite()); }
