/* check_run.c: tests of models/run.c (the run-level simulation), its
 * validation against the Llama 3 405B snapshot, the data pipeline
 * (models/datapipe.c) and the seed claims N8 and N17 by hand. Scenarios are
 * built in code so the tests do not depend on the catalog. */
#include "clustersim/models/datapipe.h"
#include "clustersim/models/failure.h"
#include "clustersim/models/run.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A cluster of `nodes` x 8 GPUs with one PFS tier (8 GB/s per client, no
 * aggregate limit), a workload of 1 replica per node (tp 8) and no
 * failures, checkpoints or run section yet. */
static void base(struct cs_scenario *s, int nodes)
{
    cs_test_run_scenario(s, 11, nodes, 8);
}

static struct cs_step_result step_of(double time_s, double tokens_per_s)
{
    struct cs_step_result r;
    memset(&r, 0, sizeof r);
    r.fits = true;
    r.time_s = time_s;
    r.tokens_per_s = tokens_per_s;
    return r;
}

static void sync_ckpt(struct cs_scenario *s, double interval_s, double size_bytes)
{
    s->checkpoint.enabled = true;
    s->checkpoint.mode = CS_CKPT_SYNC;
    s->checkpoint.interval_optimal = interval_s <= 0;
    s->checkpoint.interval_s = interval_s > 0 ? interval_s : NAN;
    s->checkpoint.size_bytes = size_bytes;
    strcpy(s->checkpoint.tier, "pfs1");
}

/* No failures, no checkpoints: 1e9 tokens at 1e5 tokens/s = 1e4 s exactly,
 * goodput 1. Nothing to simulate without tokens or duration. */
START_TEST(test_run_failure_free)
{
    struct cs_scenario s;
    base(&s, 1);
    s.workload.tokens = 1e9;
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    ck_assert(r.enabled);
    ck_assert(!r.failures);
    ck_assert_int_eq(r.completed, 1);
    ck_assert_double_eq_tol(r.time_to_train_s.mean, 1e4, 1e-6);
    ck_assert_double_eq_tol(r.goodput.mean, 1, 1e-12);
    ck_assert_double_eq(r.interruptions.mean, 0);
    s.workload.tokens = NAN;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    ck_assert(!r.enabled);
    cs_diags_fini(&d);
}
END_TEST

/* Rack fault domain: 8 nodes, 4 to a rack (the facility's placement) = 2
 * racks; a rack failure every 200 h per rack gives the job an MTBI of
 * 200 / 2 = 100 h. It takes the rack's 4 nodes out together: with 8 spares
 * the job restarts at once (detection + restart = 1,200 s) unless a third
 * rack fails within a repair; with 3 it waits for the 24 h repair every
 * time, so the downtime per interruption is over 20 times longer. */
START_TEST(test_run_rack_fault_domain)
{
    struct cs_scenario s;
    base(&s, 8);
    s.failures.enabled = true;
    s.failures.nodes_per_rack = 4;
    s.failures.n_components = 1;
    s.failures.detection_s = 300;
    s.failures.restart_s = 900;
    s.failures.repair_s = 24 * 3600;
    struct cs_fail_component *c = &s.failures.components[0];
    strcpy(c->name, "rack-pdu");
    c->scope = CS_SCOPE_RACK;
    c->mtbf_s = 200 * 3600.0;
    c->dist = CS_DIST_EXPONENTIAL;
    c->shape = 1;
    c->replace = true;
    c->repair_s = -1;
    ck_assert_int_eq(cs_fail_units(&s.failures, CS_SCOPE_RACK, 64, 8, 0), 2);
    ck_assert_int_eq(cs_fail_nodes_out(&s.failures, CS_SCOPE_RACK), 4);
    ck_assert_double_eq_tol(cs_fail_job_mtbi_s(&s.failures, 64, 8, 0), 100 * 3600.0, 1e-6);
    s.run.enabled = true;
    s.run.duration_s = 2000 * 3600.0;
    s.run.replicas = 40;
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r4, r3;
    s.failures.spares = 8;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r4), CS_OK);
    s.failures.spares = 3;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r3), CS_OK);
    ck_assert(r4.interruptions.mean > 5 && r3.interruptions.mean > 5);
    double per4 = r4.downtime_s.mean / r4.interruptions.mean, per3 = r3.downtime_s.mean / r3.interruptions.mean;
    ck_assert(per4 >= 1200 - 1e-6 && per4 < 1.5 * 1200);
    ck_assert(per3 > 20 * 1200);
    cs_diags_fini(&d);
}
END_TEST

