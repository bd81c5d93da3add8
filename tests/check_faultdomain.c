/* check_faultdomain.c: fault domains of the run model (models/run.c,
 * models/failure.c, docs/run.md "Fault domains"): leaf and spine units from
 * the built topology, a leaf event with spares in the same leaf or apart,
 * the degraded fabric of a spine failure, a storage outage (stall and
 * continue), the maintenance kinds, and bad inputs with file:line. Every
 * expected value is derived by hand in the comment above its test. */
#include "clustersim/base/csv.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/failure.h"
#include "clustersim/models/run.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 16 or 64 nodes of 8 H100 on a two-tier spine-leaf of NDR InfiniBand
 * (64-port switches, 8 NICs a node), one Lustre tier; no failures yet. */
static const char *const head =
    "schema_version: 1\nseed: 5\n"
    "cluster:\n  gpu: H100-SXM5-80GB\n  nodes: %d\n  gpus_per_node: 8\n  intra_node: nvswitch\n"
    "  fabric: {topology: %s, link: ib-ndr, nics_per_node: 8}\n"
    "  storage:\n    - {name: lustre, aggregate_bw: 200GB/s}\n"
    "workload:\n  model: {preset: llama3.1-8b}\n  parallelism: {tp: 8, pp: 1, dp: %d, fsdp: zero1}\n"
    "  global_batch: %d\n  micro_batch: 1\n";

static cs_catalog *cat;

static cs_status load_topo(const char *failures, int nodes, const char *topo, cs_diags *d, struct cs_scenario *s)
{
    char y[4096];
    int n = snprintf(y, sizeof y, head, nodes, topo, nodes, nodes * 8);
    snprintf(y + n, sizeof y - (size_t)n, "%s", failures);
    return cs_cfg_load_scenario_buffer("fd.yaml", y, strlen(y), cat, d, s, NULL);
}

static cs_status load(const char *failures, int nodes, cs_diags *d, struct cs_scenario *s)
{
    return load_topo(failures, nodes, "spine-leaf", d, s);
}

static struct cs_step_result step_of(double time_s, double exposed_net_s)
{
    struct cs_step_result r;
    memset(&r, 0, sizeof r);
    r.fits = true;
    r.time_s = time_s;
    r.tokens_per_s = 1e5;
    r.exposed_comm_s = exposed_net_s;
    return r;
}

static bool has(const cs_diags *d, int line, const char *text)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->items[i].line == line && strstr(d->items[i].msg, text))
            return true;
    return false;
}

/* Units from the built fabric. 64 nodes x 8 NICs = 512 NIC ports; a 64-port
 * leaf at oversubscription 1 has 32 down and 32 up ports, so 512 / 32 = 16
 * leaves of 32 / 8 = 4 nodes, and ceil(16 x 32 / 64) = 8 spines. A leaf
 * class at 1,600 h per leaf gives the job 16 / 1,600 h = one per 100 h; a
 * spine class at 800 h per spine 8 / 800 h = one per 100 h: MTBI 50 h. A
 * storage outage class does not interrupt: the MTBI stays 50 h. */
