/* check_app.c: tests of the application layer's pipeline (app/pipeline.c):
 * it gives what the models give when called directly, times a run of
 * workload.tokens at the step's throughput, is deterministic, and reports
 * a configuration that does not fit (or is invalid) with a status and a
 * diagnostic. On scenarios/default.yaml: 4 nodes x 8 H100 80 GB, Llama 3.1
 * 70B at tp 8 pp 4 dp 1, 20B tokens, GPU and host failures. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "clustersim/app/pipeline.h"
#include "clustersim/app/validate_coll.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/calib.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cs_catalog *load_catalog(void)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *c = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &c), CS_OK);
    cs_diags_fini(&d);
    return c;
}

static void load_default(cs_catalog *cat, struct cs_scenario *s)
{
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_cfg_load_scenario(cs_test_data("scenarios/default.yaml"), cat, &d, s, NULL),
                     CS_OK);
    cs_diags_fini(&d);
}

static bool has_error_with(const cs_diags *d, const char *text)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->items[i].sev == CS_SEV_ERROR && strstr(d->items[i].msg, text))
            return true;
    return false;
}

/* The pipeline's step is the step model's with the scenario's options
 * (default.yaml has no data: section, so nothing is folded in). */
START_TEST(test_app_step_equals_step_model)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    ck_assert(!s.data.enabled);

    struct cs_step_options opt;
    cs_step_options_from_scenario(&s, &opt);
    struct cs_step_result direct;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_step_simulate(&s.cluster, &s.workload, &opt, &d, &direct), CS_OK);
    ck_assert(direct.fits);

    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.run = false; /* the step alone */
    struct cs_app_result res;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_OK);
    ck_assert(res.has_step);
    ck_assert_int_eq(res.failed, CS_APP_STAGE_NONE);
    ck_assert(!res.data.enabled);
    ck_assert(!res.run.enabled); /* not asked for */
    ck_assert(!res.has_cost && !res.cost && !res.cost_in);
    ck_assert_double_eq(res.step.time_s, direct.time_s);
    ck_assert_double_eq(res.step.tokens_per_s, direct.tokens_per_s);
    ck_assert_double_eq(res.step.mfu, direct.mfu);
    ck_assert_double_eq(res.step.memory.total_bytes, direct.memory.total_bytes);
    /* tokens/s is global batch x sequence / step time: 128 x 8192 tokens. */
    ck_assert_double_eq_tol(res.step.tokens_per_s, 128.0 * 8192 / res.step.time_s,
                            1e-9 * res.step.tokens_per_s);
    cs_app_result_fini(&res);
    ck_assert(!res.has_step && !res.cost); /* _fini zeroes */
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* With workload.tokens the run level runs: its failure-free time is
 * tokens / tokens_per_s of the step, and the mean time to train exceeds it
 * by at most the failures' cost. Job failure rate, by hand: 32 GPUs / 79,000
 * h + 4 nodes / 50,000 h = 4.85e-4 per hour. The run is 20e9 / tokens_per_s
 * (~ 10^6 s, under 300 h), so the expected interruptions are below 0.15;
 * each costs at most detection + restart (20 min) plus the work since the
 * last checkpoint (at most the interval, Young/Daly sqrt(2 x C x MTBI),
 * hours). Bound: mean time <= ideal x 1.01 + 0.15 x (20 min + interval) +
 * the async checkpoints' overhead, bounded by 1% here. */
