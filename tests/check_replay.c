/* check_replay.c: the trace-replay scheduler (models/scheduler.c, placement.c,
 * partitions.c, mig.c, contention.c): invariants
 * with answers derived by hand (ample capacity, one GPU FIFO, EASY backfill,
 * quotas, preemption, MIG, gang placement, GPU-hour conservation), the
 * placement slowdown of workload jobs on an oversubscribed fabric, and
 * replays of the real traces in validation/traces with their statistics. */
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/topology.h"
#include "clustersim/report/replay_report.h"
#include "clustersim/models/jobs.h"
#include "clustersim/models/scheduler.h"
#include "clustersim/models/replay_stats.h"
#include "clustersim/models/step.h"
#include "clustersim/config/trace.h"

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void trace_from(const char *csv, struct cs_trace *t)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_trace_init(t);
    ck_assert_int_eq(cs_trace_load_buffer("t.csv", csv, strlen(csv), NULL, t, &d), CS_OK);
    cs_diags_fini(&d);
}

static void one_group(struct cs_sched_config *c, int nodes, int gpn)
{
    cs_sched_config_default(c);
    c->n_groups = 1;
    snprintf(c->groups[0].gpu_type, sizeof c->groups[0].gpu_type, "H100-SXM5-80GB");
    c->groups[0].nodes = nodes;
    c->groups[0].gpus_per_node = gpn;
    c->keep_jobs = true;
}

static void run(const struct cs_sched_config *c, const struct cs_trace *t, struct cs_sched_result *r)
{
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(c, t, &d, r), CS_OK);
    cs_diags_fini(&d);
}

START_TEST(test_replay_ample_capacity_no_queueing)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s\na,0,8,100\nb,1,16,50\nc,2,1,30\nd,2,4,10\ne,3,64,5\n", &t);
    struct cs_sched_config c;
    one_group(&c, 128, 8);
    for (int pol = 0; pol < 3; pol++) {
        c.policy = (enum cs_sched_policy)pol;
        struct cs_sched_result r;
        run(&c, &t, &r);
        ck_assert_int_eq(r.completed, 5);
        ck_assert_double_eq(r.queue_s.mean, 0);
        ck_assert_double_eq(r.queue_s.p95, 0);
        /* JCT = duration: mean (100 + 50 + 30 + 10 + 5) / 5 = 39 */
        ck_assert_double_eq_tol(r.jct_s.mean, 39, 1e-9);
        ck_assert_double_eq_tol(r.makespan_s, 100, 1e-9);
        cs_sched_result_fini(&r);
    }
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_one_gpu_fifo_running_sums)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s\na,0,1,10\nb,0,1,20\nc,0,1,30\nd,100,1,5\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 1);
    struct cs_sched_result r;
    run(&c, &t, &r);
    /* starts 0, 10, 30 (running sums of the durations), d at 100 on an idle GPU.
     * queue: 0, 10, 30, 0 -> mean 10; JCT: 10, 30, 60, 5 -> mean 26.25 */
    ck_assert_double_eq_tol(r.per_job[1].start_s, 10, 1e-9);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 30, 1e-9);
    ck_assert_double_eq_tol(r.per_job[3].start_s, 100, 1e-9);
    ck_assert_double_eq_tol(r.queue_s.mean, 10, 1e-9);
    ck_assert_double_eq_tol(r.jct_s.mean, 26.25, 1e-9);
    ck_assert_double_eq_tol(r.makespan_s, 105, 1e-9);
    /* busy 65 s of 105 s */
    ck_assert_double_eq_tol(r.utilization, 65.0 / 105, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_arrivals_out_of_trace_order)
{
    /* A trace built through the API need not be in submit order (the file
     * loader sorts, cs_trace_add does not): arrivals still fire by submit
     * time, trace order within an instant. One GPU, FIFO: b (0 s, 20 s)
     * starts at 0, c (0 s, 30 s) at 20, d (20 s, 5 s; submitted as b ends,
     * behind c) at 50, a (50 s, 10 s) at 55. Queue: 5, 0, 20, 30 -> mean
     * 13.75; makespan 65. */
    struct cs_trace t;
    cs_trace_init(&t);
    const double sub[4] = {50, 0, 0, 20}, dur[4] = {10, 20, 30, 5};
    for (int k = 0; k < 4; k++) {
        struct cs_trace_job j;
        memset(&j, 0, sizeof j);
        snprintf(j.id, sizeof j.id, "%c", 'a' + k);
        j.gpus = 1;
        j.submit_s = sub[k];
        j.duration_s = dur[k];
        j.queue_s = NAN;
        j.user = j.partition = j.gpu_type = j.workload = -1;
        j.line = k + 2;
        cs_trace_add(&t, &j);
    }
    t.counts.rows = t.counts.jobs = 4;
    struct cs_sched_config c;
    one_group(&c, 1, 1);
    c.policy = CS_SCHED_FIFO;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_int_eq(r.completed, 4);
    ck_assert_double_eq_tol(r.per_job[0].start_s, 55, 1e-9);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 0, 1e-9);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 20, 1e-9);
    ck_assert_double_eq_tol(r.per_job[3].start_s, 50, 1e-9);
    ck_assert_double_eq_tol(r.queue_s.mean, 13.75, 1e-9);
    ck_assert_double_eq_tol(r.makespan_s, 65, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_backfill_vs_fifo)
{
    /* 2 GPUs. A (1 GPU, 100 s) at 0; B (2 GPUs, 10 s) at 1; C (1 GPU, 50 s) at 2.
     * FIFO: B waits for A (starts 100), C waits behind B (starts 110).
     * EASY: B's reservation is at 100; C ends at 52 <= 100, so it backfills at 2.
     * SJF: at 2 the queue is B (10 s), C (50 s); B blocks: as FIFO. */
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s\nA,0,1,100\nB,1,2,10\nC,2,1,50\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 2);
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 100, 1e-9);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 110, 1e-9);
    cs_sched_result_fini(&r);
    c.policy = CS_SCHED_BACKFILL;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 2, 1e-9);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 100, 1e-9);  /* the reservation held */
    cs_sched_result_fini(&r);
    c.policy = CS_SCHED_SJF;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 110, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_quota_caps_partition)
{
    /* 10 GPUs (10 nodes x 1): research 50%. Two 5-GPU research jobs at 0 for
     * 100 s: the second waits for the first although 5 GPUs are free; the
     * training job beside them starts at once. */
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition\n"
               "r1,0,5,100,,research\nr2,0,5,100,,research\nt1,1,3,10,,training\n", &t);
    struct cs_sched_config c;
    one_group(&c, 10, 1);
    c.policy = CS_SCHED_BACKFILL;
    c.n_partitions = 2;
    snprintf(c.partitions[0].name, 64, "research");
    c.partitions[0].quota = 0.5;
    snprintf(c.partitions[1].name, 64, "training");
    c.partitions[1].quota = 0.5;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 100, 1e-9);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 1, 1e-9);
    /* shares: research 1000 GPU-s, training 30 GPU-s of 1030 */
    ck_assert_double_eq_tol(r.parts[0].share, 1000.0 / 1030, 1e-9);
    cs_sched_result_fini(&r);
    /* quotas over 100% are refused */
    c.partitions[1].quota = 0.6;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_EINVAL);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "quotas"));
    cs_diags_fini(&d);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_preemption)
{
    /* 4 GPUs: low (priority 0) takes all 4 for 100 s at 0; high (priority 5)
     * asks for 4 at 10 for 10 s. With preemption high runs 10..20 and low
     * resumes at 20 with 90 s left: ends at 110. Without, high waits to 100. */
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority\nlow,0,4,100,,,0\nhigh,10,4,10,,,5\n",
               &t);
    struct cs_sched_config c;
    one_group(&c, 1, 4);
    c.preempt = true;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 10, 1e-9);
    ck_assert_double_eq_tol(r.per_job[0].end_s, 110, 1e-9);
    ck_assert_int_eq(r.preemptions, 1);
    /* GPU-hours are conserved across the eviction: 4 x 100 + 4 x 10 GPU-s */
    ck_assert_double_eq_tol(r.allocated_gpu_h * 3600, 440, 1e-6);
    cs_sched_result_fini(&r);
    c.preempt = false;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 100, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_mig_slices)
{
    /* One GPU, seven 0.1-GPU jobs of 100 s at 0. MIG: ceil(0.1 x 7) = 1 slice
     * each, all seven at once: makespan 100. Without MIG each holds the whole
     * GPU: 700. Busy GPU-hours are 7 x 0.1 x 100 s either way. */
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s\na,0,0.1,100\nb,0,0.1,100\nc,0,0.1,100\nd,0,0.1,100\n"
               "e,0,0.1,100\nf,0,0.1,100\ng,0,0.1,100\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 1);
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.makespan_s, 700, 1e-9);
    ck_assert_double_eq_tol(r.busy_gpu_h * 3600, 70, 1e-6);
    double u_plain = r.busy_utilization;
    cs_sched_result_fini(&r);
    c.mig = true;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.makespan_s, 100, 1e-9);
    ck_assert_double_eq_tol(r.busy_gpu_h * 3600, 70, 1e-6);
    ck_assert_double_eq_tol(r.utilization, 1.0, 1e-9);  /* 7 of 7 slices */
    ck_assert(r.busy_utilization > u_plain);            /* 0.7 vs 0.1 */
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_gang_and_types)
{
    /* 2 groups: 4 x 8 H100 and 2 x 4 T4. A 16-GPU job takes 2 whole H100
     * nodes at once; a T4 job runs only on T4 nodes; an A100 job is rejected. */
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "big,0,16,10,,,,,\nt4,0,4,10,,,,T4,\nnone,0,1,10,,,,A100,\nhuge,0,33,10,,,,H100-SXM5-80GB,\n",
               &t);
    struct cs_sched_config c;
    one_group(&c, 4, 8);
    c.n_groups = 2;
    snprintf(c.groups[1].gpu_type, 64, "T4");
    c.groups[1].nodes = 2;
    c.groups[1].gpus_per_node = 4;
    struct cs_sched_result r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_OK);
    ck_assert_int_eq(r.rejected, 2);
    ck_assert(d.n >= 1);  /* warnings name the rejected jobs */
    ck_assert_int_eq(r.per_job[0].nodes, 2);
    ck_assert_int_eq(r.per_job[1].nodes, 1);
    ck_assert(r.per_job[2].rejected && r.per_job[3].rejected);
    cs_sched_result_fini(&r);
    cs_diags_fini(&d);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_replay_gpu_hours_conserved)
{
    /* A congested random-looking trace on 16 GPUs with backfill and MIG: the
     * allocated GPU-hours equal the trace's (whole-GPU jobs), and the timeline
     * integrates to the same total. */
    char buf[65536];
    size_t n = (size_t)snprintf(buf, sizeof buf, "job_id,submit_s,gpus,duration_s\n");
    unsigned x = 12345;
    double want = 0;
    for (int i = 0; i < 400; i++) {
        x = x * 1103515245u + 12345u;
        int g = 1 << (x >> 16) % 5;  /* 1..16 GPUs */
        int dur = 10 + (int)((x >> 8) % 500);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "j%d,%d,%d,%d\n", i, i * 7, g, dur);
        want += (double)g * dur;
    }
    struct cs_trace t;
    trace_from(buf, &t);
    struct cs_sched_config c;
    one_group(&c, 2, 8);
    c.policy = CS_SCHED_BACKFILL;
    c.timeline_bins = 97;
    for (int pl = 0; pl < 3; pl++) {
        c.place = (enum cs_sched_place)pl;
        struct cs_sched_result r;
        run(&c, &t, &r);
        ck_assert_int_eq(r.completed, 400);
        ck_assert_double_eq_tol(r.allocated_gpu_h * 3600, want, 1e-6 * want);
        double integral = 0;
        for (int b = 0; b < r.n_bins; b++)
            integral += r.alloc_gpus[b] * r.bin_s;
        ck_assert_double_eq_tol(integral, want, 1e-6 * want);
        ck_assert(r.utilization > 0 && r.utilization <= 1 + 1e-9);
        cs_sched_result_fini(&r);
    }
    cs_trace_fini(&t);
}
END_TEST