START_TEST(test_fd_units_from_topology)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load("failures:\n  components:\n"
                          "    - {name: tor, scope: leaf, mtbf: 1600h}\n"
                          "    - {name: spine, scope: spine, mtbf: 800h}\n"
                          "    - {name: fs, scope: storage, mtbf: 100h, repair: 1h}\n"
                          "run: {duration: 10d}\n",
                          64, &d, &s),
                     CS_OK);
    struct cs_step_result st = step_of(1, 0);
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_prepare(&s, &st, NULL, &d, &r), CS_OK);
    ck_assert_int_eq(r.dom.leaves, 16);
    ck_assert_int_eq(r.dom.nodes_per_leaf, 4);
    ck_assert_int_eq(r.dom.spines, 8);
    ck_assert_int_eq(cs_fail_domain_nodes_out(&r.dom, CS_SCOPE_LEAF), 4);
    ck_assert_double_eq_tol(r.mtbi_s, 50 * 3600.0, 1e-6);
    /* Rail-optimized (docs/fabric.md section 2): a scalable unit of
     * min(32, 32 down ports) = 32 nodes has one leaf per rail, NIC i of
     * every node on rail leaf i: 64 nodes = 2 units x 8 rails = 16 leaves,
     * and one leaf failure takes a rail from all 32 nodes of its unit. */
    struct cs_scenario sr;
    ck_assert_int_eq(load_topo("failures:\n  components:\n    - {name: tor, scope: leaf, mtbf: 1600h}\n"
                               "run: {duration: 10d}\n",
                               64, "rail-optimized", &d, &sr),
                     CS_OK);
    ck_assert_int_eq(cs_run_prepare(&sr, &st, NULL, &d, &r), CS_OK);
    ck_assert_int_eq(r.dom.leaves, 16);
    ck_assert_int_eq(r.dom.nodes_per_leaf, 32);
    ck_assert_int_eq(cs_fail_domain_nodes_out(&r.dom, CS_SCOPE_LEAF), 32);
    ck_assert_double_eq_tol(r.mtbi_s, 100 * 3600.0, 1e-6);
    cs_scenario_fini(&sr);
    /* spares_per_rack in liquid-cooled racks: 42 U / 8 U = 5 nodes of
     * 10.08 kW fit a 130 kW rack, so 16 nodes sit in ceil(16 / 5) = 4 racks
     * and 2 spares per rack make a pool of 8, placed spread. */
    struct cs_scenario sp;
    ck_assert_int_eq(load("failures:\n  spares_per_rack: 2\n  components:\n"
                          "    - {name: pdu, scope: rack, mtbf: 1000h}\n"
                          "facility: {cooling: liquid}\nrun: {duration: 10d}\n",
                          16, &d, &sp),
                     CS_OK);
    ck_assert_int_eq(sp.failures.spares_placement, CS_SPARES_SPREAD);
    ck_assert_int_eq(cs_run_prepare(&sp, &st, NULL, &d, &r), CS_OK);
    ck_assert_int_eq(r.dom.nodes_per_rack, 5);
    ck_assert_int_eq(cs_fail_domain_units(&r.dom, CS_SCOPE_RACK), 4);
    ck_assert_int_eq(r.spares, 8);
    ck_assert_double_eq_tol(r.mtbi_s, 250 * 3600.0, 1e-6);
    cs_scenario_fini(&sp);
    /* A job of 4 nodes sits under one leaf: it has 1 leaf and no spine. */
    struct cs_scenario s4;
    ck_assert_int_eq(load("failures:\n  components:\n"
                          "    - {name: tor, scope: leaf, mtbf: 1600h}\n"
                          "    - {name: spine, scope: spine, mtbf: 800h}\n"
                          "run: {duration: 10d}\n",
                          4, &d, &s4),
                     CS_OK);
    ck_assert_int_eq(cs_run_prepare(&s4, &st, NULL, &d, &r), CS_OK);
    ck_assert_int_eq(r.dom.leaves, 1);
    ck_assert_int_eq(r.dom.spines, 0);
    ck_assert_double_eq_tol(r.mtbi_s, 1600 * 3600.0, 1e-6);
    cs_scenario_fini(&s4);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
}
END_TEST

/* A leaf event with spares in the same leaf or not. 16 nodes: 128 NIC
 * ports / 32 = 4 leaves of 4 nodes. A leaf event takes its 4 nodes out for
 * the 4 h repair, so the job needs 4 spares to restart at once (detection
 * 5 min + restart 10 min = 900 s). (a) 4 spares apart (separate): 4 >= 4,
 * every event restarts in 900 s (unless a second leaf fails within a
 * repair: MTBI 1,000 h, so rarely). (b) the same 4 spares spread, one in
 * every leaf (spare i beside node floor((i + 1/2) 16 / 4) = 2, 6, 10, 14):
 * the failed leaf takes its own spare, 3 < 4 are left, and the first event
 * always waits for the repair: 4 h + the 10 min restart = 15,000 s; later
 * events wait when the leaf that failed holds more job nodes than the free
 * spares (at least 1 in 4 of them), so the mean wait per interruption is
 * at least 0.25 x 15,000 + 0.75 x 900 = 4,425 s. (c) 8 spread (two per
 * leaf): 8 - 2 = 6 >= 4, covered again, 900 s. */
