/* check_app.c: tests of the application layer.
 * - the pipeline (app/pipeline.c): it gives what the models give when
 *   called directly, times a run of workload.tokens at the step's
 *   throughput, is deterministic, and reports a configuration that does
 *   not fit (or is invalid) with a status and a diagnostic;
 * - the collective validation (app/validate_coll.c);
 * - the calibration (app/calibrate.c): the fitted values of a measured
 *   nccl-tests log, an unreadable input, --strict;
 * - the search (app/search.c): the ranking's first configuration, nothing
 *   fitting, no workload.
 * On scenarios/default.yaml: 4 nodes x 8 H100 80 GB, Llama 3.1 70B at tp 8
 * pp 4 dp 1, 20B tokens, GPU and host failures. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "clustersim/app/calibrate.h"
#include "clustersim/app/collective_exp.h"
#include "clustersim/app/compare.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/search.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/app/validate.h"
#include "clustersim/app/validate_coll.h"
#include "clustersim/app/validate_ep.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/calib.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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


static void write_text(const char *path, const char *text);

/* The EP all-to-all model against Table 7 of the Megatron-Core MoE report
 * (app/validate_ep.c; validation/collectives/ep-dispatch). Counts by hand
 * from the file: 32 rows (2 platforms x 2 dispatchers x 2 operations x EP
 * 8, 16, 32, 64), each 4096 x 8 x 7168 x 2 = 469,762,048 bytes per rank; its
 * first row (line 19) GB200 hybridep dispatch at EP 8, 391 us measured.
 * The physics, not the fit: at EP 8 on one H100 node NCCL's all-to-all
 * splits each peer's 58.7 MB over 4 p2p channels (parts of 14.7 MB, under
 * the 16 MiB that doubles them), 7 x 4 = 28 CTAs at half an NVLink each
 * (20.6 / 2 GB/s), so its time is a latency plus 7/8 x 469,762,048 /
 * (28 x 10.3e9) = 1,425.2 us; the hierarchical kernels are not NCCL's and
 * send 8 (1 - (7/8)^8) / 8 = 0.6564 of the copies over NVLink, and the
 * measured hybridep is lower still than that share of the measured
 * alltoall (661 against 1265 us). Tolerance on the held-out table: MAPE
 * <= 20% (10.0% on 2026-12-07 with NCCL's p2p channels and an NVL72 rack as
 * one NCCL node, 11.2% with its trays as nodes, 14.4% before the channels,
 * 20.4% before the per-GPU copies were counted), every row within 45%. */
START_TEST(test_app_validate_ep_dispatch)
{
    setenv("CLUSTERSIM_DATA", cs_test_path("."), 1);
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_epval v;
    cs_status st = cs_app_validate_ep_dispatch(cat, &d, &v);
    ck_assert_msg(st == CS_OK, "%s", d.n ? d.items[0].msg : cs_strerror(st));
    ck_assert_int_eq(v.tables, 1);
    ck_assert_int_eq(v.n, 32);
    ck_assert_int_eq(v.ngroups, 4);
    ck_assert_int_eq(v.rows[0].line, 19);
    ck_assert_str_eq(v.rows[0].platform, "GB200");
    ck_assert_str_eq(v.rows[0].dispatcher, "hybridep");
    ck_assert_int_eq(v.rows[0].ep, 8);
    ck_assert_double_eq(v.rows[0].bytes, 469762048.0);
    ck_assert_double_eq(v.rows[0].measured_us, 391.0);
    const struct cs_app_epval_row *h8 = NULL, *a8 = NULL;
    double sum = 0;
    for (int i = 0; i < v.n; i++) {
        const struct cs_app_epval_row *r = &v.rows[i];
        ck_assert_double_eq_tol(r->error, r->predicted_us / r->measured_us - 1.0, 1e-12);
        ck_assert_msg(fabs(r->error) <= 0.45, "line %d: %+.1f%%", r->line, 100 * r->error);
        sum += fabs(r->error);
        if (!strcmp(r->platform, "H100") && r->ep == 8 && !strcmp(r->op, "dispatch"))
            *(strcmp(r->dispatcher, "hybridep") ? &a8 : &h8) = r;
    }
    ck_assert_double_eq_tol(sum, v.sum, 1e-12);
    ck_assert_ptr_nonnull(h8);
    ck_assert_ptr_nonnull(a8);
    /* NCCL's all-to-all: CTA-bound, 1,425.2 us plus a latency under 50 us;
     * the hybrid kernels are faster than its 0.6564 share */
    double lat = a8->predicted_us - 7.0 / 8.0 * 469762048.0 / (28 * 10.3e9) * 1e6;
    ck_assert_msg(lat > 0 && lat < 50, "latency %.3f us", lat);
    ck_assert(h8->predicted_us < 0.6564 * a8->predicted_us);
    ck_assert(h8->measured_us < 0.6564 * a8->measured_us);
    printf("ep-dispatch: held-out MAPE %.1f%% (%d rows), worst %.1f%%\n", 100 * v.sum / v.n, v.n,
           100 * v.worst);
    ck_assert(v.sum / v.n <= 0.20);
    cs_app_epval_fini(&v);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* A bad ep-dispatch file is refused with its file and line: an unknown
 * dispatcher, then a row whose EP group is larger than the scenario. */
START_TEST(test_app_validate_ep_dispatch_bad_rows)
{
    char root[] = "/tmp/check_app_epval_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char p[512];
    snprintf(p, sizeof p, "%s/validation", root);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/validation/s.yaml", root);
    write_text(p, "schema_version: 1\nname: t\ncluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8}\n"
                  "workload: {model: {preset: deepseek-v3, seq_len: 4096}, global_batch: 8, micro_batch: 1,\n"
                  "  parallelism: {tp: 1, pp: 1, dp: 8, ep: 8}}\n");
    const char *bodies[2] = {
        "platform,scenario,ep,dispatcher,op,tokens,hidden,top_k,elem_bytes,measured_us\n"
        "H100,s.yaml,8,nvshmem,dispatch,4096,7168,8,2,661\n",
        "platform,scenario,ep,dispatcher,op,tokens,hidden,top_k,elem_bytes,measured_us\n"
        "H100,s.yaml,8,alltoall,dispatch,4096,7168,8,2,1265\n"
        "H100,s.yaml,16,alltoall,dispatch,4096,7168,8,2,5774\n"};
    const char *want[2] = {"column dispatcher: \"nvshmem\" (expected alltoall, hybridep or deepep)",
                           "the model cannot cost an all-to-all over 16 ranks of s.yaml"};
    const int want_line[2] = {2, 3};
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "%s/validation/t.csv", root);
        write_text(p, bodies[k]);
        snprintf(p, sizeof p, "%s/validation/INDEX.yaml", root);
        write_text(p, "schema_version: 1\ntables:\n  - {file: t.csv, kind: ep-dispatch, role: holdout, source: t}\n");
        setenv("CLUSTERSIM_DATA", root, 1);
        cs_catalog *cat = load_catalog();
        cs_diags d;
        cs_diags_init(&d);
        struct cs_app_epval v;
        ck_assert_int_eq(cs_app_validate_ep_dispatch(cat, &d, &v), CS_ECONFIG);
        ck_assert_uint_ge(d.n, 1);
        ck_assert_int_eq(d.items[0].line, want_line[k]);
        ck_assert_msg(strstr(d.items[0].msg, want[k]) != NULL, "%s", d.items[0].msg);
        ck_assert_msg(strstr(d.items[0].file, "t.csv") != NULL, "%s", d.items[0].file);
        cs_app_epval_fini(&v);
        cs_diags_fini(&d);
        cs_catalog_destroy(cat);
    }
}
END_TEST

/* The compared log of the collective index named `file` (its INDEX path),
 * or NULL. */
static const struct cs_app_cval_file *cval_file(const struct cs_app_cval *v, const char *file)
{
    for (int i = 0; i < v->nfiles; i++)
        if (strcmp(v->files[i].vt->file, file) == 0)
            return &v->files[i];
    return NULL;
}

