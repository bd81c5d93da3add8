/* cfg_cost.c: the TCO keys of `cost:` that scenario.c's cost table does not
 * hold (staff, cooling, cost of capital, cloud egress/storage/spot losses,
 * hybrid demand profile, sensitivity, Monte Carlo ranges, a seed claim,
 * published reference figures).
 * Config layer: YAML nodes in, struct cs_cost_ext and diagnostics out. The
 * keys and their defaults are documented in docs/cost.md. */
#include "cfg_cost.h"

#include "clustersim/config/config.h"

#include "clustersim/base/units.h"
#include "schema.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define F_CUSTOM_(k) { .key = k, .type = CS_FT_CUSTOM }
#define F_(k, ty, m, ...) { .key = k, .type = ty, .offset = offsetof(struct cs_cost_ext, m), __VA_ARGS__ }

static const char *const cooling_names[] = {"air", "liquid", "rear-door", NULL};
static const char *const hybrid_owned_names[] = {"colocation", "on-prem", NULL};
static const char *const hybrid_burst_names[] = {"on-demand", "spot", NULL};
static const char *const metric_names[] = {"none", "break_even", "savings", "ratio", "total",
                                           "cheaper_below_gpus", NULL};

/* Scalar keys directly under `cost:`. */
static const struct cs_field ext_fields[] = {
    F_("staff_per_year", CS_FT_QTY, staff_usd_per_year, .unit = CS_UNIT_MONEY, .min = 0,
       .max = 1e10, .doc = "staff cost per year"),
    F_("servers_per_admin", CS_FT_NUM, servers_per_admin, .min = 1, .max = 1e6,
       .doc = "servers one systems administrator (FTE) runs"),
    F_("staff_per_admin", CS_FT_QTY, staff_usd_per_admin_year, .unit = CS_UNIT_MONEY, .min = 0,
       .max = 1e8, .doc = "loaded yearly cost of one FTE"),
    F_("cooling", CS_FT_ENUM, cooling, .names = cooling_names, .doc = "air | liquid | rear-door"),
    F_("rear_door_per_rack", CS_FT_QTY, rear_door_usd_per_rack, .unit = CS_UNIT_MONEY, .min = 0,
       .max = 1e7, .doc = "rear-door heat exchanger capital per rack"),
    F_("liquid_cooling_per_kw", CS_FT_QTY, liquid_cooling_usd_per_kw, .unit = CS_UNIT_MONEY,
       .min = 0, .max = 1e7, .doc = "liquid-cooling capital per kW of IT load"),
    F_("cost_of_capital", CS_FT_QTY, cost_of_capital, .unit = CS_UNIT_RATIO, .min = 0,
       .max = 1, .doc = "annual rate"),
    F_("facility_life_years", CS_FT_NUM, facility_life_years, .min = 0, .max = 100,
       .flags = CS_F_MINEXCL, .doc = "life of the on-prem build-out"),
    F_("idle_power_fraction", CS_FT_QTY, idle_power_fraction, .unit = CS_UNIT_RATIO, .min = 0,
       .max = 1, .doc = "idle draw over nameplate"),
    F_("sensitivity", CS_FT_QTY, sensitivity, .unit = CS_UNIT_RATIO, .min = 0, .max = 0.9,
       .flags = CS_F_MINEXCL, .doc = "relative step of the sensitivity table"),
    F_("monte_carlo", CS_FT_INT, monte_carlo, .min = 0, .max = 1000000,
       .doc = "Monte Carlo samples"),
};

/* Keys under `cost.cloud:` (the rest of that mapping is scenario.c's). */
static const struct cs_field cloud_fields[] = {
    F_("egress", CS_FT_QTY, egress_bytes_per_month, .unit = CS_UNIT_BYTES, .min = 0, .max = 1e21,
       .doc = "data leaving the cloud per month"),
    F_("egress_price", CS_FT_QTY, egress_usd_per_tb, .unit = CS_UNIT_USD_PER_TB, .min = 0,
       .max = 1e6, .doc = "per TB"),
    F_("storage", CS_FT_QTY, cloud_storage_bytes, .unit = CS_UNIT_BYTES, .min = 0, .max = 1e21,
       .doc = "storage held in the cloud"),
    F_("storage_price", CS_FT_QTY, cloud_storage_usd_per_tb_month, .unit = CS_UNIT_USD_PER_TB,
       .min = 0, .max = 1e6, .doc = "per TB-month"),
    F_("spot_interruptions", CS_FT_NUM, spot_interruptions_per_h, .min = 0, .max = 100,
       .doc = "preemptions per hour of a spot job"),
    F_("spot_lost", CS_FT_QTY, spot_lost_s_per_interruption, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e7, .doc = "work lost per preemption"),
};