/* Planned maintenance by hand: 60 h of training, a drained stop every 24 h
 * of wall clock for 2 h plus the 15 min restart. Stops at 24 h and 48 h:
 * by 48 h the job has 24 + (48 - 26.25) = 45.75 h done, 14.25 h left, so
 * it ends at 48 + 2.25 + 14.25 = 64.5 h = 60 + 2 x 2.25: two stops, 4 h
 * stopped, no work lost. Stragglers (slowdown 0.5, found in 3 h): while
 * one is slow the job does 1/1.5 of its work, so each costs 3 h x 0.5 /
 * 1.5 = 1 h of work-equivalent time; over 300 replicas the mean lost time
 * is about 1 h per removal (fewer when two overlap or the run ends first). */
START_TEST(test_run_maintenance_and_stragglers)
{
    struct cs_scenario s;
    base(&s, 1);
    s.workload.tokens = 60 * 3600 * 1e5;
    s.failures.enabled = true;
    s.failures.restart_s = 900;
    s.failures.detection_s = 300;
    s.failures.spares = -1;
    s.failures.maint_interval_s = 24 * 3600;
    s.failures.maint_duration_s = 2 * 3600;
    s.failures.maint_drain = true;
    s.failures.strag_mtbf_s = NAN;
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    ck_assert_double_eq_tol(r.time_to_train_s.mean, 64.5 * 3600, 1e-6);
    ck_assert_double_eq_tol(r.maintenances.mean, 2, 1e-12);
    ck_assert_double_eq_tol(r.maintenance_s.mean, 4 * 3600, 1e-9);
    ck_assert_double_eq_tol(r.lost_work_s.mean, 0, 1e-9);
    ck_assert_double_eq_tol(r.goodput.mean, 60.0 / 64.5, 1e-9);
    s.failures.maint_interval_s = NAN;
    s.failures.strag_mtbf_s = 8 * 2000.0 * 3600; /* one GPU of 8 every 2,000 h */
    s.failures.strag_slowdown = 0.5;
    s.failures.strag_detect_s = 3 * 3600;
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.replicas = 300;
    o.threads = 2;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
    ck_assert(r.straggler_removals.mean > 0.005);
    double per = r.straggler_s.mean / r.straggler_removals.mean / 3600;
    printf("stragglers: %.3f removed per run, %.3f h lost each (by hand 1 h)\n",
           r.straggler_removals.mean, per);
    ck_assert(per > 0.85 && per < 1.15);
    cs_diags_fini(&d);
}
END_TEST

/* Sync checkpoints every hour of training, 80 GB from one node at 8 GB/s =
 * 10 s each, training 10 h: 9 checkpoints (the 10th hour ends the run),
 * time to train 36,000 + 90 s; goodput 36000/36090 = 0.997506. */
START_TEST(test_run_checkpoint_overhead_by_hand)
{
    struct cs_scenario s;
    base(&s, 1);
    s.workload.tokens = 36000 * 1e5;
    sync_ckpt(&s, 3600, 80e9);
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    ck_assert_double_eq_tol(r.ckpt.write_s, 10, 1e-9);
    ck_assert_double_eq_tol(r.time_to_train_s.mean, 36090, 1e-3);
    ck_assert_double_eq_tol(r.checkpoint_overhead_s.mean, 90, 1e-3);
    ck_assert_double_eq_tol(r.goodput.mean, 36000.0 / 36090.0, 1e-9);
    cs_diags_fini(&d);
}
END_TEST