/* The collective model against the index's logs (app/validate_coll.c).
 * Counts by hand from the files (since wave 8: 13 fit, 64 held-out and 3
 * not expressible logs; wave 7: 49 held out; wave 6: 42; wave 5: 37); at first 6 fit and 21 held-out logs, 11 of them not
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
    ck_assert_int_eq(v.nfiles, 80); /* 64 before wave 8's sixteen sendrecv logs; 57 before wave 7's seven Vultr B200 blocks; 52 before wave 6's five all-to-all logs; 35 before the 17 logs of 2026-12-07's searches; 30 before CoreWeave's NVL72 log, 31 before Azure's four */
    ck_assert_int_eq(v.not_expressible, 3);
    ck_assert_int_eq(v.failed, 0);
    ck_assert_int_eq(v.agg[0].logs, 13); /* 12 before the A3 Ultra gIB log moved to fit (2026-12-02) */
    ck_assert_int_eq(v.agg[1].logs, 64);
    /* Wave 7's one-node B200 sendrecv (held out): NCCL's p2p engine sends
     * to the one peer on 4 channels up to 64 MiB, doubling per 16 MiB part
     * beyond (test_collective_p2p_channels), at half an NVLink each; the
     * link rate alone made it 125% / 219% fast. Its 15 rows of at least 1
     * MiB (6 below 64 MiB, 9 from 64 MiB on); MAPE within 6% and 12% (3.4%
     * and 7.9% on 2026-12-07). */
    const struct cs_app_cval_file *sr =
        cval_file(&v, "collectives/holdout/vultr-b200-8gpu-1node-nvswitch-sendrecv.txt");
    ck_assert_ptr_nonnull(sr);
    ck_assert_int_eq(sr->n[CS_APP_CVAL_MID], 6);
    ck_assert_int_eq(sr->n[CS_APP_CVAL_BIG], 9);
    {
        double e[CS_APP_CVAL_BANDS] = {0, 0};
        for (int i = 0; i < sr->nrows; i++)
            e[sr->rows[i].band] += fabs(sr->rows[i].error);
        ck_assert(e[CS_APP_CVAL_BIG] / 9 <= 0.06);
        ck_assert(e[CS_APP_CVAL_MID] / 6 <= 0.12);
    }
    /* Azure's ND H100 v5 page (wave 4): a bare in-place-only table, compared
     * on its scenario's 8 GPUs; of 1 KiB..8 GiB the rows 1 MiB..32 MiB (6,
     * the first 43.70 GB/s as published, line 21) and 64 MiB..8 GiB (8). */
    const struct cs_app_cval_file *az = cval_file(&v, "collectives/holdout/azure-ndh100v5-h100-8gpu-1node-nvls-allreduce.txt");
    ck_assert_ptr_nonnull(az);
    ck_assert_int_eq((int)az->ranks, 8);
    ck_assert_int_eq(az->n[CS_APP_CVAL_MID], 6);
    ck_assert_int_eq(az->n[CS_APP_CVAL_BIG], 8);
    ck_assert_int_eq(az->rows[0].line, 21);
    ck_assert_double_eq_tol(az->rows[0].measured_gbps, 43.70, 1e-9);
    const struct cs_app_cval_file *ar = cval_file(&v, "collectives/nccl-h100sxm-8gpu-1node-nvswitch-allreduce.txt");
    ck_assert_ptr_nonnull(ar);
    ck_assert_int_eq(ar->n[CS_APP_CVAL_BIG], 8);
    ck_assert_int_eq(ar->n[CS_APP_CVAL_MID], 6);
    ck_assert_int_eq((int)ar->ranks, 8);
    /* Its rows, in log order: 1 MiB first (line 40 of the log, 39.44 GB/s
     * out-of-place as printed); each row's error is predicted / measured -
     * 1 and the rows of a band sum to the band's |error| sum. */
    ck_assert_int_eq(ar->nrows, 14);
    ck_assert_int_eq(ar->rows[0].line, 40);
    ck_assert_double_eq(ar->rows[0].size_bytes, 1048576.0);
    ck_assert_double_eq_tol(ar->rows[0].measured_gbps, 39.44, 1e-9);
    ck_assert_int_eq(ar->rows[0].band, CS_APP_CVAL_MID);
    ck_assert_int_eq(ar->rows[13].band, CS_APP_CVAL_BIG);
    double band_sum[CS_APP_CVAL_BANDS] = {0, 0};
    for (int k = 0; k < ar->nrows; k++) {
        const struct cs_app_cval_row *r = &ar->rows[k];
        ck_assert_double_eq_tol(r->error, r->predicted_gbps / r->measured_gbps - 1.0, 1e-12);
        band_sum[r->band] += fabs(r->error);
        if (k > 0)
            ck_assert(r->size_bytes > ar->rows[k - 1].size_bytes);
    }
    ck_assert_double_eq_tol(band_sum[CS_APP_CVAL_BIG], ar->sum[CS_APP_CVAL_BIG], 1e-12);
    ck_assert_double_eq_tol(band_sum[CS_APP_CVAL_MID], ar->sum[CS_APP_CVAL_MID], 1e-12);
    /* The 4-node Voltage Park log (wave 3): 32 device lines on 4 hosts, and
     * of its sizes 8 B..8 GiB (factor 2) the rows 1 MiB..32 MiB (6) and
     * 64 MiB..8 GiB (8) are compared; its "Warning: Permanently added"
     * ssh lines above the header are not rows. */
    const struct cs_app_cval_file *vp = cval_file(&v, "collectives/multinode/vp-h100-32gpu-4node-ib-allreduce.txt");
    ck_assert_ptr_nonnull(vp);
    ck_assert_int_eq((int)vp->ranks, 32);
    ck_assert_int_eq((int)vp->nodes, 4);
    ck_assert_int_eq(vp->n[CS_APP_CVAL_BIG], 8);
    ck_assert_int_eq(vp->n[CS_APP_CVAL_MID], 6);
    double fit_big = v.agg[0].sum[0] / v.agg[0].n[0], fit_mid = v.agg[0].sum[1] / v.agg[0].n[1];
    double ho_big = v.agg[1].sum[0] / v.agg[1].n[0], ho_mid = v.agg[1].sum[1] / v.agg[1].n[1];
    printf("collectives: fit MAPE %.1f%% (>= 64 MiB, %d rows), %.1f%% (1-64 MiB, %d rows); "
           "held out %.1f%% (%d rows), %.1f%% (%d rows)\n",
           100 * fit_big, v.agg[0].n[0], 100 * fit_mid, v.agg[0].n[1], 100 * ho_big, v.agg[1].n[0],
           100 * ho_mid, v.agg[1].n[1]);
    /* Measured on 2026-12-01 (sourced transport figures, 2-node tree,
     * RCCL's ROCm 6.2 table, the GCP TCPXO environment): fit 6.3% /
     * 15.0%, held out 8.4% / 27.7% (16 logs). Bounds: those figures plus
     * 1.5 points. The issue's held-out target at >= 64 MiB (10%) is met and
     * asserted; the 1-64 MiB target (20%) is NOT met yet.
     * Wave 3 (issue 14 item 7) added three 4-node fit logs (Voltage Park
     * H100: all_reduce, all_gather, broadcast), no model change: fit
     * (12 logs) 9.6% / 18.8%, the held-out figures unchanged. The fit
     * bounds follow the new measured figures plus the same 1.5 points.
     * 2026-12-02: the GCP A3 Ultra gIB log moved to fit (the source of the
     * RoCE efficiency, 0.82): fit (13 logs) 9.0% / 17.4%, held out (15)
     * 8.5% / 29.6%; the held-out 1-64 MiB bound follows (a well-predicted
     * log left that band; the logs that stayed moved by <= 0.6 points).
     * 2026-12-07: CoreWeave's all_reduce over one GB200 NVL72 rack (72
     * GPUs, 5 rows from 512 MiB) held out: the model's NVLS was 64.7% fast
     * there (held out 10.9% at >= 64 MiB); with Blackwell's NVLS share at
     * NCCL's own .74 of the link (Hopper .85) 43.8%, held out 9.997% on 117
     * rows: the target holds with nothing to spare.
     * Same day, wave 4: Azure's four single-node pages held out (A100 auto,
     * H100 and H200 NVLS, GB200 4-GPU ring): held out 10.005% on 149 rows,
     * over the target; then NCCL's NVLS chunk sizes (test_collective_nvls_
     * chunk; one per-chunk cost fitted on the H100 NVLS fit log): fit 8.7% /
     * 17.3%, held out (20 logs) 9.1% / 26.7%; then NCCL's per-link NVLink
     * rate by generation (test_config_nvlink_generation): fit 8.4% / 17.2%,
     * held out 8.7% / 26.5%. Bounds: those plus 1.5 points, and the
     * target.
     * Later the same day two searches under a rule fixed before any
     * comparison (a table from 1 MiB to 256 MiB, GPU and node shape
     * stated, the fabric identifiable, not already here) added 17 held-out
     * logs, every one found (docs/validation.md, "Wave 5"): held out (37
     * logs) 26.1% (285) / 71.1% (207). Four of them are runs of systems
     * that other runs show 2-13x faster (Google's DraNet B200 page, the
     * OCI tutorial's Docker A100 run, two 2021 AWS p4d runs); without them
     * 11.1% / 28.2%. The >= 64 MiB target no longer holds on the held-out
     * set; the bounds are the measured figures plus 1.5 points.
     * Wave 6 (2026-12-07, one search under the same rule): five NVIDIA
     * all-to-all logs (an 8-GPU H100 node, an 8-GPU B200 node twice and two
     * B200 nodes over IB twice, the Vultr report's "alltoall" and
     * "alltoall_v2" blocks): held out (42 logs) 27.3% (329) / 67.3% (237);
     * the model's all-to-all reaches its asymptote at smaller sizes than
     * measured (B200 node +29% at 256 MiB, +7% at 16 GiB). Then NCCL's p2p
     * channels (test_collective_p2p_channels: 28 CTAs at half an NVLink
     * each below 1 GiB on an 8-GPU node, 32 above; nothing fitted): H100
     * node 14.1% -> 4.9%, B200 node 21.2% -> 5.1% at >= 64 MiB; held out
     * 26.2% (329) / 66.7% (237). Wave 7 (the Vultr report's other seven
     * blocks: one node's all_reduce, all_gather, reduce_scatter, sendrecv
     * twice, two nodes' sendrecv twice): held out (49 logs) 26.3% (392) /
     * 60.1% (279); with the NVLS chunk cost a fixed time 26.1% / 60.0%.
     * Wave 8 (every sendrecv table one search found: Together AI's B200
     * study at 2-64 nodes, 15 logs; Leonardo's A100 pair, not expressible):
     * held out (64 logs) 29.1% (437) / 54.6% (369); at 2-4 nodes 1-5%, at
     * 8-16 nodes 67-173% fast (the study's shared fabric drops the ring's
     * rate from 44 to 26 and 14.6 GB/s; the model's fat tree has no such
     * contention there). Then (2026-12-07) the comm's p2p channels across
     * nodes (16 on 8 NDR NICs, as the study's 32-node NCCL log prints) and
     * a network p2p channel at NCCL's P2P_PER_CHANNEL_NET_BW, 14 GB/s
     * (test_collective_p2p_net_channels; nothing fitted): 8-64 nodes 3-6%
     * at >= 64 MiB, held out 23.8% (437) / 47.4% (369). Then NCCL's p2p
     * protocols (LL up to 16 KiB a channel, Simple above, never LL128) and
     * one message's latency without net_lat_scale
     * (test_collective_p2p_protocol): the study's logs 2-6% from 1 to 64
     * MiB, held out 23.9% / 46.7%. */
    ck_assert(fit_big <= 0.099);
    ck_assert(fit_mid <= 0.187);
    ck_assert(ho_big <= 0.253);
    ck_assert(ho_mid <= 0.482);
    /* The timing-glitch rule leaves out exactly the two rows whose
     * out-of-place and in-place bus bandwidths differ by more than 2x
     * (3.4x and 4.0x; the next largest ratio in the logs is 1.6x). */
    ck_assert_int_eq(v.agg[0].excluded, 0);
    ck_assert_int_eq(v.agg[1].excluded, 5); /* 2 before wave 5 */
    /* Every held-out log's share, largest first, adds up to the band's
     * MAPE: the shares partition it. */
    for (int b = 0; b < CS_APP_CVAL_BANDS; b++) {
        int all[128];
        int k = cs_app_cval_largest(&v, 1, b, 128, all);
        ck_assert_int_le(k, v.agg[1].logs);
        double tot = 0.0;
        for (int j = 0; j < k; j++) {
            ck_assert_str_eq(v.files[all[j]].role, "holdout");
            if (j > 0)
                ck_assert(v.files[all[j]].sum[b] <= v.files[all[j - 1]].sum[b]);
            tot += v.files[all[j]].sum[b];
        }
        ck_assert_double_eq_tol(tot, v.agg[1].sum[b], 1e-9);
    }
    cs_app_cval_fini(&v);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* |x - want| <= 1e-9 |want|. */
static void near(double x, double want, const char *what)
{
    ck_assert_msg(fabs(x - want) <= 1e-9 * fabs(want), "%s: %.17g, expected %.17g", what, x, want);
}


/* cs_app_coll: an error about the scenario (more ranks than GPUs) names
 * the scenario's file in its diagnostic; one about the flags (a broadcast
 * root past the ranks) has no file. default.yaml: 4 nodes x 8 GPUs = 32. */
