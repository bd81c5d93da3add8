/* check_uncertainty.c: the Monte Carlo over the model's own parameters
 * (app/uncertainty.c) against hand-derived values:
 * - quantiles of a small sample by hand;
 * - sigma = mean |error| x sqrt(pi/2) (the half-normal mean);
 * - without failures, the step time's p05/p50/p95 are the nominal step
 *   times exp(-1.645 sigma), 1, exp(+1.645 sigma) (sampling tolerance),
 *   the tornado's step factors exactly those, and the time to train scales
 *   with the step;
 * - deterministic per seed and independent of the thread count;
 * - the MTBF factor moves the time to train the right way;
 * - tco's stated ranges: +-20% around the priced inputs, the totals'
 *   p05 < base < p95. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/app/pipeline.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/sweep.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cs_catalog *cat;

static void load(const char *const *sets, int n, struct cs_scenario *s)
{
    if (!cat) {
        cs_diags d;
        cs_diags_init(&d);
        ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &cat), CS_OK);
        cs_diags_fini(&d);
    }
    struct cs_cfg_override ov[12];
    char *paths[12];
    cs_test_overrides(sets, n, ov, paths);
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_cfg_load_scenario_with(cs_test_data("scenarios/default.yaml"), ov, (size_t)n, cat, &d, s,
                                               NULL),
                     CS_OK);
    cs_diags_fini(&d);
    cs_test_overrides_free(paths, n);
}

static void evaluate(const struct cs_scenario *s, struct cs_app_result *res)
{
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.goal = CS_APP_GOAL_COST;
    eo.only_priced = true;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_evaluate(s, &eo, &d, res), CS_OK);
    cs_diags_fini(&d);
    ck_assert(res->has_step && res->step.fits);
}

START_TEST(test_quantile)
{
    double v[] = {5, 1, 4, 2, 3};
    /* sorted 1..5: p0 = 1, p50 = 3, p95 at h = 3.8: 4 + 0.8 = 4.8, p100 = 5 */
    ck_assert_double_eq_tol(cs_unc_quantile(v, 5, 0.5), 3.0, 1e-12);
    ck_assert_double_eq_tol(cs_unc_quantile(v, 5, 0.95), 4.8, 1e-12);
    ck_assert_double_eq_tol(cs_unc_quantile(v, 5, 0.0), 1.0, 1e-12);
    ck_assert_double_eq_tol(cs_unc_quantile(v, 5, 1.0), 5.0, 1e-12);
    ck_assert(isnan(cs_unc_quantile(v, 0, 0.5)));
}
END_TEST

static const char *no_fail[] = {"failures.components=[]", "uncertainty.step_error=0.1",
                                "uncertainty.samples=2000"};

START_TEST(test_step_only)
{
    struct cs_scenario s;
    /* failures: [] leaves no class: only the step varies */
    const char *sets[] = {"uncertainty.step_error=0.1", "uncertainty.samples=2000"};
    load(sets, 2, &s);
    s.failures.enabled = false;
    s.failures.n_components = 0;
    struct cs_unc_spec sp;
    cs_app_unc_spec(cat, &s, &sp);
    ck_assert_double_eq_tol(sp.step_sigma, 0.1 * sqrt(3.14159265358979 / 2), 1e-9); /* 0.12533 */
    ck_assert(sp.mtbf_lo == 1.0);
    ck_assert(sp.mtbf_hi == 1.0);
    struct cs_app_result res;
    evaluate(&s, &res);
    struct cs_app_uncertainty u;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_uncertainty(&s, &res.step, &sp, 2000, 2, NULL, NULL, &d, &u), CS_OK);
    double t = res.step.time_s, z = 1.6448536, sg = sp.step_sigma;
    /* exp(-+1.645 x 0.12533) = 0.8138, 1.2288 */
    ck_assert_msg(fabs(u.step_time_s.p05 / (t * exp(-z * sg)) - 1) < 0.02, "p05 %g vs %g", u.step_time_s.p05,
                  t * exp(-z * sg));
    ck_assert_msg(fabs(u.step_time_s.p50 / t - 1) < 0.02, "p50 %g vs %g", u.step_time_s.p50, t);
    ck_assert_msg(fabs(u.step_time_s.p95 / (t * exp(z * sg)) - 1) < 0.02, "p95 %g vs %g", u.step_time_s.p95,
                  t * exp(z * sg));
    ck_assert(u.has_time);
    ck_assert_int_eq(u.n_tornado, 1);
    ck_assert_int_eq(u.tornado[0].input, CS_UNC_STEP);
    ck_assert_double_eq_tol(u.tornado[0].low_factor, exp(-z * sg), 1e-6);
    ck_assert_double_eq_tol(u.tornado[0].high_factor, exp(z * sg), 1e-6);
    /* without failures the run is the steps plus checkpoint stalls: the time
     * to train scales with the step within the stalls' share (< 2%) */
    double ratio = u.tornado[0].high / u.tornado[0].low, fr = exp(2 * z * sg);
    ck_assert_msg(fabs(ratio / fr - 1) < 0.02, "time ratio %g vs step ratio %g", ratio, fr);
    cs_app_uncertainty_fini(&u);
    cs_diags_fini(&d);
    cs_app_result_fini(&res);
    cs_scenario_fini(&s);
    (void)no_fail;
}
END_TEST