/* Seed claim N8: a 140 GB checkpoint that takes 30 s, hourly for two
 * weeks. A tier writing 140/30 GB/s from one node gives 30 s; in a 14-day
 * span (1,209,600 s) checkpoint k starts after k hours of training, at
 * k x 3630 - 30 s of wall time, so k <= 333: 333 x 30 s = 9,990 s = 2.78 h,
 * not the 10.5 h the article states (336 x 30 s = 2.8 h by its own figures). */
START_TEST(test_run_claim_n8_arithmetic)
{
    struct cs_scenario s;
    base(&s, 1);
    s.cluster.storage.tiers[0].write_bw_bytes_per_s = 140e9 / 30;
    sync_ckpt(&s, 3600, 140e9);
    s.run.enabled = true;
    s.run.duration_s = 14 * 86400.0;
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    printf("N8: checkpoint overhead over 14 days %.3f h (claim: 10.5 h)\n",
           r.checkpoint_overhead_s.mean / 3600);
    ck_assert_double_eq_tol(r.checkpoint_overhead_s.mean, 333 * 30.0, 1e-3);
    ck_assert(isnan(r.time_to_train_s.mean));
    cs_diags_fini(&d);
}
END_TEST

/* One job-scope class with MTBF 10 h over 1000 h, restart 0: a Poisson
 * count of mean 100 per replica (std 10); the mean of 200 replicas has std
 * 0.7: within 3 of 100. With hourly checkpoints of negligible cost the work
 * lost per interruption averages half an hour (uniform phase; within 10%). */
START_TEST(test_run_poisson_count_and_lost_work)
{
    struct cs_scenario s;
    base(&s, 1);
    s.failures.enabled = true;
    s.failures.n_components = 1;
    struct cs_fail_component *c = &s.failures.components[0];
    strcpy(c->name, "job");
    c->scope = CS_SCOPE_JOB;
    c->mtbf_s = 36000;
    c->dist = CS_DIST_EXPONENTIAL;
    c->shape = 1;
    c->repair_s = NAN;
    sync_ckpt(&s, 3600, 8e6); /* 1 ms */
    s.run.enabled = true;
    s.run.duration_s = 1000 * 3600.0;
    s.run.replicas = 200;
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    double lost_per = r.lost_work_s.mean / r.interruptions.mean;
    printf("poisson: mean interruptions %.2f (expect 100); lost per interruption %.0f s "
           "(expect ~1800)\n",
           r.interruptions.mean, lost_per);
    ck_assert_double_eq_tol(r.interruptions.mean, 100, 3);
    ck_assert_double_eq_tol(lost_per, 1800, 180);
    ck_assert_double_eq_tol(r.cause[0].mean, r.interruptions.mean, 1e-9);
    cs_diags_fini(&d);
}
END_TEST

/* Same seed: the same result; 1 or 2 threads: the same result; another
 * seed: a different one. */
START_TEST(test_run_deterministic_across_threads)
{
    struct cs_scenario s;
    base(&s, 4);
    s.failures.enabled = true;
    cs_fail_llama3_defaults(&s.failures);
    s.failures.detection_s = 300;
    s.failures.restart_s = 600;
    sync_ckpt(&s, 0, 1e9);
    s.run.enabled = true;
    s.run.duration_s = 3e7;
    s.run.replicas = 16;
    struct cs_step_result st = step_of(2, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_options o;
    cs_run_options_default(&o);
    struct cs_run_result a, b;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &a), CS_OK);
    o.threads = 2;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &b), CS_OK);
    ck_assert(a.goodput.mean == b.goodput.mean);
    ck_assert(a.interruptions.p95 == b.interruptions.p95);
    ck_assert(a.lost_gpu_hours.mean == b.lost_gpu_hours.mean);
    s.seed = 12;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &b), CS_OK);
    ck_assert(a.goodput.mean != b.goodput.mean);
    cs_diags_fini(&d);
}
END_TEST

