/* check_cost.c: the TCO model (models/cost.c) and its config keys
 * (config/cfg_cost.c): a small cluster's totals per option by hand,
 * break-even against the analytic solution, monotonicity, missing prices. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "test_util.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/app/tco.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/cost.h"
#include "clustersim/report/cost_report.h"
#include "clustersim/models/step.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One node of 8 H100 (700 W TDP) on a single switch; optic power off and
 * no switch model named, so the network is the fraction's, the switch has no
 * power figure and the IT load is the servers only. Every price is given. */
static const char small_yaml[] =
    "schema_version: 1\n"
    "cluster:\n"
    "  gpu: H100-SXM5-80GB\n"
    "  nodes: 1\n"
    "  fabric: {topology: single-switch, link: ib-ndr,\n"
    "           link_overrides: {optic_power: null, switch_model: \"\"}}\n"
    "cost:\n"
    "  years: 3\n"
    "  utilization: 0.5\n"
    "  electricity: $0.10/kWh\n"
    "  pue: 1.5\n"
    "  colocation: $100/kW-month\n"
    "  construction_per_mw: $10000000\n"
    "  depreciation_years: 3\n"
    "  support_per_year: 0.1\n"
    "  server_power_utilization: 0.75\n"
    "  server_power_multiplier: 2\n"
    "  network_cost_fraction: 0.2\n"
    "  gpu_price: $30000\n"
    "  staff_per_year: $50000\n"
    "%s"
    "  cloud: {on_demand: $4/GPU-h, reserved_1y: $3/GPU-h, reserved_3y: $2/GPU-h, "
    "spot: $1.5/GPU-h}\n";

static cs_catalog *load_catalog(void)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *c = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &c), CS_OK);
    cs_diags_fini(&d);
    return c;
}

/* Loads small_yaml with `extra` lines in cost:, resolves inputs. Returns
 * the status of cs_cost_inputs_from_scenario (or the load's). */
static cs_status load_inputs(const char *extra, struct cs_cost_inputs *in, char *msg, size_t n)
{
    char buf[4096], ex[1024];
    /* The derivations below charge capital straight-line (r = 0) unless
     * the test names a rate: the default rate (8%) is tested apart. */
    snprintf(ex, sizeof ex, "%s%s", strstr(extra, "cost_of_capital") ? "" : "  cost_of_capital: 0\n",
             extra);
    snprintf(buf, sizeof buf, small_yaml, ex);
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    cs_status st = cs_cfg_load_scenario_buffer("small.yaml", buf, strlen(buf), cat, &d, &s, NULL);
    if (st == CS_OK) {
        st = cs_cost_inputs_from_scenario(&s, NAN, false, &d, in);
        cs_scenario_fini(&s);
    }
    if (msg) {
        msg[0] = '\0';
        for (size_t i = 0; i < d.n; i++) {
            char *m = cs_diag_format(&d.items[i]);
            strncat(msg, m, n - strlen(msg) - 1);
            strncat(msg, "\n", n - strlen(msg) - 1);
            free(m);
        }
    }
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
    return st;
}

/* By hand: N = 8 GPUs, H = 3 y x 8760 h = 26,280 h, u = 0.5.
 * Hardware: servers 8 x $30,000 = $240,000; network from the fraction
 * 240,000 x 0.2 / 0.8 = $60,000; capital $300,000, charged over 3 years at
 * r = 0: capex = $300,000.
 * Power: nameplate 8 x 700 W x 2 = 11.2 kW, drawing 0.75 of it = 8.4 kW
 * (no idle_power_fraction: flat); energy 8.4 x 1.5 x 26,280 x 0.10 =
 * $33,112.80.
 * Site on-prem: $10M/MW x 0.0112 MW = $112,000 over 3 years -> $112,000.
 * Site colocation: $100 x 11.2 kW x 36 months = $40,320.
 * Operations: 0.1 x 300,000 x 3 + 50,000 x 3 = $240,000.
 * on-prem = 300,000 + 33,112.8 + 112,000 + 240,000 = $685,112.80
 * colocation = 300,000 + 33,112.8 + 40,320 + 240,000 = $613,432.80
 * on-demand = 8 x 26,280 x 0.5 x $4 = $420,480
 * reserved 1y = 8 x 26,280 x $3 = $630,720; reserved 3y = x $2 = $420,480
 * spot = 8 x 26,280 x 0.5 x $1.5 = $157,680
 * on-prem per utilized GPU-hour = 685,112.8 / 105,120 = $6.51744...
 * hybrid (flat demand 0.5 x 8 = 4 GPUs, colocation, on-demand burst):
 * baselines 0 or 8 (whole nodes): 0 -> all on-demand $420,480;
 * 8 -> colocation $613,432.80 => the cheapest is 0 GPUs, $420,480. */
START_TEST(test_cost_small_cluster_by_hand)
{
    struct cs_cost_inputs in;
    char msg[2048];
    ck_assert_msg(load_inputs("", &in, msg, sizeof msg) == CS_OK, "%s", msg);
    struct cs_cost_result r;
    cs_cost_evaluate(&in, &r);
    ck_assert_double_eq_tol(r.capex_hw_usd, 300000, 1e-6);
    ck_assert_double_eq_tol(r.it_power_kw, 11.2, 1e-9);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].by_cat_usd[CS_CAT_CAPEX], 300000, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].by_cat_usd[CS_CAT_POWER], 33112.8, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].by_cat_usd[CS_CAT_SITE], 112000, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].by_cat_usd[CS_CAT_OPS], 240000, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].total_usd, 685112.8, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_COLO].total_usd, 613432.8, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ON_DEMAND].total_usd, 420480, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_RESERVED_1Y].total_usd, 630720, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_RESERVED_3Y].total_usd, 420480, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_SPOT].total_usd, 157680, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].usd_per_utilized_gpu_hour, 685112.8 / 105120,
                            1e-9);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].usd_per_gpu_hour, 685112.8 / 210240, 1e-9);
    ck_assert_int_eq(r.opt[CS_OPT_HYBRID].hybrid_baseline_gpus, 0);
    ck_assert_double_eq_tol(r.opt[CS_OPT_HYBRID].total_usd, 420480, 1e-6);
    /* amortized years are equal thirds; cash year 1 holds the purchase:
     * on-prem upfront = 300,000 + 112,000 = 412,000, the rest
     * (33,112.8 + 240,000) / 3 = 91,037.6 per year. */
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].by_year_usd[0], 685112.8 / 3, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].cash_by_year_usd[0], 412000 + 91037.6, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].cash_by_year_usd[1], 91037.6, 1e-6);
}
END_TEST

/* Cost of capital: CRF(0.08, 3) = 0.08 / (1 - 1.08^-3) = 0.388034 (annuity
 * factor); capex over 3 years = 300,000 x 0.388034 x 3 = $349,230.1. */
