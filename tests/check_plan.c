/* check_plan.c: tests of `clustersim plan` below the command line
 * (config/plan.c, app/plan.c, the best-first search of models/search.c):
 * - the Pareto front of hand-made points;
 * - the peak-FLOPs bound on the time to train against a hand computation
 *   from the published parameter count;
 * - the bounded (best_only) search gives the full search's first
 *   configuration, on dense and MoE scenarios;
 * - plan files: the errors of a bad file name its line and key;
 * - a small plan end to end: the pruned candidate is the one the bound
 *   rules out by hand, every front point is undominated, the cheapest meets
 *   the deadline, results do not depend on the thread count, and the
 *   binding constraint is named with its margin when the deadline or the
 *   budget cannot be met. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/app/plan.h"
#include "clustersim/app/search.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/plan.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/search.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static char tmpdir[64];

static const char *write_plan(const char *name, const char *text)
{
    static char path[160];
    if (!tmpdir[0]) {
        snprintf(tmpdir, sizeof tmpdir, "/tmp/check_plan.XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    }
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

START_TEST(test_pareto)
{
    /* (time, cost): 0 (1, 9), 1 (2, 5), 2 (3, 6) dominated by 1, 3 (4, 1),
     * 4 (2, 5) a duplicate of 1 (the first kept), 5 (5, 1) dominated by 3,
     * 6 NaN left out. Front by time: 0, 1, 3. */
    double t[] = {1, 2, 3, 4, 2, 5, NAN}, c[] = {9, 5, 6, 1, 5, 1, 2};
    size_t idx[7];
    size_t n = cs_plan_pareto(t, c, 7, idx);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(idx[0], 0);
    ck_assert_uint_eq(idx[1], 1);
    ck_assert_uint_eq(idx[2], 3);
}
END_TEST

START_TEST(test_time_bound)
{
    /* Llama 3.1 70B: 70.55e9 parameters (Meta's model card), vocab 128,256
     * x hidden 8,192 = 1.0507e9 in the input embedding; 2T tokens on 1,024
     * H100 at 989.4 TFLOP/s dense BF16 (the catalog's figure):
     * 6 x 69.50e9 x 2e12 / (1024 x 989.4e12) = 8.23e5 s (9.5 days). */
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    ck_assert_int_eq(cs_workload_preset("llama3.1-70b", &w.model), CS_OK);
    w.precision = CS_PREC_BF16;
    w.tokens = 2e12;
    struct cs_gpu_spec g = cs_test_h100_spec();
    double b = cs_plan_time_bound(&w, &g, 1024);
    double hand = 6.0 * (70.55e9 - 128256.0 * 8192.0) * 2e12 / (1024.0 * g.peak_flops[CS_PREC_BF16]);
    ck_assert_msg(fabs(b / hand - 1) < 0.01, "bound %g s, hand %g s", b, hand);
    ck_assert_msg(b > 8.0e5 && b < 8.5e5, "bound %g s", b);
    ck_assert(isnan(cs_plan_time_bound(&w, &g, 0)));
}
END_TEST

/* The bounded search's first point is the full search's. */
static void same_best(const char *scenario, const char *const *sets, int nsets)
{
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_cfg_override ov[8];
    char *paths[8];
    cs_test_overrides(sets, nsets, ov, paths);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_with(cs_test_data(scenario), ov, (size_t)nsets, cat, &d, &s, NULL),
                     CS_OK);
    struct cs_app_search_opts o;
    cs_app_search_opts_default(&o);
    struct cs_app_search full, best;
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &full), CS_OK);
    o.space.best_only = true;
    ck_assert_int_eq(cs_app_search(&s, &o, &d, &best), CS_OK);
    const struct cs_search_point *a = &full.res.points[0], *b = &best.res.points[0];
    ck_assert_msg(a->r.time_s == b->r.time_s, "%s: full %g s, bounded %g s", scenario, a->r.time_s,
                  b->r.time_s);
    ck_assert_int_eq(a->w.par.tp, b->w.par.tp);
    ck_assert_int_eq(a->w.par.pp, b->w.par.pp);
    ck_assert_int_eq(a->w.par.cp, b->w.par.cp);
    ck_assert_int_eq(a->w.par.vp, b->w.par.vp);
    ck_assert_int_eq(a->w.par.ep, b->w.par.ep);
    ck_assert_int_eq(a->w.micro_batch, b->w.micro_batch);
    ck_assert_int_eq(a->w.par.fsdp, b->w.par.fsdp);
    ck_assert_int_eq(a->w.recompute, b->w.recompute);
    /* and it did leave work out */
    ck_assert_msg(best.res.bounded > 0 && best.res.n < full.res.n, "%s: %zu bounded, %zu of %zu simulated",
                  scenario, best.res.bounded, best.res.n, full.res.n);
    cs_app_search_fini(&full);
    cs_app_search_fini(&best);
    cs_scenario_fini(&s);
    cs_test_overrides_free(paths, nsets);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}