/* No spares, no elasticity: a node-scope failure waits out the 24 h repair
 * (then restarts in 10 min); with a hot spare it restarts at once. One node
 * class with MTBF 1000 h on 1 node over 20,000 h: about 20 failures; the
 * downtime per failure is 24 h + 10 min without a spare (+ detection 0)
 * and about 10 min with two spares that are back long before they are
 * needed again. Elastic on 2 nodes: half speed instead of waiting. */
START_TEST(test_run_spares_and_repair)
{
    struct cs_scenario s;
    base(&s, 1);
    s.failures.enabled = true;
    s.failures.n_components = 1;
    struct cs_fail_component *c = &s.failures.components[0];
    strcpy(c->name, "node");
    c->scope = CS_SCOPE_NODE;
    c->mtbf_s = 1000 * 3600.0;
    c->dist = CS_DIST_EXPONENTIAL;
    c->shape = 1;
    c->replace = true;
    c->repair_s = NAN;
    s.failures.restart_s = 600;
    s.failures.spares = 0;
    s.failures.repair_s = 86400;
    s.run.enabled = true;
    s.run.duration_s = 20000 * 3600.0;
    s.run.replicas = 50;
    struct cs_step_result st = step_of(1, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    double per = r.downtime_s.mean / r.interruptions.mean;
    printf("no spare: downtime per failure %.0f s (expect 87000)\n", per);
    ck_assert_double_eq_tol(per, 87000, 87000 * 0.03);
    s.failures.spares = 2;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    per = r.downtime_s.mean / r.interruptions.mean;
    printf("two spares: downtime per failure %.0f s (expect 600)\n", per);
    ck_assert_double_eq_tol(per, 600, 1);
    cs_diags_fini(&d);
}
END_TEST

/* Validation (issue 5): the Llama 3 405B shape (16,384 GPUs, 2,048 nodes,
 * 54 days) with the default classes gives 419 unexpected interruptions
 * within 10%, and with 2 + 10 minutes of detection and restart, Daly-optimal
 * sync checkpoints of 5.8 TB at 2 TB/s (2.9 s), goodput above 90% (Meta
 * reports > 90% effective training time). */
START_TEST(test_run_llama3_validation)
{
    struct cs_scenario s;
    base(&s, 2048);
    s.workload.par.fsdp = CS_FSDP_ZERO1; /* every node writes its shard */
    s.cluster.storage.tiers[0].aggregate_bw_bytes_per_s = 2e12;
    s.failures.enabled = true;
    cs_fail_llama3_defaults(&s.failures);
    s.failures.detection_s = 120;
    s.failures.restart_s = 600;
    sync_ckpt(&s, 0, 5.77e12);
    s.run.enabled = true;
    s.run.duration_s = 54 * 86400.0;
    s.run.replicas = 200;
    struct cs_step_result st = step_of(15, 1.1e6);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
    double err = r.interruptions.mean / 419.0 - 1;
    printf("Llama 3: interruptions %.1f [%.0f, %.0f] (ref 419, err %+.2f%%); goodput %.2f%% "
           "[%.2f, %.2f] (ref > 90%%); checkpoint %.2f s every %.0f s\n",
           r.interruptions.mean, r.interruptions.p05, r.interruptions.p95, err * 100,
           r.goodput.mean * 100, r.goodput.p05 * 100, r.goodput.p95 * 100, r.ckpt.write_s,
           r.ckpt.interval_s);
    ck_assert(fabs(err) < 0.10);
    ck_assert(r.goodput.mean > 0.90);
    ck_assert_double_eq_tol(r.mtbi_s / 3600, 1296.0 / 419.0, 1e-6);
    cs_diags_fini(&d);
}
END_TEST

/* Seed claim N17: loader 45 ms per batch against 40 ms of GPU compute. In
 * series (prefetch 0) the step waits 45 ms: starved 45/85 = 52.9% (the
 * claim's 53%); with prefetch the loader overlaps: 5 ms of 45 = 11.1%;
 * at DALI's 6 ms nothing is left to wait for. */
/* The loader simulation (models/datapipe.c). Deterministic, by hand: 4
 * workers, each building a whole batch in 4 x 50 ms = 200 ms (batch_time
 * 50 ms is the loader's delivered time), prefetch 2, a 40 ms step. The
 * workers run in phase: four batches land together every 200 ms and four
 * steps take 160 ms, so the first step of each cycle waits 40 ms and the
 * other three none: mean 10 ms (= 50 - 40, the closed form), median 0, max
 * 40 ms, a quarter of the steps wait.
 * With lognormal samples (cv 0.5) and a mean load under the step, a
 * deterministic loader never stalls but a random one does; a deeper
 * prefetch absorbs more of it; 64 data-parallel ranks wait for the
 * slowest of 64 loaders, so they stall more than one rank does. */
START_TEST(test_run_data_loader_simulated)
{
    struct cs_scenario s;
    base(&s, 1);
    s.data.enabled = true;
    s.data.batch_time_s = 0.050;
    s.data.prefetch = 2;
    s.data.workers_per_gpu = 4;
    struct cs_step_result st = step_of(0.040, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_data_result dr;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.stall_s, 0.010, 1e-9);
    ck_assert_double_eq_tol(dr.stall_p50_s, 0, 1e-12);
    ck_assert_double_eq_tol(dr.stall_max_s, 0.040, 1e-9);
    ck_assert_double_eq_tol(dr.stalled_steps_fraction, 0.25, 1e-12);
    ck_assert_int_eq(dr.ranks_simulated, 1);
    ck_assert_int_eq(dr.steps_simulated % 4, 0);
    /* Random samples: 16 per rank at 2 ms (32 ms per batch per worker of
     * 4: 8 ms delivered) against a 10 ms step. */
    s.data.batch_time_s = NAN;
    s.data.sample_cpu_s = 0.002;
    s.workload.global_batch = 16;
    st = step_of(0.010, 1e5);
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.stall_s, 0, 1e-12);
    s.data.sample_cv = 0.5;
    s.data.prefetch = 1;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    double shallow = dr.stall_s;
    ck_assert(shallow > 0);
    s.data.prefetch = 8;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert(dr.stall_s < shallow);
    s.data.prefetch = 1;
    s.workload.par.dp = 64;
    s.workload.global_batch = 16 * 64;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_int_eq(dr.ranks_simulated, 64);
    ck_assert(dr.stall_s > shallow);
    ck_assert(dr.stall_p95_s >= dr.stall_p50_s && dr.stall_max_s >= dr.stall_p99_s);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_run_data_stall_claim_n17)
{
    struct cs_scenario s;
    base(&s, 1);
    s.data.enabled = true;
    s.data.batch_time_s = 0.045;
    s.data.prefetch = 0;
    s.data.workers_per_gpu = 4;
    struct cs_step_result st = step_of(0.040, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_data_result dr;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    printf("N17: serial loader starves %.1f%% (claim 53%%)\n", dr.starved_fraction * 100);
    ck_assert_double_eq_tol(dr.stall_s, 0.045, 1e-12);
    ck_assert_double_eq_tol(dr.starved_fraction, 45.0 / 85.0, 1e-12);
    s.data.prefetch = 2;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.stall_s, 0.005, 1e-12);
    ck_assert_double_eq_tol(dr.starved_fraction, 5.0 / 45.0, 1e-12);
    cs_data_apply(&dr, &st);
    ck_assert_double_eq_tol(st.time_s, 0.045, 1e-12);
    ck_assert_double_eq_tol(st.data_stall_s, 0.005, 1e-12);
    ck_assert_double_eq_tol(st.tokens_per_s, 1e5 * 40.0 / 45.0, 1e-6);
    s.data.batch_time_s = 0.006;
    st = step_of(0.040, 1e5);
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq(dr.stall_s, 0);
    /* Derived load: 1 sample per rank at 0.2 s of CPU over 4 workers =
     * 50 ms; 1 GB per sample x 8 ranks from the 8 GB/s client = 1 s of
     * reads: the reads bound it. */
    s.data.batch_time_s = NAN;
    s.data.sample_cpu_s = 0.2;
    s.data.sample_bytes = 1e9;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.cpu_s, 0.05, 1e-12);
    ck_assert_double_eq_tol(dr.read_s, 1.0, 1e-9);
    ck_assert_double_eq_tol(dr.stall_s, 1.0 - 0.040, 1e-9);
    cs_diags_fini(&d);
}
END_TEST

