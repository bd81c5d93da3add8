/* check_facility.c: the facility model (models/facility.c, docs/run.md
 * "Facility") against hand-derived racks, power and GPU power caps, and
 * its effect through a loaded scenario (the cap slows the step). */
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/compute.h"
#include "clustersim/models/facility.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 8 x H100 SXM (700 W) per node, 1.8 server watts per GPU watt: a node's
 * nameplate is 8 x 700 x 1.8 = 10,080 W. */
static void h100_cluster(struct cs_cluster_cfg *c, int nodes)
{
    memset(c, 0, sizeof *c);
    snprintf(c->gpu.name, sizeof c->gpu.name, "H100-SXM5-80GB");
    c->gpu.tdp_w = 700;
    c->gpu.power_limit_w = NAN;
    c->gpu.scaleup_domain_gpus = 8;
    c->nodes = nodes;
    c->gpus_per_node = 8;
}

static void fac_default(struct cs_facility_cfg *f, int cooling)
{
    memset(f, 0, sizeof *f);
    f->cooling = cooling;
    f->rack_power_w = f->node_power_w = NAN;
    f->rack_units = 42;
    f->floor_m2_per_rack = 2.8;
    f->ups_efficiency = 0.96;
    f->distribution_loss = 0.02;
    f->inlet_temp_c = 25;
    f->throttle_inlet_c = 30;
    f->node_mass_kg = NAN;
}

/* Air (20 kW): floor(20,000 / 10,080) = 1 node per rack (space allows
 * 42 / 8 = 5), 4 nodes -> 4 racks of 10.08 kW. IT 40,320 W; PUE 1.3 ->
 * facility 52,416 W; UPS 40,320 x (1/0.96 - 1) = 1,680 W; distribution
 * 0.02 x 40,320 = 806.4 W; cooling and the rest 52,416 - 40,320 - 1,680 -
 * 806.4 = 9,609.6 W; floor 4 x 2.8 = 11.2 m^2. */
START_TEST(test_facility_air_by_hand)
{
    struct cs_cluster_cfg c;
    struct cs_facility_cfg f;
    h100_cluster(&c, 4);
    fac_default(&f, CS_COOLING_AIR);
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    const struct cs_facility_result *r = &f.res;
    ck_assert_double_eq_tol(r->node_power_w, 10080, 1e-9);
    ck_assert_int_eq(r->nodes_per_rack_space, 5);
    ck_assert_int_eq(r->nodes_per_rack_cooling, 1);
    ck_assert_int_eq(r->nodes_per_rack, 1);
    ck_assert_int_eq(r->racks, 4);
    ck_assert_double_eq_tol(r->kw_per_rack, 10.08, 1e-12);
    ck_assert_double_eq_tol(r->it_power_w, 40320, 1e-9);
    ck_assert_double_eq_tol(r->facility_power_w, 52416, 1e-6);
    ck_assert_double_eq_tol(r->ups_loss_w, 1680, 1e-6);
    ck_assert_double_eq_tol(r->distribution_loss_w, 806.4, 1e-6);
    ck_assert_double_eq_tol(r->cooling_power_w, 9609.6, 1e-6);
    ck_assert_double_eq_tol(r->floor_m2, 11.2, 1e-12);
    ck_assert(r->cooling_ok);
    ck_assert(isnan(r->gpu_power_cap_w));
}
END_TEST

/* Two racks for 4 nodes: 2 per rack draw 20,160 W against 20,000 W. Each
 * node may shed 10,000 W; its non-GPU part is 10,080 - 8 x 700 = 4,480 W,
 * so the GPUs settle at (10,000 - 4,480) / 8 = 690 W. Rear-door (55 kW):
 * 5 nodes fit by cooling (floor(55,000 / 10,080)), 5 by space: 1 rack of
 * 4 nodes, 40.32 kW. Liquid (130 kW): space binds (5 per rack). */