static const struct cs_field hybrid_fields[] = {
    F_CUSTOM_("baseline_gpus"),
    F_("owned", CS_FT_ENUM, hybrid_owned, .names = hybrid_owned_names,
       .doc = "colocation | on-prem"),
    F_("burst", CS_FT_ENUM, hybrid_burst, .names = hybrid_burst_names, .doc = "on-demand | spot"),
    F_CUSTOM_("demand"),
};

/* The inputs that `ranges:` may vary, with the unit their bounds are
 * written in (names as the cost model's input table, models/cost.c). */
static const struct {
    const char *key;
    enum cs_unit_kind unit;
} range_keys[] = {
    {"gpu_price", CS_UNIT_MONEY},          {"server_price", CS_UNIT_MONEY},
    {"network_cost_fraction", CS_UNIT_RATIO}, {"electricity", CS_UNIT_USD_PER_KWH},
    {"pue", CS_UNIT_RATIO},                {"colocation", CS_UNIT_USD_PER_KW_MONTH},
    {"construction_per_mw", CS_UNIT_MONEY}, {"support_per_year", CS_UNIT_RATIO},
    {"staff_per_year", CS_UNIT_MONEY},     {"utilization", CS_UNIT_RATIO},
    {"cost_of_capital", CS_UNIT_RATIO},    {"depreciation_years", CS_UNIT_COUNT},
    {"server_power_multiplier", CS_UNIT_COUNT}, {"server_power_utilization", CS_UNIT_RATIO},
    {"liquid_cooling_per_kw", CS_UNIT_MONEY}, {"on_demand", CS_UNIT_USD_PER_GPU_HOUR},
    {"reserved_1y", CS_UNIT_USD_PER_GPU_HOUR}, {"reserved_3y", CS_UNIT_USD_PER_GPU_HOUR},
    {"spot", CS_UNIT_USD_PER_GPU_HOUR},
};

static void walk_scalars(const struct cs_field *t, size_t n, const struct cs_ynode *map,
                         const char *parent, struct cs_cost_ext *x, cs_diags *d)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].type == CS_FT_CUSTOM)
            continue;
        const struct cs_ynode *v = cs_ynode_map_get(map, t[i].key);
        if (!v)
            continue;
        char *p = cs_cfg__path(parent, t[i].key);
        cs_cfg__set(&t[i], v, p, x, d);
        free(p);
    }
}

static bool parse_qty(const struct cs_ynode *v, enum cs_unit_kind unit, const char *path,
                      double *out, cs_diags *d)
{
    char shown[128], err[256];
    cs_cfg__show(v, shown, sizeof shown);
    if (!v || v->kind != CS_YNODE_SCALAR) {
        cs_cfg__error(d, v, "%s: expected %s like \"%s\", got %s", path, cs_units_kind_name(unit),
                      cs_units_example(unit), shown);
        return false;
    }
    if (cs_units_parse(v->scalar, unit, out, err, sizeof err) != CS_OK) {
        cs_cfg__error(d, v, "%s: %s", path, err);
        return false;
    }
    return true;
}