START_TEST(test_fd_leaf_spares_same_leaf_or_not)
{
    cs_diags d;
    cs_diags_init(&d);
    const char *fmt = "failures:\n  detection: 5min\n  restart: 10min\n  spares: %d\n"
                      "  spares_placement: %s\n  components:\n"
                      "    - {name: tor, scope: leaf, mtbf: 4000h, repair: 4h}\n"
                      "run: {duration: 3000h, replicas: 300}\n";
    const int spares[3] = {4, 4, 8};
    const char *place[3] = {"separate", "spread", "spread"};
    double per[3], lost_spares[3];
    struct cs_step_result st = step_of(1, 0);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    for (int k = 0; k < 3; k++) {
        char f[512];
        snprintf(f, sizeof f, fmt, spares[k], place[k]);
        struct cs_scenario s;
        ck_assert_int_eq(load(f, 16, &d, &s), CS_OK);
        struct cs_run_result r;
        ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
        ck_assert_double_eq_tol(r.mtbi_s, 1000 * 3600.0, 1e-6);
        ck_assert(r.by_scope[CS_SCOPE_LEAF].mean > 1.5);
        ck_assert_double_eq_tol(r.by_scope[CS_SCOPE_LEAF].mean, r.interruptions.mean, 1e-12);
        per[k] = r.downtime_s.mean / r.interruptions.mean;
        lost_spares[k] = r.spares_lost.mean;
        /* the leaf's lost time is its work rolled back and its downtime */
        ck_assert_double_eq_tol(r.lost_by_scope_s[CS_SCOPE_LEAF].mean, r.lost_work_s.mean + r.downtime_s.mean,
                                1e-6 * r.lost_by_scope_s[CS_SCOPE_LEAF].mean);
        cs_scenario_fini(&s);
    }
    printf("leaf event: downtime per interruption %.0f s (4 apart), %.0f s (4 spread), %.0f s (8 spread)\n",
           per[0], per[1], per[2]);
    ck_assert(per[0] >= 900 - 1e-6 && per[0] < 1.2 * 900);
    ck_assert(per[1] > 4425 * 0.9);
    ck_assert(per[2] >= 900 - 1e-6 && per[2] < 1.2 * 900);
    ck_assert(lost_spares[0] == 0 && lost_spares[1] > 0 && lost_spares[2] > 0);
    cs_diags_fini(&d);
}
END_TEST

/* A spine failure: an interruption (NCCL timeout), then the job runs on 7
 * of 8 spines until the repair. With a 1 s step of which 0.4 s is exposed
 * scale-out communication, the step becomes 1 + 0.4 x (8/7 - 1) = 1.05714 s:
 * rate 0.945946 (the stretchable part: exposed communication, and all of
 * DP's when some of it is exposed). Each event: 900 s down (restore 0: no checkpoint), then
 * degraded for the rest of the 2 h repair, 7,200 - 900 = 6,300 s, costing
 * 6,300 x (1 - 0.945946) = 340.5 s of work. The spine's lost time = work
 * rolled back + downtime + that. */
START_TEST(test_fd_spine_degraded_by_hand)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load("failures:\n  detection: 5min\n  restart: 10min\n  components:\n"
                          "    - {name: spine, scope: spine, mtbf: 1600h, repair: 2h}\n"
                          "run: {duration: 2000h, replicas: 200}\n",
                          64, &d, &s),
                     CS_OK);
    struct cs_step_result st = step_of(1, 0.4);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    struct cs_run_result r;
    ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
    ck_assert_double_eq_tol(r.mtbi_s, 200 * 3600.0, 1e-6);
    double n = r.by_scope[CS_SCOPE_SPINE].mean;
    ck_assert(n > 5);
    double deg = r.spine_degraded_s.mean / n;
    double extra = (r.lost_by_scope_s[CS_SCOPE_SPINE].mean - r.lost_work_s.mean - r.downtime_s.mean) / n;
    printf("spine: %.2f per run, degraded %.0f s each (by hand 6,300), %.1f s of work each (340.5)\n", n, deg,
           extra);
    ck_assert(fabs(deg / 6300 - 1) < 0.05);
    ck_assert(fabs(extra / 340.5 - 1) < 0.05);
    /* Exposed DP communication fills its overlap window: all of it
     * stretches. 0.4 s exposed of which 0.1 s DP out of 0.3 s in all: the
     * stretchable part is 0.4 + (0.3 - 0.1) = 0.6 s. Hidden DP (0 exposed)
     * adds nothing. */
    struct cs_step_result st2 = step_of(1, 0.4);
    st2.dp_comm_s = 0.1;
    st2.dp_comm_total_s = 0.3;
    struct cs_run_result r2;
    ck_assert_int_eq(cs_run_prepare(&s, &st2, NULL, &d, &r2), CS_OK);
    ck_assert_double_eq_tol(r2.net_exposed_s, 0.6, 1e-12);
    st2.dp_comm_s = 0;
    ck_assert_int_eq(cs_run_prepare(&s, &st2, NULL, &d, &r2), CS_OK);
    ck_assert_double_eq_tol(r2.net_exposed_s, 0.4, 1e-12);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
}
END_TEST