START_TEST(test_app_coll_errors_in_diags)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    struct cs_app_coll_req q;
    memset(&q, 0, sizeof q);
    q.op = CS_COLL_BROADCAST;
    q.algo = CS_COLL_AUTO;
    q.elem_bytes = 4;
    q.minb = q.maxb = 1024;
    q.factor = 2;
    q.ngpus = q.nthreads = 1;
    q.ranks = 64;
    struct cs_app_coll res;
    ck_assert_int_eq(cs_app_coll_setup(&s, &q, &res), CS_EINVAL);
    ck_assert_uint_eq(res.diags.n, 1);
    ck_assert_str_eq(res.diags.items[0].file, cs_test_data("scenarios/default.yaml"));
    ck_assert_str_eq(res.diags.items[0].msg, "--ranks 64: the cluster has only 32 GPUs (4 nodes x 8)");
    cs_app_coll_fini(&res);
    q.ranks = 8;
    q.root = 8;
    ck_assert_int_eq(cs_app_coll_setup(&s, &q, &res), CS_OK);
    ck_assert_uint_eq(res.diags.n, 0);
    ck_assert_int_eq(cs_app_coll_run(&s, &q, &res), CS_EINVAL);
    ck_assert_uint_eq(res.diags.n, 1);
    ck_assert_ptr_null(res.diags.items[0].file);
    ck_assert_str_eq(res.diags.items[0].msg, "-r 8: root must be below the 8 ranks");
    cs_app_coll_fini(&res);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* A log whose index entry names an operation or algorithm that does not
 * exist is not compared: its file's diags hold one error naming the log
 * (the index's file), and the others go on. A data directory of its own:
 * validation/INDEX.yaml with two such entries (two logs: the index refuses
 * a file listed twice). */
/* cs_app_cval_largest on a hand-made result: four logs, by hand. */
START_TEST(test_app_cval_largest)
{
    struct cs_val_table vt[5] = {{0}};
    vt[0].role = CS_VAL_HOLDOUT;
    vt[1].role = CS_VAL_HOLDOUT;
    vt[2].role = CS_VAL_FIT;
    vt[3].role = CS_VAL_HOLDOUT;
    vt[4].role = CS_VAL_HOLDOUT;
    struct cs_app_cval_file f[5];
    memset(f, 0, sizeof f);
    /* band 0 sums 0.5, 2.0, (fit) 9.0, 2.0, 0 rows; band 1 all equal */
    const double s0[5] = {0.5, 2.0, 9.0, 2.0, 0.0};
    for (int i = 0; i < 5; i++) {
        f[i].vt = &vt[i];
        f[i].expressible = true;
        f[i].st = CS_OK;
        f[i].n[0] = i == 4 ? 0 : 4;
        f[i].sum[0] = s0[i];
        f[i].n[1] = 2;
        f[i].sum[1] = 1.0;
    }
    struct cs_app_cval v;
    memset(&v, 0, sizeof v);
    v.files = f;
    v.nfiles = 5;
    int idx[4];
    /* held out, band 0, top 2: the two logs of 2.0 in index order (1, 3);
     * the fit log and the log without rows in the band are not counted */
    ck_assert_int_eq(cs_app_cval_largest(&v, 1, 0, 2, idx), 2);
    ck_assert_int_eq(idx[0], 1);
    ck_assert_int_eq(idx[1], 3);
    ck_assert_int_eq(cs_app_cval_largest(&v, 1, 0, 4, idx), 3);
    ck_assert_int_eq(idx[2], 0);
    ck_assert_int_eq(cs_app_cval_largest(&v, 0, 0, 4, idx), 1);
    ck_assert_int_eq(idx[0], 2);
    /* ties keep index order; k bounds the count */
    ck_assert_int_eq(cs_app_cval_largest(&v, 1, 1, 3, idx), 3);
    ck_assert_int_eq(idx[0], 0);
    ck_assert_int_eq(idx[1], 1);
    ck_assert_int_eq(idx[2], 3);
    ck_assert_int_eq(cs_app_cval_largest(&v, 1, 1, 0, idx), 0);
    ck_assert_int_eq(cs_app_cval_largest(&v, 2, 1, 3, idx), 0);
    f[1].st = CS_EINVAL; /* a failed log is not compared */
    ck_assert_int_eq(cs_app_cval_largest(&v, 1, 0, 1, idx), 1);
    ck_assert_int_eq(idx[0], 3);
}
END_TEST

START_TEST(test_app_validate_collectives_failure_in_file_diags)
{
    char root[] = "/tmp/check_app_cval_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char p[512];
    snprintf(p, sizeof p, "%s/validation", root);
    ck_assert_int_eq(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/validation/x.txt", root);
    write_text(p, "");
    snprintf(p, sizeof p, "%s/validation/y.txt", root);
    write_text(p, "");
    snprintf(p, sizeof p, "%s/validation/z.txt", root);
    write_text(p, "");
    snprintf(p, sizeof p, "%s/validation/w.txt", root);
    write_text(p, "");
    snprintf(p, sizeof p, "%s/validation/s.yaml", root);
    write_text(p, "");
    snprintf(p, sizeof p, "%s/validation/INDEX.yaml", root);
    write_text(p, "schema_version: 1\n"
                  "tables:\n"
                  "  - {file: x.txt, kind: collective, role: fit, source: t, scenario: s.yaml,"
                  " op: no_such_op}\n"
                  "  - {file: y.txt, kind: collective, role: holdout, source: t, scenario: s.yaml,"
                  " algo: no_such_algo}\n"
                  "  - {file: z.txt, kind: collective, role: holdout, source: t, scenario: s.yaml,"
                  " nccl_env: \"NCCL_ALGO=Ring NCCL_FOO=1\"}\n"
                  "  - {file: w.txt, kind: collective, role: holdout, source: t, scenario: s.yaml,"
                  " nccl_env: \"NCCL_PROTO=Simple,LL256\"}\n");
    setenv("CLUSTERSIM_DATA", root, 1);
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_cval v;
    cs_status st = cs_app_validate_collectives(cat, &d, &v);
    ck_assert_msg(st == CS_OK, "%s", d.n ? d.items[0].msg : cs_strerror(st));
    ck_assert_uint_eq(d.n, 0);
    ck_assert_int_eq(v.nfiles, 4);
    ck_assert_int_eq(v.failed, 4);
    ck_assert_int_eq(v.files[0].st, CS_ECONFIG);
    ck_assert_uint_eq(v.files[0].diags.n, 1);
    ck_assert_str_eq(v.files[0].diags.items[0].file, "x.txt");
    ck_assert_str_eq(v.files[0].diags.items[0].msg,
                     "op \"no_such_op\" is not an nccl-tests operation");
    ck_assert_int_eq(v.files[1].st, CS_ECONFIG);
    ck_assert_uint_eq(v.files[1].diags.n, 1);
    ck_assert_str_eq(v.files[1].diags.items[0].file, "y.txt");
    ck_assert_str_eq(v.files[1].diags.items[0].msg, "algo \"no_such_algo\" is not an algorithm");
    /* nccl_env: an unknown variable and an unknown protocol name, each
     * naming the index file and the entry's line. */
    snprintf(p, sizeof p, "%s/validation/INDEX.yaml", root);
    for (int k = 2; k < 4; k++) {
        ck_assert_int_eq(v.files[k].st, CS_ECONFIG);
        ck_assert_uint_eq(v.files[k].diags.n, 1);
        ck_assert_str_eq(v.files[k].diags.items[0].file, p);
        ck_assert_int_eq(v.files[k].diags.items[0].line, 3 + k);
    }
    ck_assert_str_eq(v.files[2].diags.items[0].msg,
                     "nccl_env: unknown variable \"NCCL_FOO\" (expected NCCL_ALGO, NCCL_PROTO, NCCL_NVLS_ENABLE)");
    ck_assert_ptr_nonnull(strstr(v.files[3].diags.items[0].msg, "bad value \"Simple,LL256\" for NCCL_PROTO"));
    cs_app_cval_fini(&v);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
    static const char *const names[] = {"x.txt", "y.txt", "z.txt", "w.txt", "s.yaml", "INDEX.yaml"};
    for (int i = 0; i < 6; i++) {
        snprintf(p, sizeof p, "%s/validation/%s", root, names[i]);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/validation", root);
    rmdir(p);
    rmdir(root);
}
END_TEST

/* The measured H100 NVSwitch all_reduce log (8 ranks, one node, NCCL_ALGO
 * ring; 31 sizes, 8 B to 8 GiB doubling) through the app function gives
 * what `clustersim calibrate --nccl FILE -o x.yaml` wrote before the
 * calibration moved out of cli/ (the overlay, 9 digits:
 * intra_efficiency 0.821274892, launch_floor 3.71074407e-05 s; curve
 * launch 3.54308368e-05 s, latency 1.89541824e-05 s, busbw 4.0622636e10
 * B/s, latency2 3.89958166e-05 s, busbw2 3.60599028e11 B/s; the 17 digits
 * below are the same run's doubles). Sanity by hand: the largest sizes
 * measure 366.7 and 368.1 GB/s busbw, so the bandwidth regime's 360.6 GB/s
 * is their asymptote less latency, and 368 / 450 GB/s (H100 NVLink per
 * direction) = 0.818 ~ the intra-node efficiency; the 8 B rows take 35.0
 * us, the launch floor. One node: no network efficiency; no NVLS run: no
 * NVLS efficiency. The collective model's RMS residual (15.8%) is over the
 * 15% threshold: one warning, without a file. The sha256 is sha256sum's
 * of the file. */
START_TEST(test_app_calibrate_nccl)
{
    cs_catalog *cat = load_catalog();
    char path[4096];
    snprintf(path, sizeof path, "%s",
             cs_test_data("validation/collectives/nccl-h100sxm-8gpu-1node-nvswitch-allreduce.txt"));
    struct cs_app_calib_nccl in = {path, CS_COLL_OP_COUNT, false, CS_COLL_AUTO};
    struct cs_app_calib_opts o = {.nccl = &in, .n_nccl = 1, .date = "2023-11-14T22:13:20Z"};
    struct cs_app_calib r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_calibrate(cat, &o, &d, &r), CS_OK);
    ck_assert_int_eq(r.failed, CS_APP_CALIB_NONE);
    ck_assert_str_eq(r.ov.date, "2023-11-14T22:13:20Z");
    ck_assert_uint_eq(r.ov.n_inputs, 1);
    ck_assert_str_eq(r.ov.inputs[0].kind, "nccl");
    ck_assert_str_eq(r.ov.inputs[0].file, path);
    ck_assert_str_eq(r.ov.inputs[0].sha256, "8538a7c32d60d989afc33782503b914928dc7a9e9a46ae7c724ad539958c3bbb");
    ck_assert_uint_eq(r.ov.inputs[0].skipped_rows, 0);

    const struct cs_calib_cfg *cal = &r.ov.cal;
    ck_assert(cal->enabled);
    near(cal->intra_efficiency, 0.82258959378364427, "intra_efficiency"); /* moved from 0.82127 by NCCL 2.23 latencies (collective model, 2026-12-01) */
    near(cal->launch_floor_s, 3.7242015618001311e-05, "launch_floor_s"); /* was 3.71074e-05 before the 2.2x model */
    ck_assert(isnan(cal->net_efficiency) && isnan(cal->nvls_efficiency));
    ck_assert(isnan(cal->gemm_eff_max) && isnan(cal->compute_scale) && isnan(cal->overlap_slowdown));
    ck_assert_int_eq(cal->n_curves, 1);
    const struct cs_calib_curve *cv = &cal->curves[0];
    ck_assert_int_eq(cv->op, CS_COLL_ALL_REDUCE);
    ck_assert_int_eq(cv->algo, CS_COLL_RING);
    ck_assert_int_eq(cv->ranks, 8);
    ck_assert_int_eq(cv->nodes, 1);
    ck_assert_int_eq(cv->n_regimes, 2);
    near(cv->launch_s, 3.5430836819535579e-05, "launch_s");
    near(cv->lat_s[0], 1.8954182372336645e-05, "lat_s[0]");
    near(cv->lat_s[1], 3.899581664907695e-05, "lat_s[1]");
    near(cv->busbw_bytes_per_s[0], 40622635969.510773, "busbw[0]");
    near(cv->busbw_bytes_per_s[1], 360599027566.1604, "busbw[1]");
    ck_assert_double_eq(cv->min_bytes, 8);
    ck_assert_double_eq(cv->max_bytes, 8589934592.0);
    ck_assert_double_eq_tol(cv->busbw_bytes_per_s[1], 368.09e9, 0.03 * 368.09e9);

    /* The curve's fit and the collective model's, with their residuals. */
    ck_assert_uint_eq(r.ov.n_fits, 2);
    ck_assert_str_eq(r.ov.fits[0].kind, "curve");
    ck_assert_str_eq(r.ov.fits[1].kind, "collective");
    ck_assert_uint_eq(r.ov.fits[0].n, 31);
    ck_assert_uint_eq(r.ov.fits[1].n, 31);
    near(r.ov.fits[0].rms, 0.10350523720453753, "curve rms");
    near(r.ov.fits[1].rms, 0.15727651274379498, "collective rms" /* was 0.157937 before the 2.2x model */);
    ck_assert(r.ov.fits[0].warning[0] == '\0');
    ck_assert(r.ov.fits[1].rms > CS_CALIB_RMS_WARN && r.ov.fits[1].warning[0]);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_int_eq(d.items[0].sev, CS_SEV_WARNING);
    ck_assert_ptr_null(d.items[0].file);
    ck_assert(strstr(d.items[0].msg, "closed-form collective model") &&
              strstr(d.items[0].msg, "exceeds the 15% threshold"));
    cs_app_calib_fini(&r);
    ck_assert_uint_eq(r.ov.n_fits, 0); /* _fini zeroes */
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* An input that cannot be read is CS_EIO with an error naming it, from the
 * step that read it; nothing is fitted. */
START_TEST(test_app_calibrate_unreadable)
{
    cs_catalog *cat = load_catalog();
    const char *missing = "/nonexistent/clustersim-no-such-log.txt";
    struct cs_app_calib_nccl in = {missing, CS_COLL_OP_COUNT, false, CS_COLL_AUTO};
    struct cs_app_calib_opts o = {.nccl = &in, .n_nccl = 1};
    struct cs_app_calib r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_calibrate(cat, &o, &d, &r), CS_EIO);
    ck_assert_int_eq(r.failed, CS_APP_CALIB_NCCL);
    ck_assert_str_eq(r.ov.date, "unknown");
    ck_assert_uint_eq(r.ov.n_fits, 0);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert_str_eq(d.items[0].file, missing);
    ck_assert(strstr(d.items[0].msg, "cannot read the file"));
    cs_app_calib_fini(&r);
    cs_diags_fini(&d);

    /* The base scenario too, before any log is read. */
    cs_diags_init(&d);
    const char *missing_base = "/nonexistent/clustersim-no-such-base.yaml";
    o.base = missing_base;
    ck_assert_int_eq(cs_app_calibrate(cat, &o, &d, &r), CS_EIO);
    ck_assert_int_eq(r.failed, CS_APP_CALIB_BASE);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert_str_eq(d.items[0].file, missing_base);
    ck_assert_uint_eq(r.ov.n_inputs, 0);
    cs_app_calib_fini(&r);
    cs_diags_fini(&d);

    /* An input over 64 MiB (the largest any calibration reader takes) is
     * refused without being read whole for its sha256 (it was read up to
     * 1 GiB first): a sparse 65 MiB file, under 0.5 s of CPU. */
    cs_diags_init(&d);
    char big[] = "/tmp/cs_app_big_XXXXXX";
    int fd = mkstemp(big);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)65 << 20), 0);
    close(fd);
    struct cs_app_calib_nccl bin = {big, CS_COLL_OP_COUNT, false, CS_COLL_AUTO};
    struct cs_app_calib_opts bo = {.nccl = &bin, .n_nccl = 1};
    clock_t t0 = clock();
    ck_assert_int_eq(cs_app_calibrate(cat, &bo, &d, &r), CS_EIO);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    unlink(big);
    ck_assert_msg(cpu < 0.5, "refusing a 65 MiB input took %.2f s of CPU", cpu);
    ck_assert_str_eq(d.items[0].file, big);
    ck_assert_msg(strstr(d.items[0].msg, "larger than 67108864 bytes"), "%s", d.items[0].msg);
    cs_app_calib_fini(&r);
    cs_diags_fini(&d);

    /* GEMM timings without a GPU to relate them to: no base, no log. */
    cs_diags_init(&d);
    struct cs_app_calib_opts g = {.gemm = cs_test_data("tests/data/calib/gemm_good.csv")};
    ck_assert_int_eq(cs_app_calibrate(cat, &g, &d, &r), CS_EINVAL);
    ck_assert_int_eq(r.failed, CS_APP_CALIB_GEMM);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert(strstr(d.items[0].msg, "--gemm needs the GPU"));
    cs_app_calib_fini(&r);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* tests/data/nccl/mpirun_interleaved.txt line 26 is an nccl-tests row cut
 * by an NCCL WARN line (size 2097152, then "65.00 node02:..."): lenient,
 * it is skipped with a warning naming the line and counted in the input;
 * strict, it is an error at line 26, column 15 (where the row starts,
 * after the 14 characters of the Open MPI prefix "[1,0]<stdout>:"), the
 * status is the parser's (not CS_EIO) and nothing is fitted. */