START_TEST(test_facility_cap_and_kinds)
{
    struct cs_cluster_cfg c;
    struct cs_facility_cfg f;
    h100_cluster(&c, 4);
    fac_default(&f, CS_COOLING_AIR);
    f.racks = 2;
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert_int_eq(f.res.nodes_per_rack, 2);
    ck_assert(!f.res.cooling_ok);
    ck_assert_double_eq_tol(f.res.gpu_power_cap_w, 690, 1e-9);
    fac_default(&f, CS_COOLING_REAR_DOOR);
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert_int_eq(f.res.nodes_per_rack_cooling, 5);
    ck_assert_int_eq(f.res.racks, 1);
    ck_assert_double_eq_tol(f.res.kw_per_rack, 40.32, 1e-12);
    ck_assert(f.res.cooling_ok);
    h100_cluster(&c, 16);
    fac_default(&f, CS_COOLING_LIQUID);
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert_int_eq(f.res.nodes_per_rack_cooling, 12);
    ck_assert_int_eq(f.res.nodes_per_rack, 5);
    ck_assert_int_eq(f.res.racks, 4); /* ceil(16 / 5) */
    /* A given node power replaces the multiplier: 12 kW nodes, air 20 kW:
     * one per rack. */
    h100_cluster(&c, 3);
    fac_default(&f, CS_COOLING_AIR);
    f.node_power_w = 12000;
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert_double_eq_tol(f.res.it_power_w, 36000, 1e-9);
    ck_assert_int_eq(f.res.racks, 3);
    /* No power figure (a GPU without a TDP, found by fuzz_scenario): the
     * cooling does not bind, space does (5 per rack), nothing is capped. */
    h100_cluster(&c, 12);
    c.gpu.tdp_w = 0;
    fac_default(&f, CS_COOLING_AIR);
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert_int_eq(f.res.nodes_per_rack, 5);
    ck_assert_int_eq(f.res.racks, 3);
    ck_assert(f.res.cooling_ok && isnan(f.res.gpu_power_cap_w));
}
END_TEST

/* A rack-scale NVLink system: 72 GPUs of 1,200 W in 18 nodes of 4, one
 * rack by design: 18 x 4 x 1,200 x 1.8 = 155,520 W. Liquid cooling is sized
 * to it (no cap); given a 130 kW limit, each node may shed 130,000 / 18 =
 * 7,222.2 W, its non-GPU part 4 x 1,200 x 0.8 = 3,840 W: GPUs at
 * (7,222.2 - 3,840) / 4 = 845.6 W. */
START_TEST(test_facility_rack_scale)
{
    struct cs_cluster_cfg c;
    memset(&c, 0, sizeof c);
    c.gpu.tdp_w = 1200;
    c.gpu.power_limit_w = NAN;
    c.gpu.scaleup_domain_gpus = 72;
    c.gpus_per_node = 4;
    c.nodes = 36;
    struct cs_facility_cfg f;
    fac_default(&f, CS_COOLING_LIQUID);
    cs_facility_evaluate(&c, &f, 1.8, 1.2);
    ck_assert_int_eq(f.res.nodes_per_rack, 18);
    ck_assert_int_eq(f.res.racks, 2);
    ck_assert(f.res.cooling_ok);
    ck_assert_double_eq_tol(f.res.kw_per_rack, 155.52, 1e-9);
    f.rack_power_w = 130e3;
    cs_facility_evaluate(&c, &f, 1.8, 1.2);
    ck_assert(!f.res.cooling_ok);
    ck_assert_double_eq_tol(f.res.gpu_power_cap_w, (130000.0 / 18 - 3840) / 4, 1e-9);
}
END_TEST

/* Through the loader: the default scenario gets 4 racks; 2 racks throttle
 * the GPUs to 690 W (a warning, the power limit set, clock x cbrt(690/700));
 * 1 rack would hold them at (5,000 - 4,480) / 8 = 65 W: an error. */
START_TEST(test_facility_loaded)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const char *base = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 4, fabric: "
                       "{topology: single-switch, link: ib-ndr}}\n";
    char y[512];
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", base, strlen(base), cat, &d, &s, NULL), CS_OK);
    ck_assert_int_eq(s.facility.res.racks, 4);
    ck_assert(isnan(s.cluster.gpu.power_limit_w) || s.cluster.gpu.power_limit_w >= 700);
    cs_scenario_fini(&s);
    snprintf(y, sizeof y, "%sfacility: {racks: 2}\n", base);
    cs_diags_fini(&d);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
    ck_assert_double_eq_tol(s.cluster.gpu.power_limit_w, 690, 1e-9);
    bool warned = false;
    for (size_t i = 0; i < d.n; i++)
        warned = warned || strstr(d.items[i].msg, "the GPUs throttle to 690 W of 700 W") != NULL;
    ck_assert(warned);
    cs_scenario_fini(&s);
    snprintf(y, sizeof y, "%sfacility: {racks: 1}\n", base);
    cs_diags_fini(&d);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", y, strlen(y), cat, &d, &s, NULL), CS_ECONFIG);
    bool err = false;
    for (size_t i = 0; i < d.n; i++)
        err = err || strstr(d.items[i].msg, "held at 65 W") != NULL;
    ck_assert(err);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* A power limit under CS_CLOCK_LAW_MIN_CAP (0.65) of the TDP is outside
 * the clock law's validated range (validation/hardware/power-cap-
 * throughput.csv): 400 W of 700 W (0.57) warns, 500 W (0.71) does not. */