/* A checkpoint-tier outage of 2 h, checkpoints every hour of training, no
 * other failure. The outage starts at a uniform phase of the checkpoint
 * cycle, so the next checkpoint falls U(0, 1 h) into it. stall: the job
 * blocks there until the tier is back: 2 - 0.5 = 1.5 h per outage on
 * average, no interruption. continue: it trains on and skips the 2
 * checkpoints due in the 2 h (on average exactly D / T = 2). */
START_TEST(test_fd_storage_outage_by_hand)
{
    cs_diags d;
    cs_diags_init(&d);
    const char *fmt = "failures:\n  storage_outage: %s\n  components:\n"
                      "    - {name: fs, scope: storage, mtbf: 400h, repair: 2h}\n"
                      "checkpoint: {interval: 1h, mode: sync, tier: lustre}\n"
                      "run: {duration: 4000h, replicas: 100}\n";
    struct cs_step_result st = step_of(1, 0);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    struct cs_run_result r[2];
    const char *pol[2] = {"stall", "continue"};
    for (int k = 0; k < 2; k++) {
        char f[512];
        snprintf(f, sizeof f, fmt, pol[k]);
        struct cs_scenario s;
        ck_assert_int_eq(load(f, 4, &d, &s), CS_OK);
        ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r[k]), CS_OK);
        ck_assert(isinf(r[k].mtbi_s));
        ck_assert_double_eq_tol(r[k].interruptions.mean, 0, 1e-12);
        ck_assert(r[k].storage_outages.mean > 5);
        cs_scenario_fini(&s);
    }
    double stall = r[0].storage_stall_s.mean / r[0].storage_outages.mean;
    double skipped = r[1].checkpoints_skipped.mean / r[1].storage_outages.mean;
    printf("storage: stall %.0f s per outage (by hand 5,400), %.2f checkpoints skipped (2)\n", stall, skipped);
    ck_assert(fabs(stall / 5400 - 1) < 0.08);
    ck_assert(fabs(skipped / 2 - 1) < 0.08);
    ck_assert_double_eq_tol(r[1].storage_stall_s.mean, 0, 1e-12);
    ck_assert_double_eq_tol(r[0].lost_by_scope_s[CS_SCOPE_STORAGE].mean, r[0].storage_stall_s.mean, 1e-6);
    cs_diags_fini(&d);
}
END_TEST

/* Maintenance kinds by hand: 60 h of training, a window every 24 h of wall
 * clock, no checkpoints. drained (2 nodes, unlimited spares): at once
 * without checkpoints, a planned 15 min restart each, no stop: windows at
 * 24 h and 48 h, done at 60 + 2 x 0.25 = 60.5 h. scheduled for 2 h: 64.5 h
 * (docs/run.md). drain: false maps to restart-required: without a
 * checkpoint every window rolls back to zero, so 60 h never fit between
 * two windows: the run ends only after the replica's horizon (3 x 60 h here,
 * past which no window is drawn), having lost over 24 h to maintenance. */