static void bind_hybrid(const struct cs_ynode *hv, struct cs_scenario *s, cs_diags *d)
{
    struct cs_cost_ext *x = &s->cost.ext;
    if (!hv || cs_ynode_is_null(hv))
        return;
    if (hv->kind != CS_YNODE_MAP) {
        char shown[128];
        cs_cfg__show(hv, shown, sizeof shown);
        cs_cfg__error(d, hv, "cost.hybrid: expected a mapping {baseline_gpus, owned, burst, "
                             "demand}, got %s", shown);
        return;
    }
    for (size_t i = 0; i < hv->n; i++)
        if (!cs_cfg__find(hybrid_fields, NELEM(hybrid_fields), hv->pairs[i].key->scalar))
            cs_cfg__unknown_key(d, hv->pairs[i].key, "cost.hybrid", hybrid_fields,
                                NELEM(hybrid_fields), NULL);
    walk_scalars(hybrid_fields, NELEM(hybrid_fields), hv, "cost.hybrid", x, d);
    const struct cs_ynode *bv = cs_ynode_map_get(hv, "baseline_gpus");
    if (bv) {
        double g;
        if (bv->kind == CS_YNODE_SCALAR && !strcmp(bv->scalar, "optimal")) {
            x->hybrid_baseline_gpus = -1;
        } else if (parse_qty(bv, CS_UNIT_COUNT, "cost.hybrid.baseline_gpus", &g, d)) {
            long total = cs_scenario_gpus(s);
            if (g < 0 || g > (double)total || g != floor(g))
                cs_cfg__error(d, bv, "cost.hybrid.baseline_gpus: expected a whole number of "
                                     "GPUs from 0 to the cluster's %ld, or \"optimal\", got %s",
                              total, bv->scalar);
            else
                x->hybrid_baseline_gpus = (int)g;
        }
    }
    const struct cs_ynode *dv = cs_ynode_map_get(hv, "demand");
    if (dv) {
        if (dv->kind != CS_YNODE_SEQ || dv->n == 0 || dv->n > CS_COST_MAX_DEMAND) {
            cs_cfg__error(d, dv, "cost.hybrid.demand: expected a sequence of 1 to %d busy "
                                 "fractions of the cluster (one per equal period), got %s",
                          CS_COST_MAX_DEMAND, cs_ynode_describe(dv));
            return;
        }
        for (size_t i = 0; i < dv->n; i++) {
            char p[64];
            snprintf(p, sizeof p, "cost.hybrid.demand[%zu]", i);
            double f;
            if (!parse_qty(dv->items[i], CS_UNIT_RATIO, p, &f, d))
                continue;
            if (f < 0 || f > 1) {
                cs_cfg__error(d, dv->items[i], "%s: expected a fraction from 0 to 1, got %s", p,
                              dv->items[i]->scalar);
                continue;
            }
            x->demand[i] = f;
        }
        x->n_demand = (int)dv->n;
    }
}

static void bind_ranges(const struct cs_ynode *rv, struct cs_cost_ext *x, cs_diags *d)
{
    if (!rv || cs_ynode_is_null(rv))
        return;
    if (rv->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, rv, "cost.ranges: expected a mapping INPUT: [LOW, HIGH], got %s",
                      cs_ynode_describe(rv));
        return;
    }
    for (size_t i = 0; i < rv->n; i++) {
        const struct cs_ynode *k = rv->pairs[i].key, *v = rv->pairs[i].value;
        size_t j = 0;
        while (j < NELEM(range_keys) && strcmp(range_keys[j].key, k->scalar) != 0)
            j++;
        char p[160];
        snprintf(p, sizeof p, "cost.ranges.%s", k->scalar);
        if (j == NELEM(range_keys)) {
            char list[1024] = "";
            for (size_t m = 0; m < NELEM(range_keys); m++) {
                strncat(list, range_keys[m].key, sizeof list - strlen(list) - 1);
                if (m + 1 < NELEM(range_keys))
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            cs_cfg__error(d, k, "%s: unknown input (expected one of %s)", p, list);
            continue;
        }
        if (v->kind != CS_YNODE_SEQ || v->n != 2) {
            cs_cfg__error(d, v, "%s: expected [LOW, HIGH], got %s", p, cs_ynode_describe(v));
            continue;
        }
        double lo, hi;
        if (!parse_qty(v->items[0], range_keys[j].unit, p, &lo, d) ||
            !parse_qty(v->items[1], range_keys[j].unit, p, &hi, d))
            continue;
        if (!(lo <= hi) || lo < 0) {
            cs_cfg__error(d, v, "%s: expected 0 <= LOW <= HIGH, got [%s, %s]", p,
                          v->items[0]->scalar, v->items[1]->scalar);
            continue;
        }
        if (x->n_ranges == CS_COST_MAX_RANGES) {
            cs_cfg__error(d, k, "%s: at most %d ranges", p, CS_COST_MAX_RANGES);
            return;
        }
        struct cs_cost_range *r = &x->ranges[x->n_ranges++];
        snprintf(r->key, sizeof r->key, "%s", range_keys[j].key);
        r->low = lo;
        r->high = hi;
    }
}