START_TEST(test_bounded_search_dense)
{
    same_best("scenarios/default.yaml", NULL, 0);
    const char *big[] = {"cluster.nodes=32", "workload.global_batch=512", "workload.parallelism.tp=8",
                         "workload.parallelism.pp=4", "workload.parallelism.dp=8"};
    same_best("scenarios/default.yaml", big, 5);
}
END_TEST

START_TEST(test_bounded_search_moe)
{
    same_best("scenarios/moe/mixtral-8x7b-64xh100.yaml", NULL, 0);
}
END_TEST

static const char *small_plan =
    "schema_version: 1\nname: small\nseed: 3\n"
    "workload: {model: {preset: llama3.1-8b}, global_batch: 256, precision: bf16, tokens: 100B}\n"
    "deadline: 15d\nbudget: $2M\n"
    "candidates:\n"
    "  gpus: [A100-SXM4-80GB, H100-SXM5-80GB]\n"
    "  nodes: [1, 2, 4]\n"
    "  fabrics: [{topology: fat-tree, link: ib-ndr, oversubscription: 1}]\n"
    "  ownership: [on-prem, cloud-on-demand]\n"
    "cluster: {gpus_per_node: 8, storage: [nvme-gen4, lustre]}\n"
    "failures:\n"
    "  components:\n"
    "    - {name: gpu, scope: gpu, mtbf: 79000h, distribution: exponential}\n"
    "  detection: 5min\n  restart: 15min\n"
    "checkpoint: {interval: optimal, mode: async, tier: nvme}\n"
    "cost: {years: 3, utilization: 0.7, site: us-average}\n"
    "run: {replicas: 8}\n";

static void run_plan(const char *text, const char *const *sets, int nsets, int threads,
                     cs_plan **pp, struct cs_app_plan *r)
{
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_cfg_override ov[8];
    char *paths[8];
    cs_test_overrides(sets, nsets, ov, paths);
    ck_assert_int_eq(cs_plan_load(write_plan("small.yaml", text), ov, (size_t)nsets, &d, pp), CS_OK);
    struct cs_app_plan_opts o;
    cs_app_plan_opts_default(&o);
    o.threads = threads;
    cs_status st = cs_app_plan(*pp, cat, &o, &d, r);
    for (size_t i = 0; i < d.n; i++)
        if (d.items[i].sev == CS_SEV_ERROR)
            fprintf(stderr, "%s\n", d.items[i].msg);
    ck_assert_int_eq(st, CS_OK);
    cs_test_overrides_free(paths, nsets);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}