START_TEST(test_app_time_to_train)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    ck_assert_double_eq(s.workload.tokens, 20e9);

    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.replicas = 40;
    eo.threads = 2;
    struct cs_app_result res;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_OK);
    ck_assert(res.run.enabled && !res.run.duration_mode);
    ck_assert_int_eq(res.run.replicas, 40);
    double ideal = 20e9 / res.step.tokens_per_s;
    ck_assert_double_eq_tol(res.run.target_s, ideal, 1e-9 * ideal);
    ck_assert(ideal < 300 * 3600.0);
    double mean = res.run.time_to_train_s.mean;
    ck_assert(mean >= ideal * (1 - 1e-12));
    ck_assert(res.run.ckpt.enabled);
    double interval = res.run.ckpt.interval_s;
    ck_assert(interval > 0 && interval < 48 * 3600.0);
    double bound = ideal * 1.01 + 0.15 * (1200 + interval);
    ck_assert_msg(mean <= bound, "mean time to train %g s over the bound %g s (ideal %g s)", mean,
                  bound, ideal);
    ck_assert(res.run.goodput.mean > 0.95 && res.run.goodput.mean <= 1);
    cs_app_result_fini(&res);

    /* The COST goal: the same run timed, then priced; $/run on demand is
     * $/utilized GPU-hour x 32 GPUs x ideal hours / goodput (docs/cost.md). */
    eo.goal = CS_APP_GOAL_COST;
    eo.only_priced = true;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_OK);
    ck_assert(res.has_cost && res.cost_run.has_step && res.cost_run.run_model);
    ck_assert_double_eq_tol(res.cost_run.ideal_hours, ideal / 3600, 1e-9 * ideal / 3600);
    ck_assert_double_eq_tol(res.cost_run.wall_hours, mean / 3600, 1e-9 * mean / 3600);
    ck_assert_double_eq(res.cost_in->run_goodput, res.cost_run.goodput);
    const struct cs_cost_option_result *od = &res.cost->opt[CS_OPT_ON_DEMAND];
    if (od->available)
        ck_assert_double_eq_tol(od->usd_per_run,
                                od->usd_per_utilized_gpu_hour * 32 * res.cost_run.ideal_hours /
                                    res.cost_run.goodput,
                                1e-9 * od->usd_per_run);
    cs_app_result_fini(&res);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* Same scenario and seed: identical results, whatever the thread count. */
START_TEST(test_app_deterministic)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.replicas = 16;
    struct cs_app_result a, b, c;
    cs_diags d;
    cs_diags_init(&d);
    eo.threads = 1;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &a), CS_OK);
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &b), CS_OK);
    eo.threads = 2;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &c), CS_OK);
    ck_assert(a.run.enabled);
    ck_assert(memcmp(&a.step, &b.step, sizeof a.step) == 0);
    ck_assert(memcmp(&a.run, &b.run, sizeof a.run) == 0);
    ck_assert(memcmp(&a.run, &c.run, sizeof a.run) == 0);
    /* Another seed draws other failures but leaves the step alone: it has
     * no randomness. */
    s.seed = 43;
    cs_app_result_fini(&c);
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &c), CS_OK);
    ck_assert_double_eq(c.step.time_s, a.step.time_s);
    cs_app_result_fini(&a);
    cs_app_result_fini(&b);
    cs_app_result_fini(&c);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* 70B at tp 8, pp 1: 70e9 / 8 = 8.75e9 parameters per GPU x 16 bytes
 * (bf16 weights, fp32 gradients and Adam state) = 140 GB > 80 GiB: it does
 * not fit. The STEP goal returns CS_ENOFIT with an error (none when quiet),
 * the memory breakdown kept, nothing run after; the COST goal warns and
 * prices without a cost per run. */
START_TEST(test_app_nofit)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    s.workload.par.pp = 1;
    s.workload.par.dp = 4;
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    struct cs_app_result res;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_ENOFIT);
    ck_assert_int_eq(res.failed, CS_APP_STAGE_STEP);
    ck_assert(res.has_step && !res.step.fits);
    ck_assert(res.step.memory.total_bytes > 140e9 * 0.99);
    ck_assert(res.step.memory.total_bytes > res.step.memory.capacity_bytes);
    ck_assert(!res.run.enabled && !res.has_cost);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert(has_error_with(&d, "does not fit in GPU memory"));
    cs_app_result_fini(&res);
    cs_diags_fini(&d);

    cs_diags_init(&d);
    eo.quiet_nofit = true;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_ENOFIT);
    ck_assert_uint_eq(d.n, 0);
    cs_app_result_fini(&res);

    eo.goal = CS_APP_GOAL_COST;
    eo.only_priced = true;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_OK);
    ck_assert(res.has_cost && !res.cost_run.has_step);
    ck_assert(isnan(res.cost_in->run_hours));
    ck_assert_uint_eq(cs_diags_errors(&d), 0);
    bool warned = false; /* no cost per training run (besides unpriced options) */
    for (size_t i = 0; i < d.n; i++)
        warned = warned || (d.items[i].sev == CS_SEV_WARNING &&
                            strstr(d.items[i].msg, "no cost per training run"));
    ck_assert(warned);
    cs_app_result_fini(&res);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* An invalid configuration (tp 3 does not divide 64 heads, and 3 x 4 x 1
 * is not 32 GPUs) is the step model's CS_EINVAL, from the step stage. */