/* Issue 20 item 5: inputs that make no physical sense are refused, naming
 * the key. 32 GPUs (4 nodes) with a GPU MTBF of 1 s: the job is
 * interrupted every 1/32 s, far below detection 300 s + restart 600 s; an
 * MTBF of 40,000 s per GPU gives 1,250 s > 900 s and runs. A checkpoint
 * interval of 1 ns against a 2 s step is refused; one of 2 s is not. */
START_TEST(test_run_refuses_meaningless_inputs)
{
    struct cs_scenario s;
    base(&s, 4);
    s.failures.enabled = true;
    s.failures.n_components = 1;
    struct cs_fail_component *c = &s.failures.components[0];
    strcpy(c->name, "gpu");
    c->scope = CS_SCOPE_GPU;
    c->dist = CS_DIST_EXPONENTIAL;
    c->shape = 1;
    c->mtbf_s = 1;
    s.failures.detection_s = 300;
    s.failures.restart_s = 600;
    sync_ckpt(&s, 3600, 1e9);
    s.workload.tokens = 1e9;
    struct cs_step_result st = step_of(2, 1e5);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_EINVAL);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "failures.components.0.mtbf: the job's 32 GPUs on 4 nodes "
                                                 "would be interrupted every 0.0312 s"));
    cs_diags_fini(&d);
    c->mtbf_s = 40000; /* 40000 / 32 = 1250 s between interruptions */
    s.run.replicas = 2;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    cs_diags_fini(&d);
    s.failures.enabled = false;
    s.checkpoint.interval_s = 1e-9;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_EINVAL);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "checkpoint.interval: 1e-09 s is shorter than one "
                                                 "training step (2 s)"));
    cs_diags_fini(&d);
    s.checkpoint.interval_s = 2;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_run_simulate(&s, &st, NULL, &d, &r), CS_OK);
    cs_diags_fini(&d);
}
END_TEST