START_TEST(test_fd_maintenance_kinds)
{
    cs_diags d;
    cs_diags_init(&d);
    const char *fmt = "failures:\n  detection: 5min\n  restart: 15min\n"
                      "  maintenance: {interval: 24h, duration: 2h, %s}\n"
                      "  components: []\n";
    const char *kinds[3] = {"kind: drained, nodes: 2", "kind: scheduled", "drain: false"};
    double want[2] = {60.5 * 3600, 64.5 * 3600};
    struct cs_step_result st = step_of(1, 0);
    for (int k = 0; k < 3; k++) {
        char f[512];
        snprintf(f, sizeof f, fmt, kinds[k]);
        struct cs_scenario s;
        ck_assert_int_eq(load(f, 4, &d, &s), CS_OK);
        s.workload.tokens = 60 * 3600 * 1e5;
        s.run.replicas = 1;
        struct cs_run_options o;
        cs_run_options_default(&o);
        o.max_wall_factor = 3;
        struct cs_run_result r;
        ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
        if (k < 2) {
            ck_assert_int_eq(s.failures.maint_kind, k == 0 ? CS_MAINT_DRAINED : CS_MAINT_SCHEDULED);
            ck_assert_double_eq_tol(r.time_to_train_s.mean, want[k], 1e-6);
            ck_assert_double_eq_tol(r.maintenances.mean, 2, 1e-12);
            ck_assert_double_eq_tol(r.lost_work_s.mean, 0, 1e-9);
            /* charged to maintenance: 2 x the 15 min restart (drained), 2 x
             * (2 h + 15 min) (scheduled) */
            ck_assert_double_eq_tol(r.lost_by_scope_s[CS_RUN_LOST_MAINT].mean, k == 0 ? 1800 : 16200, 1e-6);
        } else {
            ck_assert_int_eq(s.failures.maint_kind, CS_MAINT_RESTART);
            ck_assert(r.time_to_train_s.mean > 180 * 3600.0);
            ck_assert(r.lost_by_scope_s[CS_RUN_LOST_MAINT].mean > 24 * 3600);
        }
        cs_scenario_fini(&s);
    }
    cs_diags_fini(&d);
}
END_TEST

/* Bad inputs: each error names the file, the line and the key. */
START_TEST(test_fd_bad_inputs)
{
    struct {
        const char *yaml;
        int line;
        const char *text;
    } bad[] = {
        {"failures:\n  spares: 4\n  spares_per_rack: 1\n", 18, "give spares (a count) or spares_per_rack"},
        {"failures:\n  spares_placement: spread\n", 17, "spread places a pool of spares, but spares is -1"},
        {"failures:\n  maintenance: {interval: 24h, kind: drained, drain: false}\n", 17,
         "drain: false contradicts kind: drained"},
        {"failures:\n  maintenance: {interval: 24h, nodes: 2}\n", 17, "only a drained maintenance takes nodes out"},
        {"failures:\n  storage_outage: wait\n", 17, "storage_outage"},
        {"failures:\n  components:\n    - {name: x, scope: spines, mtbf: 10h}\n", 18, "scope"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cs_diags d;
        cs_diags_init(&d);
        struct cs_scenario s;
        ck_assert_int_eq(load(bad[i].yaml, 4, &d, &s), CS_ECONFIG);
        if (!has(&d, bad[i].line, bad[i].text)) {
            for (size_t k = 0; k < d.n; k++)
                printf("case %zu: %s:%d: %s\n", i, d.items[k].file, d.items[k].line, d.items[k].msg);
        }
        ck_assert(has(&d, bad[i].line, bad[i].text));
        cs_diags_fini(&d);
    }
}
END_TEST

/* A job of `nodes` x gpn GPUs with the classes derived from the Llama 3
 * table (the fit), sync checkpoints of `block_s` from one node at 8 GB/s
 * every `interval_s`, for `days`: built in code (no catalog), as
 * tests/check_run.c builds its scenarios. */
static void study_setup(struct cs_scenario *s, int nodes, int gpn, double days, double det_s, double restart_s,
                        double interval_s, double block_s)
{
    cs_test_run_scenario(s, 2025, nodes, gpn);
    s->failures.enabled = true;
    cs_fail_llama3_defaults(&s->failures);
    s->failures.detection_s = det_s;
    s->failures.restart_s = restart_s;
    s->failures.spares = -1;
    s->failures.repair_s = 86400;
    s->failures.nodes_per_rack = 1;
    s->failures.maint_interval_s = s->failures.strag_mtbf_s = NAN;
    s->checkpoint.enabled = true;
    s->checkpoint.mode = CS_CKPT_SYNC;
    s->checkpoint.interval_s = interval_s;
    s->checkpoint.size_bytes = block_s * 8e9; /* one writer node at 8 GB/s */
    s->checkpoint.snapshot_bw_bytes_per_s = NAN;
    strcpy(s->checkpoint.tier, "pfs1");
    s->run.enabled = true;
    s->run.duration_s = days * 86400;
    s->run.replicas = 40;
}

/* Validation against published failure studies held out from the rates
 * (validation/failures/holdout-failure-studies.csv, role holdout in
 * validation/INDEX.yaml; sources in validation/failures/SOURCES.md). Each
 * row's setup runs with the Llama 3-derived classes; the published figure
 * is compared with the row's tolerance (fixed with the role, before the
 * first comparison) and the verdict must be the one pinned in `expect`:
 * misses are reported, not hidden, and a model change that flips a verdict
 * fails here. A missing or empty table fails too. */
START_TEST(test_fd_validation_holdout_studies)
{
    FILE *f = fopen(cs_test_data("validation/failures/holdout-failure-studies.csv"), "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    int rows = 0, within = 0;
    bool header = false;
    struct cs_step_result st = step_of(1, 0);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    printf("%-28s %-13s %10s %10s %9s %-8s\n", "study", "quantity", "published", "model", "error", "verdict");
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!header) {
            header = true; /* the column names */
            continue;
        }
        char id[64], study[128], qty[32], cmp[16], expect[16];
        double pub, tol, days, det, rst, ival, blk;
        int gpus, gpn;
        int n = sscanf(line, "%63[^,],%127[^,],%31[^,],%lf,%15[^,],%lf,%15[^,],%d,%d,%lf,%lf,%lf,%lf,%lf", id, study,
                       qty, &pub, cmp, &tol, expect, &gpus, &gpn, &days, &det, &rst, &ival, &blk);
        ck_assert_int_eq(n, 14);
        struct cs_scenario s;
        study_setup(&s, gpus / gpn, gpn, days, det, rst, ival, blk);
        cs_diags d;
        cs_diags_init(&d);
        struct cs_run_result r;
        ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
        cs_diags_fini(&d);
        double model = !strcmp(qty, "mttf_h")          ? days * 24 / r.interruptions.mean
                       : !strcmp(qty, "ettr")          ? r.goodput.mean * 100
                       : !strcmp(qty, "interruptions") ? r.interruptions.mean
                                                       : NAN;
        ck_assert(isfinite(model));
        bool ok;
        double err;
        if (!strcmp(cmp, "ratio")) {
            err = model / pub - 1;
            ok = fmax(model / pub, pub / model) <= tol;
        } else if (!strcmp(cmp, "points")) {
            err = model - pub;
            ok = fabs(err) <= tol;
        } else {
            ck_assert_str_eq(cmp, "at_least");
            err = model - pub;
            ok = model >= pub;
        }
        printf("%-28s %-13s %10.3g %10.3g %+8.1f%s %-8s\n", id, qty, pub, model,
               !strcmp(cmp, "ratio") ? err * 100 : err, !strcmp(cmp, "ratio") ? "%" : " ",
               ok ? "within" : "miss");
        fflush(stdout);
        ck_assert_str_eq(ok ? "within" : "miss", expect);
        rows++;
        within += ok;
    }
    fclose(f);
    printf("failure studies: %d of %d within tolerance\n", within, rows);
    ck_assert_int_ge(rows, 7);
}
END_TEST