/* EASY reservations by shape. 3 nodes x 8 GPUs, packed, backfill. At t=0:
 * P (6 GPUs, 600 s) -> node 0, Q (6, 700) -> node 1, R (4, 100) and
 * S (4, 800) -> node 2. E (8 GPUs on one node) at t=1 is blocked: counted
 * in GPUs, 4 free + R's 4 = 8 at t=100 would make its reservation 100 s,
 * but then no node has 8 free; by shape the first node to free up whole is
 * node 0 at 600 (P ends), with 4 + 4 + 6 = 14 GPUs free, 6 spare. F (2 GPUs,
 * 1000 s) at t=2 ends after 600 but fits in the 6 spare GPUs: it backfills
 * at once (with the GPU-count reservation, 100 s and 0 spare, it would have
 * waited until R ended). Node 0 is the one E waits for, so F, which ends
 * after 600, may not use it: F lands on node 1 (packed would have taken
 * node 0, the lowest with 2 free), and E starts at 600 on node 0. */
START_TEST(test_replay_backfill_reserves_by_shape)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "P,0,6,600,,,,,\nQ,0,6,700,,,,,\nR,0,4,100,,,,,\nS,0,4,800,,,,,\n"
               "E,1,8,50,,,,,\nF,2,2,1000,,,,,\n", &t);
    struct cs_sched_config c;
    one_group(&c, 3, 8);
    c.policy = CS_SCHED_BACKFILL;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[5].start_s, 2.0, 1e-9);
    ck_assert_double_eq_tol(r.per_job[4].start_s, 600.0, 1e-9);
    ck_assert_double_eq_tol(r.per_job[4].end_s, 650.0, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* --- the `scheduler:` scenario section (config/cfg_scheduler.c) --------- */

static const char *k_base = "schema_version: 1\nname: t\ncluster:\n  gpu: H100-SXM5-80GB\n  nodes: 4\n"
                            "  gpus_per_node: 8\n  intra_node: nvswitch\n"
                            "  fabric: {topology: spine-leaf, link: roce-400g, nics_per_node: 8}\n";

/* Loads k_base + section from memory as "sched.yaml"; returns the status
 * and leaves the diagnostics in d. */
static cs_status load_sched(const char *section, struct cs_scenario *s, cs_diags *d)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s%s", k_base, section);
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), d, &cat), CS_OK);
    cs_status st = cs_cfg_load_scenario_buffer("sched.yaml", buf, strlen(buf), cat, d, s, NULL);
    cs_catalog_destroy(cat);
    return st;
}

START_TEST(test_replay_scheduler_section)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load_sched("scheduler:\n  policy: backfill\n  placement: scattered\n  preemption: true\n"
                                "  mig_slices: 4\n  backfill_depth: 50\n  partitions:\n"
                                "    - {name: training, quota: 50%, priority: 1, match: {min_gpus: 8}}\n"
                                "    - {name: inference, quota: 0.1, match: {max_gpus: 1, max_duration: 1h}}\n"
                                "  claim: {id: N19, text: shares, compare: none, tolerance: 0.1}\n", &s, &d),
                     CS_OK);
    const struct cs_scn_scheduler *c = &s.scheduler;
    ck_assert(c->enabled);
    ck_assert_int_eq(c->policy, CS_SCHED_BACKFILL);
    ck_assert_int_eq(c->placement, CS_SCHED_SCATTERED);
    ck_assert_int_eq(c->preempt, 1);
    ck_assert_int_eq(c->mig_slices, 4);
    ck_assert_int_eq(c->backfill_depth, 50);
    ck_assert_int_eq(c->n_partitions, 2);
    ck_assert_str_eq(c->partitions[0].name, "training");
    ck_assert_double_eq_tol(c->partitions[0].quota, 0.5, 1e-12);
    ck_assert_int_eq(c->partitions[0].priority, 1);
    ck_assert(c->partitions[0].rule && c->partitions[0].min_gpus == 8 && isnan(c->partitions[0].max_gpus));
    ck_assert_double_eq_tol(c->partitions[1].quota, 0.1, 1e-12);
    ck_assert_double_eq_tol(c->partitions[1].max_duration_s, 3600, 1e-9);
    ck_assert_str_eq(c->claim_id, "N19");
    ck_assert_int_eq(c->claim_compare, CS_SCN_COMPARE_NONE);
    ck_assert_double_eq_tol(c->claim_tolerance, 0.1, 1e-12);
    cs_scenario_fini(&s);
    /* absent: not enabled, nothing given */
    ck_assert_int_eq(load_sched("", &s, &d), CS_OK);
    ck_assert(!s.scheduler.enabled);
    ck_assert_int_eq(s.scheduler.policy, -1);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
}
END_TEST

/* Bad input: each case must fail with an error at the given line of
 * sched.yaml (the base has 8 lines; the section starts on line 9) whose
 * message names the key path and what was expected. */