START_TEST(test_plan_small)
{
    cs_plan *p = NULL;
    struct cs_app_plan r;
    run_plan(small_plan, NULL, 0, 1, &p, &r);
    ck_assert_uint_eq(r.n, 6);
    /* Llama 3.1 8B: 8.03e9 parameters, 128,256 x 4,096 = 0.525e9 embedding;
     * 100B tokens on 8 A100 at 312 TFLOP/s: 6 x 7.505e9 x 1e11 / (8 x 312e12)
     * = 1.80e6 s = 20.9 days > 15: pruned; on 16 A100 10.4 days: kept; on 8
     * H100 6.6 days: kept. */
    ck_assert_uint_eq(r.pruned, 1);
    const struct cs_plan_cand *a1 = &r.c[0];
    ck_assert_str_eq(cs_plan_gpu(p, a1->gi), "A100-SXM4-80GB");
    ck_assert_int_eq(a1->nodes, 1);
    ck_assert_int_eq(a1->state, CS_PLAN_PRUNED);
    double hand = 6.0 * (8.03e9 - 128256.0 * 4096.0) * 1e11 / (8.0 * 312e12);
    ck_assert_msg(fabs(a1->bound_s / hand - 1) < 0.01, "bound %g, hand %g", a1->bound_s, hand);
    ck_assert_uint_eq(r.evaluated, 5);
    for (size_t i = 1; i < r.n; i++) {
        const struct cs_plan_cand *c = &r.c[i];
        ck_assert_int_eq(c->state, CS_PLAN_EVALUATED);
        /* the simulated time is never below the peak bound */
        ck_assert_msg(c->time_s.p05 >= c->bound_s, "candidate %zu: %g s < bound %g s", i,
                      c->time_s.p05, c->bound_s);
        ck_assert(c->time_s.p05 <= c->time_s.mean && c->time_s.mean <= c->time_s.p95);
        ck_assert_int_eq((int)c->gpus, 8 * c->nodes);
        /* cloud on-demand: the run's rental = the commitment */
        const struct cs_plan_own *od = &c->own[CS_OPT_ON_DEMAND];
        ck_assert(od->available);
        ck_assert_double_eq_tol(od->commitment_usd[0], od->run_usd[0], 1e-6 * od->run_usd[0]);
        /* on-prem: the commitment is the TCO */
        const struct cs_plan_own *op = &c->own[CS_OPT_ONPREM];
        ck_assert(op->available);
        ck_assert_double_eq_tol(op->commitment_usd[0], op->tco_usd, 1e-6 * op->tco_usd);
    }
    /* Front: sorted by time, falling cost, and no evaluated plan dominates
     * a front point. */
    ck_assert_uint_ge(r.nfront, 1);
    for (size_t i = 0; i < r.nfront; i++) {
        const struct cs_plan_cand *f = &r.c[r.front[i].cand];
        double ft = f->time_s.mean, fc = f->own[r.front[i].opt].cost_usd[0];
        if (i > 0) {
            const struct cs_plan_cand *g = &r.c[r.front[i - 1].cand];
            ck_assert(g->time_s.mean <= ft);
            ck_assert(g->own[r.front[i - 1].opt].cost_usd[0] > fc);
        }
        for (size_t j = 0; j < r.n; j++)
            for (int o = 0; o < CS_OPT_COUNT; o++) {
                const struct cs_plan_cand *c = &r.c[j];
                if (c->state != CS_PLAN_EVALUATED || !c->own[o].available ||
                    (o != CS_OPT_ONPREM && o != CS_OPT_ON_DEMAND))
                    continue;
                double t = c->time_s.mean, co = c->own[o].cost_usd[0];
                ck_assert_msg(!(t <= ft && co <= fc && (t < ft || co < fc)),
                              "front point %zu dominated by candidate %zu option %d", i, j, o);
            }
    }
    ck_assert(r.has_cheapest);
    const struct cs_plan_cand *ch = &r.c[r.cheapest.cand];
    ck_assert(ch->time_s.p95 <= 15 * 86400.0);
    ck_assert(ch->own[r.cheapest.opt].meets_deadline);
    /* nothing meeting the deadline is cheaper */
    for (size_t j = 0; j < r.n; j++)
        for (int k = 0; k < r.info.n_ownership; k++) {
            int o = (int)r.info.ownership[k];
            const struct cs_plan_own *po = &r.c[j].own[o];
            if (r.c[j].state == CS_PLAN_EVALUATED && po->available && po->meets_deadline)
                ck_assert(po->cost_usd[0] >= ch->own[r.cheapest.opt].cost_usd[0]);
        }
    /* the same on 2 threads */
    cs_plan *p2 = NULL;
    struct cs_app_plan r2;
    run_plan(small_plan, NULL, 0, 2, &p2, &r2);
    ck_assert_uint_eq(r2.n, r.n);
    for (size_t i = 0; i < r.n; i++) {
        ck_assert_int_eq(r2.c[i].state, r.c[i].state);
        ck_assert(r2.c[i].time_s.mean == r.c[i].time_s.mean || isnan(r.c[i].time_s.mean));
        ck_assert(r2.c[i].own[CS_OPT_ONPREM].cost_usd[0] == r.c[i].own[CS_OPT_ONPREM].cost_usd[0] ||
                  isnan(r.c[i].own[CS_OPT_ONPREM].cost_usd[0]));
    }
    ck_assert_int_eq(r2.cheapest.cand, r.cheapest.cand);
    cs_app_plan_fini(&r2);
    cs_plan_destroy(p2);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
}
END_TEST

/* The plan's `facility:` reaches every candidate: in one rack of 25 kW,
 * 2 nodes of 8 H100 draw 2 x 10.08 = 20.16 kW (within), 4 nodes 40.32 kW
 * (over: the GPUs held at (25,000 / 4 - 4,480) / 8 = 221 W, 32% of TDP). */