static const char *const option_names[] = {"on-prem", "colocation", "cloud-on-demand",
                                           "cloud-reserved-1y", "cloud-reserved-3y",
                                           "cloud-spot", "hybrid", NULL};

static bool want_option(const struct cs_ynode *v, const char *path, char *dst, size_t n,
                        cs_diags *d)
{
    if (!v)
        return true;
    for (size_t i = 0; option_names[i]; i++)
        if (v->kind == CS_YNODE_SCALAR && !strcmp(v->scalar, option_names[i])) {
            snprintf(dst, n, "%s", option_names[i]);
            return true;
        }
    char shown[128];
    cs_cfg__show(v, shown, sizeof shown);
    cs_cfg__error(d, v, "%s: expected an option name (on-prem, colocation, cloud-on-demand, "
                        "cloud-reserved-1y, cloud-reserved-3y, cloud-spot, hybrid), got %s",
                  path, shown);
    return false;
}

static void bind_claim(const struct cs_ynode *cv, struct cs_cost_ext *x, cs_diags *d)
{
    struct cs_cost_claim *c = &x->claim;
    if (!cv || cs_ynode_is_null(cv))
        return;
    if (cv->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, cv, "cost.claim: expected a mapping {id, text, metric, ...}, got %s",
                      cs_ynode_describe(cv));
        return;
    }
    static const char *const keys[] = {"id", "text", "metric", "owned", "cloud", "claimed",
                                       "low", "high", "tolerance", NULL};
    for (size_t i = 0; i < cv->n; i++) {
        size_t j = 0;
        while (keys[j] && strcmp(keys[j], cv->pairs[i].key->scalar) != 0)
            j++;
        if (!keys[j])
            cs_cfg__error(d, cv->pairs[i].key,
                          "cost.claim.%s: unknown key (expected id, text, metric, owned, "
                          "cloud, claimed, low, high, tolerance)",
                          cv->pairs[i].key->scalar);
    }
    const struct cs_ynode *v;
    if ((v = cs_ynode_map_get(cv, "id")) && v->kind == CS_YNODE_SCALAR)
        snprintf(c->id, sizeof c->id, "%s", v->scalar);
    if ((v = cs_ynode_map_get(cv, "text")) && v->kind == CS_YNODE_SCALAR)
        snprintf(c->text, sizeof c->text, "%s", v->scalar);
    v = cs_ynode_map_get(cv, "metric");
    int m = -1;
    for (int i = 1; v && v->kind == CS_YNODE_SCALAR && metric_names[i]; i++)
        if (!strcmp(v->scalar, metric_names[i]))
            m = i;
    if (m < 0) {
        cs_cfg__error(d, v ? v : cv, "cost.claim.metric: expected break_even | savings | ratio | "
                                     "total | cheaper_below_gpus, got %s",
                      v && v->scalar ? v->scalar : "nothing");
        return;
    }
    c->metric = (enum cs_cost_claim_metric)m;
    snprintf(c->owned, sizeof c->owned, "on-prem");
    snprintf(c->cloud, sizeof c->cloud, "cloud-reserved-3y");
    want_option(cs_ynode_map_get(cv, "owned"), "cost.claim.owned", c->owned, sizeof c->owned, d);
    want_option(cs_ynode_map_get(cv, "cloud"), "cost.claim.cloud", c->cloud, sizeof c->cloud, d);
    enum cs_unit_kind u = c->metric == CS_CLAIM_BREAK_EVEN ? CS_UNIT_RATIO
                          : c->metric == CS_CLAIM_RATIO || c->metric == CS_CLAIM_CHEAPER_BELOW_GPUS
                              ? CS_UNIT_COUNT
                              : CS_UNIT_MONEY;
    c->claimed = c->low = c->high = NAN;
    c->tolerance = 0.1;
    if ((v = cs_ynode_map_get(cv, "claimed")))
        parse_qty(v, u, "cost.claim.claimed", &c->claimed, d);
    if ((v = cs_ynode_map_get(cv, "low")))
        parse_qty(v, u, "cost.claim.low", &c->low, d);
    if ((v = cs_ynode_map_get(cv, "high")))
        parse_qty(v, u, "cost.claim.high", &c->high, d);
    if ((v = cs_ynode_map_get(cv, "tolerance")))
        parse_qty(v, CS_UNIT_RATIO, "cost.claim.tolerance", &c->tolerance, d);
    bool has_value = !isnan(c->claimed), has_range = !isnan(c->low) && !isnan(c->high);
    if (!has_value && !has_range)
        cs_cfg__error(d, cv, "cost.claim: expected `claimed: VALUE` or both `low:` and `high:`");
}