START_TEST(test_replay_scheduler_bad_input)
{
    static const struct { const char *yaml; int line; const char *want1, *want2; } cases[] = {
        {"scheduler:\n  policy: lifo\n", 10, "scheduler.policy", "backfill"},
        {"scheduler:\n  placment: packed\n", 10, "placment", "placement"},
        {"scheduler:\n  mig_slices: 9\n", 10, "scheduler.mig_slices", "7"},
        {"scheduler:\n  partitions:\n    - {name: a, quota: 140%}\n", 11, "partitions[0].quota", "[0, 1]"},
        {"scheduler:\n  partitions:\n    - {name: a, quota: lots}\n", 11, "quota", "percentage"},
        {"scheduler:\n  partitions:\n    - {name: a, quota: 0.6}\n    - {name: b, quota: 0.6}\n", 11,
         "scheduler.partitions", "add up to 1.2"},
        {"scheduler:\n  partitions:\n    - {name: a}\n    - {name: a}\n", 12, "partitions[1].name",
         "already defined"},
        {"scheduler:\n  partitions:\n    - {quota: 0.2}\n", 11, "partitions[0]", "\"name\""},
        {"scheduler:\n  partitions: research\n", 10, "scheduler.partitions", "sequence"},
        {"scheduler:\n  partitions:\n    - {name: a, match: {min_gpus: 8, max_gpus: 2}}\n", 11, "max_gpus",
         "less than min_gpus"},
        {"scheduler:\n  partitions:\n    - {name: a, match: {max_duration: soon}}\n", 11, "match.max_duration", "duration"},
        {"scheduler:\n  claim: {id: N21, compare: sideways}\n", 10, "scheduler.claim.compare", "placement"},
        {"scheduler:\n  claim: {text: x}\n", 10, "scheduler.claim", "\"id\""},
        {"scheduler: fast\n", 9, "scheduler", "mapping"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_diags d;
        cs_diags_init(&d);
        struct cs_scenario s;
        cs_status st = load_sched(cases[i].yaml, &s, &d);
        ck_assert_msg(st == CS_ECONFIG, "case %zu accepted", i);
        bool found = false;
        for (size_t k = 0; k < d.n && !found; k++) {
            const struct cs_diag *g = &d.items[k];
            found = g->sev == CS_SEV_ERROR && g->file && strcmp(g->file, "sched.yaml") == 0 &&
                    g->line == cases[i].line && strstr(g->msg, cases[i].want1) && strstr(g->msg, cases[i].want2);
        }
        if (!found)
            for (size_t k = 0; k < d.n; k++)
                printf("case %zu: %s:%d: %s\n", i, d.items[k].file ? d.items[k].file : "-", d.items[k].line,
                       d.items[k].msg);
        ck_assert_msg(found, "case %zu: no error at line %d naming %s / %s", i, cases[i].line, cases[i].want1,
                      cases[i].want2);
        cs_diags_fini(&d);
    }
}
END_TEST

/* A job row built in memory (cs_trace_add); -1 for the strings not given. */
static void add_job(struct cs_trace *t, const char *id, double submit, double gpus, double dur,
                    int partition, int gpu_type)
{
    struct cs_trace_job j;
    memset(&j, 0, sizeof j);
    snprintf(j.id, sizeof j.id, "%s", id);
    j.submit_s = submit;
    j.gpus = gpus;
    j.duration_s = dur;
    j.queue_s = NAN;
    j.user = j.workload = -1;
    j.partition = partition;
    j.gpu_type = gpu_type;
    j.line = 2 + (long)t->n;
    cs_trace_add(t, &j);
}

/* The string table compares a name of `len` bytes that may hold a NUL
 * without reading past a shorter stored name: "ab\0x" (4 bytes) is not
 * "ab". 256 such keys meet "ab"'s slot of the 64-slot table several times
 * (the old strncmp matched there and read nm[4], past "ab"; ASan names it). */
START_TEST(test_replay_strtab_nul_key)
{
    struct cs_strtab t;
    cs_strtab_init(&t);
    ck_assert_int_eq(cs_strtab_intern(&t, "ab", 2), 0);
    for (int c = 0; c < 256; c++) {
        char key[4] = {'a', 'b', '\0', (char)c};
        ck_assert_int_ne(cs_strtab_intern(&t, key, sizeof key), 0);
    }
    ck_assert_int_eq(cs_strtab_intern(&t, "ab", 2), 0);
    cs_strtab_fini(&t);
}
END_TEST

/* No table of the replay stops at a fixed size: a trace with 4,100
 * partition names (the replay once kept only the first 4,096 and sent the
 * rest to no partition) maps its 4,100th to the configured partition of
 * that name. 1 node x 8 GPUs; "p4099" (quota 50% = 4 GPUs) and "p5". */
START_TEST(test_replay_many_trace_partitions)
{
    struct cs_trace t;
    cs_trace_init(&t);
    char nm[16];
    for (int p = 0; p < 4100; p++) {
        snprintf(nm, sizeof nm, "p%d", p);
        ck_assert_int_eq(cs_strtab_intern(&t.partitions, nm, strlen(nm)), p);
    }
    add_job(&t, "a", 0, 4, 100, 4099, -1);
    add_job(&t, "b", 0, 4, 100, 4099, -1);
    add_job(&t, "c", 0, 1, 10, 5, -1);
    add_job(&t, "d", 0, 1, 10, 4098, -1);
    struct cs_sched_config c;
    one_group(&c, 1, 8);
    c.n_partitions = 2;
    snprintf(c.partitions[0].name, 64, "p4099");
    c.partitions[0].quota = 0.5;
    snprintf(c.partitions[1].name, 64, "p5");
    c.partitions[1].quota = NAN; /* no quota (0 would refuse every job) */
    struct cs_sched_result r;
    run(&c, &t, &r);
    /* a and b are p4099's: its 4-GPU quota makes b wait for a (start 100),
     * though 3 GPUs stay free; without the mapping b would start at 0. */
    ck_assert_int_eq(r.parts[0].jobs, 2);
    ck_assert_int_eq(r.parts[1].jobs, 1);
    ck_assert_int_eq(r.parts[2].jobs, 1); /* d: "p4098" is not configured */
    ck_assert_double_eq_tol(r.per_job[0].start_s, 0, 1e-9);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 100, 1e-9);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 0, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* Same for GPU types: 300 names (the replay once kept 256 and let a job of
 * a later type run on any group). Groups: 2 x 8 H100 and 1 x 4 "T299".
 * Two 4-GPU "T299" jobs share the one T299 node: the second starts when
 * the first ends (10 s), not at once on an H100 node; a "T298" job is
 * rejected: no group has that type. */
START_TEST(test_replay_many_gpu_types)
{
    struct cs_trace t;
    cs_trace_init(&t);
    char nm[16];
    for (int k = 0; k < 300; k++) {
        snprintf(nm, sizeof nm, "T%d", k);
        ck_assert_int_eq(cs_strtab_intern(&t.gpu_types, nm, strlen(nm)), k);
    }
    add_job(&t, "x1", 0, 4, 10, -1, 299);
    add_job(&t, "x2", 0, 4, 10, -1, 299);
    add_job(&t, "y", 0, 1, 10, -1, 298);
    struct cs_sched_config c;
    one_group(&c, 2, 8);
    c.n_groups = 2;
    snprintf(c.groups[1].gpu_type, 64, "T299");
    c.groups[1].nodes = 1;
    c.groups[1].gpus_per_node = 4;
    struct cs_sched_result r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_OK);
    ck_assert_int_eq(r.rejected, 1);
    ck_assert(r.per_job[2].rejected);
    ck_assert_double_eq_tol(r.per_job[0].start_s, 0, 1e-9);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 10, 1e-9);
    ck_assert_int_eq(d.n, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "\"T298\""));
    cs_sched_result_fini(&r);
    cs_diags_fini(&d);
    cs_trace_fini(&t);
}
END_TEST

/* The limits the replay keeps are errors naming the limit, never silent:
 * 33 node groups (CS_SCHED_MAX_GROUPS 32), 73 GPUs per node (72), 17
 * partitions (CS_SCHED_MAX_PARTITIONS 16). */