START_TEST(test_cost_capital_charge)
{
    struct cs_cost_inputs in;
    char msg[2048];
    ck_assert_msg(load_inputs("  cost_of_capital: 8%\n", &in, msg, sizeof msg) == CS_OK, "%s",
                  msg);
    struct cs_cost_result r;
    cs_cost_evaluate(&in, &r);
    double crf = 0.08 / (1 - pow(1.08, -3));
    ck_assert_double_eq_tol(crf, 0.388034, 1e-6);
    ck_assert_double_eq_tol(r.opt[CS_OPT_ONPREM].by_cat_usd[CS_CAT_CAPEX], 300000 * crf * 3, 1e-6);
}
END_TEST

/* Break-even: owned totals are flat in u without an idle fraction, cloud
 * on-demand is 8 x 26,280 x $4 x u = 840,960 u, so u* = 685,112.8 / 840,960
 * = 0.814680 (on-prem) and 613,432.8 / 840,960 = 0.729443 (colocation);
 * spot 315,360 u exceeds neither: owned never cheaper. With idle 0.25:
 * b_o = 11.2 x 0.5 x 1.5 x 26,280 x 0.1 = 22,075.2 per unit of u and
 * a_o = 685,112.8 - 33,112.8 + 11.2 x 0.25 x 1.5 x 26,280 x 0.1 (11,037.6)
 * = 663,037.6, so u* = 663,037.6 / 818,884.8 = 0.809684. */
START_TEST(test_cost_break_even_analytic)
{
    struct cs_cost_inputs in;
    char msg[2048];
    ck_assert_msg(load_inputs("", &in, msg, sizeof msg) == CS_OK, "%s", msg);
    struct cs_cost_break_even be[8];
    int n = cs_cost_break_even_all(&in, be);
    ck_assert_int_eq(n, 8);
    ck_assert_int_eq(be[0].owned, CS_OPT_ONPREM);
    ck_assert_int_eq(be[0].cloud, CS_OPT_ON_DEMAND);
    ck_assert_double_eq_tol(be[0].utilization, 685112.8 / 840960, 1e-12);
    ck_assert_str_eq(be[0].owned_cheaper, "above");
    ck_assert_double_eq_tol(be[4].utilization, 613432.8 / 840960, 1e-12);
    ck_assert(isnan(be[3].utilization)); /* on-prem vs spot */
    ck_assert_str_eq(be[3].owned_cheaper, "never");
    ck_assert_str_eq(be[2].owned_cheaper, "never"); /* vs reserved 3y $420,480 */
    /* At u* both totals are equal. */
    double u = be[0].utilization;
    ck_assert_double_eq_tol(cs_cost_option_total(&in, CS_OPT_ONPREM, u),
                            cs_cost_option_total(&in, CS_OPT_ON_DEMAND, u), 1e-6);

    ck_assert(load_inputs("  idle_power_fraction: 0.25\n", &in, msg, sizeof msg) == CS_OK);
    n = cs_cost_break_even_all(&in, be);
    ck_assert_double_eq_tol(be[0].utilization, 663037.6 / (840960 - 22075.2), 1e-12);
    ck_assert_double_eq_tol(be[0].utilization, 0.809684, 1e-6);
}
END_TEST

/* Higher electricity never lowers an owned total; doubling a cloud price
 * doubles its option (no egress); the sensitivity table ranks by swing. */
START_TEST(test_cost_monotonic)
{
    struct cs_cost_inputs in;
    ck_assert(load_inputs("", &in, NULL, 0) == CS_OK);
    struct cs_cost_result base, r;
    cs_cost_evaluate(&in, &base);
    for (double e = 0.02; e <= 0.5; e += 0.04) {
        struct cs_cost_inputs t = in;
        t.v[CS_CIN_ELECTRICITY] = e;
        struct cs_cost_inputs t2 = t;
        t2.v[CS_CIN_ELECTRICITY] = e + 0.04;
        struct cs_cost_result a, b;
        cs_cost_evaluate(&t, &a);
        cs_cost_evaluate(&t2, &b);
        ck_assert(b.opt[CS_OPT_ONPREM].total_usd >= a.opt[CS_OPT_ONPREM].total_usd);
        ck_assert(b.opt[CS_OPT_COLO].total_usd >= a.opt[CS_OPT_COLO].total_usd);
    }
    static const enum cs_cost_input price[4] = {CS_CIN_ON_DEMAND, CS_CIN_RESERVED_1Y,
                                                CS_CIN_RESERVED_3Y, CS_CIN_SPOT};
    for (int k = 0; k < 4; k++) {
        struct cs_cost_inputs t = in;
        t.v[price[k]] *= 2.5;
        cs_cost_evaluate(&t, &r);
        enum cs_cost_option o = (enum cs_cost_option)(CS_OPT_ON_DEMAND + k);
        ck_assert_double_eq_tol(r.opt[o].total_usd, 2.5 * base.opt[o].total_usd, 1e-6);
    }
    struct cs_cost_sens_row rows[CS_CIN_COUNT];
    int n = cs_cost_sensitivity(&in, 0.2, rows);
    ck_assert_int_gt(n, 5);
    for (int i = 1; i < n; i++)
        ck_assert(rows[i - 1].swing_usd >= rows[i].swing_usd);
    /* gpu_price +-20% moves capex and support: 0.2 x (300,000 + 90,000)
     * each way = $78,000, swing $156,000 for on-prem and colocation. */
    for (int i = 0; i < n; i++)
        if (rows[i].input == CS_CIN_GPU_PRICE)
            ck_assert_double_eq_tol(rows[i].high_usd[CS_OPT_ONPREM] - rows[i].low_usd[CS_OPT_ONPREM],
                                    156000, 1e-6);
}
END_TEST

/* Monte Carlo with one range [x, x] reproduces the point estimate; a
 * range gives p05 <= p50 <= p95 and is deterministic for a seed. */
START_TEST(test_cost_monte_carlo)
{
    struct cs_cost_inputs in;
    ck_assert(load_inputs("", &in, NULL, 0) == CS_OK);
    struct cs_cost_range rg = {"electricity", 0.10, 0.10};
    struct cs_cost_mc m, m2;
    ck_assert_int_eq(cs_cost_monte_carlo(&in, &rg, 1, 50, 7, &m), CS_OK);
    ck_assert_double_eq_tol(m.p50[CS_OPT_ONPREM], 685112.8, 1e-6);
    struct cs_cost_range r2[2] = {{"electricity", 0.05, 0.20}, {"gpu_price", 20000, 40000}};
    ck_assert_int_eq(cs_cost_monte_carlo(&in, r2, 2, 400, 7, &m), CS_OK);
    ck_assert_int_eq(cs_cost_monte_carlo(&in, r2, 2, 400, 7, &m2), CS_OK);
    ck_assert(m.p05[CS_OPT_ONPREM] <= m.p50[CS_OPT_ONPREM]);
    ck_assert(m.p50[CS_OPT_ONPREM] <= m.p95[CS_OPT_ONPREM]);
    ck_assert(m.p05[CS_OPT_ONPREM] < m.p95[CS_OPT_ONPREM]);
    ck_assert(m.p50[CS_OPT_ONPREM] == m2.p50[CS_OPT_ONPREM]);
    struct cs_cost_range bad = {"nonsense", 0, 1};
    ck_assert_int_eq(cs_cost_monte_carlo(&in, &bad, 1, 10, 7, &m), CS_EINVAL);
}
END_TEST