/* `cost.reference:` published figures of the whole cluster. */
static void bind_reference(const struct cs_ynode *rv, struct cs_cost_ext *x, cs_diags *d)
{
    struct cs_cost_reference *r = &x->reference;
    r->on_demand_usd_per_h = r->reserved_usd_per_year = r->owned_usd = r->throughput = NAN;
    r->tolerance = 0.25;
    if (!rv || cs_ynode_is_null(rv))
        return;
    if (rv->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, rv, "cost.reference: expected a mapping {id, on_demand_per_hour, "
                             "reserved_per_year, owned_total, throughput, tolerance}, got %s",
                      cs_ynode_describe(rv));
        return;
    }
    static const struct {
        const char *key;
        enum cs_unit_kind unit;
        size_t off;
    } keys[] = {
        {"on_demand_per_hour", CS_UNIT_MONEY, offsetof(struct cs_cost_reference, on_demand_usd_per_h)},
        {"reserved_per_year", CS_UNIT_MONEY,
         offsetof(struct cs_cost_reference, reserved_usd_per_year)},
        {"owned_total", CS_UNIT_MONEY, offsetof(struct cs_cost_reference, owned_usd)},
        {"throughput", CS_UNIT_COUNT, offsetof(struct cs_cost_reference, throughput)},
        {"tolerance", CS_UNIT_RATIO, offsetof(struct cs_cost_reference, tolerance)},
    };
    for (size_t i = 0; i < rv->n; i++) {
        const struct cs_ynode *k = rv->pairs[i].key, *v = rv->pairs[i].value;
        char p[96];
        snprintf(p, sizeof p, "cost.reference.%s", k->scalar);
        if (!strcmp(k->scalar, "id")) {
            if (v->kind == CS_YNODE_SCALAR)
                snprintf(r->id, sizeof r->id, "%s", v->scalar);
            else
                cs_cfg__error(d, v, "%s: expected a name, got %s", p, cs_ynode_describe(v));
            continue;
        }
        size_t j = 0;
        while (j < NELEM(keys) && strcmp(keys[j].key, k->scalar) != 0)
            j++;
        if (j == NELEM(keys)) {
            cs_cfg__error(d, k, "%s: unknown key (expected id, on_demand_per_hour, "
                                "reserved_per_year, owned_total, throughput, tolerance)", p);
            continue;
        }
        double val;
        if (!parse_qty(v, keys[j].unit, p, &val, d))
            continue;
        if (!(val >= 0)) {
            cs_cfg__error(d, v, "%s: expected a value >= 0, got %s", p, v->scalar);
            continue;
        }
        *(double *)(void *)((char *)r + keys[j].off) = val;
    }
}