START_TEST(test_plan_facility)
{
    char text[4096];
    snprintf(text, sizeof text, "%sfacility: {racks: 1, rack_power: 25kW}\n", small_plan);
    cs_plan *p = NULL;
    struct cs_app_plan r;
    run_plan(text, NULL, 0, 1, &p, &r);
    ck_assert_uint_eq(r.n, 6);
    const struct cs_plan_cand *two = &r.c[4], *four = &r.c[5];
    ck_assert_str_eq(cs_plan_gpu(p, four->gi), "H100-SXM5-80GB");
    ck_assert_int_eq(two->nodes, 2);
    ck_assert_int_eq(four->nodes, 4);
    ck_assert_int_eq(two->racks, 1);
    ck_assert_double_eq_tol(two->kw_per_rack, 20.16, 1e-9);
    ck_assert(two->cooling_ok);
    ck_assert_int_eq(four->racks, 1);
    ck_assert_double_eq_tol(four->kw_per_rack, 40.32, 1e-9);
    ck_assert(!four->cooling_ok);
    ck_assert_str_eq(four->cooling, "air");
    /* the throttled GPUs slow the 4-node candidate's step below twice the
     * 2-node one's throughput */
    ck_assert(four->tokens_per_s < 2 * two->tokens_per_s);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
}
END_TEST

START_TEST(test_plan_binding)
{
    /* A 1-day deadline: even 32 H100 at peak need 1.6 days (6 x 7.505e9 x
     * 1e11 / (32 x 989e12) = 1.42e5 s): every candidate is pruned and the
     * deadline binds, by at least 60%. */
    const char *dl[] = {"deadline=1d"};
    cs_plan *p = NULL;
    struct cs_app_plan r;
    run_plan(small_plan, dl, 1, 1, &p, &r);
    ck_assert_uint_eq(r.pruned, 6);
    ck_assert(!r.has_cheapest && !r.both);
    ck_assert_msg(strncmp(r.binding, "deadline:", 9) == 0, "%s", r.binding);
    ck_assert_msg(strstr(r.binding, "1.6 days") != NULL, "%s", r.binding);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
    /* A $1 budget: every plan is over it; the budget binds. */
    const char *bu[] = {"budget=$1"};
    run_plan(small_plan, bu, 1, 1, &p, &r);
    ck_assert(r.has_cheapest && !r.has_fastest && !r.both);
    ck_assert_msg(strncmp(r.binding, "budget:", 7) == 0, "%s", r.binding);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
}
END_TEST

/* A plan passes `failures:` to every candidate unchanged, the fault-domain
 * keys included (docs/run.md "Fault domains"): each candidate cluster binds
 * the same spares, placement, storage policy, maintenance kind and scopes. */
START_TEST(test_plan_carries_failures)
{
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    const char *sets[] = {"failures.spares=8", "failures.spares_placement=spread",
                          "failures.storage_outage=continue", "failures.maintenance.kind=drained",
                          "failures.maintenance.interval=100h", "failures.maintenance.nodes=2",
                          "failures.components.0.scope=leaf"};
    struct cs_cfg_override ov[8];
    char *paths[8];
    cs_test_overrides(sets, 7, ov, paths);
    cs_plan *p = NULL;
    ck_assert_int_eq(cs_plan_load(write_plan("faults.yaml", small_plan), ov, 7, &d, &p), CS_OK);
    for (int gi = 0; gi < 2; gi++)
        for (int ni = 0; ni < 3; ni++) {
            struct cs_scenario s;
            ck_assert_int_eq(cs_plan_candidate(p, gi, ni, 0, cat, &d, &s), CS_OK);
            const struct cs_failures_cfg *f = &s.failures;
            ck_assert(f->enabled);
            ck_assert_int_eq(f->spares, 8);
            ck_assert_int_eq(f->spares_placement, CS_SPARES_SPREAD);
            ck_assert_int_eq(f->storage_outage, CS_STORAGE_CONTINUE);
            ck_assert_int_eq(f->maint_kind, CS_MAINT_DRAINED);
            ck_assert_int_eq(f->maint_nodes, 2);
            ck_assert_double_eq_tol(f->maint_interval_s, 100 * 3600.0, 1e-9);
            ck_assert_int_eq(f->n_components, 1);
            ck_assert_int_eq(f->components[0].scope, CS_SCOPE_LEAF);
            ck_assert_double_eq_tol(f->components[0].mtbf_s, 79000 * 3600.0, 1e-6);
            cs_scenario_fini(&s);
        }
    cs_plan_destroy(p);
    cs_test_overrides_free(paths, 7);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

static void expect_error(const char *text, const char *needle, int line)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_plan *p = NULL;
    cs_status st = cs_plan_load(write_plan("bad.yaml", text), NULL, 0, &d, &p);
    ck_assert_int_eq(st, CS_ECONFIG);
    bool found = false;
    for (size_t i = 0; i < d.n; i++)
        if (strstr(d.items[i].msg, needle) && (line == 0 || d.items[i].line == line))
            found = true;
    if (!found)
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "  line %d: %s\n", d.items[i].line, d.items[i].msg);
    ck_assert_msg(found, "no error with \"%s\" at line %d", needle, line);
    cs_diags_fini(&d);
}