START_TEST(test_app_invalid)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    s.workload.par.tp = 3;
    struct cs_app_result res;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_evaluate(&s, NULL, &d, &res), CS_EINVAL);
    ck_assert_int_eq(res.failed, CS_APP_STAGE_STEP);
    ck_assert(!res.has_step);
    ck_assert(cs_diags_errors(&d) >= 1);
    cs_app_result_fini(&res);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST


/* The collective model against the index's logs (app/validate_coll.c).
 * Counts by hand from the files: 6 fit and 21 held-out logs, 11 of them not
 * expressible yet; the fit H100 NVSwitch all_reduce sweep (8 B to 8 GiB)
 * has 14 sizes of at least 1 MiB: 6 below 64 MiB, 8 from 64 MiB on.
 * Tolerance on the fit logs as in check_collective: MAPE <= 15% at >= 64
 * MiB and <= 30% from 1 to 64 MiB. The held-out figure is printed; the
 * network issue's targets (10% / 20%) are not met yet. */
START_TEST(test_app_validate_collectives)
{
    setenv("CLUSTERSIM_DATA", cs_test_path("."), 1);
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_cval v;
    ck_assert_int_eq(cs_app_validate_collectives(cat, &d, &v), CS_OK);
    ck_assert_int_eq(v.nfiles, 27);
    ck_assert_int_eq(v.not_expressible, 11);
    ck_assert_int_eq(v.failed, 0);
    ck_assert_int_eq(v.agg[0].logs, 6);
    ck_assert_int_eq(v.agg[1].logs, 10);
    const struct cs_app_cval_file *ar = NULL;
    for (int i = 0; i < v.nfiles; i++)
        if (strcmp(v.files[i].vt->file, "collectives/nccl-h100sxm-8gpu-1node-nvswitch-allreduce.txt") == 0)
            ar = &v.files[i];
    ck_assert_ptr_nonnull(ar);
    ck_assert_int_eq(ar->n[CS_APP_CVAL_BIG], 8);
    ck_assert_int_eq(ar->n[CS_APP_CVAL_MID], 6);
    ck_assert_int_eq((int)ar->ranks, 8);
    double fit_big = v.agg[0].sum[0] / v.agg[0].n[0], fit_mid = v.agg[0].sum[1] / v.agg[0].n[1];
    double ho_big = v.agg[1].sum[0] / v.agg[1].n[0], ho_mid = v.agg[1].sum[1] / v.agg[1].n[1];
    printf("collectives: fit MAPE %.1f%% (>= 64 MiB, %d rows), %.1f%% (1-64 MiB, %d rows); "
           "held out %.1f%% (%d rows), %.1f%% (%d rows)\n",
           100 * fit_big, v.agg[0].n[0], 100 * fit_mid, v.agg[0].n[1], 100 * ho_big, v.agg[1].n[0],
           100 * ho_mid, v.agg[1].n[1]);
    ck_assert(fit_big <= 0.15);
    ck_assert(fit_mid <= 0.30);
    ck_assert(isfinite(ho_big) && isfinite(ho_mid));
    cs_app_cval_fini(&v);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

static Suite *app_suite(void)
{
    Suite *s = suite_create("app");
    TCase *tc = tcase_create("pipeline");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_app_step_equals_step_model);
    tcase_add_test(tc, test_app_time_to_train);
    tcase_add_test(tc, test_app_deterministic);
    tcase_add_test(tc, test_app_nofit);
    tcase_add_test(tc, test_app_invalid);
    tcase_add_test(tc, test_app_validate_collectives);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(app_suite()); }