START_TEST(test_replay_limits_refused)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s\na,0,1,10\n", &t);
    struct cs_sched_config c;
    struct cs_sched_result r;
    cs_diags d;

    one_group(&c, 1, 8);
    c.n_groups = CS_SCHED_MAX_GROUPS + 1;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_EINVAL);
    ck_assert_str_eq(d.items[0].msg, "replay: the cluster needs 1 to 32 node groups, got 33");
    cs_diags_fini(&d);

    one_group(&c, 1, 73);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_EINVAL);
    ck_assert_str_eq(d.items[0].msg, "replay: node group 0 (H100-SXM5-80GB): expected 1..1000000 "
                                     "nodes of 1..72 GPUs, got 1 x 73");
    cs_diags_fini(&d);

    one_group(&c, 1, 8);
    c.n_partitions = CS_SCHED_MAX_PARTITIONS + 1;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_EINVAL);
    ck_assert_str_eq(d.items[0].msg, "replay: at most 16 partitions");
    cs_diags_fini(&d);

    /* at the limits it runs: 72 GPUs per node, 16 partitions */
    one_group(&c, 1, 72);
    c.n_partitions = CS_SCHED_MAX_PARTITIONS;
    for (int p = 0; p < c.n_partitions; p++) {
        snprintf(c.partitions[p].name, 64, "q%d", p);
        c.partitions[p].quota = NAN;
    }
    run(&c, &t, &r);
    ck_assert_int_eq(r.gpus, 72);
    ck_assert_int_eq(r.n_parts, 17);
    ck_assert_int_eq(r.parts[16].jobs, 1);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* Partition match rules (scheduler.h): a job without a configured
 * partition goes to the first partition whose rule it satisfies. 1 node of
 * 8 GPUs: "big" (min 4 GPUs, quota 50% = 4 GPUs) and "small" (max 1 GPU,
 * max 1 h). Jobs: A 4 GPUs 100 s -> big; B 1 GPU 10 s -> small; C 1 GPU
 * 2 h -> neither (no partition); D 4 GPUs at t=0 -> big, but big holds 4
 * of its 4 GPUs until A ends: D starts at 100 although 3 GPUs are free. */
START_TEST(test_replay_partition_rules)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "A,0,4,100,,,,,\nB,0,1,10,,,,,\nC,0,1,7200,,,,,\nD,0,4,50,,,,,\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 8);
    c.policy = CS_SCHED_BACKFILL;
    c.n_partitions = 2;
    c.partitions[0] = (struct cs_sched_partition){"big", 0.5, 0, true, 4, NAN, NAN};
    c.partitions[1] = (struct cs_sched_partition){"small", NAN, 0, true, NAN, 1, 3600};
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_int_eq(r.parts[0].jobs, 2);
    ck_assert_int_eq(r.parts[1].jobs, 1);
    ck_assert_int_eq(r.parts[2].jobs, 1);
    ck_assert_double_eq_tol(r.per_job[3].start_s, 100.0, 1e-9);
    /* big: 4 x 100 + 4 x 50 GPU-s = 600 of 600 + 10 + 7200 = 7810 */
    ck_assert_double_eq_tol(r.parts[0].share, 600.0 / 7810.0, 1e-9);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* MIG with 4 slices per GPU (an A30): a 0.3-GPU job takes ceil(4 x 0.3) =
 * 2 slices, so one GPU holds two of them; the third of three 100-s jobs
 * submitted at 0 waits for the first to end and starts at 100. With 7
 * slices each takes ceil(2.1) = 3 and two fit again (6 of 7). */
START_TEST(test_replay_mig_slices_per_gpu)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "a,0,0.3,100,,,,,\nb,0,0.3,100,,,,,\nc,0,0.3,100,,,,,\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 1);
    c.mig = true;
    c.mig_slices = 4;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[1].start_s, 0.0, 1e-9);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 100.0, 1e-9);
    /* allocated: 3 jobs x 100 s x 2/4 GPU = 150 GPU-s */
    ck_assert_double_eq_tol(r.allocated_gpu_h * 3600, 150.0, 1e-6);
    cs_sched_result_fini(&r);
    c.mig_slices = 7;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[2].start_s, 100.0, 1e-9);
    ck_assert_double_eq_tol(r.allocated_gpu_h * 3600, 3 * 100 * 3.0 / 7, 1e-6);
    cs_sched_result_fini(&r);
    c.mig_slices = 8;  /* more than MIG has */
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_EINVAL);
    cs_diags_fini(&d);
    cs_trace_fini(&t);
}
END_TEST

/* The bundled claim scenarios load and carry their claims. */
START_TEST(test_replay_claim_scenarios_load)
{
    static const struct { const char *file, *id; int compare; } k[] = {
        {"scenarios/claims/replay-n19-partitions.yaml", "N19", CS_SCN_COMPARE_NONE},
        {"scenarios/claims/replay-n21-placement.yaml", "N21", CS_SCN_COMPARE_PLACEMENT},
        {"scenarios/claims/replay-n23-mig.yaml", "N23", CS_SCN_COMPARE_MIG},
    };
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &cat), CS_OK);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        struct cs_scenario s;
        ck_assert_int_eq(cs_cfg_load_scenario(cs_test_path(k[i].file), cat, &d, &s, NULL), CS_OK);
        ck_assert(s.scheduler.enabled);
        ck_assert_str_eq(s.scheduler.claim_id, k[i].id);
        ck_assert_int_eq(s.scheduler.claim_compare, k[i].compare);
        cs_scenario_fini(&s);
    }
    cs_catalog_destroy(cat);
    cs_diags_fini(&d);
}
END_TEST

/* Claim verdicts (report/replay_report.c) on results filled by hand. */
START_TEST(test_replay_claim_verdicts)
{
    struct cs_scn_scheduler cl;
    memset(&cl, 0, sizeof cl);
    snprintf(cl.claim_id, sizeof cl.claim_id, "N19");
    cl.claim_tolerance = 0.05;
    struct cs_sched_config c;
    one_group(&c, 1, 8);
    struct cs_sched_result r;
    memset(&r, 0, sizeof r);
    r.n_parts = 3;
    r.parts[0] = (struct cs_sched_part_result){"a", 0.4, 1, 1, 0.43, 0, 0};
    r.parts[1] = (struct cs_sched_part_result){"b", 0.6, 1, 1, 0.57, 0, 0};
    r.parts[2] = (struct cs_sched_part_result){"(none)", NAN, 0, 0, 0, 0, 0};
    struct cs_replay_verdict v;
    cs_out_replay_verdict(&cl, &c, &r, NULL, NULL, &v);
    ck_assert(v.holds);  /* |0.43 - 0.4| = 0.03 <= 0.05, |0.57 - 0.6| = 0.03 */
    r.parts[0].share = 0.30;
    r.parts[1].share = 0.70;
    cs_out_replay_verdict(&cl, &c, &r, NULL, NULL, &v);
    ck_assert(!v.holds);  /* 0.10 off */
    ck_assert(strstr(v.line, "DOES NOT HOLD") != NULL);
    /* placement: the packed replay's workload JCT 100 s, scattered 120 s:
     * 1 - 100/120 = 16.7% shorter > 5% */
    cl.claim_compare = CS_SCN_COMPARE_PLACEMENT;
    struct cs_sched_config c2 = c;
    c2.place = CS_SCHED_SCATTERED;
    struct cs_sched_result r2 = r;
    r.workload_jobs = r2.workload_jobs = 3;
    r.workload_jct_mean_s = 100;
    r2.workload_jct_mean_s = 120;
    cs_out_replay_verdict(&cl, &c2, &r2, &c, &r, &v);  /* either order */
    ck_assert(v.holds);
    ck_assert(strstr(v.line, "16.7% shorter") != NULL);
    r.workload_jct_mean_s = 118;  /* 1.7% < 5% */
    cs_out_replay_verdict(&cl, &c, &r, &c2, &r2, &v);
    ck_assert(!v.holds);
    /* mig: busy / allocated 90/100 with MIG, 80/100 without: +12.5% */
    cl.claim_compare = CS_SCN_COMPARE_MIG;
    c.mig = true;
    c2 = c;
    c2.mig = false;
    r.busy_gpu_h = 90;
    r.allocated_gpu_h = 100;
    r2.busy_gpu_h = 80;
    r2.allocated_gpu_h = 100;
    cs_out_replay_verdict(&cl, &c, &r, &c2, &r2, &v);
    ck_assert(v.holds);
    ck_assert(strstr(v.line, "+12.5% relative") != NULL);
}
END_TEST

/* Loads a scenario of the repository and builds its fabric. */
static void load_fabric(const char *rel, struct cs_scenario *s, cs_fabric **f)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &cat), CS_OK);
    ck_assert_int_eq(cs_cfg_load_scenario(cs_test_path(rel), cat, &d, s, NULL), CS_OK);
    ck_assert_int_eq(cs_fabric_create(&s->cluster, 1, f), CS_OK);
    cs_catalog_destroy(cat);
    cs_diags_fini(&d);
}