START_TEST(test_deterministic_and_mtbf)
{
    struct cs_scenario s;
    const char *sets[] = {"uncertainty.step_error=0.05", "uncertainty.mtbf=[0.1, 10]",
                          "cluster.nodes=64", "workload.parallelism.dp=16", "workload.global_batch=512"};
    load(sets, 5, &s);
    struct cs_unc_spec sp;
    cs_app_unc_spec(cat, &s, &sp);
    ck_assert(sp.mtbf_lo == 0.1);
    ck_assert(sp.mtbf_hi == 10);
    struct cs_app_result res;
    evaluate(&s, &res);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_uncertainty a, b;
    ck_assert_int_eq(cs_app_uncertainty(&s, &res.step, &sp, 60, 1, NULL, NULL, &d, &a), CS_OK);
    ck_assert_int_eq(cs_app_uncertainty(&s, &res.step, &sp, 60, 3, NULL, NULL, &d, &b), CS_OK);
    ck_assert(a.time_to_train_s.p05 == b.time_to_train_s.p05);
    ck_assert(a.time_to_train_s.p95 == b.time_to_train_s.p95);
    for (int i = 0; i < 60; i++)
        ck_assert(a.time_samples[i] == b.time_samples[i]);
    /* MTBF x0.1 (ten times the failures) takes longer than x10 */
    bool found = false;
    for (int i = 0; i < a.n_tornado; i++)
        if (a.tornado[i].input == CS_UNC_MTBF) {
            found = true;
            ck_assert_msg(a.tornado[i].low > a.tornado[i].high, "mtbf x%g: %g s, x%g: %g s",
                          a.tornado[i].low_factor, a.tornado[i].low, a.tornado[i].high_factor,
                          a.tornado[i].high);
            /* log-uniform on [0.1, 10]: p05 = 0.1 x 100^0.05 = 0.1259 */
            ck_assert_double_eq_tol(a.tornado[i].low_factor, 0.1 * pow(100, 0.05), 1e-9);
        }
    ck_assert(found);
    cs_app_uncertainty_fini(&a);
    cs_app_uncertainty_fini(&b);
    cs_diags_fini(&d);
    cs_app_result_fini(&res);
    cs_scenario_fini(&s);
}
END_TEST

START_TEST(test_calibrated_step)
{
    /* a calibration overlay's step-time fit (fit: steps_N) sets the step
     * error: 5% over 12 steps -> sigma 0.05 sqrt(pi/2) = 0.06267 */
    struct cs_scenario s;
    const char *sets[] = {"calibration={fit: {steps_0: {points: 12, mape: 0.05}, steps_1: {points: 3, mape: 0.02}}}"};
    load(sets, 1, &s);
    struct cs_unc_spec sp;
    cs_app_unc_spec(cat, &s, &sp);
    ck_assert_double_eq_tol(sp.step_mape, 0.05, 1e-12); /* the larger of the two fits */
    ck_assert_int_eq(sp.step_rows, 12);
    ck_assert_double_eq_tol(sp.step_sigma, 0.05 * sqrt(3.14159265358979 / 2), 1e-9);
    ck_assert_ptr_nonnull(strstr(sp.step_source, "in-sample"));
    cs_scenario_fini(&s);
}
END_TEST

START_TEST(test_cost_stated_ranges)
{
    struct cs_scenario s;
    load(NULL, 0, &s);
    struct cs_app_result res;
    evaluate(&s, &res);
    ck_assert(res.has_cost);
    struct cs_app_cost_unc cu;
    ck_assert_int_eq(cs_app_cost_uncertainty(&s, res.cost_in, res.cost, 500, &cu), CS_OK);
    ck_assert(cu.stated);
    bool gpu = false;
    for (int i = 0; i < cu.n_ranges; i++)
        if (strcmp(cu.ranges[i].key, "gpu_price") == 0) {
            gpu = true;
            double v = res.cost_in->v[CS_CIN_GPU_PRICE];
            ck_assert_double_eq_tol(cu.ranges[i].low, 0.8 * v, 1e-9 * v);
            ck_assert_double_eq_tol(cu.ranges[i].high, 1.2 * v, 1e-9 * v);
        }
    ck_assert(gpu);
    double base = res.cost->opt[CS_OPT_ONPREM].total_usd;
    ck_assert(cu.mc.p05[CS_OPT_ONPREM] < base && base < cu.mc.p95[CS_OPT_ONPREM]);
    ck_assert_int_gt(cu.n_tornado, 0);
    cs_app_result_fini(&res);
    cs_scenario_fini(&s);
}
END_TEST

static Suite *unc_suite(void)
{
    Suite *s = suite_create("uncertainty");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_quantile);
    tcase_add_test(tc, test_step_only);
    tcase_add_test(tc, test_deterministic_and_mtbf);
    tcase_add_test(tc, test_calibrated_step);
    tcase_add_test(tc, test_cost_stated_ranges);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    int rc = cs_test_run(unc_suite());
    cs_catalog_destroy(cat);
    return rc;
}