/* Validation of the interruption breakdown by cause against held-out
 * failure studies (validation/failures/holdout-interruption-breakdowns.csv,
 * role holdout; the category mapping of both sides was written in
 * validation/failures/SOURCES.md, "interruption breakdowns", before this
 * test first ran). The model's 18 Llama 3 classes fall into gpu, network,
 * host and software (cat_of below, the table of SOURCES.md); both studies
 * count infrastructure faults of nodes, not the training job's software,
 * so the shares are over gpu + network + host on both sides (the model's
 * software classes and the study's `excluded` categories leave the
 * denominators).
 *
 * By hand, the model's expected shares: GPU classes have MTBF 16,384 x
 * 1,296 h / n_i per GPU and node classes 2,048 x 1,296 h / n_i per node,
 * so on N nodes of g GPUs a GPU class interrupts at g N n_i / (16,384 x
 * 1,296 h) and a node class at N n_i / (2,048 x 1,296 h): at g = 8 both are
 * N n_i / (2,048 x 1,296 h), the shares are the table's counts, and N
 * cancels. gpu = 148+72+19+17+6+6 = 268, network = 35+7+7 = 49, host =
 * 32+3+3+2+2+2+2 = 46, software 54+2 = 56 (left out): over 363, gpu
 * 73.83%, network 13.50%, host 12.67%. Every interruption is counted
 * (failures during a restart too), so the simulated shares converge to
 * these: 400 nodes x 348 days x 40 replicas (~18,000 of these classes, a
 * standard error under 0.3 points) must land within 1 point of them.
 *
 * The studies' shares (sums of the CSV rows): StepFun over 322 attributed
 * faults: gpu 158 = 49.07%, network 40+30 = 21.74%, host 70+24 = 29.19%;
 * Crusoe: gpu 19.5+41.5 = 61.0%, network 4.9+12.2+17 = 34.1%, host 4.9%.
 * Tolerance fixed beforehand: 10 percentage points per category. The
 * verdicts pinned below are those that arithmetic gives (gpu +24.8 / +12.8,
 * network -8.2 / -20.6, host -16.5 / +7.8 points), confirmed by the first
 * run (simulated: +24.8 / +12.9, -8.5 / -20.9, -16.3 / +8.0): 2 of 6 within.
 * Misses are reported, not tuned away; a model change
 * that flips one fails here, and so does a missing or changed table. */