/* The step time the documented rule gives a llama3.1-8b job on 64 GPUs of
 * tests/data/replay/spine-7to1.yaml at bandwidth share `share`: 8 nodes of
 * 8, pp = 1, one sequence per data-parallel replica, on a non-blocking
 * fabric whose link rate is scaled by the share; the fastest of tp 1, 2,
 * 4, 8 x recompute none, full that fits (tp = 1 cannot: 8e9 parameters x 16
 * bytes of weights, gradients and Adam state = 128 GB > 80 GB). The tp and
 * recompute are chosen at share 1 and kept (*tp, *rc in/out: 0 = choose). */
static double step_8b_64(const struct cs_cluster_cfg *base, double share, int *tp_io, int *rc_io)
{
    struct cs_cluster_cfg c = *base;
    c.nodes = 8;
    c.fabric.oversubscription = 1;
    c.fabric.link.bw_bytes_per_s *= share;
    double best = NAN;
    int want_tp = *tp_io, want_rc = *rc_io;
    for (int tp = 1; tp <= 8; tp *= 2)
        for (int rc = 0; rc < 2; rc++) {
            if (want_tp && (tp != want_tp || rc != want_rc))
                continue;
            struct cs_workload w;
            memset(&w, 0, sizeof w);
            ck_assert_int_eq(cs_workload_preset("llama3.1-8b", &w.model), CS_OK);
            w.micro_batch = 1;
            w.precision = CS_PREC_BF16;
            w.tokens = NAN;
            w.par = (struct cs_parallel){.tp = tp, .pp = 1, .dp = 64 / tp, .cp = 1, .vp = 1, .fsdp = CS_FSDP_NONE};
            w.global_batch = 64 / tp;
            w.recompute = rc ? CS_RECOMPUTE_FULL : CS_RECOMPUTE_NONE;
            struct cs_step_options o;
            cs_step_options_default(&c.gpu, &o);
            struct cs_step_result r;
            cs_diags d;
            cs_diags_init(&d);
            ck_assert_int_eq(cs_step_simulate(&c, &w, &o, &d, &r), CS_OK);
            cs_diags_fini(&d);
            if (tp == 1)
                ck_assert(!r.fits);
            if (r.fits && !(r.time_s >= best)) {
                best = r.time_s;
                if (!want_tp) {
                    *tp_io = tp;
                    *rc_io = rc;
                }
            }
        }
    return best;
}

/* Contention on leaf uplinks, derived by hand on spine-7to1.yaml (3 leaves
 * of 7 nodes, 8 uplinks a leaf, 8 NICs a node). Packed placement, all
 * leaves equally free: job A (64 GPUs = 8 nodes) takes nodes 0-6 (leaf 0)
 * and 7 (leaf 1); its ring 0..7 leaves leaf 0 once (6->7) and leaf 1 once
 * (7->0): 8 ports of demand on 8 uplinks, share 1, so alone it runs its
 * trace duration. Job B (8 nodes) then finds leaf 2 (7 free) before leaf 1
 * (6 free): nodes 14-20 and 8; its ring leaves leaf 1 once too, so leaf 1
 * carries 16 ports on 8 uplinks: share 8/16 = 0.5 for both, and each step
 * takes f = t(0.5) / t(1) of the step model. Together from t = 0 both run
 * 1000 f. B submitted at 500: A runs alone to 500, then both at rate 1/f:
 * A's last 500 s of work end at 500 + 500 f; B has done 500 s of work by
 * then and ends 500 s later, at 1000 + 500 f. */
START_TEST(test_replay_uplink_contention)
{
    struct cs_scenario s;
    cs_fabric *f = NULL;
    load_fabric("tests/data/replay/spine-7to1.yaml", &s, &f);
    int tp = 0, rc = 0;
    double t1 = step_8b_64(&s.cluster, 1.0, &tp, &rc);
    double th = step_8b_64(&s.cluster, 0.5, &tp, &rc), fx = th / t1;
    ck_assert(fx > 1.0 && fx < 2.0);
    struct cs_sched_config c;
    one_group(&c, s.cluster.nodes, s.cluster.gpus_per_node);
    c.fabric = f;
    struct cs_sched_result r;
    struct cs_trace t;
    /* alone */
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "A,0,64,1000,,,,,llama3.1-8b\n", &t);
    run(&c, &t, &r);
    ck_assert_int_eq(r.per_job[0].leaves, 2);
    ck_assert_double_eq_tol(r.per_job[0].share_min, 1.0, 1e-12);
    ck_assert_double_eq_tol(r.per_job[0].end_s - r.per_job[0].start_s, 1000.0, 1e-6);
    ck_assert_double_eq_tol(r.per_job[0].step_s, t1, 1e-12 * t1);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
    /* together */
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "A,0,64,1000,,,,,llama3.1-8b\nB,0,64,1000,,,,,llama3.1-8b\n", &t);
    run(&c, &t, &r);
    printf("llama3.1-8b on 64 GPUs, 7:1 spine-leaf: step %.4f s alone, %.4f s at share 0.5 (f = %.4f); "
           "together both end at %.1f s\n", t1, th, fx, r.per_job[0].end_s);
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq_tol(r.per_job[k].share_min, 0.5, 1e-3);
        ck_assert_double_eq_tol(r.per_job[k].end_s, 1000.0 * fx, 2e-3 * fx * 1000);
    }
    ck_assert_int_eq(r.workload_jobs, 2);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
    /* staggered */
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "A,0,64,1000,,,,,llama3.1-8b\nB,500,64,1000,,,,,llama3.1-8b\n", &t);
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.per_job[0].end_s, 500 + 500 * fx, 2e-3 * 500 * fx);
    ck_assert_double_eq_tol(r.per_job[1].end_s, 1000 + 500 * fx, 2e-3 * 500 * fx);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
    /* scattered: random node order, more ring edges leave each leaf; one
     * job alone on 8 of 21 nodes can still exceed a leaf's 8 uplinks
     * (2 edges out of one leaf = 16 ports), never run faster than packed */
    c.place = CS_SCHED_SCATTERED;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload\n"
               "A,0,64,1000,,,,,llama3.1-8b\nB,0,64,1000,,,,,llama3.1-8b\n", &t);
    run(&c, &t, &r);
    printf("scattered: A ends %.1f s (share %.3f), B %.1f s (share %.3f)\n", r.per_job[0].end_s,
           r.per_job[0].share_min, r.per_job[1].end_s, r.per_job[1].share_min);
    ck_assert(r.per_job[0].share_min <= 0.5 + 1e-9 && r.per_job[1].share_min <= 0.5 + 1e-9);
    ck_assert(r.per_job[0].end_s >= 1000 * fx - 1 && r.per_job[1].end_s >= 1000 * fx - 1);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
    cs_fabric_destroy(f);
    cs_scenario_fini(&s);
}
END_TEST

static void replay_real(const char *path, struct cs_sched_config *c, long limit, const char *label)
{
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.limit = limit;
    struct cs_trace t;
    cs_diags d;
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load(cs_test_data(path), &o, &t, &d), CS_OK);
    struct cs_sched_result r;
    ck_assert_int_eq(cs_sched_run(c, &t, &d, &r), CS_OK);
    printf("%s: %ld jobs on %ld GPUs (%s): makespan %.2f d, utilization %.3f, queue mean/p50/p95 %.0f/%.0f/%.0f s, "
           "JCT mean/p50/p95 %.0f/%.0f/%.0f s, fragmentation %.4f\n", label, r.completed, r.gpus,
           cs_sched_policy_name(c->policy), r.makespan_s / 86400, r.utilization, r.queue_s.mean, r.queue_s.p50,
           r.queue_s.p95, r.jct_s.mean, r.jct_s.p50, r.jct_s.p95, r.fragmentation);
    ck_assert_int_eq(r.completed + r.rejected, (long)t.n);
    ck_assert(r.utilization > 0 && r.utilization <= 1 + 1e-9);
    ck_assert_double_eq_tol(r.busy_gpu_h, r.trace_gpu_h, 1e-6 * r.trace_gpu_h + 1e-9);
    /* openb records its own queueing: print the difference */
    double qrec = 0;
    long nrec = 0;
    for (size_t i = 0; i < t.n; i++)
        if (!isnan(t.jobs[i].queue_s)) {
            qrec += t.jobs[i].queue_s;
            nrec++;
        }
    if (nrec)
        printf("%s: recorded mean queue %.1f s, replayed %.1f s (difference %.1f s)\n", label, qrec / nrec,
               r.queue_s.mean, r.queue_s.mean - qrec / nrec);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}

