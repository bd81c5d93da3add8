/* check_datapipe.c: the data pipeline's share of its storage tier with the
 * job's own checkpoint traffic (models/datapipe.c, docs/run.md "Data
 * pipeline"), by hand. Scenarios are built in code so the tests do not
 * depend on the catalog. */
#include "clustersim/models/datapipe.h"
#include "clustersim/models/run.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Two nodes of 8 GPUs, one PFS tier: 8 GB/s per client each way, 16 GB/s
 * aggregate, no latency; tp 8 x dp 2 (no ZeRO: one replica's 8 GPUs, one
 * node, write the checkpoint), 1 sample per rank, a loader of 4 workers
 * with prefetch 2 and no CPU cost, so the reads alone make the load. The
 * dataset: 0.15 GB per sample, 8 ranks per node: 1.2 GB per node per step
 * at min(8, 16 / 2) = 8 GB/s = 0.15 s, against a 0.125 s step. */
static void base(struct cs_scenario *s)
{
    cs_test_run_scenario(s, 7, 2, 8);
    s->cluster.storage.tiers[0].aggregate_bw_bytes_per_s = 16e9;
    s->workload.tokens = 1e9;
    s->data.enabled = true;
    s->data.batch_time_s = NAN;
    s->data.sample_bytes = 0.15e9;
    s->data.workers_per_gpu = 4;
    s->data.prefetch = 2;
    strcpy(s->data.tier, "pfs1");
}

static struct cs_step_result step_of(double time_s)
{
    struct cs_step_result r;
    memset(&r, 0, sizeof r);
    r.fits = true;
    r.time_s = time_s;
    r.tokens_per_s = 1e5;
    return r;
}

/* An async checkpoint of 80 GB from one node to the dataset's tier every
 * 100 s (800 steps of 0.125 s). Alone the write takes 80 / 8 = 10 s; with
 * the reads, 3 flows share the 16 GB/s aggregate, 16 / 3 = 5.333 GB/s each
 * (under the 8 GB/s clients): the reads run 8 / 5.333 = 1.5x slower and
 * the write takes 1.5 x 10 = 15 s. The loader is the bottleneck (0.15 s of
 * reads per 0.125 s step: 0.025 s of stall per step), every worker reads
 * without a pause, so a window of W = 15 s at 1/1.5 of the rate delays
 * every later batch, and so the steps, by W (1 - 1/1.5) = 5 s: 5 / 800 =
 * 6.25 ms per step, 25 + 6.25 = 31.25 ms. The window is 15 s of each
 * 800 x 0.15 s = 120 s (plus the 0.16 s snapshot): 12.5%.
 * A synchronous checkpoint stops the steps: no window, 25 ms. Without an
 * aggregate limit the write has a path of its own: x1, a 10 s window that
 * adds nothing. Node-local NVMe (8 GB/s per node both ways) serves reads
 * and the write in turn, half the time each: x2 and a 20 s window, 20 x
 * (1 - 1/2) = 10 s per checkpoint, 25 + 10 / 800 x 1000 = 37.5 ms. */
START_TEST(test_datapipe_checkpoint_share_by_hand)
{
    struct cs_scenario s;
    base(&s);
    struct cs_step_result st = step_of(0.125);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_data_result dr;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.read_s, 0.15, 1e-12);
    ck_assert_double_eq_tol(dr.stall_s, 0.025, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_window_fraction, 0, 1e-12);

    s.checkpoint.enabled = true;
    s.checkpoint.mode = CS_CKPT_ASYNC;
    s.checkpoint.interval_s = 100;
    s.checkpoint.size_bytes = 80e9;
    strcpy(s.checkpoint.tier, "pfs1");
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_read_slowdown, 1.5, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 15, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_window_fraction, 15.0 / 120, 0.002);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 5, 1e-6);
    ck_assert_double_eq_tol(dr.stall_outside_ckpt_s, 0.025, 1e-9);
    ck_assert_double_eq_tol(dr.stall_s, 0.03125, 1e-9);
    ck_assert_double_eq_tol(dr.starved_fraction, 0.03125 / (0.125 + 0.03125), 1e-9);

    s.checkpoint.mode = CS_CKPT_SYNC;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_window_fraction, 0, 1e-12);
    ck_assert_double_eq_tol(dr.stall_s, 0.025, 1e-9);

    s.checkpoint.mode = CS_CKPT_ASYNC;
    s.cluster.storage.tiers[0].aggregate_bw_bytes_per_s = NAN;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_read_slowdown, 1, 1e-12);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 10, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 0, 1e-12);
    ck_assert_double_eq_tol(dr.stall_s, 0.025, 1e-9);

    struct cs_storage_spec *t = &s.cluster.storage.tiers[0];
    t->kind = CS_STORAGE_NVME;
    t->devices_per_node = 1;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.read_s, 0.15, 1e-12);
    ck_assert_double_eq_tol(dr.ckpt_read_slowdown, 2, 1e-12);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 20, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 10, 1e-6);
    ck_assert_double_eq_tol(dr.stall_s, 0.0375, 1e-9);

    /* A window longer than the simulation's 10,000 steps: a 40 TB
     * checkpoint, 5,000 s alone and 7,500 s beside the reads on the PFS
     * (x1.5), every 100,000 s: the part simulated is scaled to the whole,
     * 7,500 x (1 - 1/1.5) = 2,500 s (within 1%). */
    t->kind = CS_STORAGE_PFS;
    t->aggregate_bw_bytes_per_s = 16e9;
    s.checkpoint.size_bytes = 40e12;
    s.checkpoint.interval_s = 100000;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 7500, 1e-6);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 2500, 25);
    s.checkpoint.size_bytes = 80e9;
    s.checkpoint.interval_s = 100;
    t->kind = CS_STORAGE_NVME;
    t->aggregate_bw_bytes_per_s = NAN;

    /* The checkpoint on another tier shares nothing with the reads. */
    s.cluster.storage.n_tiers = 2;
    s.cluster.storage.tiers[1] = *t;
    strcpy(s.cluster.storage.tiers[1].name, "nvme2");
    strcpy(s.checkpoint.tier, "nvme2");
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_window_fraction, 0, 1e-12);
    ck_assert_double_eq_tol(dr.stall_s, 0.025, 1e-9);
    cs_diags_fini(&d);
}
END_TEST