START_TEST(test_facility_clock_law_range_warning)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const int watts[2] = {400, 500};
    for (int k = 0; k < 2; k++) {
        char y[512];
        snprintf(y, sizeof y,
                 "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1, gpu_overrides: {power_limit: %dW}}\n",
                 watts[k]);
        cs_diags_fini(&d);
        cs_diags_init(&d);
        struct cs_scenario s;
        ck_assert_int_eq(cs_cfg_load_scenario_buffer("p.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
        ck_assert_double_eq_tol(s.cluster.gpu.power_limit_w, watts[k], 1e-9);
        bool warned = false;
        for (size_t i = 0; i < d.n; i++)
            warned = warned || (d.items[i].sev == CS_SEV_WARNING && strstr(d.items[i].msg, "clock law") != NULL &&
                                strstr(d.items[i].msg, "0.57 of the 700 W TDP") != NULL);
        ck_assert(warned == (k == 0));
        cs_scenario_fini(&s);
    }
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* The thermal transient by hand: 8 nodes of 8 H100 in 3 air racks of
 * 20 kW: ceil(8 / 3) = 3 nodes per rack, 3 x 10,080 = 30,240 W, 10,240 W
 * over the limit. Thermal mass 3 x 130.45 kg x 600 J/(kg K) = 234,810 J/K
 * plus 2.8 m^2 x 3 m x 1.2 x 1,005 = 10,130.4 J/K of air: 244,940.4 J/K.
 * From 25 C to 30 C: 244,940.4 x 5 / 10,240 = 119.60 s. The GPUs then hold
 * (20,000 / 3 - 4,480) / 8 = 273.33 W: clock (273.33 / 700)^(1/3) = 0.7309.
 * A 20 C supply doubles the margin and the time (239.2 s); one node per
 * rack never throttles. */
START_TEST(test_facility_thermal_by_hand)
{
    struct cs_cluster_cfg c;
    struct cs_facility_cfg f;
    h100_cluster(&c, 8);
    fac_default(&f, CS_COOLING_AIR);
    f.racks = 3;
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    const struct cs_facility_result *r = &f.res;
    ck_assert_int_eq(r->nodes_per_rack, 3);
    ck_assert(!r->cooling_ok);
    ck_assert_double_eq_tol(r->excess_heat_w, 10240, 1e-6);
    ck_assert_double_eq_tol(r->thermal_mass_j_per_k, 244940.4, 1e-6);
    ck_assert_double_eq_tol(r->time_to_throttle_s, 244940.4 * 5 / 10240, 1e-9);
    ck_assert_double_eq_tol(r->time_to_throttle_s, 119.60, 0.005);
    /* the air alone: 10,130.4 x 5 / 10,240 = 4.95 s */
    ck_assert_double_eq_tol(r->time_to_throttle_air_s, 10130.4 * 5 / 10240, 1e-9);
    ck_assert_double_eq_tol(r->gpu_power_cap_w, (20000.0 / 3 - 4480) / 8, 1e-9);
    ck_assert_double_eq_tol(r->sustained_clock_factor, 0.7309, 1e-4);
    f.inlet_temp_c = 20;
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert_double_eq_tol(f.res.time_to_throttle_s, 244940.4 * 10 / 10240, 1e-9);
    f.inlet_temp_c = 25;
    f.racks = 0; /* one node per rack: within the limit */
    cs_facility_evaluate(&c, &f, 1.8, 1.3);
    ck_assert(f.res.cooling_ok);
    ck_assert(isinf(f.res.time_to_throttle_s));
    ck_assert(isinf(f.res.time_to_throttle_air_s));
    ck_assert_double_eq_tol(f.res.sustained_clock_factor, 1, 1e-12);
    ck_assert_double_eq_tol(f.res.excess_heat_w, 0, 1e-12);
}
END_TEST

/* PUE by cooling kind: air and rear-door keep the site's figure; liquid is
 * 1 + (1/0.96 - 1) + 0.02 + 0.04 = 1.101667, capped by the site's (a
 * hyperscale site's 1.1 stays 1.1). */
START_TEST(test_facility_pue_by_cooling)
{
    ck_assert_double_eq_tol(cs_facility_default_pue(CS_COOLING_AIR, 1.3, 0.96, 0.02), 1.3, 1e-12);
    ck_assert_double_eq_tol(cs_facility_default_pue(CS_COOLING_REAR_DOOR, 1.3, 0.96, 0.02), 1.3, 1e-12);
    ck_assert_double_eq_tol(cs_facility_default_pue(CS_COOLING_LIQUID, 1.3, 0.96, 0.02),
                            1 + 1 / 0.96 - 1 + 0.02 + 0.04, 1e-12);
    ck_assert_double_eq_tol(cs_facility_default_pue(CS_COOLING_LIQUID, 1.3, 0.96, 0.02), 1.101667, 1e-6);
    ck_assert_double_eq_tol(cs_facility_default_pue(CS_COOLING_LIQUID, 1.1, 0.96, 0.02), 1.1, 1e-12);
    /* a lossier power chain: 1/0.9 - 1 + 0.05 + 0.04 = 0.2011 */
    ck_assert_double_eq_tol(cs_facility_default_pue(CS_COOLING_LIQUID, 1.5, 0.9, 0.05),
                            1 + 1 / 0.9 - 1 + 0.05 + 0.04, 1e-12);
}
END_TEST

/* Through the loader: liquid cooling without cost.pue takes 1.101667
 * (facility power = IT x it; the provenance says why); cost.pue wins when
 * given; a throttle inlet not above the supply is an error naming it. */
START_TEST(test_facility_pue_loaded)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const char *base = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 4, fabric: "
                       "{topology: single-switch, link: ib-ndr}}\n";
    char y[512];
    struct cs_scenario s;
    struct cs_provenance prov;
    cs_provenance_init(&prov);
    snprintf(y, sizeof y, "%sfacility: {cooling: liquid}\n", base);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", y, strlen(y), cat, &d, &s, &prov), CS_OK);
    ck_assert_double_eq_tol(s.cost.pue, 1 + 1 / 0.96 - 1 + 0.02 + 0.04, 1e-12);
    ck_assert_double_eq_tol(s.facility.res.facility_power_w, 40320 * s.cost.pue, 1e-6);
    const struct cs_prov_entry *pe = cs_provenance_find(&prov, "cost.pue");
    ck_assert_ptr_nonnull(pe);
    ck_assert_ptr_nonnull(strstr(pe->origin, "NREL ESIF"));
    cs_scenario_fini(&s);
    cs_provenance_fini(&prov);
    snprintf(y, sizeof y, "%sfacility: {cooling: liquid}\ncost: {pue: 1.25}\n", base);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
    ck_assert_double_eq_tol(s.cost.pue, 1.25, 1e-12);
    cs_scenario_fini(&s);
    snprintf(y, sizeof y, "%sfacility: {cooling: air}\n", base);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
    ck_assert_double_eq_tol(s.cost.pue, 1.3, 1e-12);
    cs_scenario_fini(&s);
    snprintf(y, sizeof y, "%sfacility: {inlet_temp: 30, throttle_inlet_temp: 30}\n", base);
    cs_diags_fini(&d);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("f.yaml", y, strlen(y), cat, &d, &s, NULL), CS_ECONFIG);
    bool err = false;
    for (size_t i = 0; i < d.n; i++)
        err = err || strstr(d.items[i].msg, "facility.throttle_inlet_temp") != NULL;
    ck_assert(err);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* Splits one CSV line in place at commas (no quoting: the table has none);
 * returns the number of fields, at most `max`. */
static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* Holdout check of the cube-root clock law against measured training
 * throughput under power limits (validation/hardware/power-cap-throughput.csv:
 * Zeus NSDI'23 V100 and A40 power traces, one secondary McDonald et al. 2022
 * V100 figure; docs/run.md "Clocks under power limits: validation"). The
 * model's throughput ratio of a compute-bound workload at limit L is its
 * clock factor cs_gpu_clock_factor = (L / TDP)^(1/3), TDP = the default
 * (maximum) limit: by hand, 125 W of 250 W gives 0.5^(1/3) = 0.7937.
 * Tolerance, stated before the comparison: 5 percentage points per row.
 * What it asserts:
 *  - compute-bound rows (uncapped draw >= 85% of the default limit, the
 *    model's premise that the workload draws its TDP) at limits >= 0.65 of
 *    the default agree within 5 points (15 rows: V100 at 175-225 W for
 *    resnet50 and both BERTs, A40 at 200-275 W for both BERTs);
 *  - every compute-bound row: the model's ratio is at least the measured one
 *    less 5 points (docs/models.md: static power is left out, so the law is
 *    an upper bound on the clock). Below about 0.6 of the default the model
 *    is too optimistic by 8-46 points (printed): the known miss.
 * Rows of workloads that draw well below the limit (ncf, shufflenet,
 * deepspeech2) are printed, not asserted: the model has no per-workload
 * draw, so it slows them as if they drew the TDP. The domain bounds (85%,
 * 0.65) were chosen after seeing the comparison: the in-domain figure is
 * descriptive, the whole-table figures are the holdout result. */
START_TEST(test_facility_power_cap_validation)
{
    struct cs_gpu_spec g;
    memset(&g, 0, sizeof g);
    g.tdp_w = 250;
    g.power_limit_w = 125;
    ck_assert_double_eq_tol(cs_gpu_clock_factor(&g), 0.7937005, 1e-6);
    FILE *fp = fopen(cs_test_data("validation/hardware/power-cap-throughput.csv"), "r");
    ck_assert_msg(fp != NULL, "validation/hardware/power-cap-throughput.csv is missing");
    char line[1024];
    bool header = false;
    int n = 0, n_in = 0, n_deep = 0, n_light = 0;
    double in_sum = 0, in_max = 0, deep_sum = 0, deep_max = 0, light_sum = 0, all_sum = 0, mcd = NAN;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#')
            continue;
        char *f[16];
        int nf = split_csv(line, f, 16);
        if (!header) {
            ck_assert_int_eq(nf, 11);
            ck_assert_str_eq(f[0], "source");
            ck_assert_str_eq(f[2], "default_limit_w");
            ck_assert_str_eq(f[6], "power_limit_w");
            ck_assert_str_eq(f[9], "throughput_ratio");
            ck_assert_str_eq(f[10], "default_power_w");
            header = true;
            continue;
        }
        ck_assert_int_eq(nf, 11);
        double tdp = atof(f[2]), lim = atof(f[6]), meas = atof(f[9]);
        double draw = f[10][0] ? atof(f[10]) : NAN;
        ck_assert(tdp > 0 && lim > 0 && lim < tdp && meas > 0);
        memset(&g, 0, sizeof g);
        g.tdp_w = tdp;
        g.power_limit_w = lim;
        double model = cs_gpu_clock_factor(&g);
        double err = model - meas; /* + : the model is too fast */
        n++;
        all_sum += fabs(err);
        if (!isfinite(draw)) {
            mcd = err;
            continue;
        }
        if (draw >= 0.85 * tdp) {
            ck_assert_msg(err >= -0.05, "%s %s at %g W: model %.3f below measured %.3f by more than 5 points", f[1],
                          f[3], lim, model, meas);
            if (lim >= 0.65 * tdp) {
                ck_assert_msg(fabs(err) <= 0.05, "%s %s at %g W: model %.3f vs measured %.3f", f[1], f[3], lim, model,
                              meas);
                n_in++;
                in_sum += fabs(err);
                in_max = fmax(in_max, fabs(err));
            } else {
                n_deep++;
                deep_sum += fabs(err);
                deep_max = fmax(deep_max, fabs(err));
            }
        } else {
            n_light++;
            light_sum += fabs(err);
        }
    }
    fclose(fp);
    ck_assert(header);
    ck_assert_int_eq(n, 87);
    ck_assert_int_eq(n_in, 15);
    ck_assert(isfinite(mcd));
    printf("power caps vs cube-root law (87 rows, MAE %.1f pp): compute-bound at >= 0.65 TDP %d rows, MAE %.1f pp, "
           "max %.1f; compute-bound below %d rows, MAE %.1f pp, max %.1f (model too fast); light workloads %d rows, "
           "MAE %.1f pp; McDonald 2022 V100 150 W %+.1f pp\n",
           100 * all_sum / n, n_in, 100 * in_sum / n_in, 100 * in_max, n_deep, 100 * deep_sum / n_deep,
           100 * deep_max, n_light, 100 * light_sum / n_light, 100 * mcd);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("facility");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_facility_air_by_hand);
    tcase_add_test(tc, test_facility_cap_and_kinds);
    tcase_add_test(tc, test_facility_rack_scale);
    tcase_add_test(tc, test_facility_loaded);
    tcase_add_test(tc, test_facility_clock_law_range_warning);
    tcase_add_test(tc, test_facility_thermal_by_hand);
    tcase_add_test(tc, test_facility_pue_by_cooling);
    tcase_add_test(tc, test_facility_pue_loaded);
    tcase_add_test(tc, test_facility_power_cap_validation);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cs_test_run(suite());
}