START_TEST(test_replay_real_traces)
{
    struct cs_sched_config c;
    /* ITP cluster04 on 1,024 GPUs (the ElasticFlow replay size); under ASan a
     * 4,000-job prefix keeps the test fast */
    one_group(&c, 128, 8);
    c.keep_jobs = false;
    c.policy = CS_SCHED_BACKFILL;
    replay_real("validation/traces/microsoft-itp-2021/cluster04.csv.gz", &c, 4000, "itp cluster04");
    replay_real("validation/traces/microsoft-itp-2021/cluster10.csv.gz", &c, 0, "itp cluster10");
    /* openb pods on the openb node list (7 GPU types) with MIG-style sharing */
    struct cs_trace_nodes nl;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(cs_test_data("validation/traces/alibaba-openb-gpu-2023/openb_node_list_gpu_node.csv"),
                                         &nl, &d), CS_OK);
    cs_diags_fini(&d);
    cs_sched_config_default(&c);
    c.n_groups = nl.n_groups;
    for (int g = 0; g < nl.n_groups; g++) {
        snprintf(c.groups[g].gpu_type, 64, "%s", nl.groups[g].gpu_type);
        c.groups[g].nodes = nl.groups[g].nodes;
        c.groups[g].gpus_per_node = nl.groups[g].gpus_per_node;
    }
    c.policy = CS_SCHED_FIFO;
    replay_real("validation/traces/alibaba-openb-gpu-2023/openb_pod_list_default.csv.gz", &c, 0, "openb");
}
END_TEST

/* A synthetic trace of n jobs offering `load` times the work of nodes x 8
 * GPUs: the ITP size mix (83% 1 GPU, 10% 8, the rest 2-64), a tenth
 * fractional (0.25 or 0.5 GPU), log-normal-ish durations (median about
 * 1 h), priorities 0, 1 or 5 when `prio`. A fixed LCG, so every run builds
 * the same trace. */
static void synth_trace(struct cs_trace *t, long n, double load, int nodes, bool prio, unsigned seed)
{
    cs_trace_init(t);
    uint64_t x = 0x9E3779B97F4A7C15ull ^ seed;
    double clock_s = 0, mean_work = 2.1 * 7400; /* GPU-seconds per job, as bench_replay */
    double gap = mean_work / (load * nodes * 8);
    for (long i = 0; i < n; i++) {
        double u[4];
        for (int k = 0; k < 4; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            u[k] = (double)(x >> 11) / 9007199254740992.0;
        }
        clock_s += -log(1 - u[0]) * gap;
        double g = u[1] < 0.83 ? 1 : u[1] < 0.85 ? 2 : u[1] < 0.88 ? 4 : u[1] < 0.98 ? 8
                 : u[1] < 0.99 ? 16 : u[1] < 0.997 ? 32 : 64;
        if (u[3] < 0.1)
            g = u[3] < 0.05 ? 0.25 : 0.5;
        /* exp of a sum of two uniforms: a crude log-normal, 1 min .. 60 h */
        double dur = ceil(60 * exp(4.1 * (u[2] + u[3]) / 2 * 2));
        char id[24];
        snprintf(id, sizeof id, "s%ld", i);
        add_job(t, id, floor(clock_s), g, dur, -1, -1);
        if (prio)
            t->jobs[t->n - 1].priority = u[2] < 0.6 ? 0 : u[2] < 0.9 ? 1 : 5;
    }
    t->counts.rows = t->counts.jobs = n;
}

/* The shape index (jobqueue.c) picks exactly the jobs the job-by-job walk
 * of the window starts, in the same order: every job's start and end are
 * the same with cfg.walk_queue on and off, on overloaded traces with
 * priorities, MIG slices, several backfill depths and placements. */
START_TEST(test_replay_index_same_as_walk)
{
    static const int depths[] = {1, 7, 1000};
    static const enum cs_sched_place places[] = {CS_SCHED_PACKED, CS_SCHED_BESTFIT, CS_SCHED_SCATTERED};
    int cases = 0;
    for (unsigned seed = 1; seed <= 3; seed++)
        for (int di = 0; di < 3; di++) {
            struct cs_trace t;
            synth_trace(&t, 3000, 3.0, 4, seed != 2, seed);
            struct cs_sched_config c;
            one_group(&c, 4, 8);
            c.policy = CS_SCHED_BACKFILL;
            c.backfill_depth = depths[di];
            c.place = places[(seed + (unsigned)di) % 3];
            c.mig = seed == 3;
            struct cs_sched_result a, b;
            run(&c, &t, &a);
            c.walk_queue = true;
            run(&c, &t, &b);
            ck_assert_int_eq(a.completed, b.completed);
            ck_assert_int_eq(a.completed + a.rejected, 3000);
            for (long i = 0; i < a.jobs; i++) {
                const struct cs_sched_job_result *x = &a.per_job[i], *y = &b.per_job[i];
                if (x->rejected != y->rejected)
                    ck_abort_msg("seed %u depth %d: job %ld rejected differently", seed, depths[di], i);
                if (x->rejected)
                    continue; /* never started: NAN times */
                if (x->start_s != y->start_s || x->end_s != y->end_s)
                    ck_abort_msg("seed %u depth %d: job %ld starts %.0f (index) vs %.0f (walk)", seed,
                                 depths[di], i, a.per_job[i].start_s, b.per_job[i].start_s);
            }
            ck_assert(a.queue_s.mean == b.queue_s.mean && a.fragmentation == b.fragmentation);
            ck_assert(a.queue_s.mean > 3600); /* overloaded: the queue did build up */
            cases++;
            cs_sched_result_fini(&a);
            cs_sched_result_fini(&b);
            cs_trace_fini(&t);
        }
    ck_assert_int_eq(cases, 9);
}
END_TEST

/* Issue 20 item 11: the pass must not rescan the window. 20,000 jobs at 4x
 * the capacity of 8 x 8 GPUs, EASY, depth 1000: the walk looks at up to
 * 1,000 queued jobs in each of about 2 passes per job (some 4e7 looks);
 * the index looks at the jobs it starts, at most one failing job per shape
 * class per pass and the short jobs the reservation lets through: a few
 * per pass. Bound: 40 looks per job (measured 11.6 per job; the walk 1,900). */