static const char *cat_of(const char *component)
{
    static const char *const map[][2] = {
        {"Faulty GPU", "gpu"},
        {"GPU HBM3 memory", "gpu"},
        {"GPU SRAM memory", "gpu"},
        {"GPU system processor", "gpu"},
        {"Silent data corruption", "gpu"},
        {"GPU thermal interface + sensor", "gpu"},
        {"Network switch/cable", "network"},
        {"NIC", "network"},
        {"NCCL watchdog timeouts", "network"},
        {"Host maintenance", "host"},
        {"SSD", "host"},
        {"Power supply", "host"},
        {"Server chassis", "host"},
        {"IO expansion board", "host"},
        {"CPU", "host"},
        {"System memory", "host"},
        {"Software bug", "software"},
        {"Dependency", "software"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i][0], component))
            return map[i][1];
    return NULL;
}

enum { BD_GPU, BD_NET, BD_HOST, BD_N };
static const char *const bd_cat[BD_N] = {"gpu", "network", "host"};

static int bd_index(const char *name)
{
    for (int c = 0; c < BD_N; c++)
        if (!strcmp(name, bd_cat[c]))
            return c;
    return -1;
}

START_TEST(test_fd_validation_holdout_breakdowns)
{
    static const struct {
        const char *study;
        const char *expect[BD_N]; /* gpu, network, host */
    } pins[] = {
        {"stepfun", {"miss", "within", "miss"}},
        {"crusoe", {"miss", "miss", "within"}},
    };
    enum { NS = sizeof pins / sizeof pins[0] };
    const double tol_pt = 10;
    double sum[NS][BD_N] = {{0}}, excluded[NS] = {0};
    int gpn[NS] = {0}, rows = 0;

    FILE *f = fopen(cs_test_data("validation/failures/holdout-interruption-breakdowns.csv"), "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    bool header = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *fl[12];
        int n = cs_csv_split_inplace(line, fl, NULL, 12, NULL);
        ck_assert_int_eq(n, 10);
        if (!header) {
            header = true;
            ck_assert_str_eq(fl[0], "study");
            ck_assert_str_eq(fl[6], "value");
            ck_assert_str_eq(fl[9], "category");
            continue;
        }
        int k = -1;
        for (int i = 0; i < NS; i++)
            if (!strcmp(fl[0], pins[i].study))
                k = i;
        ck_assert_msg(k >= 0, "study %s has no pinned verdicts", fl[0]);
        int g = atoi(fl[3]);
        ck_assert(g > 0 && (gpn[k] == 0 || gpn[k] == g));
        gpn[k] = g;
        char *end;
        double v = strtod(fl[6], &end);
        ck_assert(*end == 0 && v >= 0);
        ck_assert(!strcmp(fl[7], "count") || !strcmp(fl[7], "percent"));
        if (!strcmp(fl[9], "excluded")) {
            excluded[k] += v;
        } else {
            int c = bd_index(fl[9]);
            ck_assert_msg(c >= 0, "category %s", fl[9]);
            sum[k][c] += v;
        }
        rows++;
    }
    fclose(f);
    ck_assert_int_eq(rows, 28); /* 22 StepFun classes, 6 Crusoe causes */
    /* The transcription adds up: StepFun's 584 faults (298 hardware, 24
     * software, 262 other), Crusoe's percentages to 100. */
    ck_assert_double_eq_tol(sum[0][BD_GPU] + sum[0][BD_NET] + sum[0][BD_HOST] + excluded[0], 584, 1e-9);
    ck_assert_double_eq_tol(sum[1][BD_GPU] + sum[1][BD_NET] + sum[1][BD_HOST], 100, 1e-9);

    int nt;
    const struct cs_fail_llama3_row *t = cs_fail_llama3_table(&nt);
    struct cs_step_result st = step_of(1, 0);
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    int within = 0;
    printf("%-8s %-8s %9s %9s %9s %8s %-7s\n", "study", "category", "published", "expected", "model", "error", "verdict");
    for (int k = 0; k < NS; k++) {
        ck_assert(gpn[k] > 0);
        const int nodes = 400;
        struct cs_scenario s;
        study_setup(&s, nodes, gpn[k], 348, 120, 600, 1800, 10);
        /* Expected shares from the rates: units / MTBF per class. */
        double rate[BD_N] = {0}, rate_all = 0;
        for (int i = 0; i < s.failures.n_components; i++) {
            const struct cs_fail_component *c = &s.failures.components[i];
            ck_assert_int_eq(s.failures.n_components, nt);
            ck_assert_str_eq(c->name, t[i].name);
            const char *cls = cat_of(t[i].component);
            ck_assert_msg(cls != NULL, "class %s has no category", t[i].component);
            double r = (double)cs_fail_scope_units(c->scope, (long)nodes * gpn[k], nodes, 0) / c->mtbf_s;
            int ci = bd_index(cls);
            if (ci >= 0) {
                rate[ci] += r;
                rate_all += r;
            }
        }
        cs_diags d;
        cs_diags_init(&d);
        struct cs_run_result r;
        ck_assert_int_eq(cs_run_simulate(&s, &st, &o, &d, &r), CS_OK);
        cs_diags_fini(&d);
        double cnt[BD_N] = {0}, cnt_all = 0;
        ck_assert_int_eq(r.n_causes, nt);
        for (int i = 0; i < r.n_causes; i++) {
            ck_assert_str_eq(r.cause_name[i], t[i].name);
            int ci = bd_index(cat_of(t[i].component));
            if (ci >= 0) {
                cnt[ci] += r.cause[i].mean;
                cnt_all += r.cause[i].mean;
            }
        }
        ck_assert(cnt_all * r.replicas > 15000);
        double pub_all = sum[k][BD_GPU] + sum[k][BD_NET] + sum[k][BD_HOST];
        for (int c = 0; c < BD_N; c++) {
            double expected = 100 * rate[c] / rate_all;
            double model = 100 * cnt[c] / cnt_all;
            double pub = 100 * sum[k][c] / pub_all;
            if (gpn[k] == 8) { /* the hand derivation above */
                static const double by_hand[BD_N] = {26800.0 / 363, 4900.0 / 363, 4600.0 / 363};
                ck_assert_double_eq_tol(expected, by_hand[c], 1e-9);
            }
            ck_assert_double_eq_tol(model, expected, 1.0);
            bool ok = fabs(model - pub) <= tol_pt;
            printf("%-8s %-8s %8.2f%% %8.2f%% %8.2f%% %+7.1f pt %-7s\n", pins[k].study, bd_cat[c], pub, expected,
                   model, model - pub, ok ? "within" : "miss");
            fflush(stdout);
            ck_assert_str_eq(ok ? "within" : "miss", pins[k].expect[c]);
            within += ok;
        }
    }
    printf("failure breakdowns: %d of %d within %.0f points\n", within, NS * BD_N, tol_pt);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("faultdomain");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fd_units_from_topology);
    tcase_add_test(tc, test_fd_leaf_spares_same_leaf_or_not);
    tcase_add_test(tc, test_fd_spine_degraded_by_hand);
    tcase_add_test(tc, test_fd_storage_outage_by_hand);
    tcase_add_test(tc, test_fd_maintenance_kinds);
    tcase_add_test(tc, test_fd_bad_inputs);
    tcase_add_test(tc, test_fd_validation_holdout_studies);
    tcase_add_test(tc, test_fd_validation_holdout_breakdowns);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    cs_diags d;
    cs_diags_init(&d);
    if (cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat) != CS_OK)
        return 1;
    cs_diags_fini(&d);
    int rc = cs_test_run(suite());
    cs_catalog_destroy(cat);
    return rc;
}