START_TEST(test_app_calibrate_strict)
{
    cs_catalog *cat = load_catalog();
    char path[4096];
    snprintf(path, sizeof path, "%s", cs_test_data("tests/data/nccl/mpirun_interleaved.txt"));
    struct cs_app_calib_nccl in = {path, CS_COLL_OP_COUNT, false, CS_COLL_AUTO};
    struct cs_app_calib_opts o = {.nccl = &in, .n_nccl = 1};
    struct cs_app_calib r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_calibrate(cat, &o, &d, &r), CS_OK);
    ck_assert_uint_eq(r.ov.inputs[0].skipped_rows, 1);
    ck_assert_uint_eq(cs_diags_errors(&d), 0);
    ck_assert(d.n >= 1 && d.items[0].sev == CS_SEV_WARNING && d.items[0].line == 26);
    ck_assert(r.ov.n_fits >= 1);
    cs_app_calib_fini(&r);
    cs_diags_fini(&d);

    cs_diags_init(&d);
    o.strict = true;
    cs_status st = cs_app_calibrate(cat, &o, &d, &r);
    ck_assert_int_ne(st, CS_OK);
    ck_assert_int_ne(st, CS_EIO);
    ck_assert_int_eq(r.failed, CS_APP_CALIB_NCCL);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert_int_eq(d.items[0].sev, CS_SEV_ERROR);
    ck_assert_int_eq(d.items[0].line, 26);
    ck_assert_int_eq(d.items[0].col, 15);
    ck_assert_uint_eq(r.ov.n_fits, 0);
    ck_assert_int_eq(r.ov.cal.n_curves, 0);
    cs_app_calib_fini(&r);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* The step model on every step table of the index (validate-refs without
 * files): the fit tables within their tolerance (3.9% today), the held-out
 * ones no worse than they are now (316 rows, 10.6% mean absolute error; 322
 * before the recipes' offload layer counts were stated, 317
 * before the five 405B rows that count the embedding and loss as pipeline
 * layers became expressible, 2026-12-02; the
 * target is 8% per table), and no held-out row that ran predicted not to
 * fit but one: mbridge-26.02.01-dense.csv:33, Llama 3 70B NVFP4 on 64 GB300
 * at tp 1, pp 1, zero1 (FSDP cell '0'): 581 GB a GPU without sharded
 * weights; no recipe of any version has that layout (the 26.02 and
 * 26.04.01 pages show pp 4 vp 5 for the same row: the cells look
 * misplaced, validation/recipes/mbridge-dense-recipes.csv). The other,
 * mbridge-26.04.01-dense.csv:35 (MXFP8, pp 4 vp 5, no recomputation), fits
 * since GB300's 279 GB are read as NVIDIA states capacities, binary
 * (279 GiB, as the catalog has every other NVIDIA part): 267.9 GB against
 * 299.6 GB (2026-12-03).
 * A regression bound, not the target: a change
 * that makes the held-out figure worse fails here. */
