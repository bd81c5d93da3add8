/* check_numfmt.c: the report's number formatter (report/numfmt.c) on
 * values worked by hand: separators every three integer digits, rounding
 * at the stated decimals, the unit chosen by magnitude, and no exponent
 * notation however large or small the value. */
#include "clustersim/report/numfmt.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <string.h>

static char b[128];

START_TEST(test_fixed_separators_and_rounding)
{
    ck_assert_str_eq(cs_fmt_fixed(1234567.891, 2, b, sizeof b), "1,234,567.89");
    ck_assert_str_eq(cs_fmt_fixed(999.5, 0, b, sizeof b),
                     "1,000"); /* 999.5 is exact; printf rounds it to even */
    ck_assert_str_eq(cs_fmt_fixed(100, 0, b, sizeof b), "100");
    ck_assert_str_eq(cs_fmt_fixed(1000, 0, b, sizeof b), "1,000");
    ck_assert_str_eq(cs_fmt_fixed(-1234.5, 1, b, sizeof b), "-1,234.5");
    ck_assert_str_eq(cs_fmt_fixed(-0.004, 2, b, sizeof b), "0.00"); /* no "-0.00" */
    ck_assert_str_eq(cs_fmt_fixed(12, 0, b, sizeof b), "12");
    ck_assert_str_eq(cs_fmt_fixed(NAN, 2, b, sizeof b), "n/a");
    ck_assert_str_eq(cs_fmt_fixed(INFINITY, 2, b, sizeof b), "n/a");
    /* 1e20 = 100,000,000,000,000,000,000 (21 digits, 6 separators), exactly
     * representable: no "1e+20". */
    ck_assert_str_eq(cs_fmt_fixed(1e20, 0, b, sizeof b), "100,000,000,000,000,000,000");
}
END_TEST

START_TEST(test_sig_digits)
{
    ck_assert_str_eq(cs_fmt_sig(0.0012345, 3, b, sizeof b), "0.00123");
    ck_assert_str_eq(cs_fmt_sig(98765.4, 3, b, sizeof b), "98,765"); /* integer digits kept */
    ck_assert_str_eq(cs_fmt_sig(3.14159, 4, b, sizeof b), "3.142");
    ck_assert_str_eq(cs_fmt_sig(9.996, 3, b, sizeof b), "10.0"); /* rounds up a decade: 3 digits */
    ck_assert_str_eq(cs_fmt_sig(0, 3, b, sizeof b), "0");
    /* 1.5e-7 to 3 digits would need 9 + decimals: capped at 9, no exponent */
    ck_assert_str_eq(cs_fmt_sig(1.5e-7, 3, b, sizeof b), "0.000000150");
    ck_assert_ptr_null(strchr(cs_fmt_sig(1e-30, 3, b, sizeof b), 'e'));
}
END_TEST

/* cs_fmt_g4: "%.4g" below 10,000 ("2062", "0.04626"), whole with
 * separators from 10,000 ("31,905", "1,781,766", "-20,000,000,000"),
 * where "%.4g" would print 3.19e+04, 1.782e+06 and -2e+10. */
START_TEST(test_g4_no_exponent)
{
    char g[64];
    ck_assert_str_eq(cs_fmt_g4(2062.3, g, sizeof g), "2062");
    ck_assert_str_eq(cs_fmt_g4(0.04626, g, sizeof g), "0.04626");
    ck_assert_str_eq(cs_fmt_g4(31905, g, sizeof g), "31,905");
    ck_assert_str_eq(cs_fmt_g4(1781766.4, g, sizeof g), "1,781,766");
    ck_assert_str_eq(cs_fmt_g4(-2e10, g, sizeof g), "-20,000,000,000");
}
END_TEST

START_TEST(test_usd)
{
    ck_assert_str_eq(cs_fmt_usd(1889418.8341589335, b, sizeof b), "$1,889,419");
    ck_assert_str_eq(cs_fmt_usd(-2500, b, sizeof b), "-$2,500");
    ck_assert_str_eq(cs_fmt_usd(3.209629, b, sizeof b), "$3.21");
    ck_assert_str_eq(cs_fmt_usd(0.08, b, sizeof b), "$0.08");
    ck_assert_str_eq(cs_fmt_usd(99.99, b, sizeof b), "$99.99");
    ck_assert_str_eq(cs_fmt_usd(99.996, b, sizeof b), "$100"); /* not "$100.00" */
    ck_assert_str_eq(cs_fmt_usd(6511448.16, b, sizeof b), "$6,511,448");
    ck_assert_str_eq(cs_fmt_usd(0, b, sizeof b), "$0");
    ck_assert_str_eq(cs_fmt_usd(0.004, b, sizeof b), "$0.00"); /* not zero: cents */
    ck_assert_str_eq(cs_fmt_usd(NAN, b, sizeof b), "n/a");
}
END_TEST

START_TEST(test_pct)
{
    ck_assert_str_eq(cs_fmt_pct(0.20311813, 1, b, sizeof b), "20.3%");
    ck_assert_str_eq(cs_fmt_pct(0.7, 0, b, sizeof b), "70%");
    ck_assert_str_eq(cs_fmt_pct(12.5, 0, b, sizeof b), "1,250%");
}
END_TEST