/* A price nobody gives is an error naming the key. */
/* Hybrid on 2 nodes (N = 16) at u = 0.5 with every price of small_yaml,
 * baselines 0, 8 or 16 GPUs (whole nodes). The owned part of a baseline
 * of B GPUs is the colocation total C (16 GPUs, power flat in u; with two
 * nodes its optical cables are priced and draw power, so C comes from the
 * model) times B / 16; on-demand burst is GPUs x 26,280 h x busy share x $4.
 * Bursts (no profile: all 16 busy half the time): B = 0 -> 16 x 26,280 x
 * 0.5 x 4 = $840,960; B = 8 -> C / 2 + 8 x 26,280 x 0.5 x 4 = C / 2 +
 * $420,480; B = 16 -> C. With C ~ $1.08M the cheapest is B = 0, $840,960;
 * the same with demand [1, 0] (two equal periods). A flat profile [0.5]
 * (8 GPUs all the time) makes B = 8 cheapest: C / 2 with no burst. */
START_TEST(test_cost_hybrid_bursts_by_hand)
{
    cs_catalog *cat = load_catalog();
    static const char *const extra[3] = {"", "  hybrid: {demand: [1, 0]}\n",
                                         "  hybrid: {demand: [0.5]}\n"};
    static const int want_b[3] = {0, 0, 8};
    for (int k = 0; k < 3; k++) {
        char ex[512], y[4096];
        snprintf(ex, sizeof ex, "  cost_of_capital: 0\n%s", extra[k]);
        snprintf(y, sizeof y, small_yaml, ex);
        char *n1 = strstr(y, "nodes: 1");
        ck_assert(n1 != NULL);
        n1[7] = '2';
        cs_diags d;
        cs_diags_init(&d);
        struct cs_scenario s;
        ck_assert_int_eq(cs_cfg_load_scenario_buffer("h.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
        struct cs_cost_inputs in;
        ck_assert_int_eq(cs_cost_inputs_from_scenario(&s, NAN, false, &d, &in), CS_OK);
        struct cs_cost_result r;
        cs_cost_evaluate(&in, &r);
        double C = r.opt[CS_OPT_COLO].total_usd;
        ck_assert(C > 1.0e6 && C < 1.2e6);
        double want = want_b[k] == 0 ? 840960 : C / 2;
        ck_assert_int_eq(r.opt[CS_OPT_HYBRID].hybrid_baseline_gpus, want_b[k]);
        ck_assert_double_eq_tol(r.opt[CS_OPT_HYBRID].total_usd, want, 1e-6);
        ck_assert_double_eq_tol(r.opt[CS_OPT_HYBRID].by_cat_usd[CS_CAT_CLOUD], want_b[k] == 0 ? 840960 : 0, 1e-6);
        cs_scenario_fini(&s);
        cs_diags_fini(&d);
    }
    cs_catalog_destroy(cat);
}
END_TEST

/* Storage capacity by hand: a 40 TB dataset on a Lustre tier with no
 * capacity is sized to 40 / 0.8 = 50 TB, $100/TB = $5,000 of capital;
 * checkpoints of 1 TB kept 4 deep on it and on an object tier of 3 TB
 * (given: short of the 4 TB, a warning) add 4 TB to Lustre: 44 / 0.8 =
 * 55 TB, $5,500. */
START_TEST(test_cost_storage_capacity_by_hand)
{
    cs_catalog *cat = load_catalog();
    const char *y =
        "schema_version: 1\n"
        "cluster:\n"
        "  gpu: H100-SXM5-80GB\n"
        "  nodes: 1\n"
        "  fabric: {topology: single-switch, link: ib-ndr}\n"
        "  storage: [{name: lustre, price_per_tb: $100/TB}, {name: s3, capacity: 3TB, price_per_tb: $20/TB}]\n"
        "data: {dataset: 40TB, tier: lustre}\n"
        "checkpoint: {interval: 1h, tier: lustre, upload: s3, size: 1TB, keep: 4}\n"
        "cost: {gpu_price: $30000, electricity: $0.1/kWh, cloud: {on_demand: $4/GPU-h, "
        "reserved_1y: $3/GPU-h, reserved_3y: $2/GPU-h, spot: $1.5/GPU-h}}\n";
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("st.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
    struct cs_cost_inputs in;
    ck_assert_int_eq(cs_cost_inputs_from_scenario(&s, NAN, false, &d, &in), CS_OK);
    ck_assert_int_eq(in.bom.n_store, 2);
    const struct cs_cost_store *l = &in.bom.store[0], *o = &in.bom.store[1];
    ck_assert_str_eq(l->tier, "lustre");
    ck_assert_double_eq_tol(l->dataset_bytes, 40e12, 1);
    ck_assert_double_eq_tol(l->checkpoint_bytes, 4e12, 1);
    ck_assert(l->sized);
    ck_assert_double_eq_tol(l->capacity_bytes, 55e12, 1);
    ck_assert_double_eq_tol(l->usd, 5500, 1e-6);
    ck_assert_double_eq_tol(in.bom.storage_usd, 5500, 1e-6);
    ck_assert(o->short_of_need && !o->sized);
    ck_assert_double_eq_tol(o->usd, 60, 1e-9); /* 3 TB x $20 a month */
    bool warned = false;
    for (size_t i = 0; i < d.n; i++)
        warned = warned || strstr(d.items[i].msg, "tier s3 holds 3 TB but the run keeps 4 TB") != NULL;
    ck_assert(warned);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_cost_missing_price_names_key)
{
    struct cs_cost_inputs in;
    char msg[2048];
    ck_assert_int_eq(load_inputs("  cooling: liquid\n", &in, msg, sizeof msg), CS_ECONFIG);
    ck_assert_msg(strstr(msg, "cost.liquid_cooling_per_kw") != NULL, "%s", msg);
    ck_assert_int_eq(load_inputs("  cloud_typo: 1\n", &in, msg, sizeof msg), CS_ECONFIG);
    ck_assert_msg(strstr(msg, "cloud_typo") != NULL, "%s", msg);
    ck_assert_int_eq(load_inputs("  ranges: {electricity: [$0.2/kWh, $0.1/kWh]}\n", &in, msg,
                                 sizeof msg),
                     CS_ECONFIG);
    ck_assert_msg(strstr(msg, "cost.ranges.electricity") != NULL, "%s", msg);
    /* liquid cooling with a price: capital $500/kW x 11.2 kW = $5,600 in site. */
    ck_assert(load_inputs("  cooling: liquid\n  liquid_cooling_per_kw: $500\n", &in, msg,
                          sizeof msg) == CS_OK);
    struct cs_cost_result r;
    cs_cost_evaluate(&in, &r);
    ck_assert_double_eq_tol(r.opt[CS_OPT_COLO].by_cat_usd[CS_CAT_SITE], 40320 + 5600, 1e-6);
}
END_TEST

/* Loads small_yaml with `extra` in cost: and keeps the scenario (caller
 * finis it); resolves the inputs. */
static void load_keep(const char *extra, cs_catalog *cat, struct cs_scenario *s,
                      struct cs_cost_inputs *in)
{
    char buf[4096], ex[1024];
    snprintf(ex, sizeof ex, "%s%s", strstr(extra, "cost_of_capital") ? "" : "  cost_of_capital: 0\n",
             extra);
    snprintf(buf, sizeof buf, small_yaml, ex);
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_cfg_load_scenario_buffer("small.yaml", buf, strlen(buf), cat, &d, s, NULL);
    ck_assert_int_eq(st, CS_OK);
    ck_assert_int_eq(cs_cost_inputs_from_scenario(s, NAN, false, &d, in), CS_OK);
    cs_diags_fini(&d);
}

/* $/run = $/utilized GPU-h x GPUs x run hours / goodput. On-prem:
 * 685,112.8 / 105,120 = $6.517437 per utilized GPU-h; a 100 h run on 8
 * GPUs = 6.517437 x 800 = $5,213.95; at goodput 0.8 the cluster is held
 * 125 h: $6,517.44, 1.25x; at 0.5, 2x. */
START_TEST(test_cost_goodput_scales_run_cost)
{
    struct cs_cost_inputs in;
    ck_assert(load_inputs("", &in, NULL, 0) == CS_OK);
    ck_assert_double_eq(in.run_goodput, 1.0);
    in.run_hours = 100;
    struct cs_cost_result a, b, c;
    cs_cost_evaluate(&in, &a);
    ck_assert_double_eq_tol(a.opt[CS_OPT_ONPREM].usd_per_run, 685112.8 / 105120 * 800, 1e-6);
    ck_assert_double_eq_tol(a.opt[CS_OPT_ONPREM].usd_per_run, 5213.95, 0.01);
    in.run_goodput = 0.8;
    cs_cost_evaluate(&in, &b);
    in.run_goodput = 0.5;
    cs_cost_evaluate(&in, &c);
    ck_assert_double_eq_tol(b.opt[CS_OPT_ONPREM].usd_per_run, 6517.44, 0.01);
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        ck_assert_double_eq_tol(b.opt[o].usd_per_run, 1.25 * a.opt[o].usd_per_run, 1e-6);
        ck_assert_double_eq_tol(c.opt[o].usd_per_run, 2.0 * a.opt[o].usd_per_run, 1e-6);
        /* the totals do not depend on the run */
        ck_assert_double_eq_tol(c.opt[o].total_usd, a.opt[o].total_usd, 1e-9);
    }
}
END_TEST

/* The run estimate: a tiny workload (4 layers, hidden 1024) on 8 H100
 * with a GPU MTBF of 20 h per GPU (job MTBI 2.5 h) and no checkpoints:
 * interruptions lose work, so the run model's mean time to train exceeds
 * the failure-free tokens / tokens/s, and $/run grows by exactly
 * wall / ideal = 1 / goodput over the estimate without the run model. */
START_TEST(test_cost_run_estimate_goodput)
{
    static const char yaml[] =
        "schema_version: 1\n"
        "seed: 3\n"
        "cluster: {gpu: H100-SXM5-80GB, nodes: 1, fabric: {topology: single-switch, link: "
        "ib-ndr}}\n"
        "workload:\n"
        "  model: {layers: 4, hidden: 1024, heads: 8, kv_heads: 8, ffn_hidden: 4096, "
        "activation: gelu, vocab: 32000, seq_len: 1024}\n"
        "  global_batch: 64\n"
        "  micro_batch: 1\n"
        "  parallelism: {tp: 1, pp: 1, dp: 8}\n"
        "  tokens: 20B\n"
        "failures:\n"
        "  components: [{name: gpu, scope: gpu, mtbf: 20h, distribution: exponential}]\n"
        "  detection: 5min\n"
        "  restart: 15min\n"
        "run: {replicas: 40}\n"
        "cost: {gpu_price: $30000, electricity: $0.1/kWh, utilization: 0.5, cloud: {on_demand: "
        "$4/GPU-h, reserved_1y: $3/GPU-h, reserved_3y: $2/GPU-h, spot: $1.5/GPU-h}}\n";
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("run.yaml", yaml, strlen(yaml), cat, &d, &s,
                                                 NULL),
                     CS_OK);
    /* The time per run as `clustersim tco` gets it: the app pipeline's
     * COST goal, with and without the run model. */
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.goal = CS_APP_GOAL_COST;
    eo.only_priced = true;
    eo.threads = 2;
    struct cs_app_result res;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_OK);
    struct cs_cost_run with = res.cost_run;
    cs_app_result_fini(&res);
    eo.run = false;
    eo.threads = 1;
    ck_assert_int_eq(cs_app_evaluate(&s, &eo, &d, &res), CS_OK);
    struct cs_cost_run without = res.cost_run;
    cs_app_result_fini(&res);
    ck_assert(with.has_step && with.run_model);
    ck_assert_int_eq(with.replicas, 40);
    ck_assert(without.has_step && !without.run_model);
    ck_assert_double_eq(without.goodput, 1.0);
    /* failure-free time = tokens / tokens/s, the same in both */
    ck_assert_double_eq_tol(without.ideal_hours, 20e9 / without.tokens_per_s / 3600, 1e-9);
    ck_assert_double_eq_tol(with.ideal_hours, without.ideal_hours, 1e-6 * without.ideal_hours);
    printf("cost run estimate: ideal %.3f h, mean time to train %.3f h, goodput %.4f, "
           "%.2f interruptions\n",
           with.ideal_hours, with.wall_hours, with.goodput, with.interruptions);
    ck_assert(with.interruptions > 0.1); /* a 1.5 h run against a 2.5 h job MTBI */
    ck_assert(with.goodput < 0.99 && with.goodput > 0.2);
    ck_assert_double_eq_tol(with.wall_hours, with.ideal_hours / with.goodput, 1e-9);

    struct cs_cost_inputs in;
    ck_assert_int_eq(cs_cost_inputs_from_scenario(&s, with.ideal_hours, false, &d, &in), CS_OK);
    struct cs_cost_result a, b;
    cs_cost_evaluate(&in, &a);
    in.run_goodput = with.goodput;
    cs_cost_evaluate(&in, &b);
    ck_assert_double_eq_tol(b.opt[CS_OPT_ON_DEMAND].usd_per_run,
                            a.opt[CS_OPT_ON_DEMAND].usd_per_run / with.goodput, 1e-6);
    /* on-demand $4 / utilized GPU-h x 8 GPUs x mean time to train */
    ck_assert_double_eq_tol(b.opt[CS_OPT_ON_DEMAND].usd_per_run, 4.0 * 8 * with.wall_hours, 1e-6);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* Claim `total`: on-prem over 3 years is $685,112.80 (by hand above). */
START_TEST(test_cost_claim_total)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    struct cs_cost_inputs in;
    struct cs_cost_claim_result r;
    cs_diags d;
    cs_diags_init(&d);
    load_keep("  claim: {id: T, text: t, metric: total, owned: on-prem, claimed: $685K, "
              "tolerance: 1%}\n",
              cat, &s, &in);
    ck_assert_int_eq(cs_cost_claim_evaluate(&s, &in, &d, &r), CS_OK);
    ck_assert_double_eq_tol(r.computed, 685112.8, 1e-6);
    ck_assert_int_eq(r.verdict, CS_VERDICT_SUPPORTED);
    cs_scenario_fini(&s);
    /* The seed's $280K for one 8-GPU node is off by 2.4x: not supported;
     * a range [$600K, $700K] holds it. */
    load_keep("  claim: {id: T, text: t, metric: total, owned: on-prem, claimed: $280K}\n", cat,
              &s, &in);
    ck_assert_int_eq(cs_cost_claim_evaluate(&s, &in, &d, &r), CS_OK);
    ck_assert_int_eq(r.verdict, CS_VERDICT_NOT_SUPPORTED);
    cs_scenario_fini(&s);
    load_keep("  claim: {id: T, text: t, metric: total, owned: colocation, low: $600K, high: "
              "$700K}\n",
              cat, &s, &in);
    ck_assert_int_eq(cs_cost_claim_evaluate(&s, &in, &d, &r), CS_OK);
    ck_assert_double_eq_tol(r.computed, 613432.8, 1e-6);
    ck_assert_int_eq(r.verdict, CS_VERDICT_SUPPORTED);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* Claim `cheaper_below_gpus`: per node on-prem costs capex 300,000 +
 * power 33,112.8 + site 112,000 + support 90,000 = $535,112.80, plus the
 * fixed staff 3 x $50,000 = $150,000; reserved 1y costs $630,720 per node.
 * On-prem wins when 535,112.8 n + 150,000 < 630,720 n, n > 1.569: from 2
 * nodes = 16 GPUs. Against reserved 3y ($420,480 per node) it never wins. */
START_TEST(test_cost_claim_cheaper_below_gpus)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    struct cs_cost_inputs in;
    struct cs_cost_claim_result r;
    cs_diags d;
    cs_diags_init(&d);
    load_keep("  claim: {id: C, text: t, metric: cheaper_below_gpus, owned: on-prem, cloud: "
              "cloud-reserved-1y, claimed: 32, tolerance: 10%}\n",
              cat, &s, &in);
    ck_assert_int_eq(cs_cost_claim_evaluate(&s, &in, &d, &r), CS_OK);
    ck_assert_double_eq(r.computed, 16);
    ck_assert_int_eq(r.verdict, CS_VERDICT_NOT_SUPPORTED);
    cs_scenario_fini(&s);
    load_keep("  claim: {id: C, text: t, metric: cheaper_below_gpus, owned: on-prem, cloud: "
              "cloud-reserved-1y, low: 9, high: 16}\n",
              cat, &s, &in);
    ck_assert_int_eq(cs_cost_claim_evaluate(&s, &in, &d, &r), CS_OK);
    ck_assert_int_eq(r.verdict, CS_VERDICT_SUPPORTED);
    cs_scenario_fini(&s);
    load_keep("  claim: {id: C, text: t, metric: cheaper_below_gpus, owned: on-prem, cloud: "
              "cloud-reserved-3y, claimed: 32}\n",
              cat, &s, &in);
    ck_assert_int_eq(cs_cost_claim_evaluate(&s, &in, &d, &r), CS_OK);
    ck_assert(isnan(r.computed));
    ck_assert_int_eq(r.verdict, CS_VERDICT_NOT_SUPPORTED);
    ck_assert_msg(strstr(r.explanation, "stays cheaper") != NULL, "%s", r.explanation);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* Prices nothing silently: a link without switch power (ib-hdr's Quantum
 * QM8700 row has none) and a shared tier without a capacity are warnings
 * naming the key (status CS_OK), and the bill of materials keeps what was
 * left out. Single switch: 1 switch. */
START_TEST(test_cost_unpriced_items_warn)
{
    static const char yaml[] =
        "schema_version: 1\n"
        "cluster:\n"
        "  gpu: H100-SXM5-80GB\n"
        "  nodes: 1\n"
        "  fabric: {topology: single-switch, link: ib-hdr}\n"
        "  storage: [nvme-gen4, lustre]\n"
        "cost: {gpu_price: $30000, electricity: $0.1/kWh, cloud: {on_demand: $4/GPU-h, "
        "reserved_1y: $3/GPU-h, reserved_3y: $2/GPU-h, spot: $1.5/GPU-h}}\n";
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("w.yaml", yaml, strlen(yaml), cat, &d, &s, NULL),
                     CS_OK);
    struct cs_cost_inputs in;
    ck_assert_int_eq(cs_cost_inputs_from_scenario(&s, NAN, false, &d, &in), CS_OK);
    ck_assert_int_eq(in.bom.switches, 1);
    ck_assert_int_eq(in.bom.unpowered_switches, 1);
    ck_assert_int_eq(in.bom.unpowered_optics, 0); /* one node: no cables, no optics */
    ck_assert_str_eq(in.bom.unsized_storage, "lustre");
    bool sw = false, cap = false;
    for (size_t i = 0; i < d.n; i++) {
        ck_assert_int_eq(d.items[i].sev, CS_SEV_WARNING);
        sw |= strstr(d.items[i].msg, "cluster.fabric.link_overrides.switch_power") != NULL;
        cap |= strstr(d.items[i].msg, "cluster.storage[1].capacity") != NULL;
    }
    ck_assert(sw && cap);
    cs_diags_fini(&d);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* Break-even labels do not overlap: in the small cluster both owned
 * options cross on-demand at $4 per utilized GPU-hour (0.8147 and 0.7294,
 * 8.5 points apart), so the second label is raised one step: heights
 * 4 x 1.35 = 5.4 and 5.4 x 1.35 = 7.29 (log y axis); the spot rows have
 * no crossing. The meta file names the six curves, two owned. */
START_TEST(test_cost_plot_labels_stack)
{
    struct cs_cost_inputs in;
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_keep("", cat, &s, &in);
    struct cs_tco_report *r = calloc(1, sizeof *r);
    /* The analyses as `clustersim tco` runs them (app/tco.c) on a priced
     * evaluation; no Monte Carlo, no claim. */
    struct cs_cost_result cres;
    cs_cost_evaluate(&in, &cres);
    struct cs_app_result res;
    memset(&res, 0, sizeof res);
    res.has_cost = true;
    res.cost_in = &in;
    res.cost = &cres; /* borrowed here: no cs_app_result_fini */
    cs_diags dg;
    cs_diags_init(&dg);
    cs_app_tco_analyze(&s, &res, 0.2, 0, &dg, r);
    ck_assert_uint_eq(dg.n, 0);
    cs_diags_fini(&dg);
    char dir[] = "/tmp/check_cost_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    cs_diags_init(&dg);
    ck_assert_int_eq(cs_out_tco_plot_data(dir, r, &dg), CS_OK);
    ck_assert_uint_eq(dg.n, 0);
    cs_diags_fini(&dg);
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/tco_util_marks.dat", dir);
    FILE *fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    double u[4], y[4], ly[4];
    int n = 0;
    while (fgets(line, sizeof line, fp))
        if (line[0] != '#' && n < 4 && sscanf(line, "%lf %lf %lf", &u[n], &y[n], &ly[n]) == 3)
            n++;
    fclose(fp);
    ck_assert_int_eq(n, 2);
    ck_assert_double_eq_tol(u[0], 685112.8 / 840960, 1e-6);
    ck_assert_double_eq_tol(y[0], 4.0, 1e-6);
    ck_assert_double_eq_tol(y[1], 4.0, 1e-6);
    ck_assert_double_eq_tol(ly[0], 5.4, 1e-6);
    ck_assert_double_eq_tol(ly[1], 7.29, 1e-6);
    snprintf(path, sizeof path, "%s/tco_meta.gp", dir);
    fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    bool names = false, owned = false, marks = false;
    while (fgets(line, sizeof line, fp)) {
        names |= !strcmp(line, "util_ncurves = 6\n");
        owned |= !strcmp(line, "util_nowned = 2\n");
        marks |= !strcmp(line, "util_nmarks = 2\n");
    }
    fclose(fp);
    ck_assert(names && owned && marks);
    static const char *const files[] = {"tco_meta.gp", "tco_bars.dat", "tco_util.dat",
                                        "tco_util_marks.dat", "tco_tornado.dat"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        ck_assert_int_eq(remove(path), 0);
    }
    ck_assert_int_eq(rmdir(dir), 0);
    free(r);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* ---- the network bill of materials ------------------------------------ */

/* 4 nodes of 8 H100 (32 NIC ports) with every other price of small_yaml;
 * fabric and link overrides filled in by the test. */
static const char net_yaml[] =
    "schema_version: 1\n"
    "cluster:\n"
    "  gpu: H100-SXM5-80GB\n"
    "  nodes: 4\n"
    "  fabric: {topology: %s, oversubscription: %s, link: %s, link_overrides: {%s}}\n"
    "cost:\n"
    "  years: 3\n"
    "  utilization: 0.5\n"
    "  electricity: $0.10/kWh\n"
    "  pue: 1.5\n"
    "  colocation: $100/kW-month\n"
    "  construction_per_mw: $10000000\n"
    "  depreciation_years: 3\n"
    "  support_per_year: 0.1\n"
    "  server_power_utilization: 0.75\n"
    "  server_power_multiplier: 2\n"
    "  network_cost_fraction: 0.2\n"
    "  gpu_price: $30000\n"
    "  cost_of_capital: 0\n"
    "  cloud: {on_demand: $4/GPU-h, reserved_1y: $3/GPU-h, reserved_3y: $2/GPU-h, "
    "spot: $1.5/GPU-h}\n";

/* Known unit prices and powers on the link itself (they override every
 * hardware row), radix 8. */
static const char net_prices[] =
    "switch_radix: 8, switch_price: $10000, nic_price: $500, optic_price: $100, "
    "cable_price: $20, switch_power: 200W, optic_power: 5W, nic_power: 10W";

/* Loads net_yaml; the diagnostics' text goes into msg. */
static cs_status net_inputs(const char *topo, const char *over, const char *link, const char *ov,
                            struct cs_cost_inputs *in, char *msg, size_t n)
{
    char buf[4096];
    snprintf(buf, sizeof buf, net_yaml, topo, over, link, ov);
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    cs_status st = cs_cfg_load_scenario_buffer("net.yaml", buf, strlen(buf), cat, &d, &s, NULL);
    if (st == CS_OK) {
        st = cs_cost_inputs_from_scenario(&s, NAN, false, &d, in);
        cs_scenario_fini(&s);
    }
    msg[0] = '\0';
    for (size_t i = 0; i < d.n; i++) {
        char *m = cs_diag_format(&d.items[i]);
        strncat(msg, m, n - strlen(msg) - 1);
        strncat(msg, "\n", n - strlen(msg) - 1);
        free(m);
    }
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
    return st;
}

/* Non-blocking 2-tier fat tree of radix k = 8 over E = 32 NIC ports, by
 * hand (docs/fabric.md: down = floor(k r / (1 + r)), up = k - down):
 * r = 1: down = 4, up = 4; leaves = 32 / 4 = 8; spines = ceil(8 x 4 / 8) =
 * 4; cables = 8 x 4 leaf uplinks + 32 NIC cables = 64; optics = 2 x 64 =
 * 128; NICs 32.
 * Capital: 12 x $10,000 + 32 x $500 + 128 x $100 + 64 x $20 = $150,080.
 * Power: 12 x 200 W + 128 x 5 W + 32 x 10 W (NICs priced apart) = 3,360 W.
 * Servers 32 x $30,000 = $960,000; hardware $1,110,080. */
START_TEST(test_cost_network_priced_by_hand)
{
    struct cs_cost_inputs in;
    char msg[8192];
    ck_assert_msg(net_inputs("fat-tree", "1", "ib-ndr", net_prices, &in, msg, sizeof msg) == CS_OK,
                  "%s", msg);
    const struct cs_cost_bom *b = &in.bom;
    ck_assert_int_eq(b->net[CS_NET_LEAF].count, 8);
    ck_assert_int_eq(b->net[CS_NET_SPINE].count, 4);
    ck_assert_int_eq(b->net[CS_NET_CORE].count, 0);
    ck_assert_int_eq(b->net[CS_NET_NICS].count, 32);
    ck_assert_int_eq(b->net[CS_NET_OPTICS].count, 128);
    ck_assert_int_eq(b->net[CS_NET_CABLES].count, 64);
    ck_assert_int_eq(b->net[CS_NET_DACS].count, 0);
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++)
        if (b->net[k].count > 0)
            ck_assert_int_eq(b->net[k].pay, CS_PAY_PRICED);
    ck_assert(b->network_priced && !b->network_fraction);
    ck_assert_str_eq(b->net[CS_NET_LEAF].price_from, "cluster.fabric.link.switch_price");
    ck_assert_double_eq_tol(b->network_hw_usd, 150080, 1e-6);
    ck_assert_double_eq_tol(b->network_power_w, 3360, 1e-9);
    struct cs_cost_result r;
    cs_cost_evaluate(&in, &r);
    ck_assert_double_eq_tol(r.network_usd, 150080, 1e-6);
    ck_assert_double_eq_tol(r.network_unpriced_usd, 0, 1e-9);
    ck_assert_double_eq_tol(r.capex_hw_usd, 1110080, 1e-6);
    /* nameplate 32 x 700 W x 2 = 44.8 kW + 3.36 kW of network */
    ck_assert_double_eq_tol(r.it_power_kw, 48.16, 1e-9);
    /* the capital charge of the switches (r = 0, 3 of 3 years): their price */
    const struct cs_cost_option_result *op = &r.opt[CS_OPT_ONPREM];
    ck_assert_double_eq_tol(op->network_usd[CS_NET_LEAF], 80000, 1e-6);
    ck_assert_double_eq_tol(op->network_usd[CS_NET_SPINE], 40000, 1e-6);
    ck_assert_double_eq_tol(op->network_usd[CS_NET_OPTICS], 12800, 1e-6);
    /* network energy: 3.36 kW x 1.5 x 26,280 h x $0.10 = $13,245.12 */
    ck_assert_double_eq_tol(op->network_usd[CS_NET_POWER], 13245.12, 1e-6);
    ck_assert_msg(strstr(msg, "no price") == NULL, "%s", msg);
}
END_TEST

/* The 2:1 spine-leaf of the same 32 ports and radix 8, by hand: down =
 * floor(8 x 2 / 3) = 5, up = 3; leaves = ceil(32 / 5) = 7; spines =
 * ceil(7 x 3 / 8) = 3; cables = 7 x 3 + 32 = 53; optics 106.
 * Capital: 10 x $10,000 + 32 x $500 + 106 x $100 + 53 x $20 = $127,660,
 * $22,420 less than the fat tree's $150,080 (2 switches, 22 optics and 11
 * cables fewer). Power: 10 x 200 + 106 x 5 + 32 x 10 = 2,850 W, 510 W less.
 * On-prem over 3 years (r = 0): capex -$22,420; operations 0.1 x 3 x
 * 22,420 = -$6,726; energy 0.51 kW x 1.5 x 26,280 h x $0.10 = -$2,010.42;
 * build-out $10M/MW x 0.00051 MW = -$5,100: -$36,256.42 in all. */
START_TEST(test_cost_network_oversubscribed_cheaper)
{
    struct cs_cost_inputs ft, sl;
    char msg[8192];
    ck_assert_msg(net_inputs("fat-tree", "1", "ib-ndr", net_prices, &ft, msg, sizeof msg) == CS_OK,
                  "%s", msg);
    ck_assert_msg(net_inputs("spine-leaf", "2", "ib-ndr", net_prices, &sl, msg, sizeof msg) ==
                      CS_OK,
                  "%s", msg);
    ck_assert_int_eq(sl.bom.net[CS_NET_LEAF].count, 7);
    ck_assert_int_eq(sl.bom.net[CS_NET_SPINE].count, 3);
    ck_assert_int_eq(sl.bom.net[CS_NET_OPTICS].count, 106);
    ck_assert_int_eq(sl.bom.net[CS_NET_CABLES].count, 53);
    ck_assert_double_eq_tol(sl.bom.network_hw_usd, 127660, 1e-6);
    ck_assert_double_eq_tol(ft.bom.network_hw_usd - sl.bom.network_hw_usd, 22420, 1e-6);
    ck_assert_double_eq_tol(ft.bom.network_power_w - sl.bom.network_power_w, 510, 1e-9);
    struct cs_cost_result a, b;
    cs_cost_evaluate(&ft, &a);
    cs_cost_evaluate(&sl, &b);
    ck_assert_double_eq_tol(a.opt[CS_OPT_ONPREM].total_usd - b.opt[CS_OPT_ONPREM].total_usd,
                            36256.42, 1e-6);
    /* the cloud options do not own the fabric */
    ck_assert_double_eq_tol(a.opt[CS_OPT_ON_DEMAND].total_usd, b.opt[CS_OPT_ON_DEMAND].total_usd,
                            1e-9);
}
END_TEST

/* The catalog rows alone (network-hardware.yaml): ib-ndr names Quantum-2
 * QM9700 ($36,000 street, 1,720 W with its optics), ConnectX-7 (no price:
 * in the server), the NIC-side 400G SR4 optic (9 W) and the NDR link
 * bundle ($1,320 per link with both optic ends). At radix 64 the 32 ports
 * take one leaf (down 32) and one spine: 2 switches, 64 cables, 128 optics.
 * Capital: 2 x 36,000 + 64 x 1,320 = $156,480 (optics in the bundle, NICs
 * in the server). Power: 2 x 1,720 W + 32 NIC-side optics x 9 W = 3,728 W.
 * The NIC without a price is a warning naming the row and the link. */
START_TEST(test_cost_network_catalog_rows)
{
    struct cs_cost_inputs in;
    char msg[8192];
    ck_assert_msg(net_inputs("fat-tree", "1", "ib-ndr", "", &in, msg, sizeof msg) == CS_OK, "%s",
                  msg);
    const struct cs_cost_bom *b = &in.bom;
    ck_assert_int_eq(b->switches, 2);
    ck_assert_int_eq(b->net[CS_NET_NICS].pay, CS_PAY_IN_SERVER);
    ck_assert_int_eq(b->net[CS_NET_OPTICS].pay, CS_PAY_IN_CABLE);
    ck_assert_int_eq(b->net[CS_NET_CABLES].pay, CS_PAY_PRICED);
    ck_assert_int_eq(b->net[CS_NET_LEAF].basis, CS_PRICE_STREET);
    ck_assert_int_eq(b->net[CS_NET_CABLES].basis, CS_PRICE_DERIVED);
    ck_assert_str_eq(b->net[CS_NET_LEAF].model, "quantum-2-qm9700");
    ck_assert(b->network_priced);
    ck_assert_double_eq_tol(b->network_hw_usd, 156480, 1e-6);
    ck_assert_double_eq_tol(b->network_power_w, 3728, 1e-9);
    ck_assert_msg(strstr(msg, "link ib-ndr: 32 NICs have no price (catalog nic connectx-7-400g: "
                              "price null") != NULL &&
                      strstr(msg, "part of the server price") != NULL,
                  "%s", msg);
}
END_TEST

/* A link without prices (ib-hdr: its Quantum QM8700, ConnectX-6 and HDR
 * optic rows have none, and it names no cable) warns once per item, naming
 * the link, the row, the count and what stands in; the network is then the
 * fraction's, 960,000 x 0.2 / 0.8 = $240,000, as before the rows existed.
 * With only a switch price given, the priced switches count at their price
 * and the fraction's estimate less them pays for the rest: the total stays
 * $240,000 while the fraction covers more than the priced part. At radix 40:
 * down 20, up 20; 2 leaves, 1 spine (ceil(2 x 20 / 40)); 2 x 20 + 32 = 72
 * cables, 144 optics; 3 x $20,000 = $60,000 priced, $180,000 from the
 * fraction. */
START_TEST(test_cost_network_missing_price_named)
{
    struct cs_cost_inputs in;
    char msg[8192];
    ck_assert_msg(net_inputs("fat-tree", "1", "ib-hdr", "", &in, msg, sizeof msg) == CS_OK, "%s",
                  msg);
    ck_assert(!in.bom.network_priced && in.bom.network_fraction);
    ck_assert_msg(strstr(msg, "link ib-hdr: 3 switches (leaf/spine/core 2/1/0) have no price "
                              "(catalog switch quantum-qm8700: price null") != NULL,
                  "%s", msg);
    ck_assert_msg(strstr(msg, "link ib-hdr: 144 optics have no price (catalog optic "
                              "hdr-200g-qsfp56-optic-or-aoc: price null") != NULL,
                  "%s", msg);
    ck_assert_msg(strstr(msg, "link ib-hdr: 72 optical cables have no price (the link names no "
                              "cable_model") != NULL,
                  "%s", msg);
    ck_assert_msg(strstr(msg, "used instead: cost.network_cost_fraction 0.2") != NULL, "%s", msg);
    struct cs_cost_result r;
    cs_cost_evaluate(&in, &r);
    ck_assert_double_eq_tol(r.network_usd, 240000, 1e-6);
    ck_assert_double_eq_tol(r.network_unpriced_usd, 240000, 1e-6);

    ck_assert(net_inputs("fat-tree", "1", "ib-hdr", "switch_price: $20000", &in, msg,
                         sizeof msg) == CS_OK);
    ck_assert_int_eq(in.bom.net[CS_NET_LEAF].pay, CS_PAY_PRICED);
    ck_assert_int_eq(in.bom.net[CS_NET_OPTICS].pay, CS_PAY_FRACTION);
    ck_assert_msg(strstr(msg, "switches (leaf/spine/core") == NULL, "%s", msg);
    cs_cost_evaluate(&in, &r);
    ck_assert_double_eq_tol(in.bom.network_priced_usd, 60000, 1e-6);
    ck_assert_double_eq_tol(r.network_unpriced_usd, 180000, 1e-6);
    ck_assert_double_eq_tol(r.network_usd, 240000, 1e-6);

    /* no fraction either (null overrides the site's): an error naming the
     * key, since the owned options need it */
    char buf[4096];
    snprintf(buf, sizeof buf, net_yaml, "fat-tree", "1", "ib-hdr", "");
    char *p = strstr(buf, "  network_cost_fraction: 0.2\n");
    ck_assert_ptr_nonnull(p);
    memcpy(p, "  network_cost_fraction: ~  \n", strlen("  network_cost_fraction: 0.2\n"));
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("net.yaml", buf, strlen(buf), cat, &d, &s, NULL),
                     CS_OK);
    ck_assert(isnan(s.cost.network_cost_fraction));
    ck_assert_int_eq(cs_cost_inputs_from_scenario(&s, NAN, false, &d, &in), CS_ECONFIG);
    bool named = false;
    for (size_t i = 0; i < d.n; i++)
        named |= strstr(d.items[i].msg, "cost.network_cost_fraction: no price") != NULL;
    ck_assert(named);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* A copper NIC-to-leaf cable (dac_model) takes the NIC links' optics out:
 * the radix-8 fat tree's 32 NIC cables become DACs, leaving 32 optical
 * leaf-spine cables with 64 optics. With the prices of net_prices (the
 * cable_price override covers both kinds of cable): 12 x 10,000 + 32 x 500
 * + 64 x 100 + 32 x 20 + 32 x 20 = $143,680, $6,400 less than all optical
 * (64 optics x $100). Power: 12 x 200 + 64 x 5 + 32 x 10 + 32 DACs x 0.1 W
 * (NVIDIA passive DAC spec) = 3,043.2 W. */
START_TEST(test_cost_network_dac_removes_optics)
{
    struct cs_cost_inputs in;
    char msg[8192];
    char ov[512];
    snprintf(ov, sizeof ov, "%s, dac_model: nvidia-mcp7y00-800g-dac-splitter", net_prices);
    ck_assert_msg(net_inputs("fat-tree", "1", "ib-ndr", ov, &in, msg, sizeof msg) == CS_OK, "%s",
                  msg);
    ck_assert_int_eq(in.bom.net[CS_NET_DACS].count, 32);
    ck_assert_int_eq(in.bom.net[CS_NET_CABLES].count, 32);
    ck_assert_int_eq(in.bom.net[CS_NET_OPTICS].count, 64);
    ck_assert_double_eq_tol(in.bom.network_hw_usd, 143680, 1e-6);
    ck_assert_double_eq_tol(in.bom.network_power_w, 3043.2, 1e-9);
    /* a dac_model that is not copper is refused, naming the key */
    snprintf(ov, sizeof ov, "dac_model: osfp-400g-aoc");
    ck_assert(net_inputs("fat-tree", "1", "ib-ndr", ov, &in, msg, sizeof msg) == CS_ECONFIG);
    ck_assert_msg(strstr(msg, "cluster.fabric.link.dac_model: expected a copper cable") != NULL,
                  "%s", msg);
    /* an unknown row is refused with the key */
    ck_assert(net_inputs("fat-tree", "1", "ib-ndr", "switch_model: quantum-9", &in, msg,
                         sizeof msg) == CS_ECONFIG);
    ck_assert_msg(strstr(msg, "cluster.fabric.link.switch_model") != NULL, "%s", msg);
}
END_TEST

static Suite *cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_cost_small_cluster_by_hand);
    tcase_add_test(tc, test_cost_capital_charge);
    tcase_add_test(tc, test_cost_break_even_analytic);
    tcase_add_test(tc, test_cost_monotonic);
    tcase_add_test(tc, test_cost_monte_carlo);
    tcase_add_test(tc, test_cost_missing_price_names_key);
    tcase_add_test(tc, test_cost_hybrid_bursts_by_hand);
    tcase_add_test(tc, test_cost_storage_capacity_by_hand);
    tcase_add_test(tc, test_cost_goodput_scales_run_cost);
    tcase_add_test(tc, test_cost_run_estimate_goodput);
    tcase_add_test(tc, test_cost_claim_total);
    tcase_add_test(tc, test_cost_claim_cheaper_below_gpus);
    tcase_add_test(tc, test_cost_unpriced_items_warn);
    tcase_add_test(tc, test_cost_plot_labels_stack);
    tcase_add_test(tc, test_cost_network_priced_by_hand);
    tcase_add_test(tc, test_cost_network_oversubscribed_cheaper);
    tcase_add_test(tc, test_cost_network_catalog_rows);
    tcase_add_test(tc, test_cost_network_missing_price_named);
    tcase_add_test(tc, test_cost_network_dac_removes_optics);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(cost_suite()); }