START_TEST(test_plan_errors)
{
    const char *head = "schema_version: 1\nworkload: {model: {preset: llama3.1-8b}, tokens: 1T}\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%scandidates: {gpus: [H100-SXM5-80GB], nodes: [1]}\n", head);
    expect_error(buf, "deadline", 0);
    snprintf(buf, sizeof buf, "%sdeadline: soon\ncandidates: {gpus: [H100-SXM5-80GB], nodes: [1]}\n", head);
    expect_error(buf, "deadline", 3);
    snprintf(buf, sizeof buf, "%sdeadline: 30d\nbudget: lots\ncandidates: {gpus: [H100-SXM5-80GB], nodes: [1]}\n",
             head);
    expect_error(buf, "budget", 4);
    snprintf(buf, sizeof buf, "%sdeadline: 30d\ncandidates:\n  gpus: [H100-SXM5-80GB]\n  nodes: [1]\n"
                              "  ownership: [on-prem, cloud-ondemand]\n", head);
    expect_error(buf, "cloud-on-demand", 7);
    snprintf(buf, sizeof buf, "%sdeadline: 30d\ncandidates:\n  gpus: [H100-SXM5-80GB]\n  nodes: {from: 4, to: 2, factor: 2}\n",
             head);
    expect_error(buf, "from <= to", 6);
    snprintf(buf, sizeof buf, "%sdeadline: 30d\ncandidates:\n  gpu: [H100-SXM5-80GB]\n  nodes: [1]\n", head);
    expect_error(buf, "did you mean \"gpus\"", 5);
    expect_error("schema_version: 1\nworkload: {model: {preset: llama3.1-8b}, tokens: 1T,\n"
                 "  parallelism: {tp: 8}}\ndeadline: 30d\ncandidates: {gpus: [H100-SXM5-80GB], nodes: [1]}\n",
                 "the plan searches the parallelism", 3);
    expect_error("schema_version: 1\nworkload: {model: {preset: llama3.1-8b}}\ndeadline: 30d\n"
                 "candidates: {gpus: [H100-SXM5-80GB], nodes: [1]}\n", "workload.tokens", 2);
}
END_TEST

START_TEST(test_plan_bad_gpu)
{
    /* A GPU the catalog lacks: the scenario binder's error, at its line,
     * before anything is simulated. */
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    cs_plan *p = NULL;
    ck_assert_int_eq(cs_plan_load(write_plan("gpu.yaml",
                                              "schema_version: 1\n"
                                              "workload: {model: {preset: llama3.1-8b}, tokens: 1T, "
                                              "global_batch: 64}\n"
                                              "deadline: 30d\n"
                                              "candidates:\n"
                                              "  gpus: [H100-SXM5-80GB, H1OO]\n"
                                              "  nodes: [1]\n"),
                                   NULL, 0, &d, &p),
                     CS_OK);
    struct cs_app_plan_opts o;
    cs_app_plan_opts_default(&o);
    struct cs_app_plan r;
    ck_assert_int_eq(cs_app_plan(p, cat, &o, &d, &r), CS_ECONFIG);
    bool found = false;
    for (size_t i = 0; i < d.n; i++)
        found = found || (d.items[i].line == 5 && strstr(d.items[i].msg, "H1OO"));
    ck_assert(found);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

static Suite *plan_suite(void)
{
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_pareto);
    tcase_add_test(tc, test_time_bound);
    tcase_add_test(tc, test_bounded_search_dense);
    tcase_add_test(tc, test_bounded_search_moe);
    tcase_add_test(tc, test_plan_small);
    tcase_add_test(tc, test_plan_facility);
    tcase_add_test(tc, test_plan_binding);
    tcase_add_test(tc, test_plan_carries_failures);
    tcase_add_test(tc, test_plan_errors);
    tcase_add_test(tc, test_plan_bad_gpu);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(plan_suite()); }