void cs_cfg__cost_ext(const struct cs_ynode *cost, const struct cs_ynode *where,
                      struct cs_scenario *s, cs_diags *d)
{
    (void)where;
    struct cs_cost_ext *x = &s->cost.ext;
    memset(x, 0, sizeof *x);
    x->liquid_cooling_usd_per_kw = NAN;
    x->rear_door_usd_per_rack = NAN;
    x->facility_life_years = NAN;
    x->idle_power_fraction = NAN;
    x->egress_usd_per_tb = NAN;
    x->cloud_storage_usd_per_tb_month = NAN;
    /* Default loss per spot preemption: detection + restart of the failure
     * model (its defaults 5 min + 15 min when the scenario has none). */
    x->spot_lost_s_per_interruption =
        s->failures.enabled ? s->failures.detection_s + s->failures.restart_s : 1200.0;
    x->hybrid_baseline_gpus = -1;
    x->sensitivity = 0.2;
    /* Staff and financing defaults (docs/cost.md, "Defaults and their
     * sources"): one systems FTE per 250 servers (Roskies & Zacharia,
     * "Designing and Supporting High-end Computational Facilities",
     * CTWatch Quarterly 2(2), 2006: sites add one FTE for roughly every
     * 250 processors beyond ~50), at the BLS mean wage of network and
     * computer systems administrators (OEWS 15-1244, May 2019: $88,410)
     * loaded by the employer's benefit share (BLS ECEC, September 2024,
     * private industry: $44.40 total / $31.25 wages = 1.42): $125,600 per
     * FTE-year. Cost of capital 8% a year: an estimate of a US company's
     * weighted average cost of capital (Damodaran's industry WACC tables
     * put technology industries at roughly 6-10%). */
    x->staff_usd_per_year = NAN;
    x->servers_per_admin = 250;
    x->staff_usd_per_admin_year = 125600;
    x->cost_of_capital = NAN;
    bind_reference(NULL, x, d);
    if (cost && cost->kind == CS_YNODE_MAP)
        walk_scalars(ext_fields, NELEM(ext_fields), cost, "cost", x, d);
    x->staff_default = !isfinite(x->staff_usd_per_year);
    if (x->staff_default)
        x->staff_usd_per_year = (double)s->cluster.nodes / x->servers_per_admin * x->staff_usd_per_admin_year;
    x->cost_of_capital_default = !isfinite(x->cost_of_capital);
    if (x->cost_of_capital_default)
        x->cost_of_capital = CS_COST_DEFAULT_COST_OF_CAPITAL;
    if (!cost || cost->kind != CS_YNODE_MAP)
        return;
    const struct cs_ynode *cl = cs_ynode_map_get(cost, "cloud");
    if (cl && cl->kind == CS_YNODE_MAP)
        walk_scalars(cloud_fields, NELEM(cloud_fields), cl, "cost.cloud", x, d);
    bind_hybrid(cs_ynode_map_get(cost, "hybrid"), s, d);
    bind_ranges(cs_ynode_map_get(cost, "ranges"), x, d);
    bind_claim(cs_ynode_map_get(cost, "claim"), x, d);
    bind_reference(cs_ynode_map_get(cost, "reference"), x, d);
}

/* Every `cost:` key documented (README "Cost keys", docs/cost.md, `help
 * tco`); tests/check_config.c checks it against the parsing tables. */