START_TEST(test_app_validate_step_holdout_bound)
{
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_validate v;
    ck_assert_int_eq(cs_app_validate(cat, NULL, 0, &d, &v), CS_OK);
    const struct cs_app_val_agg *fit = &v.agg[0], *ho = &v.agg[1];
    /* fit: the three tables the four global parameters were fitted on (4.1%)
     * and, since 2026-12-06, two long-sequence tables registered fit before
     * any comparison (NeMo 25.04's B200 sweep from 8K to 1M tokens, the
     * Llama 3 paper's Table 4): 38 rows, 10.9%, the B200 sweep missed by up
     * to 50% at its longest lengths (docs/step.md, "Attention at long
     * sequences"); 9.7% before and 3.8% since Blackwell's two factors were
     * fitted on that sweep (2026-12-07, docs/step.md "Blackwell's generation
     * factors": the sweep 30.1% -> 2.0%). A regression bound. */
    ck_assert_int_eq(fit->files, 5);
    ck_assert_int_eq(fit->rows, 38);
    ck_assert(fit->sum / fit->rows <= 0.045);
    ck_assert_int_eq(ho->files, 22);   /* dense; the MoE tables are agg[2] */
    /* 323 since the seven FSDP FP8 70B rows fit; 324 with GB300's 279 GiB;
     * 327 with the squared-relu Nemotron rows of NeMo 24.07, 393 with the
     * three Nemotron-4 tables of NVIDIA's DGX Cloud recipes, 400 with their
     * hybrid Nemotron-H 56B table (2026-12-06), 408 with BigScience's
     * BLOOM-176B run (2026-12-07, 8 rows on Megatron-DeepSpeed), 411 with
     * Megatron-Turing NLG 530B's three, 427 with IBM's fms-fsdp eager and
     * compiled Llama 2 tables (2026-12-08, 8 rows each on A100 and H100) */
    ck_assert_int_ge(ho->rows, 427);
    printf("held-out step rows: %d, MAPE %.2f%%, worst %.1f%%\n", ho->rows, 100 * ho->sum / ho->rows,
           100 * ho->worst);
    /* 10.3% with host_python_scale 8 (was 10.6%); 9.0% with FlashAttention-2's
     * speed against cuDNN's on Hopper (attention_kernel) and torchtitan's
     * pipeline defaults stated (2026-12-03); 8.8% with the loss's
     * cross-entropy passes counted by kernel (2026-12-03); 8.6% on 323 rows
     * with FP8-stored weights and TE's loss kernel (2026-12-03); 7.6% with
     * the fused attention's length curve per kernel and ring attention's
     * unmasked blocks (2026-12-03); 7.8% with the FSDP timeline's gathers
     * in issue order (BACKWARD_PRE ahead of the reduce-scatters, Composer's
     * BACKWARD_POST) and slowed overlap (2026-12-03, session 37); 7.6% by
     * 2026-12-07, 6.8% with Blackwell's generation factors fitted on the
     * B200 fit sweep (DGX Cloud's GB200 Nemotron-4 table 20.7% -> 5.2%);
     * 6.7% -> 6.3% with FlashAttention-2's ratio on the kernel's share of
     * the fitted time and MPT's Triton kernel named (2026-12-07); 6.33% ->
     * 6.26% with torchtitan's April 2024 A100 runs eager (torch_compile
     * off, the 70B rows' norms eager: that table 9.9% -> 5.3%); 5.59% ->
     * 5.64% with BigScience's BLOOM-176B table (2026-12-07: 29.4% on its
     * own when first compared as megatron-2021, 21% with its 4 NICs per
     * node and no sequence parallelism, 8.1% under stack
     * megatron-deepspeed); 5.64% -> 5.86% with Megatron-Turing NLG 530B's
     * three rows (35.8% on their own, every row too fast); 5.87% with
     * BLOOM's gradients reduced in bf16 as DeepSpeed's engine does; 5.83%
     * with MT-NLG read without sequence parallelism; 5.81% with fms-fsdp's
     * two tables (10.2% and 6.3% when first compared, 6.7% and 4.2% once
     * hybrid sharding's replica all-reduce runs per layer under the
     * backward, 2026-12-08) */
    ck_assert(ho->sum / ho->rows <= 0.063);
    /* Measured peak memory (kind step-memory, 2026-12-02): torchtitan's
     * reserved-GiB logs (24 rows on H100, H200 and B200; 6 more on an
     * unnamed SM100 part are not expressible) and ColossalAI/Lightning's
     * max_memory_allocated (3 rows on A100 40GB), against the memory model's
     * total per GPU: 32.6% then; 10.9% since the loss's memory by kernel
     * (workload.cross_entropy) and torchtitan's FSDP2 under pipeline
     * parallelism (2026-12-03; 10.7% with the interleaved run's stated
     * vp), bounded here at that plus 1.5 points. The
     * reserved figures include the caching allocator's cache, so the
     * model's demand lies below them: a regression bound, not a target. */
    const struct cs_app_val_agg *mem = &v.agg[4];
    ck_assert_int_eq(mem->files, 2);
    ck_assert_int_eq(mem->rows, 27);
    ck_assert_int_eq(mem->not_expressible, 6);
    printf("held-out peak-memory rows: %d, MAPE %.2f%%\n", mem->rows, 100 * mem->sum / mem->rows);
    ck_assert(mem->sum / mem->rows <= 0.122);
    /* The held-out mixture-of-experts tables: Megatron-Bridge 25.11,
     * 26.04.01 and 26.08 (45 rows at 40.1% before the others joined: 57.8%,
     * 34.3% and 17.0% by container), plus Megatron-Bridge 25.09, 26.02.01,
     * 26.06 and 26.06.01, the Megatron-LM README, the MoE ModelZoo, the
     * torchtitan DeepEP fork, NeMo 25.x and DeepSeek-V3's GPU-hours (wip-
     * moedata): 125 rows at 34.4% together; 128 at 28.8% (2026-12-02) with
     * the Megatron-Bridge rows' recompute, EP overlap and dispatcher as their
     * recipes state them (validation/recipes/mbridge-moe-recipes.csv) and the expert
     * output no longer kept by Megatron-Core (the target is 12%; docs/moe.md
     * says what is missing); 25.5% with host_python_scale 8 (fitted on the
     * Megatron-LM CI's DGX H100 rows, none of these), 24.3% with the
     * recipes' CUDA graphs stated per row (/graphs); 22.7% on 126 with
     * 26.06.01's two source-flagged GPT-OSS rows out, 21.7% with the
     * sliding-window kernel's measured speed, 20.9% with the recipes' FP8
     * attention (2026-12-03), 21.1% with DeepSeek-V3's MTP module on its
     * recipes' pipeline layouts, 18.6% with the expert MLP as Megatron-Core
     * runs it (gpt-oss's clamp and per-expert fc2 bias unfused, the recipes'
     * fused grouped MLP; 2026-12-06), 16.1% with Megatron-Core's
     * dispatchers' host operations, 16.0% with current cuDNN's length
     * curve, 15.5% on 127 rows with the ModelZoo rows at their commands'
     * CUDA graphs and EP overlap and its A2A row back (2026-12-06). A
     * regression bound. */
    const struct cs_app_val_agg *moe = &v.agg[2];
    /* 13 tables since Megatron-LM's examples/moe_recipes table joined
     * (2026-12-07, held out before any comparison: 14 rows at 10.4%, all
     * rows 12.9% -> 12.7%); 15 since Megatron-Bridge's model verification
     * cards joined as two tables (2026-12-07, held out before any
     * comparison: 19 force-balanced performance rows at 9.0%, 7
     * natural-routing functional rows at 30.1%; 180 rows at 12.15% -> 206
     * at 12.47%) */
    ck_assert_int_eq(moe->files, 15);
    /* 26.06.01's two GPT-OSS rows, which the page's footnote calls a known
     * regression (validation/INDEX.yaml flagged_lines), are predicted but
     * scored nowhere: 128 rows at 24.1%, 126 at 22.7% without them; and
     * since 2026-12-07 25.11's two Qwen3-30B-A3B rows (B200 line 52, H100
     * line 55), which the publisher's regression report names
     * (NVIDIA-NeMo/Megatron-Bridge#1998) */
    ck_assert_int_eq(moe->flagged, 4);
    int flagged_seen = 0;
    for (size_t i = 0; i < v.nrows; i++)
        if (v.rows[i].c->flagged[0]) {
            bool b2606 = strcmp(v.rows[i].c->file, "mbridge-26.06.01-moe.csv") == 0;
            bool b2511 = strcmp(v.rows[i].c->file, "mbridge-25.11-moe.csv") == 0;
            ck_assert(b2606 || b2511);
            if (b2606)
                ck_assert(v.rows[i].c->line == 40 || v.rows[i].c->line == 41);
            else
                ck_assert(v.rows[i].c->line == 52 || v.rows[i].c->line == 55);
            ck_assert_int_eq(v.rows[i].st, CS_OK);   /* still predicted */
            ck_assert(isfinite(v.rows[i].err));
            flagged_seen++;
        }
    ck_assert_int_eq(flagged_seen, 4);
    for (int f = 0; f < v.nfiles; f++)
        if (strcmp(v.files[f].base, "mbridge-26.06.01-moe.csv") == 0 ||
            strcmp(v.files[f].base, "mbridge-25.11-moe.csv") == 0) {
            ck_assert_int_eq(v.files[f].flagged, 2);
            ck_assert_int_eq(v.files[f].cnt + v.files[f].flagged + v.files[f].not_expressible,
                             (int)v.files[f].nrows);
        }
    printf("held-out MoE rows: %d, MAPE %.2f%%, worst %.1f%%\n", moe->rows,
           100 * moe->sum / moe->rows, 100 * moe->worst);
    /* The Nemotron 3 family's 40 rows (hybrid Mamba-2 and MoE: Nano 16,
     * Super 22 with its latent MoE and shared-weight MTP, Ultra 2) are
     * expressible since 2026-12-06 and predicted too fast, every one
     * (docs/models.md 2.4a). With their recipes' stated recomputation and
     * CUDA graph scopes (attn+mamba, mamba on H100; validation/recipes/,
     * since 2026-12-06) +29% to +89%, mean +55.7%; 167 rows at 25.1% (21.5%
     * with their cells empty). With the Mamba-2 scan at the bandwidth
     * share its Triton kernels reach (CS_SSD_HBM_FRAC, 2026-12-07) +19% to
     * +67%, mean +39.1%; 167 rows at 21.0%; with its backward's bytes
     * counted kernel by kernel (2.73x the forward's for Nano, not 2x) +15%
     * to +63%, mean +35.2%, 167 rows at 20.1%; with Grace hosts at 0.92 of
     * DGX H100's single-thread speed (host_speed, 2026-12-07) 19.7%; with
     * DeepEP/HybridEP sending a token once per destination GPU over NVLink
     * (2026-12-07, checked on the Megatron-Core report's Table 7,
     * test_app_validate_ep_dispatch: 20.4% -> 14.4%) 20.8%: the other
     * architectures' 127 rows 15.5% -> 15.4%, the family's mean +35.2% ->
     * +38.0% (their measured time is longer for a reason not modelled, and
     * a faster all-to-all shows more of it). The bound holds both: all
     * rows, and the
     * other architectures' 127 rows at their 15.5% plus rounding; the
     * family's own signed mean is bounded both ways, so a change that moves
     * them is seen. Since Blackwell's generation factors (2026-12-07,
     * fitted on the B200 fit sweep, docs/step.md): 167 rows 20.6% ->
     * 15.5%, the family's mean +37.6% -> +20.2%, the other 127 rows 15.3%
     * -> 14.0%; the bounds follow. Since the nemotron-3.5-lightning preset
     * (Nano's layers and a shared-weight MTP module, 2026-12-07) the family
     * has 41 rows, mean +19.9%, and the held-out MoE rows are 168 at 15.4%.
     * Since torchtitan's bf16 experts on Blackwell take torch._grouped_mm's
     * measured time (CS_TORCH_GROUPED_MM_BF16_BLACKWELL, 2026-12-07) the
     * other 127 rows are at 13.4% and all 168 at 15.0%. Since NCCL's
     * all-to-all is capped by its p2p channels (2026-12-07,
     * test_collective_p2p_channels) 12.9% and 14.6%. Since the torchtitan
     * DeepEP table's rows state the dispatcher they ran (DeepEP,
     * /dispatch:hierarchical; 2026-12-07; that table 4.6% -> 13.7%) 13.4%
     * and 14.9%. Since Transformer Engine's GroupedLinear runs one GEMM and
     * one quantization per local expert (cs_compute_te_grouped_kernels,
     * 2026-12-07) 12.6% and 13.6%, the family's mean +19.9% -> +16.8%.
     * Since the Megatron-Bridge 25.11 table's two Qwen3-30B-A3B rows are
     * flagged by the publisher's regression report (NVIDIA-NeMo/
     * Megatron-Bridge#1998; 2026-12-07: the H100 row was +129.2%, the B200
     * row -5.8%) 166 rows at 13.0%, the other architectures' 125 at 11.9%.
     * With Nemotron 3 Super's TP 2 rows at their recipes' TP overlap (none;
     * '/no_tp_overlap', 2026-12-07) 12.9%; 180 rows at 12.7% with
     * Megatron-LM's MoE recipes table; 12.6% with block-wise FP8 and the
     * FP8 GEMM rate measured by Transformer Engine; 12.1% since each MoE
     * layer's forward synchronizes the host (models/step.c; Nemotron 3
     * Super's TP 2 GB200 rows +27..+36% -> +16..+23%, the family's mean
     * +16.8% -> +13.9%). 11.63% since gpt-oss's YaRN positions run
     * Megatron-Core's unfused RoPE (cs_workload_rope_unfused, 2026-12-07;
     * the other architectures' 139 rows 11.5% -> 11.0%). 12.21% since
     * Megatron-Bridge 25.09's rows are read as they ran, token drop at a
     * capacity of 1.0 with padding and one force-balanced row (moe_routing
     * balanced, validation/INDEX.yaml): their learned-routing imbalance had
     * made the too-fast rows look right (that table 10.1% -> 18.2%; the
     * other architectures' 139 rows 11.0% -> 11.7%). 12.15% since the
     * presets of bias-balanced routers (DeepSeek-V3, Kimi K2, Nemotron 3)
     * spread their learned routing by 0.017 (the DeepSeek-V3 report's row
     * -14.9% -> -4.2%). */
    ck_assert_int_ge(moe->rows, 206);
    ck_assert(moe->sum / moe->rows <= 0.1255);
    double nano = 0.0, other = 0.0;
    int n_nano = 0, n_other = 0;
    for (int f = 0; f < v.nfiles; f++) {
        if (strcmp(v.files[f].role, "holdout") != 0 || !strstr(v.files[f].base, "moe"))
            continue;
        for (size_t i = v.files[f].first_row; i < v.files[f].first_row + v.files[f].nrows; i++) {
            const struct cs_app_val_row *row = &v.rows[i];
            if (row->st != CS_OK || !isfinite(row->err) || row->c->flagged[0] || row->c->not_expressible[0])
                continue;
            if (strncmp(row->c->label, "Nemotron-3", 10) == 0) { /* 3 and 3.5 */
                nano += row->err;
                n_nano++;
            } else {
                other += fabs(row->err);
                n_other++;
            }
        }
    }
    ck_assert_int_eq(n_nano, 50);     /* 41 + 9 of the verification cards */
    ck_assert_int_eq(n_other, 156);   /* 125 + the 14 of Megatron-LM's recipes table + 17 of the cards */
    ck_assert(other / n_other <= 0.120);
    ck_assert(nano / n_nano >= 0.12 && nano / n_nano <= 0.22);
    /* The held-out small-work table (Megatron-LM's CI iteration times, 12 x
     * 512 GPT at micro-batch 4 on one DGX node; docs/validation.md): the
     * model is 3-10x too fast there. 510.8% without the host-dispatch floor,
     * 436.5% with it, 507.8% once each row states its attention kernels
     * (the attention column: 70 rows fused, so faster still, and the two 7B
     * rows now fit). Since 2026-12-02 the table is split by GPU: its DGX
     * H100 half fitted host_python_scale (8: 18.2% there, agg[5]); the DGX
     * A100 half stays held out at 45.3% (the factor at 1: 516.5%). Since
     * 2026-12-06 the same tests on Megatron-LM's GB200 CI (two trays of 4
     * GPUs, Grace hosts, 44 rows) are held out too: 14.6% with the factor
     * fitted on DGX H100 (A100 40.7%; both 28.1% on 91 rows). Since
     * 2026-12-07 host costs divide by the host CPU's single-thread speed
     * (catalog host_speed: DGX A100's EPYC 7742 0.87, Grace 0.92 of DGX
     * H100's 8480C): A100 27.5%, GB200 13.9%, both 20.9%. Bounds against
     * regression, not targets. */
    const struct cs_app_val_agg *sw = &v.agg[3];
    ck_assert_int_eq(sw->files, 2);
    ck_assert_int_ge(sw->rows, 91);
    printf("held-out small-work rows: %d, MAPE %.2f%%, worst %.1f%%\n", sw->rows,
           100 * sw->sum / sw->rows, 100 * sw->worst);
    ck_assert(sw->sum / sw->rows <= 0.215);
    for (int f = 0; f < v.nfiles; f++) {
        bool a100 = strstr(v.files[f].base, "small-a100") != NULL;
        bool gb200 = strstr(v.files[f].base, "small-gb200") != NULL;
        if (!a100 && !gb200)
            continue;
        double sum = 0.0;
        int n = 0;
        for (size_t i = v.files[f].first_row; i < v.files[f].first_row + v.files[f].nrows; i++)
            if (v.rows[i].st == CS_OK && isfinite(v.rows[i].err)) {
                sum += fabs(v.rows[i].err);
                n++;
            }
        ck_assert_int_eq(n, a100 ? 47 : 44);
        ck_assert(sum / n <= (a100 ? 0.28 : 0.145));
    }
    const struct cs_app_val_agg *swf = &v.agg[5];
    ck_assert_int_eq(swf->files, 1);
    ck_assert_int_ge(swf->rows, 46);
    ck_assert(swf->sum / swf->rows <= 0.19);
    /* Rows that ran but are predicted not to fit: failures of the memory
     * model, counted, never dropped. Dense: none since 2026-12-06 (the last
     * one, 26.02.01's 70B NVFP4 GB300 row at tp 1, pp 1, cannot fit as
     * printed with every layer recomputed and is listed as inconsistent,
     * docs/validation.md); before that, 9: 70B NVFP4 and MXFP8 on
     * GB300 (their FP4 / FP8 primary weights are not modelled), and the seven
     * Megatron-FSDP FP8 70B runs on GB200 and GB300 whose recipes keep 40
     * and 20 layers' activations in host memory (cpu_offloading_num_layers,
     * stated since 2026-12-02; the search had found 41 and 22): 191.6 GB
     * against 188.1 GB usable on GB200, 269.4 against 263.5 on GB300, 1.3%
     * to 2.2% of the HBM over, within the 5% fragmentation reserve. MoE: none
     * since Megatron-Core's experts keep no output for the combine
     * (probabilities applied in the activation, memory.c): the ModelZoo's two
     * Qwen3-235B MXFP8 GB200 runs, DeepSeek-V3 on H800 and the 17
     * Megatron-Bridge runs at their recipes' recomputation fit. Small-work (the Megatron-LM CI table): none;
     * its two 7B rows at 8,192 tokens fit (58 GB on stage 0) since the
     * table's attention column says they ran Transformer Engine's fused
     * attention, not the stack's unfused default. */
    int unfit_dense = 0, unfit_moe = 0, unfit_small = 0;
    for (size_t i = 0; i < v.nrows; i++)
        if (v.rows[i].st == CS_ENOFIT) {
            const struct cs_val_table *vt = cs_valindex_find(&v.ix, v.rows[i].c->file);
            if (vt && strcmp(vt->kind, "step-small") == 0)
                unfit_small++;
            else if (cs_model_is_moe(&v.rows[i].c->scen.workload.model))
                unfit_moe++;
            else
                unfit_dense++;
        }
    ck_assert_int_eq(unfit_dense, 0);
    ck_assert_int_eq(unfit_moe, 0);
    ck_assert_int_eq(unfit_small, 0);
    /* The host bound (docs/models.md 2.6): NeMo 24.07's Llama 2 70B on 64
     * H100 measured 1,728 tokens/s/GPU at 128 x 4,096 tokens a step, so its
     * step took 128 x 4096 / (1728 x 64) = 4.7407 s, while the model's host
     * dispatch alone (32 micro-batches of 20 mcore layers at K = 8, 7.9 ms a
     * layer, with the embedding and output layer) is about 5.3 s. */
    int over = 0;
    bool nemo20 = false;
    for (size_t i = 0; i < v.nrows; i++) {
        const struct cs_app_val_row *r = &v.rows[i];
        if (!cs_app_validate_host_over(r))
            continue;
        over++;
        ck_assert(r->host_issue_s > r->measured_step_s);
        if (strcmp(r->c->file, "nemo-24.07-h100-dense.csv") == 0 && r->c->line == 20) {
            nemo20 = true;
            ck_assert_double_eq_tol(r->measured_step_s, 128.0 * 4096 / (1728.0 * 64), 1e-6);
            ck_assert(r->host_issue_s > 5.06 && r->host_issue_s < 5.5);
        }
    }
    ck_assert(nemo20);
    ck_assert_int_ge(over, 4);
    cs_app_validate_fini(&v);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* cs_app_validate_host_over, by hand: a row over its measured step counts
 * only when it was predicted, is not flagged, states its micro-batch and
 * either states its recomputation or was given none by the reader. */
START_TEST(test_app_validate_host_over)
{
    struct cs_ref_case c;
    memset(&c, 0, sizeof c);
    struct cs_app_val_row r;
    memset(&r, 0, sizeof r);
    r.c = &c;
    r.st = CS_OK;
    r.host_issue_s = 2.0;
    r.measured_step_s = 1.5;
    r.recompute = CS_RECOMPUTE_FULL;
    ck_assert(cs_app_validate_host_over(&r));
    r.host_issue_s = 1.4;
    ck_assert(!cs_app_validate_host_over(&r));
    r.host_issue_s = 2.0;
    c.search_micro_batch = true;   /* the reader chose the micro-batch */
    ck_assert(!cs_app_validate_host_over(&r));
    c.search_micro_batch = false;
    c.search_recompute = true;     /* and chose full recomputation: more host time */
    ck_assert(!cs_app_validate_host_over(&r));
    r.recompute = CS_RECOMPUTE_NONE; /* the least host time the row could have */
    ck_assert(cs_app_validate_host_over(&r));
    snprintf(c.flagged, sizeof c.flagged, "%s", "the source flags it");
    ck_assert(!cs_app_validate_host_over(&r));
    c.flagged[0] = 0;
    r.measured_step_s = NAN;       /* peak memory: no step */
    ck_assert(!cs_app_validate_host_over(&r));
    r.measured_step_s = 1.5;
    r.st = CS_ENOFIT;
    ck_assert(!cs_app_validate_host_over(&r));
}
END_TEST

/* The bundled MoE comparison (scenarios/moe/qwen3-235b-256xh100-*.yaml):
 * the same Qwen3-235B-A22B job with ep 32 over 4 nodes on InfiniBand NDR
 * and on RoCE 400G. The dispatch and combine cross the NICs, so the
 * all-to-alls cost more on RoCE (the catalog's lower efficiency and higher
 * latency) and the step is slower; the MoE columns are set, a dense
 * scenario's are not. */
START_TEST(test_app_compare_moe_ib_roce)
{
    cs_catalog *cat = load_catalog();
    const char *files[2] = {"scenarios/moe/qwen3-235b-256xh100-ib.yaml",
                            "scenarios/moe/qwen3-235b-256xh100-roce.yaml"};
    struct cs_app_compare r[2];
    for (int i = 0; i < 2; i++) {
        struct cs_scenario s;
        cs_diags d;
        cs_diags_init(&d);
        ck_assert_int_eq(cs_cfg_load_scenario(cs_test_data(files[i]), cat, &d, &s, NULL), CS_OK);
        ck_assert_int_eq(cs_app_compare_eval(&s, files[i], &d, &r[i]), CS_OK);
        cs_diags_fini(&d);
        cs_scenario_fini(&s);
        ck_assert(r[i].moe && r[i].fits);
        ck_assert_int_eq(r[i].ep, 32);
        ck_assert(r[i].ep_comm_s > 0);
    }
    ck_assert(r[1].ep_comm_s > r[0].ep_comm_s);
    ck_assert(r[1].step_s > r[0].step_s);
    struct cs_scenario s;
    load_default(cat, &s);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_compare dense;
    ck_assert_int_eq(cs_app_compare_eval(&s, "default.yaml", &d, &dense), CS_OK);
    ck_assert(!dense.moe);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* The validated range of a GPU: what validate-refs compared on it. On
 * H100-SXM5-80GB the index has held-out and fit rows (the Megatron-Core
 * weak-scaling table is fit: 9 rows); a configuration inside passes, one
 * with tp 16 or on more GPUs than any measurement is outside, with the
 * reasons; a GPU nothing was measured on has no rows. By hand: the range
 * test compares each of model size, sequence, GPUs and degrees with the
 * min/max seen. */
/* The validation rows of one architecture (cs_app_validated_model): the
 * shape test by hand (the vocabulary, and an MoE model's dense width where
 * it has no dense layer, do not count; layers, experts and a DeepSeek-V3
 * dense width do), then gpt-oss-120b's record against the rows the index's
 * tables label GPT-OSS-120B, selected by name here and by shape there: the
 * same rows, the same mean. The uncertainty of a gpt-oss scenario comes
 * from them, with the spread of their log errors; a shape nothing was
 * measured on falls back to its GPU's rows. */
START_TEST(test_app_validated_model)
{
    struct cs_model_shape a, b;
    ck_assert_int_eq(cs_workload_preset("gpt-oss-120b", &a), CS_OK);
    b = a;
    b.vocab += 128;
    b.ffn_hidden *= 2; /* no dense layer: the dense width is not used */
    ck_assert(cs_app_same_architecture(&a, &b));
    b.layers--;
    ck_assert(!cs_app_same_architecture(&a, &b));
    b = a;
    b.moe.experts = 64;
    ck_assert(!cs_app_same_architecture(&a, &b));
    ck_assert_int_eq(cs_workload_preset("deepseek-v3", &a), CS_OK);
    b = a;
    b.ffn_hidden += 64; /* three dense layers */
    ck_assert(!cs_app_same_architecture(&a, &b));
    ck_assert_int_eq(cs_workload_preset("llama3.1-8b", &a), CS_OK);
    ck_assert_int_eq(cs_workload_preset("llama3.1-70b", &b), CS_OK);
    ck_assert(!cs_app_same_architecture(&a, &b));

    cs_catalog *cat = load_catalog();
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    ck_assert_int_eq(cs_workload_preset("gpt-oss-120b", &w.model), CS_OK);
    struct cs_app_vmodel vm;
    ck_assert_int_eq(cs_app_validated_model(cat, &w, &vm), CS_OK);
    /* by name, from the same comparison */
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_validate v;
    ck_assert_int_eq(cs_app_validate(cat, NULL, 0, &d, &v), CS_OK);
    cs_diags_fini(&d);
    int n = 0;
    double sum = 0, sgn = 0;
    for (size_t i = 0; i < v.nrows; i++) {
        const struct cs_app_val_row *r = &v.rows[i];
        const struct cs_ref_case *c = r->c;
        const struct cs_val_table *vt = cs_valindex_find(&v.ix, c->file);
        if (strncmp(c->label, "GPT-OSS-120B ", 13) != 0 || c->not_expressible[0] || c->flagged[0] ||
            r->st != CS_OK || !vt || vt->role != CS_VAL_HOLDOUT)
            continue;
        n++;
        sum += fabs(r->err);
        sgn += r->err;
    }
    cs_app_validate_fini(&v);
    ck_assert_int_ge(n, CS_UNC_MODEL_MIN_ROWS);
    ck_assert_int_eq(vm.rows[1], n);
    ck_assert_int_eq(vm.rows[0], 0);
    ck_assert_double_eq_tol(vm.mape[1], sum / n, 1e-12);
    ck_assert_double_eq_tol(vm.bias[1], sgn / n, 1e-12);
    ck_assert(vm.err_min[1] <= vm.bias[1] && vm.bias[1] <= vm.err_max[1]);
    ck_assert(vm.rms_log[1] > 0);
    ck_assert_int_ge(vm.tables[1], 2);
    ck_assert_ptr_nonnull(strstr(vm.gpus, "GB200"));

    struct cs_scenario s;
    memset(&s, 0, sizeof s);
    s.has_workload = true;
    s.workload = w;
    s.uncertainty.step_error = NAN; /* unset, as the loader leaves it */
    snprintf(s.cluster.gpu.name, sizeof s.cluster.gpu.name, "GB200");
    struct cs_unc_spec u;
    cs_app_unc_spec(cat, &s, &u);
    ck_assert_ptr_nonnull(strstr(u.step_source, "this architecture (gpt-oss-120b)"));
    ck_assert_double_eq_tol(u.step_sigma, vm.rms_log[1], 1e-12);
    ck_assert_int_eq(u.step_rows, n);
    /* a shape with no published run: the GPU's MoE rows */
    s.workload.model.layers = 37;
    cs_app_unc_spec(cat, &s, &u);
    ck_assert_ptr_null(strstr(u.step_source, "this architecture"));
    ck_assert_ptr_nonnull(strstr(u.step_source, "GB200, mixture-of-experts runs"));
    cs_catalog_destroy(cat);
}
END_TEST

/* Precision pairs (cs_app_validate_pairs): a table's bf16 and fp8 rows of
 * one configuration make a pair, a row differing in its micro-batch does
 * not; the speedups are the rows' own ratios. On the index: the 43 FP8
 * pairs (llm-foundry H100, DGX Cloud Nemotron-4, torchtitan) measure 1.37x
 * over bf16 and were predicted 1.45x, 5.4% high, 1.42x (3.3% high) since
 * the FP8 GEMM rate came from Transformer Engine's kernel measurement
 * (2026-12-07); a regression bound, both ways. */
START_TEST(test_app_validate_precision_pairs)
{
    cs_catalog *cat = load_catalog();
    char path[] = "/tmp/check_app_pairs_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *csv =
        "model,gpu,gpus,nodes,layers,hidden,ffn_hidden,heads,kv_heads,vocab,seq_len,activation,"
        "global_batch,micro_batch,tp,pp,cp,vp,dp,ep,fsdp,precision,recompute,tokens_per_s_per_gpu,"
        "tflops_per_gpu,mfu,step_time_s\n"
        "L,H100-SXM5-80GB,8,1,8,4096,14336,32,8,32000,4096,swiglu,64,2,1,1,1,1,8,1,zero1,bf16,none,"
        "6000,,,\n"
        "L,H100-SXM5-80GB,8,1,8,4096,14336,32,8,32000,4096,swiglu,64,2,1,1,1,1,8,1,zero1,fp8,none,"
        "8100,,,\n"
        "L,H100-SXM5-80GB,8,1,8,4096,14336,32,8,32000,4096,swiglu,64,4,1,1,1,1,8,1,zero1,fp8,none,"
        "8300,,,\n";
    ck_assert_int_eq((int)write(fd, csv, strlen(csv)), (int)strlen(csv));
    close(fd);
    const char *paths[] = {path};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_validate v;
    ck_assert_int_eq(cs_app_validate(cat, paths, 1, &d, &v), CS_OK);
    ck_assert_uint_eq(v.nrows, 3);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(v.rows[i].st, CS_OK);
    struct cs_app_val_pairs p[CS_APP_PAIR_COUNT];
    cs_app_validate_pairs(&v, p);
    ck_assert_int_eq(p[CS_APP_PAIR_FP8].n, 1);
    ck_assert_int_eq(p[CS_APP_PAIR_MXFP8].n, 0);
    ck_assert(isnan(p[CS_APP_PAIR_MXFP8].ratio));
    double meas = 8100.0 / 6000.0, mod = v.rows[1].pred / v.rows[0].pred;
    ck_assert_double_eq_tol(p[CS_APP_PAIR_FP8].measured, meas, 1e-12);
    ck_assert_double_eq_tol(p[CS_APP_PAIR_FP8].model, mod, 1e-12);
    ck_assert_double_eq_tol(p[CS_APP_PAIR_FP8].ratio, mod / meas, 1e-12);
    ck_assert_double_eq_tol(p[CS_APP_PAIR_FP8].mape, fabs(mod / meas - 1.0), 1e-12);
    ck_assert(mod > 1.1);   /* FP8 GEMMs on H100, the layers large enough to gain */
    cs_app_validate_fini(&v);
    cs_diags_fini(&d);
    unlink(path);

    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_validate(cat, NULL, 0, &d, &v), CS_OK);
    cs_diags_fini(&d);
    cs_app_validate_pairs(&v, p);
    printf("precision pairs: fp8 %d, predicted/measured %.3f; mxfp8 %d, %.3f\n", p[CS_APP_PAIR_FP8].n,
           p[CS_APP_PAIR_FP8].ratio, p[CS_APP_PAIR_MXFP8].n, p[CS_APP_PAIR_MXFP8].ratio);
    ck_assert_int_ge(p[CS_APP_PAIR_FP8].n, 40);
    ck_assert(p[CS_APP_PAIR_FP8].ratio >= 1.0 && p[CS_APP_PAIR_FP8].ratio <= 1.05);
    ck_assert(p[CS_APP_PAIR_FP8].measured > 1.2 && p[CS_APP_PAIR_FP8].measured < 1.6);
    cs_app_validate_fini(&v);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_app_validated_range)
{
    cs_catalog *cat = load_catalog();
    struct cs_app_vrange v;
    ck_assert_int_eq(cs_app_validated_range(cat, "H100-SXM5-80GB", CS_STACK_CUSTOM, &v), CS_OK);
    ck_assert_int_eq(v.rows[0], 12);   /* Megatron-Core's 9 and the Llama 3 paper's 3 */
    ck_assert_int_gt(v.rows[1], 50);
    ck_assert(v.mape[1] > 0 && v.mape[1] < 1);
    /* the signed mean of the same rows: never beyond the mean |error| */
    ck_assert(isfinite(v.bias[1]) && fabs(v.bias[1]) <= v.mape[1] + 1e-12);
    ck_assert(fabs(v.bias[0]) <= v.mape[0] + 1e-12);
    ck_assert(v.params_min < v.params_max);
    ck_assert_int_le(v.seq_min, 2048);
    ck_assert_int_ge(v.seq_max, 8192);
    ck_assert_int_eq(v.tp_max, 8);
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    ck_assert_int_eq(cs_workload_preset("llama3.1-70b", &w.model), CS_OK);
    w.model.seq_len = 8192;
    w.par.tp = 8;
    w.par.pp = 4;
    w.par.cp = 1;
    w.par.dp = 2;
    char why[160];
    ck_assert(cs_app_vrange_inside(&v, &w, 64, why, sizeof why));
    ck_assert_str_eq(why, "");
    w.par.tp = 16;
    ck_assert(!cs_app_vrange_inside(&v, &w, 1000000, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "tp 16"));
    ck_assert_ptr_nonnull(strstr(why, "1000000 GPUs"));
    /* One stack only: the Megatron-Core fit rows and the mcore held-out ones. */
    struct cs_app_vrange m;
    ck_assert_int_eq(cs_app_validated_range(cat, "H100-SXM5-80GB", CS_STACK_COMPOSER, &m), CS_OK);
    ck_assert_int_eq(m.rows[0], 0);
    ck_assert_int_gt(m.rows[1], 50);
    ck_assert_int_lt(m.rows[1], v.rows[1]);
    ck_assert_int_eq(cs_app_validated_range(cat, "RTX-4090", CS_STACK_CUSTOM, &m), CS_OK);
    ck_assert_int_eq(m.rows[0] + m.rows[1], 0);
    ck_assert(!cs_app_vrange_inside(&m, &w, 64, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "no measurement on RTX-4090"));
    /* Mixture-of-experts runs have their range apart: on H100 the MoE
     * tables' rows, none of them fit rows; a dense model lies outside it,
     * and an MoE model outside the dense one. */
    struct cs_app_vrange e;
    ck_assert_int_eq(cs_app_validated_range_kind(cat, "H100-SXM5-80GB", CS_STACK_CUSTOM, true, &e),
                     CS_OK);
    ck_assert(e.moe);
    ck_assert_int_eq(e.rows[0], 0);
    ck_assert_int_gt(e.rows[1], 10);
    ck_assert_int_ge(e.ep_max, 32);
    ck_assert(!cs_app_vrange_inside(&e, &w, 64, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "a dense model"));
    struct cs_workload q = w;
    ck_assert_int_eq(cs_workload_preset("qwen3-235b-a22b", &q.model), CS_OK);
    q.model.seq_len = 4096;
    q.par.tp = 2;
    q.par.pp = 8;
    q.par.dp = 16;
    q.par.ep = 32;
    ck_assert_msg(cs_app_vrange_inside(&e, &q, 256, why, sizeof why), "%s", why);
    ck_assert(!cs_app_vrange_inside(&v, &q, 256, why, sizeof why));
    ck_assert_ptr_nonnull(strstr(why, "mixture of experts"));
    cs_catalog_destroy(cat);
}
END_TEST

/* Search on default.yaml: what `clustersim search scenarios/default.yaml`
 * prints first (12521 configurations considered, 0 invalid, 11107 do not
 * fit, 1414 simulated; #1 tp 4 pp 2 dp 2 cp 2 vp 8 mb 1 zero2, no
 * recomputation, 30.77 s, 34076 tokens/s). History: 30.92 s before ring
 * attention overlapped its KV transfers with the attention; 12613 / 11833 / 780 and
 * #1 tp 8 pp 1 dp 4 at 34.47 s while Llama's dropout masks were counted (it
 * has none) and model states were sharded over dp alone (Megatron-Core's
 * distributed optimizer shards over dp x cp), which kept every cp 2 job
 * from fitting; 11069 / 1452 before the memory model counted the chunks
 * interleaving holds stage by stage (the last stage holds (vp - 1) pp + 1
 * chunks at its peak, not one micro-batch) on the step's own layer split.
 * By hand: 1414 + 11107 = 12521; tp x pp x dp x cp = 32 GPUs;
 * tokens/s = 128 x 8192 tokens / step time (1048576 / 30.7715 s = 34076);
 * #1's model states: the first stage's 8.8197e9 parameters (40 layers and
 * the embedding over tp 4) at 2 bytes (17.64 GB), bf16 gradients and 12
 * bytes of Adam state over dp x cp = 4 ranks (4.41 and 26.46 GB); the
 * ranking is by tokens/s, descending; the top N shown. */
START_TEST(test_app_search_default)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    struct cs_app_search_opts o;
    cs_app_search_opts_default(&o);
    ck_assert_uint_eq(o.top, 20);
    o.top = 10;
    o.space.threads = 2; /* results do not depend on it */
    struct cs_app_search r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &r), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_uint_eq(r.res.considered, 12521);
    ck_assert_uint_eq(r.res.invalid, 0);
    ck_assert_uint_eq(r.res.unfit, 11107);
    ck_assert_uint_eq(r.res.n, 1414);
    ck_assert_uint_eq(r.fit, 1414);
    ck_assert_uint_eq(r.shown, 10);
    const struct cs_search_point *p = &r.res.points[0];
    ck_assert_int_eq(p->w.par.tp, 4);
    ck_assert_int_eq(p->w.par.pp, 2);
    ck_assert_int_eq(p->w.par.dp, 2);
    ck_assert_int_eq(p->w.par.cp, 2);
    ck_assert_int_eq(p->w.par.vp, 8);
    ck_assert_int_eq(p->w.micro_batch, 1);
    ck_assert_str_eq(cs_fsdp_name(p->w.par.fsdp), "zero2");
    ck_assert_str_eq(cs_recompute_name(p->w.recompute), "none");
    ck_assert(p->r.fits);
    /* 30.7715 s before the 5 us kernel floor (was 4 us: OpenXLA's H100 GEMM
     * table, docs/models.md), which adds 0.2%; 30.8336 s before the loss's
     * cross-entropy passes were counted pass by pass (+0.37%); 30.9466 s
     * before cuDNN's own length curve and ring attention's unmasked blocks
     * (-1.4%, 2026-12-03); 30.5114 s before ZeRO's parameter all-gather
     * was exposed where the next step's first forward cannot hide it
     * (+0.08%, 2026-12-06); 30.536 s before the gather's hidden part
     * slowed the forward by overlap_slowdown (+0.27%, 2026-12-07); 30.617
     * s before the pipeline's and ring attention's sends took NCCL's p2p
     * protocols and one message's latency (-0.005%, 2026-12-07); same
     * configuration */
    ck_assert_double_eq_tol(p->r.time_s, 30.616, 0.005);
    double stage_params = p->r.memory.weights_bytes / 2.0;
    ck_assert_double_eq_tol(p->r.memory.grads_bytes, stage_params * 2.0 / 4.0, 1.0);
    ck_assert_double_eq_tol(p->r.memory.optimizer_bytes, stage_params * 12.0 / 4.0, 1.0);
    ck_assert_double_eq_tol(p->r.tokens_per_s, 128.0 * 8192 / p->r.time_s, 1e-9 * p->r.tokens_per_s);
    ck_assert_double_eq_tol(p->r.tokens_per_s, 128.0 * 8192 / 30.616, 1.5);   /* 34249 */
    for (size_t i = 1; i < r.res.n; i++)
        ck_assert(r.res.points[i].r.tokens_per_s <= r.res.points[i - 1].r.tokens_per_s);
    cs_app_search_fini(&r);

    /* top 0: all of them. */
    o.top = 0;
    o.space.vary_micro_batch = o.space.vary_recompute = o.space.vary_cp = o.space.vary_vp = false;
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &r), CS_OK);
    ck_assert(r.res.n > 0 && r.shown == r.res.n);
    cs_app_search_fini(&r);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* Under stack megatron-deepspeed the search keeps to what DeepSpeed's
 * pipeline engine runs: no context parallelism, no virtual stages, and
 * with pipeline stages no ZeRO-2 or ZeRO-3 (the same space as the default
 * scenario's otherwise, which has all three among its candidates);
 * sequence parallelism only where the scenario has it (BigScience's fork
 * has none, Microsoft's has), with tp > 1. */
START_TEST(test_app_search_deepspeed_space)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    s.workload.stack = CS_STACK_MEGATRON_DEEPSPEED;
    s.workload.par.cp = 1;
    s.workload.par.vp = 1;
    s.workload.par.fsdp = CS_FSDP_ZERO1;
    struct cs_app_search_opts o;
    cs_app_search_opts_default(&o);
    o.top = 0;
    o.space.include_unfit = true;
    o.space.threads = 2;
    struct cs_app_search r;
    cs_diags d;
    cs_diags_init(&d);
    for (int with_sp = 0; with_sp < 2; with_sp++) {
        s.workload.par.sp = with_sp;
        ck_assert_int_eq(cs_app_search(&s, &o, &d, &r), CS_OK);
        ck_assert(r.res.considered > 0 && r.res.considered < 12521);
        bool pipelined = false, tensor = false;
        for (size_t i = 0; i < r.res.n; i++) {
            const struct cs_parallel *p = &r.res.points[i].w.par;
            ck_assert_int_eq(p->cp, 1);
            ck_assert_int_eq(p->vp, 1);
            ck_assert(p->sp == (with_sp && p->tp > 1));
            tensor = tensor || p->tp > 1;
            if (p->pp > 1) {
                pipelined = true;
                ck_assert(p->fsdp == CS_FSDP_NONE || p->fsdp == CS_FSDP_ZERO1);
            }
        }
        ck_assert(pipelined && tensor);
        cs_app_search_fini(&r);
    }
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* Everything fixed at tp 8, pp 1, dp 4 (140 GB per GPU without sharding:
 * test_app_nofit): nothing fits, CS_ENOFIT, and the result still says what
 * was considered; with the unfit kept, the one configuration is listed as
 * not fitting. No workload: CS_EINVAL with an error. */
START_TEST(test_app_search_nofit)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_default(cat, &s);
    s.workload.par.pp = 1;
    s.workload.par.dp = 4;
    struct cs_app_search_opts o;
    cs_app_search_opts_default(&o);
    struct cs_search_space *sp = &o.space;
    sp->vary_tp = sp->vary_pp = sp->vary_cp = sp->vary_vp = false;
    sp->vary_micro_batch = sp->vary_dp_sharding = sp->vary_recompute = false;
    struct cs_app_search r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &r), CS_ENOFIT);
    ck_assert_uint_eq(r.fit, 0);
    ck_assert_uint_eq(r.res.n, 0);
    ck_assert_uint_eq(r.res.considered, 1);
    ck_assert_uint_eq(r.res.unfit, 1);
    cs_app_search_fini(&r);
    sp->include_unfit = true;
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &r), CS_ENOFIT);
    ck_assert_uint_eq(r.res.n, 1);
    ck_assert(!r.res.points[0].r.fits);
    ck_assert_uint_eq(r.shown, 1);
    cs_app_search_fini(&r);
    ck_assert_uint_eq(d.n, 0);

    s.has_workload = false;
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &r), CS_EINVAL);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    ck_assert(has_error_with(&d, "search needs a `workload:` section"));
    cs_app_search_fini(&r);
    s.has_workload = true;
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
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
    tcase_add_test(tc, test_app_validate_ep_dispatch);
    tcase_add_test(tc, test_app_validate_ep_dispatch_bad_rows);
    tcase_add_test(tc, test_app_validated_range);
    tcase_add_test(tc, test_app_validate_precision_pairs);
    tcase_add_test(tc, test_app_validated_model);
    tcase_add_test(tc, test_app_compare_moe_ib_roce);
    tcase_add_test(tc, test_app_validate_step_holdout_bound);
    tcase_add_test(tc, test_app_validate_host_over);
    tcase_add_test(tc, test_app_validate_collectives_failure_in_file_diags);
    tcase_add_test(tc, test_app_cval_largest);
    tcase_add_test(tc, test_app_coll_errors_in_diags);
    suite_add_tcase(s, tc);
    TCase *tcal = tcase_create("calibrate");
    tcase_set_timeout(tcal, 120);
    tcase_add_test(tcal, test_app_calibrate_nccl);
    tcase_add_test(tcal, test_app_calibrate_unreadable);
    tcase_add_test(tcal, test_app_calibrate_strict);
    suite_add_tcase(s, tcal);
    TCase *tse = tcase_create("search");
    tcase_set_timeout(tse, 300);
    tcase_add_test(tse, test_app_search_default);
    tcase_add_test(tse, test_app_search_nofit);
    tcase_add_test(tse, test_app_search_deepspeed_space);
    suite_add_tcase(s, tse);
    return s;
}

int main(void) { return cs_test_run(app_suite()); }