/* Issue 20 item 5: a replica past its event budget did not complete:
 * CS_EBUDGET and an error saying so. 1e9 tokens at 1e5 tokens/s with a
 * checkpoint every 2 s step: 5,000 checkpoints, each a few events; a budget
 * of 100 events stops it. */
START_TEST(test_run_budget)
{
    struct cs_scenario s;
    base(&s, 1);
    sync_ckpt(&s, 2, 1e9);
    s.workload.tokens = 1e9;
    struct cs_step_result st = step_of(2, 1e5);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.max_events = 100;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_EBUDGET);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "did not complete: a replica reached its budget of 100 events"));
    cs_diags_fini(&d);
    o.max_events = 0;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
    ck_assert_int_eq(r.completed, 1);
    ck_assert(r.events > 100);
    cs_diags_fini(&d);
}
END_TEST

static Suite *run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("run");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_run_failure_free);
    tcase_add_test(tc, test_run_maintenance_and_stragglers);
    tcase_add_test(tc, test_run_rack_fault_domain);
    tcase_add_test(tc, test_run_checkpoint_overhead_by_hand);
    tcase_add_test(tc, test_run_claim_n8_arithmetic);
    tcase_add_test(tc, test_run_poisson_count_and_lost_work);
    tcase_add_test(tc, test_run_deterministic_across_threads);
    tcase_add_test(tc, test_run_spares_and_repair);
    tcase_add_test(tc, test_run_llama3_validation);
    tcase_add_test(tc, test_run_data_stall_claim_n17);
    tcase_add_test(tc, test_run_data_loader_simulated);
    tcase_add_test(tc, test_run_refuses_meaningless_inputs);
    tcase_add_test(tc, test_run_budget);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(run_suite()); }