const struct cs_cfg_key_doc cs_cfg_cost_key_docs[] = {
    {"cost.years", "years", "3", "TCO horizon"},
    {"cost.utilization", "fraction", "0.7", "average busy fraction of the owned fleet"},
    {"cost.site", "catalog site", "us-average", "site whose prices fill the site keys below"},
    {"cost.electricity", "$/kWh", "site", "energy price"},
    {"cost.pue", "ratio", "site (liquid cooling: 1.10)", "power usage effectiveness"},
    {"cost.colocation", "$/kW-month", "site", "colocation price per kW of IT load"},
    {"cost.construction_per_mw", "$", "site", "on-prem build-out per MW of IT load"},
    {"cost.depreciation_years", "years", "site", "hardware life"},
    {"cost.support_per_year", "fraction", "site", "support contracts, share of hardware price a year"},
    {"cost.server_power_utilization", "fraction", "site", "average draw over nameplate while busy"},
    {"cost.server_power_multiplier", "ratio", "site", "server watts per GPU watt"},
    {"cost.network_cost_fraction", "fraction", "site",
     "network share of cluster cost, for the items without a catalog price"},
    {"cost.gpu_price", "$", "catalog GPU", "all-in server price per GPU"},
    {"cost.server_price", "$", "catalog GPU", "price of one server (gpu_price x its GPUs)"},
    {"cost.cloud.offer", "catalog offer", "per price, the cheapest fitting offer",
     "catalog cloud offer for all four prices (clustersim catalog lists them)"},
    {"cost.cloud.on_demand", "$/GPU-h", "cheapest fitting catalog offer", "on-demand price"},
    {"cost.cloud.reserved_1y", "$/GPU-h", "cheapest fitting catalog offer", "1-year commitment, effective"},
    {"cost.cloud.reserved_3y", "$/GPU-h", "cheapest fitting catalog offer", "3-year commitment, effective"},
    {"cost.cloud.spot", "$/GPU-h", "cheapest fitting catalog offer", "spot / preemptible price"},
    {"cost.cloud.egress", "bytes/month", "0", "data leaving the cloud each month"},
    {"cost.cloud.egress_price", "$/TB", "none (needed with egress)", "egress price"},
    {"cost.cloud.storage", "bytes", "0", "storage held in the cloud"},
    {"cost.cloud.storage_price", "$/TB-month", "none (needed with storage)", "cloud storage price"},
    {"cost.cloud.spot_interruptions", "per hour", "0", "preemptions per hour of a spot job"},
    {"cost.cloud.spot_lost", "time", "failures' detection + restart (20 min)",
     "work lost per preemption"},
    {"cost.staff_per_year", "$/year", "servers / servers_per_admin x staff_per_admin",
     "operations staff"},
    {"cost.servers_per_admin", "servers", "250",
     "servers per systems FTE (Roskies & Zacharia, CTWatch Quarterly 2006)"},
    {"cost.staff_per_admin", "$/year", "$125,600",
     "loaded cost of one FTE (BLS OEWS 15-1244 mean wage x 1.42, BLS ECEC)"},
    {"cost.cost_of_capital", "fraction/year", "0.08", "annual rate of the capital charge (estimate)"},
    {"cost.cooling", "air | liquid | rear-door", "facility.cooling, else air", "cooling of the owned site"},
    {"cost.rear_door_per_rack", "$", "none (needed with rear-door)", "rear-door heat exchanger capital per rack"},
    {"cost.liquid_cooling_per_kw", "$/kW", "none (needed with liquid)", "liquid-cooling capital per kW"},
    {"cost.facility_life_years", "years", "depreciation_years", "life of the on-prem build-out"},
    {"cost.idle_power_fraction", "fraction", "server_power_utilization (flat draw)",
     "idle draw over nameplate"},
    {"cost.hybrid.baseline_gpus", "GPUs | optimal", "optimal", "owned GPUs of the hybrid"},
    {"cost.hybrid.owned", "colocation | on-prem", "colocation", "how the hybrid's baseline is owned"},
    {"cost.hybrid.burst", "on-demand | spot", "on-demand", "how the hybrid bursts"},
    {"cost.hybrid.demand", "fractions", "bursts of the whole cluster, u of the time",
     "demand profile, busy fraction of the cluster per equal period"},
    {"cost.sensitivity", "fraction", "0.2", "relative step of the sensitivity table"},
    {"cost.monte_carlo", "samples", "0", "Monte Carlo samples over ranges"},
    {"cost.ranges", "{input: [low, high]}", "none", "Monte Carlo input ranges"},
    {"cost.claim", "mapping", "none", "a seed claim to evaluate"},
    {"cost.reference", "mapping", "none", "published figures for tco --table"},
    {NULL, NULL, NULL, NULL},
};

void cs_cfg__cost_ext_keys(void (*fn)(void *ctx, const char *key), void *ctx)
{
    char k[96];
    for (size_t i = 0; i < NELEM(ext_fields); i++) {
        snprintf(k, sizeof k, "cost.%s", ext_fields[i].key);
        fn(ctx, k);
    }
    for (size_t i = 0; i < NELEM(cloud_fields); i++) {
        snprintf(k, sizeof k, "cost.cloud.%s", cloud_fields[i].key);
        fn(ctx, k);
    }
    for (size_t i = 0; i < NELEM(hybrid_fields); i++) {
        snprintf(k, sizeof k, "cost.hybrid.%s", hybrid_fields[i].key);
        fn(ctx, k);
    }
}