START_TEST(test_replay_pass_does_not_rescan)
{
    struct cs_trace t;
    synth_trace(&t, 20000, 4.0, 8, false, 11);
    struct cs_sched_config c;
    one_group(&c, 8, 8);
    c.policy = CS_SCHED_BACKFILL;
    c.backfill_depth = 1000;
    c.keep_jobs = false;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_int_eq(r.completed, 20000);
    ck_assert(r.max_queue > 5000);
    double per_job = (double)r.examined / 20000;
    printf("replay: %.1f jobs looked at per job with the index\n", per_job);
    ck_assert_msg(per_job < 40, "%.1f jobs looked at per job", per_job);
    cs_sched_result_fini(&r);
    /* the walk, for contrast: what the bound excludes */
    c.walk_queue = true;
    run(&c, &t, &r);
    printf("replay: %.1f jobs looked at per job by the walk\n", (double)r.examined / 20000);
    ck_assert((double)r.examined / 20000 > 200);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* Issue 20 item 5: a replay past its event budget did not complete:
 * CS_EBUDGET and an error saying so, no figures. 100 jobs need about 300
 * events; a budget of 50 stops it. */
START_TEST(test_replay_budget)
{
    struct cs_trace t;
    synth_trace(&t, 100, 2.0, 1, false, 5);
    struct cs_sched_config c;
    one_group(&c, 1, 8);
    c.max_events = 50;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_sched_result r;
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_EBUDGET);
    ck_assert_uint_eq(cs_diags_errors(&d), 1);
    bool said = false;
    for (size_t i = 0; i < d.n; i++)
        said = said || strstr(d.items[i].msg, "did not complete: it reached its budget of 50 events");
    ck_assert(said);
    cs_diags_fini(&d);
    /* the default budget holds the whole replay */
    c.max_events = 0;
    run(&c, &t, &r);
    ck_assert_int_eq(r.completed + r.rejected, 100);
    ck_assert_int_gt(r.completed, 90);
    ck_assert(r.events > 50 && r.events < 64 * 101);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* The breakdowns of models/replay_stats.h on tests/data/replay/breakdown.csv
 * (the CLI test reads the same file), worked by hand. One node of 8 GPUs,
 * FIFO, packed:
 *   a 0 s 8 GPUs 100 s alice/train: starts 0 (the node is full until 100)
 *   b 0 s 1 GPU 50 s bob/dev:       waits for a: starts 100, JCT 150
 *   c 10 s 2 GPUs 30 s bob/dev:     starts 100 (queue 90), JCT 120
 *   d 20 s 1 GPU 3600 s carol/-:    starts 100 (queue 80), JCT 3680
 *   e 200 s 16 GPUs alice/train:    more than the cluster: rejected
 *   f 300 s 0.5 GPU 100 s carol/dev: a whole GPU without MIG, starts 300, JCT 100
 * Quantiles type 7 (h = (n - 1) p). Size "1" = {b, d}: queue 100, 80 ->
 * mean 90, p50 90, p95 80 + 0.95 x 20 = 99; JCT 150, 3680 -> mean 1915,
 * p95 150 + 0.95 x 3530 = 3503.5; GPU-hours (50 + 3600) / 3600. Size
 * "2-8" = {a, c}: queue 0, 90 -> p95 85.5; JCT 100, 120 -> mean 110, p95
 * 119; GPU-hours (800 + 60) / 3600. "<1" = {f}: 100 GPU-s. "9-64" = {e}:
 * rejected. Users by GPU-hours: carol (3700 GPU-s), alice (800), bob
 * (110); with top 2, bob is "others". Partition dev = {b, c, f}: queue
 * 0, 90, 100 -> mean 63.33, p50 90, p95 (h = 1.9) 90 + 0.9 x 10 = 99;
 * JCT 100, 120, 150 -> p95 120 + 0.9 x 30 = 147. Demand: 800 + 50 + 60 +
 * 3600 + 160 + 50 = 4720 GPU-s; arrivals over 300 s, but without waiting
 * the jobs would run until d ends at 20 + 3600 = 3620 s: 4720 / 3620 =
 * 1.304 GPUs on 8, offered load 0.163 (not overloaded: the queueing comes
 * from a holding the node, not from too much work); e is larger than the
 * cluster. */
START_TEST(test_replay_breakdowns)
{
    struct cs_trace t;
    cs_diags d;
    cs_diags_init(&d);
    cs_trace_init(&t);
    struct cs_trace_options to;
    cs_trace_options_default(&to);
    ck_assert_int_eq(cs_trace_load(cs_test_data("tests/data/replay/breakdown.csv"), &to, &t, &d), CS_OK);
    cs_diags_fini(&d);
    ck_assert_uint_eq(t.n, 6);
    struct cs_sched_config c;
    one_group(&c, 1, 8);
    c.keep_times = true;
    c.timeline_bins = 37; /* makespan 3700 s: bins of 100 s */
    struct cs_sched_result r;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_OK);
    cs_diags_fini(&d);
    ck_assert_int_eq(r.completed, 5);
    ck_assert_double_eq_tol(r.makespan_s, 3700, 1e-9);
    struct cs_replay_stats st;
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 2, &st), CS_OK);
    const double tol = 1e-9;
    /* size classes */
    const struct cs_rstat_group *one = &st.size[1], *node = &st.size[2], *frac = &st.size[0], *big = &st.size[3];
    ck_assert_str_eq(one->name, "1");
    ck_assert_int_eq(one->jobs, 2);
    ck_assert_double_eq_tol(one->queue_s.mean, 90, tol);
    ck_assert_double_eq_tol(one->queue_s.p50, 90, tol);
    ck_assert_double_eq_tol(one->queue_s.p95, 99, tol);
    ck_assert_double_eq_tol(one->jct_s.mean, 1915, tol);
    ck_assert_double_eq_tol(one->jct_s.p95, 3503.5, tol);
    ck_assert_double_eq_tol(one->gpu_hours, 3650.0 / 3600, tol);
    ck_assert_int_eq(node->jobs, 2);
    ck_assert_double_eq_tol(node->queue_s.p95, 85.5, tol);
    ck_assert_double_eq_tol(node->jct_s.mean, 110, tol);
    ck_assert_double_eq_tol(node->jct_s.p95, 119, tol);
    ck_assert_double_eq_tol(node->gpu_hours, 860.0 / 3600, tol);
    ck_assert_int_eq(frac->completed, 1);
    ck_assert_double_eq_tol(frac->gpu_hours, 100.0 / 3600, tol);
    ck_assert_double_eq_tol(frac->jct_s.p50, 100, tol);
    ck_assert_int_eq(big->jobs, 1);
    ck_assert_int_eq(big->rejected, 1);
    ck_assert(isnan(big->queue_s.mean) && isnan(big->jct_s.p95));
    ck_assert_int_eq(st.size[4].jobs + st.size[5].jobs, 0);
    /* the classes add up to the replay's totals */
    long jobs = 0;
    double gh = 0, share = 0;
    for (int k = 0; k < CS_RSTAT_N_SIZES; k++) {
        jobs += st.size[k].completed;
        gh += st.size[k].gpu_hours;
        share += st.size[k].share;
    }
    ck_assert_int_eq(jobs, r.completed);
    ck_assert_double_eq_tol(gh, r.allocated_gpu_h, 1e-9);
    ck_assert_double_eq_tol(share, 1, 1e-12);
    /* users: carol, alice, then bob as "others" */
    ck_assert(st.users.named);
    ck_assert_uint_eq(st.users.n, 3);
    ck_assert_str_eq(st.users.groups[0].name, "carol");
    ck_assert_str_eq(st.users.groups[1].name, "alice");
    ck_assert_int_eq(st.users.groups[1].rejected, 1);
    ck_assert_double_eq_tol(st.users.groups[0].queue_s.p95, 76, tol); /* 0, 80: 0.95 x 80 */
    ck_assert_double_eq_tol(st.users.groups[0].jct_s.p95, 3501, tol); /* 100, 3680 */
    ck_assert_uint_eq(st.users.n_others, 1);
    ck_assert_str_eq(st.users.others.name, "(others)");
    ck_assert_int_eq(st.users.others.jobs, 2);
    ck_assert_double_eq_tol(st.users.others.gpu_hours, 110.0 / 3600, tol);
    ck_assert_double_eq_tol(st.users.others.queue_s.mean, 95, tol);   /* 100, 90 */
    ck_assert_double_eq_tol(st.users.others.jct_s.p50, 135, tol);     /* 120, 150 */
    /* partitions: the trace's (no scheduler partitions) */
    ck_assert(!st.parts_from_scheduler);
    const struct cs_rstat_group *dev = NULL;
    for (size_t i = 0; i < st.parts.n; i++)
        if (strcmp(st.parts.groups[i].name, "dev") == 0)
            dev = &st.parts.groups[i];
    ck_assert_ptr_nonnull(dev);
    ck_assert_int_eq(dev->jobs, 3);
    ck_assert_double_eq_tol(dev->queue_s.mean, 190.0 / 3, tol);
    ck_assert_double_eq_tol(dev->queue_s.p50, 90, tol);
    ck_assert_double_eq_tol(dev->queue_s.p95, 99, tol);
    ck_assert_double_eq_tol(dev->jct_s.p95, 147, tol);
    ck_assert_str_eq(st.parts.groups[0].name, "(none)"); /* d: 3600 GPU-s, the most */
    /* demand and warnings */
    ck_assert_double_eq_tol(st.demand_gpu_h, 4720.0 / 3600, tol);
    ck_assert_double_eq_tol(st.span_s, 300, tol);
    ck_assert_double_eq_tol(st.window_s, 3620, tol);
    ck_assert_double_eq_tol(st.demand_gpus, 4720.0 / 3620, tol);
    ck_assert_double_eq_tol(st.offered_load, 4720.0 / 3620 / 8, tol);
    ck_assert_double_eq_tol(st.largest_job_gpus, 16, tol);
    ck_assert_int_eq(st.too_large, 1);
    ck_assert_double_eq_tol(st.too_large_gpu_h, 160.0 / 3600, tol);
    ck_assert_int_eq(st.n_warnings, 1);
    ck_assert_str_eq(st.warnings[0].id, "jobs_larger_than_cluster");
    ck_assert_ptr_nonnull(strstr(st.warnings[0].msg, "16 GPUs"));
    /* the demand timeline, bins of 100 s. Bin 0: a 8, b 0.5, c 2 x 0.3,
     * d 0.8 = 9.9; bin 2: d 1 + e 16 x 0.1 = 2.6; bin 3: d + f 0.5 = 1.5;
     * bin 36: d's last 20 s, 0.2. The replay's bin 0: a's 8 GPUs
     * allocated, b (1 GPU, all 100 s), c (2 GPUs, 90 s) and d (1 GPU, 80 s)
     * waiting: 1 + 1.8 + 0.8 = 3.6 */
    ck_assert_int_eq(st.n_bins, 37);
    ck_assert_double_eq_tol(st.demand_bin_gpus[0], 9.9, 1e-9);
    ck_assert_double_eq_tol(st.demand_bin_gpus[1], 1.0, 1e-9);
    ck_assert_double_eq_tol(st.demand_bin_gpus[2], 2.6, 1e-9);
    ck_assert_double_eq_tol(st.demand_bin_gpus[3], 1.5, 1e-9);
    ck_assert_double_eq_tol(st.demand_bin_gpus[36], 0.2, 1e-9);
    ck_assert_double_eq_tol(r.alloc_gpus[0], 8, 1e-9);
    ck_assert_double_eq_tol(r.wait_gpus[0], 3.6, 1e-9);
    ck_assert_double_eq_tol(r.wait_gpus[1], 0, 1e-9);
    cs_replay_stats_fini(&st);
    cs_sched_result_fini(&r);

    /* The same trace on 64 nodes (512 GPUs): nothing waits, e runs.
     * Allocated 800 + 50 + 60 + 3600 + 160 + 100 = 4770 GPU-s over a
     * makespan of 3620 s (d: 20 + 3600): 4770 / (512 x 3620) = 0.26%:
     * under 5%, the cluster is far larger than the demand. */
    one_group(&c, 64, 8);
    c.keep_times = true;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_OK);
    cs_diags_fini(&d);
    ck_assert_double_eq_tol(r.utilization, 4770.0 / (512 * 3620.0), 1e-12);
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_OK);
    ck_assert_int_eq(st.n_warnings, 1);
    ck_assert_str_eq(st.warnings[0].id, "low_utilization");
    ck_assert_ptr_nonnull(strstr(st.warnings[0].msg, "0.26%"));
    ck_assert_uint_eq(st.users.n_others, 0);
    ck_assert_double_eq_tol(st.size[3].queue_s.mean, 0, tol);
    cs_replay_stats_fini(&st);
    /* without keep_times there is nothing to break down */
    free(r.job_queue_s);
    r.job_queue_s = NULL;
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_EINVAL);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* More work than the cluster can do: one GPU, a 20 s job every 10 s from
 * 0 to 40 s. 100 GPU-s over the 60 s the jobs would take without waiting
 * (the last ends at 40 + 20): 1.667 GPUs on 1, offered load 1.667 >
 * 1, overloaded. FIFO starts them at 0, 20, 40, 60, 80: queueing 0, 10,
 * 20, 30, 40, growing with every job (mean 20). Utilization 100 / 100:
 * not low. A short trace of long jobs is not overloaded: 4 jobs of 1 GPU
 * for 1 day submitted within 3 minutes on 8 GPUs need 4 x 86400 / (180 +
 * 86400) = 3.99 GPUs, offered load 0.50, although over their 180 s of
 * arrivals they would be 1920 GPUs. */