START_TEST(test_duration_units)
{
    /* 921477.47 s / 86400 = 10.665 days */
    ck_assert_str_eq(cs_fmt_duration(921477.47, b, sizeof b), "10.7 days");
    ck_assert_str_eq(cs_fmt_duration(172800, b, sizeof b), "2.00 days");
    ck_assert_str_eq(cs_fmt_duration(172799, b, sizeof b), "48.0 h"); /* 47.9997 h */
    ck_assert_str_eq(cs_fmt_duration(18900, b, sizeof b), "5.25 h");
    ck_assert_str_eq(cs_fmt_duration(750, b, sizeof b), "12.5 min");
    ck_assert_str_eq(cs_fmt_duration(48.2859, b, sizeof b), "48.3 s");
    ck_assert_str_eq(cs_fmt_duration(0.35, b, sizeof b), "350 ms");
    ck_assert_str_eq(cs_fmt_duration(0.00012, b, sizeof b), "120 us");
    ck_assert_str_eq(cs_fmt_duration(0, b, sizeof b), "0 s");
    /* 100 years = 36,525 days: integer digits kept, separators */
    ck_assert_str_eq(cs_fmt_duration(36525.0 * 86400, b, sizeof b), "36,525 days");
}
END_TEST

START_TEST(test_bytes_and_counts)
{
    ck_assert_str_eq(cs_fmt_bytes(62.4e9, b, sizeof b), "62.4 GB");
    ck_assert_str_eq(cs_fmt_bytes(1.5e12, b, sizeof b), "1.50 TB");
    ck_assert_str_eq(cs_fmt_bytes(512, b, sizeof b), "512 B");
    ck_assert_str_eq(cs_fmt_bytes(999.6e6, b, sizeof b), "1.00 GB"); /* not "1,000 MB" */
    ck_assert_str_eq(cs_fmt_count(1024, b, sizeof b), "1,024");
    ck_assert_str_eq(cs_fmt_count(0.125, b, sizeof b), "0.125");
    ck_assert_str_eq(cs_fmt_count(12.49, b, sizeof b), "12.5");
    ck_assert_str_eq(cs_fmt_si(31.648e15, "FLOP/s", b, sizeof b), "31.6 PFLOP/s");
    ck_assert_str_eq(cs_fmt_si(12, "W", b, sizeof b), "12.0 W");
}
END_TEST

START_TEST(test_auto_by_key)
{
    ck_assert_str_eq(cs_fmt_auto("tco.options[0].total_usd", 1889418.83, b, sizeof b),
                     "$1,889,419");
    ck_assert_str_eq(cs_fmt_auto("tco.options[0].usd_per_gpu_hour", 3.2096, b, sizeof b), "$3.21");
    ck_assert_str_eq(cs_fmt_auto("step.time_s", 48.2859, b, sizeof b), "48.3 s");
    /* a statistic takes its unit from the figure above it */
    ck_assert_str_eq(cs_fmt_auto("plan.cheapest.time_to_train_s.p95", 877458.12, b, sizeof b),
                     "10.2 days");
    ck_assert_str_eq(cs_fmt_auto("throughput.tokens_per_s", 21715.984, b, sizeof b),
                     "21,716"); /* 6 digits: 21,716.0, zeros trimmed */
    ck_assert_str_eq(cs_fmt_auto("memory.bytes_per_gpu", 62.4e9, b, sizeof b), "62.4 GB");
    ck_assert_str_eq(cs_fmt_auto("tco.bom.it_power_w", 45000, b, sizeof b), "45,000 W");
    /* H100 SXM dense BF16: 989 TFLOP/s; HBM3 3.35 TB/s */
    ck_assert_str_eq(cs_fmt_auto("cluster.peak_flops_per_gpu", 989e12, b, sizeof b), "989 TFLOP/s");
    ck_assert_str_eq(cs_fmt_auto("cluster.hbm_bw_bytes_per_s", 3.35e12, b, sizeof b), "3.35 TB/s");
    ck_assert_str_eq(cs_fmt_auto("throughput.hw_flops_per_step", 6.7089e17, b, sizeof b),
                     "671 PFLOP");
    ck_assert_str_eq(cs_fmt_auto("throughput.tflops_per_gpu", 434.19191, b, sizeof b),
                     "434.2 TFLOP/s");
    ck_assert_str_eq(cs_fmt_auto("replay.busy_gpu_hours", 214.07694, b, sizeof b), "214.077 h");
    ck_assert_str_eq(cs_fmt_auto("replay.utilization", 0.0011145, b, sizeof b), "0.1%");
    ck_assert_str_eq(cs_fmt_auto("throughput.mfu", 0.5414, b, sizeof b), "54.1%");
    ck_assert_str_eq(cs_fmt_auto("replay.fragmentation", 0.029429, b, sizeof b), "2.9%");
    ck_assert_str_eq(cs_fmt_auto("replay.partitions[0].quota", 0.4, b, sizeof b), "40.0%");
    ck_assert_str_eq(cs_fmt_auto("tco.sensitivity.rows[3].base", 0.0826, b, sizeof b), "0.0826");
    ck_assert_str_eq(cs_fmt_auto("tco.gpus", 32, b, sizeof b), "32");
    ck_assert_str_eq(cs_fmt_auto("x.construction_per_mw", 11700000, b, sizeof b), "11,700,000");
}
END_TEST

static Suite *numfmt_suite(void)
{
    Suite *s = suite_create("numfmt");
    TCase *tc = tcase_create("numfmt");
    tcase_add_test(tc, test_fixed_separators_and_rounding);
    tcase_add_test(tc, test_sig_digits);
    tcase_add_test(tc, test_g4_no_exponent);
    tcase_add_test(tc, test_usd);
    tcase_add_test(tc, test_pct);
    tcase_add_test(tc, test_duration_units);
    tcase_add_test(tc, test_bytes_and_counts);
    tcase_add_test(tc, test_auto_by_key);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(numfmt_suite()); }