/* The prefetch queue absorbs a short window. A 0.2 s step against 0.15 s
 * of reads: the 8 batches of the queue (prefetch 2 x 4 workers) stay
 * ready, no stall. An 8 GB checkpoint on the PFS (x1.5, a 1.5 s window)
 * delays a worker's batch by at most 1.5 x (1 - 1/1.5) = 0.5 s, less than
 * the queue's lead of several 0.2 s steps: no stall at all (the
 * steady-state reading, 0.225 s reads for 7.5 steps, would have said
 * 7.5 x 25 ms). An 80 GB one (a 15 s window, 75 steps) drains the queue:
 * it adds stall, but less than 75 x (0.225 - 0.2) = 1.875 s. */
START_TEST(test_datapipe_checkpoint_absorbed)
{
    struct cs_scenario s;
    base(&s);
    struct cs_step_result st = step_of(0.2);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_data_result dr;
    s.checkpoint.enabled = true;
    s.checkpoint.mode = CS_CKPT_ASYNC;
    s.checkpoint.interval_s = 100;
    s.checkpoint.size_bytes = 8e9;
    strcpy(s.checkpoint.tier, "pfs1");
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.stall_outside_ckpt_s, 0, 1e-12);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 1.5, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 0, 1e-12);
    ck_assert_double_eq_tol(dr.stall_s, 0, 1e-12);
    s.checkpoint.size_bytes = 80e9;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 15, 1e-9);
    ck_assert(dr.ckpt_extra_stall_s > 0);
    ck_assert(dr.ckpt_extra_stall_s < 75 * 0.025);
    ck_assert_double_eq_tol(dr.stall_s, dr.ckpt_extra_stall_s / 500, 1e-9); /* 100 s / 0.2 s */
    cs_diags_fini(&d);
}
END_TEST

/* Uploads. (a) The checkpoint to node-local NVMe (no window: the reads
 * are on the PFS), uploaded to the dataset's PFS: 80 GB at 8 GB/s = 10 s
 * alone, 15 s beside the reads, reads x1.5: 5 s per checkpoint, 31.25 ms
 * per step, as a write to the PFS. (b) The checkpoint to the PFS (async,
 * the 15 s window above) and uploaded from it to NVMe: the upload reads
 * the PFS on the writing node, whose 8 GB/s read path it shares with that
 * node's dataset reads: max-min gives each of them 4 GB/s (the aggregate's
 * 16 / 3 would be more), the other node's reads 16 - 8 = 8 GB/s. The
 * slowest reader runs 8 / 4 = 2x slower, the upload (10 s alone to NVMe
 * at 8 GB/s) 2x: a 20 s window costing 20 x (1 - 1/2) = 10 s. In all,
 * 5 + 10 = 15 s per checkpoint: 25 + 15 / 800 x 1000 = 43.75 ms. */
START_TEST(test_datapipe_checkpoint_upload)
{
    struct cs_scenario s;
    base(&s);
    s.cluster.storage.n_tiers = 2;
    struct cs_storage_spec *nv = &s.cluster.storage.tiers[1];
    strcpy(nv->name, "nvme1");
    nv->kind = CS_STORAGE_NVME;
    nv->read_bw_bytes_per_s = nv->write_bw_bytes_per_s = 8e9;
    nv->devices_per_node = 1;
    nv->aggregate_bw_bytes_per_s = NAN;
    s.checkpoint.enabled = true;
    s.checkpoint.mode = CS_CKPT_ASYNC;
    s.checkpoint.interval_s = 100;
    s.checkpoint.size_bytes = 80e9;
    strcpy(s.checkpoint.tier, "nvme1");
    strcpy(s.checkpoint.upload, "pfs1");
    struct cs_step_result st = step_of(0.125);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_data_result dr;
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 15, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_read_slowdown, 1.5, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 5, 1e-6);
    ck_assert_double_eq_tol(dr.stall_s, 0.03125, 1e-9);

    strcpy(s.checkpoint.tier, "pfs1");
    strcpy(s.checkpoint.upload, "nvme1");
    ck_assert_int_eq(cs_data_evaluate(&s, &st, &d, &dr), CS_OK);
    ck_assert_double_eq_tol(dr.ckpt_window_s, 15 + 20, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_read_slowdown, 2, 1e-9);
    ck_assert_double_eq_tol(dr.ckpt_extra_stall_s, 15, 1e-6);
    ck_assert_double_eq_tol(dr.stall_s, 0.04375, 1e-9);
    cs_diags_fini(&d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("datapipe");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_datapipe_checkpoint_share_by_hand);
    tcase_add_test(tc, test_datapipe_checkpoint_absorbed);
    tcase_add_test(tc, test_datapipe_checkpoint_upload);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cs_test_run(suite());
}