START_TEST(test_replay_overload_warning)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s\na,0,1,20\nb,10,1,20\nc,20,1,20\nd,30,1,20\ne,40,1,20\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 1);
    c.keep_times = true;
    struct cs_sched_result r;
    run(&c, &t, &r);
    ck_assert_double_eq_tol(r.queue_s.mean, 20, 1e-9);
    ck_assert_double_eq_tol(r.utilization, 1, 1e-9);
    struct cs_replay_stats st;
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_OK);
    ck_assert_double_eq_tol(st.window_s, 60, 1e-9);
    ck_assert_double_eq_tol(st.offered_load, 100.0 / 60, 1e-9);
    ck_assert_int_eq(st.n_warnings, 1);
    ck_assert_str_eq(st.warnings[0].id, "overloaded");
    ck_assert_ptr_nonnull(strstr(st.warnings[0].msg, "offered load 1.667"));
    ck_assert_ptr_nonnull(strstr(st.warnings[0].msg, "replay_timeline.png"));
    cs_replay_stats_fini(&st);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);

    trace_from("job_id,submit_s,gpus,duration_s\na,0,1,86400\nb,60,1,86400\nc,120,1,86400\nd,180,1,86400\n", &t);
    one_group(&c, 1, 8);
    c.keep_times = true;
    run(&c, &t, &r);
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_OK);
    ck_assert_double_eq_tol(st.offered_load, 4 * 86400.0 / (180 + 86400) / 8, 1e-12);
    ck_assert_int_eq(st.n_warnings, 0); /* utilization 4 x 86400 / (8 x 86580) = 49.9% */
    cs_replay_stats_fini(&st);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);

    /* Near saturation: 10 + 9 GPU-s over the 20 s window (b ends at 11 +
     * 9) on one GPU: offered load 0.95, in (0.9, 1]; the elasticity of
     * queueing in the load is 1 / (1 - 0.95) = 20. */
    trace_from("job_id,submit_s,gpus,duration_s\na,0,1,10\nb,11,1,9\n", &t);
    one_group(&c, 1, 1);
    c.keep_times = true;
    run(&c, &t, &r);
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_OK);
    ck_assert_double_eq_tol(st.offered_load, 0.95, 1e-12);
    ck_assert_int_eq(st.n_warnings, 1);
    ck_assert_str_eq(st.warnings[0].id, "near_saturation");
    ck_assert_ptr_nonnull(strstr(st.warnings[0].msg, "by about 20%"));
    cs_replay_stats_fini(&st);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* Partitions configured: the breakdown is by the scheduler's partitions,
 * in their order. Two 1-GPU jobs on one GPU: x (dev) 0-10 s, y (prod)
 * waits 10 s. */
START_TEST(test_replay_breakdown_scheduler_partitions)
{
    struct cs_trace t;
    trace_from("job_id,submit_s,gpus,duration_s,user,partition\nx,0,1,10,u,dev\ny,0,1,10,u,prod\n", &t);
    struct cs_sched_config c;
    one_group(&c, 1, 1);
    c.keep_times = true;
    c.n_partitions = 2;
    snprintf(c.partitions[0].name, sizeof c.partitions[0].name, "prod");
    snprintf(c.partitions[1].name, sizeof c.partitions[1].name, "dev");
    c.partitions[0].quota = c.partitions[1].quota = NAN;
    struct cs_sched_result r;
    run(&c, &t, &r);
    struct cs_replay_stats st;
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_OK);
    ck_assert(st.parts_from_scheduler);
    ck_assert(!st.parts.ranked);
    ck_assert_uint_eq(st.parts.n, 2);
    ck_assert_str_eq(st.parts.groups[0].name, "prod");
    ck_assert_str_eq(st.parts.groups[1].name, "dev");
    ck_assert_double_eq_tol(st.parts.groups[0].queue_s.mean, 10, 1e-9);
    ck_assert_double_eq_tol(st.parts.groups[1].queue_s.mean, 0, 1e-9);
    cs_replay_stats_fini(&st);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("invariants");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_replay_ample_capacity_no_queueing);
    tcase_add_test(tc, test_replay_one_gpu_fifo_running_sums);
    tcase_add_test(tc, test_replay_arrivals_out_of_trace_order);
    tcase_add_test(tc, test_replay_backfill_vs_fifo);
    tcase_add_test(tc, test_replay_quota_caps_partition);
    tcase_add_test(tc, test_replay_preemption);
    tcase_add_test(tc, test_replay_mig_slices);
    tcase_add_test(tc, test_replay_gang_and_types);
    tcase_add_test(tc, test_replay_gpu_hours_conserved);
    tcase_add_test(tc, test_replay_backfill_reserves_by_shape);
    tcase_add_test(tc, test_replay_scheduler_section);
    tcase_add_test(tc, test_replay_scheduler_bad_input);
    tcase_add_test(tc, test_replay_partition_rules);
    tcase_add_test(tc, test_replay_many_trace_partitions);
    tcase_add_test(tc, test_replay_many_gpu_types);
    tcase_add_test(tc, test_replay_limits_refused);
    tcase_add_test(tc, test_replay_claim_verdicts);
    tcase_add_test(tc, test_replay_mig_slices_per_gpu);
    tcase_add_test(tc, test_replay_claim_scenarios_load);
    tcase_add_test(tc, test_replay_breakdowns);
    tcase_add_test(tc, test_replay_breakdown_scheduler_partitions);
    tcase_add_test(tc, test_replay_overload_warning);
    suite_add_tcase(s, tc);
    TCase *sc = tcase_create("scale");
    tcase_set_timeout(sc, 120);
    tcase_add_test(sc, test_replay_index_same_as_walk);
    tcase_add_test(sc, test_replay_pass_does_not_rescan);
    tcase_add_test(sc, test_replay_budget);
    suite_add_tcase(s, sc);
    TCase *fab = tcase_create("fabric");
    tcase_set_timeout(fab, 120);
    tcase_add_test(fab, test_replay_uplink_contention);
    tcase_add_test(fab, test_replay_strtab_nul_key);
    suite_add_tcase(s, fab);
    TCase *real = tcase_create("real");
    tcase_set_timeout(real, 120);
    tcase_add_test(real, test_replay_real_traces);
    suite_add_tcase(s, real);
    return s;
}

int main(void) { return cs_test_run(suite()); }
