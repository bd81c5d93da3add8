/* cost.c: the TCO model (models layer): bill of materials from the built
 * fabric, power and site, operations, capital charge, cloud options, hybrid,
 * break-even, sensitivity, Monte Carlo and seed-claim verdicts. Equations
 * and their sources are in docs/cost.md; cost.h states the API. */
#include "clustersim/models/cost.h"

#include "clustersim/models/checkpoint.h"
#include "clustersim/models/datapipe.h"
#include "clustersim/sim/rng.h"
#include "clustersim/models/run.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_statistics_double.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOURS_PER_YEAR 8760.0

static const char *const option_names[CS_OPT_COUNT] = {
    "on-prem", "colocation", "cloud-on-demand", "cloud-reserved-1y", "cloud-reserved-3y",
    "cloud-spot", "hybrid"};
static const char *const cat_names[CS_CAT_COUNT] = {"capex", "power", "site", "operations",
                                                    "cloud"};
static const char *const input_names[CS_CIN_COUNT] = {
    "gpu_price", "network_cost_fraction", "electricity", "pue", "colocation",
    "construction_per_mw", "support_per_year", "staff_per_year", "utilization",
    "cost_of_capital", "depreciation_years", "server_power_multiplier",
    "server_power_utilization", "idle_power_fraction", "liquid_cooling_per_kw",
    "facility_life_years", "on_demand", "reserved_1y", "reserved_3y", "spot"};

bool cs_cost_offer_fits(const struct cs_cloud_offer *o, const struct cs_cluster_cfg *c, char *why,
                        size_t why_len)
{
    char tmp[8];
    if (!why) {
        why = tmp;
        why_len = sizeof tmp;
    }
    if (strcmp(o->gpu, c->gpu.name) != 0) {
        snprintf(why, why_len, "rents %s, not %s", o->gpu, c->gpu.name);
        return false;
    }
    if (o->gpus < c->gpus_per_node) {
        snprintf(why, why_len, "%d-GPU instances, smaller than the cluster's %d-GPU nodes", o->gpus,
                 c->gpus_per_node);
        return false;
    }
    if (c->nodes > 1) {
        double per_node = (double)c->fabric.nics_per_node * c->fabric.link.bw_bytes_per_s;
        if (!isfinite(o->scaleout_bw_bytes_per_s)) {
            snprintf(why, why_len, "states no scale-out bandwidth, and the cluster has %d nodes",
                     c->nodes);
            return false;
        }
        if (o->scaleout_bw_bytes_per_s < 0.999 * per_node) {
            snprintf(why, why_len, "scale-out %.0f Gb/s per instance, below the cluster's %.0f Gb/s per node",
                     o->scaleout_bw_bytes_per_s * 8e-9, per_node * 8e-9);
            return false;
        }
    }
    why[0] = 0;
    return true;
}

const char *cs_cost_option_name(enum cs_cost_option o)
{
    return (unsigned)o < CS_OPT_COUNT ? option_names[o] : "?";
}

int cs_cost_option_parse(const char *name)
{
    for (int i = 0; i < CS_OPT_COUNT; i++)
        if (!strcmp(name, option_names[i]))
            return i;
    return -1;
}

const char *cs_cost_cat_name(enum cs_cost_cat c)
{
    return (unsigned)c < CS_CAT_COUNT ? cat_names[c] : "?";
}

const char *cs_cost_input_name(enum cs_cost_input i)
{
    return (unsigned)i < CS_CIN_COUNT ? input_names[i] : "?";
}

int cs_cost_input_parse(const char *name)
{
    for (int i = 0; i < CS_CIN_COUNT; i++)
        if (!strcmp(name, input_names[i]))
            return i;
    return -1;
}

const char *cs_cost_verdict_name(enum cs_cost_verdict v)
{
    switch (v) {
    case CS_VERDICT_SUPPORTED: return "supported";
    case CS_VERDICT_NOT_SUPPORTED: return "not supported";
    case CS_VERDICT_UNDECIDED: return "undecided";
    }
    return "?";
}

/* ------------------------------------------------------------------------ */
/* Resolution from a scenario.                                               */

struct need {
    cs_diags *d;
    const char *file;
    bool skip;
    struct cs_cost_inputs *in;
};

/* Reports a missing price `key` that options [mask] need. */
static void missing(struct need *n, unsigned mask, const char *key, const char *what)
{
    cs_diag_add(n->d, n->skip ? CS_SEV_WARNING : CS_SEV_ERROR, n->file, 0, 0,
                "%s: no price: the catalog has none and the scenario does not give it (%s)%s",
                key, what, n->skip ? "; the options that need it are left out" : "");
    for (int o = 0; o < CS_OPT_COUNT; o++)
        if (mask & (1u << o))
            n->in->available[o] = false;
}

#define M_OWNED ((1u << CS_OPT_ONPREM) | (1u << CS_OPT_COLO) | (1u << CS_OPT_HYBRID))
#define M_CLOUD                                                                            \
    ((1u << CS_OPT_ON_DEMAND) | (1u << CS_OPT_RESERVED_1Y) | (1u << CS_OPT_RESERVED_3Y) | \
     (1u << CS_OPT_SPOT))

static const char *const net_part_names[CS_NET_PART_COUNT] = {
    "switches_leaf", "switches_spine", "switches_core", "nics",  "optics",
    "cables",        "dac_cables",     "unpriced",      "power"};
static const char *const net_pay_names[] = {"none", "priced", "in-server", "in-cable",
                                            "fraction"};

const char *cs_cost_net_part_name(enum cs_net_part p)
{
    return (unsigned)p < CS_NET_PART_COUNT ? net_part_names[p] : "?";
}

const char *cs_cost_net_pay_name(enum cs_net_pay p)
{
    return (unsigned)p < sizeof net_pay_names / sizeof net_pay_names[0] ? net_pay_names[p] : "?";
}

/* The hardware row of slot k, or NULL when the link names none. */
static const struct cs_nethw_spec *hw_row(const struct cs_link_spec *l, enum cs_nethw_slot k)
{
    return l->hw[k].name[0] ? &l->hw[k] : NULL;
}

/* Unit price of an item: the link's own key (network.yaml or
 * cluster.fabric.link_overrides) first, then the hardware row it names.
 * Fills it->unit_usd, price_from and basis; false when neither gives one. */
static bool unit_price(struct cs_cost_net_item *it, double override, const char *key,
                       const struct cs_nethw_spec *row, const char *kind)
{
    it->basis = CS_PRICE_NONE;
    if (row)
        snprintf(it->model, sizeof it->model, "%s", row->name);
    if (isfinite(override)) {
        it->unit_usd = override;
        snprintf(it->price_from, sizeof it->price_from, "cluster.fabric.link.%s", key);
        return true;
    }
    if (row && isfinite(row->price_usd)) {
        it->unit_usd = row->price_usd;
        it->basis = row->price_basis;
        snprintf(it->price_from, sizeof it->price_from, "catalog %s %s (%s)", kind, row->name,
                 cs_price_basis_name(row->price_basis));
        return true;
    }
    return false;
}

/* "(catalog switch X: price null; cluster.fabric.link_overrides.switch_price not given)" */
static void why_unpriced(char *buf, size_t n, const struct cs_nethw_spec *row, const char *kind,
                         const char *slot_key, const char *price_key)
{
    if (row)
        snprintf(buf, n, "catalog %s %s: price null; cluster.fabric.link_overrides.%s not given",
                 kind, row->name, price_key);
    else
        snprintf(buf, n, "the link names no %s; cluster.fabric.link_overrides.%s not given",
                 slot_key, price_key);
}

/* Prices the network's bill of materials (docs/cost.md, "Network bill of
 * materials"): each item is its count from cs_fabric_counts times its unit
 * price; NICs without a price ride in the all-in server price, optics without
 * one in a cable row that includes them, and any other item without a price
 * is left to cost.network_cost_fraction, each with a warning that names the
 * item, the link and what stands in for it. Then the devices' power. */
static void price_network(struct need *n, const struct cs_scenario *s, const struct cs_cost_cfg *c,
                          struct cs_cost_bom *b)
{
    const struct cs_link_spec *l = &s->cluster.fabric.link;
    cs_diags *d = n->d;
    const struct cs_fabric_counts *fc = &b->fabric;
    const struct cs_nethw_spec *sw = hw_row(l, CS_NETHW_SWITCH), *nic = hw_row(l, CS_NETHW_NIC),
                               *opt = hw_row(l, CS_NETHW_OPTIC), *cab = hw_row(l, CS_NETHW_CABLE),
                               *dac = hw_row(l, CS_NETHW_DAC);
    /* Counts. cs_fabric_counts gives one cable per NIC port (to its leaf)
     * plus the switch-to-switch cables, and an optic at each end of every
     * cable. A link with a dac_model wires the NIC-to-leaf cables in copper:
     * those need no optics. */
    long nic_cables = fc->nics < fc->cables ? fc->nics : fc->cables;
    long dac_cables = dac ? nic_cables : 0;
    long optical_cables = fc->cables - dac_cables;
    long optics = fc->optics - 2 * dac_cables;
    if (optics < 0)
        optics = 0;
    long nic_side_optics = dac ? 0 : (nic_cables < optics ? nic_cables : optics);

    struct cs_cost_net_item *it = b->net;
    memset(it, 0, sizeof b->net);
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++) {
        it[k].unit_usd = NAN;
        it[k].unit_w = NAN;
    }
    for (int t = 0; t < 3; t++)
        it[CS_NET_LEAF + t].count = fc->switches_by_tier[t];
    it[CS_NET_NICS].count = fc->nics;
    it[CS_NET_OPTICS].count = optics;
    it[CS_NET_CABLES].count = optical_cables;
    it[CS_NET_DACS].count = dac_cables;

    double fr = c->network_cost_fraction;
    double est = isfinite(fr) ? b->servers_usd * fr / (1.0 - fr) : NAN;
    char frtxt[160];
    if (isfinite(fr))
        snprintf(frtxt, sizeof frtxt,
                 "used instead: cost.network_cost_fraction %g (its estimate of the whole "
                 "network less the priced items pays for the items without a price)",
                 fr);
    else
        snprintf(frtxt, sizeof frtxt, "and cost.network_cost_fraction, which would stand for it, "
                                      "is not given");
    if (sw && sw->ports > 0 && l->switch_radix > 0 && sw->ports != l->switch_radix && b->switches > 0)
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cost: link %s: the fabric is built of %d-port switches "
                    "(cluster.fabric.link.switch_radix) but its switch_model %s has %d ports: the "
                    "switches are priced and powered as %s anyway",
                    l->name, l->switch_radix, sw->name, sw->ports, sw->name);
    char why[256];

    /* Switches, all tiers one model. */
    long nsw = b->switches;
    struct cs_cost_net_item swp;
    memset(&swp, 0, sizeof swp);
    bool sw_priced = unit_price(&swp, l->switch_price_usd, "switch_price", sw, "switch");
    for (int t = 0; t < 3; t++) {
        struct cs_cost_net_item *x = &it[CS_NET_LEAF + t];
        snprintf(x->model, sizeof x->model, "%s", swp.model);
        if (x->count == 0)
            continue;
        x->pay = sw_priced ? CS_PAY_PRICED : CS_PAY_FRACTION;
        x->unit_usd = swp.unit_usd;
        x->basis = swp.basis;
        snprintf(x->price_from, sizeof x->price_from, "%s", swp.price_from);
    }
    if (nsw > 0 && !sw_priced) {
        why_unpriced(why, sizeof why, sw, "switch", "switch_model", "switch_price");
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cost: link %s: %ld switches (leaf/spine/core %ld/%ld/%ld) have no price (%s): "
                    "%s",
                    l->name, nsw, fc->switches_by_tier[0], fc->switches_by_tier[1],
                    fc->switches_by_tier[2], why, frtxt);
    }

    /* NICs: without a price they are part of the server (the all-in server
     * price per GPU includes the server's adapters, e.g. the Thinkmate HGX
     * H100 quote "incl. 8x400G IB NICs", network_prices_SOURCES.md #1). */
    struct cs_cost_net_item *x = &it[CS_NET_NICS];
    if (x->count > 0) {
        if (unit_price(x, l->nic_price_usd, "nic_price", nic, "nic")) {
            x->pay = CS_PAY_PRICED;
        } else {
            x->pay = CS_PAY_IN_SERVER;
            why_unpriced(why, sizeof why, nic, "nic", "nic_model", "nic_price");
            cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                        "cost: link %s: %ld NICs have no price (%s): taken as part of the server "
                        "price (cost.gpu_price is an all-in server share per GPU), their power "
                        "in server_power_multiplier",
                        l->name, x->count, why);
        }
    } else if (nic) {
        snprintf(x->model, sizeof x->model, "%s", nic->name);
    }

    /* Optics. */
    x = &it[CS_NET_OPTICS];
    bool in_cable = cab && cab->includes_optics && !isfinite(l->optic_price_usd) &&
                    optics <= 2 * optical_cables;
    if (x->count > 0) {
        if (in_cable) {
            x->pay = CS_PAY_IN_CABLE;
            if (opt)
                snprintf(x->model, sizeof x->model, "%s", opt->name);
            snprintf(x->price_from, sizeof x->price_from, "in catalog cable %s", cab->name);
        } else if (unit_price(x, l->optic_price_usd, "optic_price", opt, "optic")) {
            x->pay = CS_PAY_PRICED;
        } else {
            x->pay = CS_PAY_FRACTION;
            why_unpriced(why, sizeof why, opt, "optic", "optic_model", "optic_price");
            cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                        "cost: link %s: %ld optics have no price (%s): %s", l->name, x->count, why,
                        frtxt);
        }
    } else if (opt) {
        snprintf(x->model, sizeof x->model, "%s", opt->name);
    }

    /* Optical cables, then copper NIC-to-leaf cables. */
    for (int k = CS_NET_CABLES; k <= CS_NET_DACS; k++) {
        const struct cs_nethw_spec *row = k == CS_NET_CABLES ? cab : dac;
        const char *mkey = k == CS_NET_CABLES ? "cable_model" : "dac_model";
        x = &it[k];
        if (x->count == 0) {
            if (row)
                snprintf(x->model, sizeof x->model, "%s", row->name);
            continue;
        }
        if (unit_price(x, l->cable_price_usd, "cable_price", row, "cable")) {
            x->pay = CS_PAY_PRICED;
            continue;
        }
        x->pay = CS_PAY_FRACTION;
        why_unpriced(why, sizeof why, row, "cable", mkey, "cable_price");
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cost: link %s: %ld %s cables have no price (%s): %s", l->name, x->count,
                    k == CS_NET_CABLES ? "optical" : "copper (NIC-to-leaf)", why, frtxt);
    }

    double priced = 0;
    bool frac = false;
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++) {
        if (it[k].pay == CS_PAY_PRICED) {
            it[k].usd = (double)it[k].count * it[k].unit_usd;
            priced += it[k].usd;
        }
        frac |= it[k].pay == CS_PAY_FRACTION;
    }
    b->network_priced_usd = priced;
    b->network_fraction = frac;
    b->network_priced = !frac;
    b->network_hw_usd = frac ? NAN : priced;
    if (frac && !isfinite(fr))
        missing(n, M_OWNED, "cost.network_cost_fraction",
                "it prices the network items without a price; or give their prices (the link's "
                "*_model rows or cluster.fabric.link_overrides.*_price)");
    else if (frac && isfinite(est) && est < priced)
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cost: link %s: the priced network items ($%.0f) already exceed "
                    "cost.network_cost_fraction's estimate of the whole network ($%.0f): the "
                    "items without a price count $0",
                    l->name, priced, est);

    /* Power. Switches: the link's switch_power, else the row's; a row whose
     * figure includes its cages' optics leaves only the NIC-side optics. */
    double pw = 0;
    x = &it[CS_NET_LEAF];
    double sw_w = isfinite(l->switch_power_w) ? l->switch_power_w : sw ? sw->power_w : NAN;
    bool sw_has_optics = !isfinite(l->switch_power_w) && sw && sw->power_includes_optics &&
                         isfinite(sw->power_w);
    if (isfinite(sw_w)) {
        for (int t = 0; t < 3; t++) {
            it[CS_NET_LEAF + t].unit_w = sw_w;
            it[CS_NET_LEAF + t].power_w = (double)it[CS_NET_LEAF + t].count * sw_w;
            pw += it[CS_NET_LEAF + t].power_w;
        }
    } else if (nsw > 0) {
        b->unpowered_switches = nsw;
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cluster.fabric.link_overrides.switch_power: link %s has no sourced switch "
                    "power in the catalog%s%s%s: its %ld switches draw 0 W in the power and site "
                    "costs; give the figure (e.g. from the switch's data sheet) to count them",
                    l->name, sw ? " (switch " : "", sw ? sw->name : "", sw ? ": power null)" : "",
                    nsw);
    }
    x = &it[CS_NET_OPTICS];
    long powered_optics = sw_has_optics ? nic_side_optics : optics;
    double op_w = isfinite(l->optic_power_w) ? l->optic_power_w : opt ? opt->power_w : NAN;
    if (isfinite(op_w)) {
        x->unit_w = op_w;
        x->power_w = (double)powered_optics * op_w;
        pw += x->power_w;
    } else if (powered_optics > 0) {
        b->unpowered_optics = powered_optics;
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cluster.fabric.link_overrides.optic_power: link %s has no sourced optic "
                    "power in the catalog%s%s%s: its %ld optics draw 0 W; give the figure to "
                    "count them",
                    l->name, opt ? " (optic " : "", opt ? opt->name : "",
                    opt ? ": power null)" : "", powered_optics);
    }
    /* NICs priced apart from the server add their own power. */
    x = &it[CS_NET_NICS];
    if (x->pay == CS_PAY_PRICED) {
        double w = isfinite(l->nic_power_w) ? l->nic_power_w : nic ? nic->power_w : NAN;
        if (isfinite(w)) {
            x->unit_w = w;
            x->power_w = (double)x->count * w;
            pw += x->power_w;
        } else {
            cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                        "cluster.fabric.link_overrides.nic_power: link %s: its %ld NICs are "
                        "priced apart from the server but have no sourced power: they draw 0 W",
                        l->name, x->count);
        }
    }
    /* Active cables (AOC) and DACs draw power of their own; fibre does not. */
    for (int k = CS_NET_CABLES; k <= CS_NET_DACS; k++) {
        const struct cs_nethw_spec *row = k == CS_NET_CABLES ? cab : dac;
        x = &it[k];
        if (!row || x->count == 0)
            continue;
        if (isfinite(row->power_w)) {
            x->unit_w = row->power_w;
            x->power_w = (double)x->count * row->power_w;
            pw += x->power_w;
        } else if (!strcmp(row->kind, "aoc")) {
            cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                        "cost: link %s: its %ld active optical cables (%s) have no sourced power: "
                        "they draw 0 W",
                        l->name, x->count, row->name);
        }
    }
    b->network_power_w = pw;
}

cs_status cs_cost_inputs_from_scenario(const struct cs_scenario *s, double run_hours,
                                       bool skip_unpriced, cs_diags *d,
                                       struct cs_cost_inputs *out)
{
    const struct cs_cost_cfg *c = &s->cost;
    const struct cs_cost_ext *x = &c->ext;
    struct cs_cost_inputs *in = cs_xcalloc(1, sizeof *in);
    size_t errors_before = cs_diags_errors(d);
    struct need n = {d, s->file, skip_unpriced, in};
    for (int o = 0; o < CS_OPT_COUNT; o++)
        in->available[o] = true;

    in->years = c->years;
    in->gpus = (double)cs_scenario_gpus(s);
    in->gpus_per_node = s->cluster.gpus_per_node;
    in->gpu_tdp_w = s->cluster.gpu.tdp_w;
    if (isfinite(s->cluster.gpu.power_limit_w) && s->cluster.gpu.power_limit_w < in->gpu_tdp_w)
        in->gpu_tdp_w = s->cluster.gpu.power_limit_w;   /* a capped board draws at most its cap */
    in->run_hours = run_hours;
    in->run_goodput = 1.0;
    in->liquid_cooling = x->cooling == 1;
    in->rear_door_usd = 0;
    in->node_power_w = s->facility.node_power_w;
    in->gpus_per_node_f = s->cluster.gpus_per_node;
    in->hybrid_baseline_gpus = x->hybrid_baseline_gpus;
    in->hybrid_owned = x->hybrid_owned == 1 ? CS_OPT_ONPREM : CS_OPT_COLO;
    in->hybrid_burst = x->hybrid_burst == 1 ? CS_OPT_SPOT : CS_OPT_ON_DEMAND;
    in->n_demand = x->n_demand;
    memcpy(in->demand, x->demand, sizeof in->demand);

    double gp = c->gpu_price_usd;
    if (!isfinite(gp) && isfinite(c->server_price_usd) && s->cluster.gpu.server_gpus > 0)
        gp = c->server_price_usd / s->cluster.gpu.server_gpus;
    in->v[CS_CIN_GPU_PRICE] = gp;
    in->v[CS_CIN_NETWORK_FRACTION] = c->network_cost_fraction;
    in->v[CS_CIN_ELECTRICITY] = c->electricity_usd_per_kwh;
    in->v[CS_CIN_PUE] = c->pue;
    in->v[CS_CIN_COLOCATION] = c->colocation_usd_per_kw_month;
    in->v[CS_CIN_CONSTRUCTION] = c->construction_usd_per_mw;
    in->v[CS_CIN_SUPPORT] = c->support_fraction_per_year;
    in->v[CS_CIN_STAFF] = x->staff_usd_per_year;
    in->v[CS_CIN_UTILIZATION] = c->utilization;
    in->v[CS_CIN_COST_OF_CAPITAL] = x->cost_of_capital;
    in->v[CS_CIN_DEPRECIATION] = c->depreciation_years;
    in->v[CS_CIN_POWER_MULT] = c->server_power_multiplier;
    in->v[CS_CIN_POWER_UTIL] = c->server_power_utilization;
    in->v[CS_CIN_IDLE_FRACTION] = x->idle_power_fraction;
    in->v[CS_CIN_LIQUID_PER_KW] = x->liquid_cooling_usd_per_kw;
    in->v[CS_CIN_FACILITY_LIFE] = x->facility_life_years;
    in->v[CS_CIN_ON_DEMAND] = c->cloud_on_demand_usd_per_gpu_h;
    in->v[CS_CIN_RESERVED_1Y] = c->cloud_reserved_1y_usd_per_gpu_h;
    in->v[CS_CIN_RESERVED_3Y] = c->cloud_reserved_3y_usd_per_gpu_h;
    in->v[CS_CIN_SPOT] = c->cloud_spot_usd_per_gpu_h;

    /* Bill of materials from the built fabric. */
    cs_fabric *f = NULL;
    cs_status st = cs_fabric_create(&s->cluster, s->seed, &f);
    if (st != CS_OK) {
        cs_diag_add(d, CS_SEV_ERROR, s->file, 0, 0,
                    "cost: cannot build the %s fabric of %ld GPUs for the bill of materials: %s",
                    cs_topology_name(s->cluster.fabric.topology), cs_scenario_gpus(s),
                    cs_strerror(st));
        free(in);
        return st;
    }
    struct cs_cost_bom *b = &in->bom;
    cs_fabric_counts(f, &b->fabric);
    cs_fabric_destroy(f);
    b->gpus = cs_scenario_gpus(s);
    b->servers = s->cluster.nodes;
    b->switches = b->fabric.switches_by_tier[0] + b->fabric.switches_by_tier[1] +
                  b->fabric.switches_by_tier[2];
    b->servers_usd = (double)b->gpus * gp;

    price_network(&n, s, c, b);

    /* What the run keeps on each tier: the dataset on data.tier, the
     * retained checkpoints on checkpoint.tier and on its upload tier. */
    double ckpt_bytes = 0;
    if (s->checkpoint.enabled) {
        double one = isfinite(s->checkpoint.size_bytes) && s->checkpoint.size_bytes > 0
                         ? s->checkpoint.size_bytes
                         : (s->has_workload ? cs_ckpt_state_bytes(&s->workload) : 0);
        ckpt_bytes = one * (s->checkpoint.keep > 0 ? s->checkpoint.keep : 1);
    }
    b->n_store = s->cluster.storage.n_tiers;
    for (int i = 0; i < s->cluster.storage.n_tiers; i++) {
        const struct cs_storage_spec *t = &s->cluster.storage.tiers[i];
        struct cs_cost_store *sp = &b->store[i];
        memset(sp, 0, sizeof *sp);
        snprintf(sp->tier, sizeof sp->tier, "%s", t->name);
        const char *dtier = s->data.tier[0] ? s->data.tier : s->cluster.storage.tiers[0].name;
        if (s->data.dataset_bytes > 0 && !strcmp(dtier, t->name))
            sp->dataset_bytes = s->data.dataset_bytes;
        if (ckpt_bytes > 0 && (!strcmp(s->checkpoint.tier, t->name) || !strcmp(s->checkpoint.upload, t->name)))
            sp->checkpoint_bytes = ckpt_bytes;
    }
    for (int i = 0; i < s->cluster.storage.n_tiers; i++) {
        const struct cs_storage_spec *t = &s->cluster.storage.tiers[i];
        struct cs_cost_store *sp = &b->store[i];
        double need = sp->dataset_bytes + sp->checkpoint_bytes;
        double bytes = t->kind == CS_STORAGE_NVME
                           ? t->capacity_bytes * t->devices_per_node * s->cluster.nodes
                           : t->capacity_bytes;
        if ((!isfinite(bytes) || bytes <= 0) && need > 0 && t->kind != CS_STORAGE_NVME) {
            /* Sized from the need, filled to at most CS_STORAGE_FILL_LIMIT. */
            bytes = need / CS_STORAGE_FILL_LIMIT;
            sp->sized = true;
        } else if (isfinite(bytes) && bytes > 0 && need > bytes) {
            sp->short_of_need = true;
            char key[64];
            snprintf(key, sizeof key, "cluster.storage[%d].capacity", i);
            cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                        "%s: tier %s holds %.4g TB but the run keeps %.4g TB on it (dataset %.4g TB, "
                        "%d checkpoints %.4g TB): give more capacity or fewer checkpoint.keep",
                        key, t->name, bytes / 1e12, need / 1e12, sp->dataset_bytes / 1e12,
                        s->checkpoint.keep, sp->checkpoint_bytes / 1e12);
        }
        sp->capacity_bytes = isfinite(bytes) ? bytes : 0;
        if (!isfinite(bytes) || bytes <= 0) {
            /* Local NVMe without a size ships in the server; a shared tier
             * without a size cannot be priced: say so, naming the key. */
            if (t->kind != CS_STORAGE_NVME) {
                char key[64];
                snprintf(key, sizeof key, "cluster.storage[%d].capacity", i);
                cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                            "%s: tier %s has no capacity, so its cost is left out (give its size, "
                            "e.g. {name: %s, capacity: 1PB, price_per_tb: $...})",
                            key, t->name, t->name);
                size_t len = strlen(b->unsized_storage);
                snprintf(b->unsized_storage + len, sizeof b->unsized_storage - len, "%s%s",
                         len ? ", " : "", t->name);
            }
            continue;
        }
        if (!isfinite(t->price_usd_per_tb)) {
            if (t->kind == CS_STORAGE_NVME)
                continue; /* local NVMe ships in the server (DGX BasePOD RA) */
            char key[96];
            snprintf(key, sizeof key, "cluster.storage[%d].price_per_tb", i);
            missing(&n, M_OWNED, key, t->name);
            continue;
        }
        b->store[i].usd = bytes / 1e12 * t->price_usd_per_tb;
        if (t->kind == CS_STORAGE_OBJECT)
            b->storage_usd_per_month += b->store[i].usd;
        else
            b->storage_usd += b->store[i].usd;
    }

    /* Owned-option prices. */
    if (!isfinite(gp))
        missing(&n, M_OWNED, "cost.gpu_price", "or cost.server_price");
    if (!isfinite(c->electricity_usd_per_kwh))
        missing(&n, M_OWNED, "cost.electricity", "$/kWh");
    if (!isfinite(c->construction_usd_per_mw))
        missing(&n, 1u << CS_OPT_ONPREM, "cost.construction_per_mw", "on-prem build-out");
    if (!isfinite(c->colocation_usd_per_kw_month))
        missing(&n, 1u << CS_OPT_COLO, "cost.colocation", "$/kW-month");
    if (in->liquid_cooling && !isfinite(x->liquid_cooling_usd_per_kw))
        missing(&n, M_OWNED, "cost.liquid_cooling_per_kw", "cooling: liquid");
    if (x->cooling == 2) {
        if (!isfinite(x->rear_door_usd_per_rack))
            missing(&n, M_OWNED, "cost.rear_door_per_rack", "cooling: rear-door");
        else
            in->rear_door_usd = x->rear_door_usd_per_rack * s->facility.res.racks;
    }
    if (!isfinite(in->v[CS_CIN_STAFF]))
        in->v[CS_CIN_STAFF] = 0;

    /* Cloud prices. */
    static const struct { enum cs_cost_option o; enum cs_cost_input i; const char *key; } cp[] = {
        {CS_OPT_ON_DEMAND, CS_CIN_ON_DEMAND, "cost.cloud.on_demand"},
        {CS_OPT_RESERVED_1Y, CS_CIN_RESERVED_1Y, "cost.cloud.reserved_1y"},
        {CS_OPT_RESERVED_3Y, CS_CIN_RESERVED_3Y, "cost.cloud.reserved_3y"},
        {CS_OPT_SPOT, CS_CIN_SPOT, "cost.cloud.spot"},
    };
    for (size_t i = 0; i < sizeof cp / sizeof cp[0]; i++)
        if (!isfinite(in->v[cp[i].i])) {
            char what[160];
            snprintf(what, sizeof what, "per GPU-hour; offer %s",
                     c->cloud_offer[0] ? c->cloud_offer : "none for this GPU");
            missing(&n, 1u << cp[i].o | (cp[i].o == in->hybrid_burst ? 1u << CS_OPT_HYBRID : 0),
                    cp[i].key, what);
        }
    static const char *const price_key[4] = {"on_demand", "reserved_1y", "reserved_3y", "spot"};
    for (int pi = 0; pi < 4; pi++)
        if (c->cloud_offer_rule[pi] == CS_OFFER_CHEAPEST_UNFIT)
            cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                        "cost.cloud.%s: no catalog offer for %s that fits this cluster states a "
                        "%s price; priced at %s, which does not fit (%s); give cost.cloud.%s or "
                        "cost.cloud.offer to choose",
                        price_key[pi], s->cluster.gpu.name, price_key[pi], c->cloud_offer_for[pi],
                        c->cloud_unfit_why[pi], price_key[pi]);
    double extra = 0;
    if (x->egress_bytes_per_month > 0) {
        if (!isfinite(x->egress_usd_per_tb))
            missing(&n, M_CLOUD, "cost.cloud.egress_price", "per TB of egress");
        else
            extra += x->egress_bytes_per_month / 1e12 * x->egress_usd_per_tb * 12;
    }
    if (x->cloud_storage_bytes > 0) {
        if (!isfinite(x->cloud_storage_usd_per_tb_month))
            missing(&n, M_CLOUD, "cost.cloud.storage_price", "per TB-month");
        else
            extra += x->cloud_storage_bytes / 1e12 * x->cloud_storage_usd_per_tb_month * 12;
    }
    in->egress_usd_per_year = extra;
    double loss = x->spot_interruptions_per_h * x->spot_lost_s_per_interruption / 3600.0;
    if (loss >= 1) {
        cs_diag_add(d, CS_SEV_ERROR, s->file, 0, 0,
                    "cost.cloud.spot_interruptions: %g per hour x %g s lost each loses all the "
                    "work (expected fewer than one lost hour per hour)",
                    x->spot_interruptions_per_h, x->spot_lost_s_per_interruption);
    }
    in->spot_loss_fraction = loss < 1 ? loss : 0;

    if (cs_diags_errors(d) > errors_before) {
        free(in);
        return CS_ECONFIG;
    }
    *out = *in;
    free(in);
    return CS_OK;
}

/* ------------------------------------------------------------------------ */
/* Time per training run.                                                    */

void cs_cost_run_from(const struct cs_scenario *s, const struct cs_step_result *step,
                      const struct cs_run_result *run, cs_diags *d, struct cs_cost_run *out)
{
    struct cs_cost_run r;
    memset(&r, 0, sizeof r);
    r.step_time_s = r.tokens_per_s = r.ideal_hours = r.wall_hours = NAN;
    r.goodput = 1.0;
    r.goodput_mean = r.goodput_p05 = r.goodput_p95 = r.interruptions = NAN;
    if (!s->has_workload || !(s->workload.tokens > 0) || !step) {
        *out = r;
        return;
    }
    if (!step->fits || !(step->tokens_per_s > 0)) {
        cs_diag_add(d, CS_SEV_WARNING, s->file, 0, 0,
                    "cost: the workload does not fit in GPU memory (see `clustersim run`): no "
                    "cost per training run");
        *out = r;
        return;
    }
    r.has_step = true;
    r.step_time_s = step->time_s;
    r.tokens_per_s = step->tokens_per_s;
    r.ideal_hours = s->workload.tokens / step->tokens_per_s / 3600.0;
    r.wall_hours = r.ideal_hours;
    /* Tokens mode only: a fixed run.duration has no time to train. */
    if (run && run->enabled && !run->duration_mode && isfinite(run->time_to_train_s.mean) &&
        run->time_to_train_s.mean > 0) {
        r.run_model = true;
        r.replicas = run->replicas;
        r.wall_hours = run->time_to_train_s.mean / 3600.0;
        /* Goodput consistent with the mean wall time: the failure-free
         * time over it, so ideal / goodput = mean time to train. */
        r.ideal_hours = run->target_s / 3600.0;
        r.goodput = fmin(1.0, r.ideal_hours / r.wall_hours);
        r.goodput_mean = run->goodput.mean;
        r.goodput_p05 = run->goodput.p05;
        r.goodput_p95 = run->goodput.p95;
        r.interruptions = run->interruptions.mean;
    }
    *out = r;
}

/* ------------------------------------------------------------------------ */
/* Evaluation.                                                               */

/* Capital recovery factor: the constant yearly payment that repays 1 over n
 * years at rate r, r / (1 - (1 + r)^-n); 1/n when r = 0 (straight-line
 * depreciation). Standard annuity formula (e.g. Brealey, Myers, Allen,
 * Principles of Corporate Finance, ch. 2). */
static double crf(double r, double n)
{
    if (r <= 0)
        return 1.0 / n;
    return r / (1.0 - pow(1.0 + r, -n));
}

struct owned_parts {
    double hw_usd, network_usd, unpriced_usd, it_kw, avg_kw;
    double cat[CS_CAT_COUNT];
    double net[CS_NET_PART_COUNT]; /* the network's share of capex and power */
    double upfront;
};

/* Owned option o (on-prem or colocation) for the whole cluster at
 * utilization u. */
static void owned_cost(const struct cs_cost_inputs *in, enum cs_cost_option o, double u,
                       struct owned_parts *p)
{
    const double *v = in->v;
    memset(p, 0, sizeof *p);
    double years = in->years, H = years * HOURS_PER_YEAR;
    double servers = in->gpus * v[CS_CIN_GPU_PRICE];
    double fr = v[CS_CIN_NETWORK_FRACTION];
    /* The priced items at their prices; the fraction's estimate of the whole
     * network, servers x f / (1 - f), less the priced items, stands for the
     * items without a price (none: the whole network, as before prices). */
    double priced = in->bom.network_priced_usd;
    p->unpriced_usd = 0;
    if (in->bom.network_fraction)
        p->unpriced_usd = fmax(0.0, servers * fr / (1.0 - fr) - priced);
    p->network_usd = priced + p->unpriced_usd;
    p->hw_usd = servers + p->network_usd + in->bom.storage_usd;
    double busy = v[CS_CIN_POWER_UTIL];
    double idle = isfinite(v[CS_CIN_IDLE_FRACTION]) ? v[CS_CIN_IDLE_FRACTION] : busy;
    double srv_w = isfinite(in->node_power_w) && in->gpus_per_node_f > 0
                       ? in->gpus / in->gpus_per_node_f * in->node_power_w
                       : in->gpus * in->gpu_tdp_w * v[CS_CIN_POWER_MULT];
    p->it_kw = (srv_w + in->bom.network_power_w) / 1000.0;
    p->avg_kw = (srv_w * (idle + (busy - idle) * u) + in->bom.network_power_w) / 1000.0;
    double r = isfinite(v[CS_CIN_COST_OF_CAPITAL]) ? v[CS_CIN_COST_OF_CAPITAL] : 0;
    double dep = v[CS_CIN_DEPRECIATION];
    double life = isfinite(v[CS_CIN_FACILITY_LIFE]) ? v[CS_CIN_FACILITY_LIFE] : dep;
    p->cat[CS_CAT_CAPEX] = p->hw_usd * crf(r, dep) * years;
    p->cat[CS_CAT_POWER] = p->avg_kw * v[CS_CIN_PUE] * H * v[CS_CIN_ELECTRICITY];
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++)
        p->net[k] = in->bom.net[k].usd * crf(r, dep) * years;
    p->net[CS_NET_UNPRICED] = p->unpriced_usd * crf(r, dep) * years;
    p->net[CS_NET_POWER] = in->bom.network_power_w / 1000.0 * v[CS_CIN_PUE] * H *
                           v[CS_CIN_ELECTRICITY];
    double cooling = (in->liquid_cooling ? v[CS_CIN_LIQUID_PER_KW] * p->it_kw : 0) + in->rear_door_usd;
    double facility = cooling;
    if (o == CS_OPT_ONPREM) {
        facility += v[CS_CIN_CONSTRUCTION] * p->it_kw / 1000.0;
        p->cat[CS_CAT_SITE] = facility * crf(r, life) * years;
    } else {
        p->cat[CS_CAT_SITE] = cooling * crf(r, life) * years +
                              v[CS_CIN_COLOCATION] * p->it_kw * 12.0 * years;
    }
    p->cat[CS_CAT_OPS] = (v[CS_CIN_SUPPORT] * p->hw_usd + v[CS_CIN_STAFF] +
                          in->bom.storage_usd_per_month * 12.0) * years;
    p->upfront = p->hw_usd + facility;
}

/* Price actually paid per useful cloud GPU-hour of option o. */
static double cloud_rate(const struct cs_cost_inputs *in, enum cs_cost_option o)
{
    switch (o) {
    case CS_OPT_ON_DEMAND: return in->v[CS_CIN_ON_DEMAND];
    case CS_OPT_RESERVED_1Y: return in->v[CS_CIN_RESERVED_1Y];
    case CS_OPT_RESERVED_3Y: return in->v[CS_CIN_RESERVED_3Y];
    case CS_OPT_SPOT: return in->v[CS_CIN_SPOT] / (1.0 - in->spot_loss_fraction);
    default: return NAN;
    }
}

/* Total of cloud option o at utilization u: reserved capacity is paid for
 * every hour; on-demand and spot for the busy hours only. */
static double cloud_total(const struct cs_cost_inputs *in, enum cs_cost_option o, double u)
{
    double H = in->years * HOURS_PER_YEAR;
    bool committed = o == CS_OPT_RESERVED_1Y || o == CS_OPT_RESERVED_3Y;
    return in->gpus * H * (committed ? 1.0 : u) * cloud_rate(in, o) +
           in->egress_usd_per_year * in->years;
}

static double owned_total(const struct cs_cost_inputs *in, enum cs_cost_option o, double u)
{
    struct owned_parts p;
    owned_cost(in, o, u, &p);
    double t = 0;
    for (int c = 0; c < CS_CAT_COUNT; c++)
        t += p.cat[c];
    return t;
}

static double option_total_at(const struct cs_cost_inputs *in, enum cs_cost_option o, double u)
{
    return cs_cost_option_owned(o) ? owned_total(in, o, u) : cloud_total(in, o, u);
}

double cs_cost_option_total(const struct cs_cost_inputs *in, enum cs_cost_option o, double u)
{
    assert(o != CS_OPT_HYBRID);
    return option_total_at(in, o, u);
}

/* The demand profile as levels (busy fraction of the cluster) with their
 * shares of time: the scenario's (equal periods), else the whole cluster
 * busy a fraction u of the time and idle otherwise (docs/cost.md, Hybrid:
 * the scenario describes the cluster its work needs, so without a profile
 * that work comes in bursts of the whole cluster, not as a flat u x N
 * GPUs that a smaller owned baseline could serve without bursting). */
static int demand_of(const struct cs_cost_inputs *in, double *lvl, double *w)
{
    if (in->n_demand > 0) {
        for (int i = 0; i < in->n_demand; i++) {
            lvl[i] = in->demand[i];
            w[i] = 1.0 / in->n_demand;
        }
        return in->n_demand;
    }
    double u = in->v[CS_CIN_UTILIZATION];
    lvl[0] = 1;
    w[0] = u;
    lvl[1] = 0;
    w[1] = 1 - u;
    return 2;
}

/* Hybrid with an owned baseline of B GPUs: the owned option's per-GPU cost
 * (linear in GPUs) at the baseline's own utilization, plus burst GPU-hours
 * above B at the burst price. Fills cats (may be NULL). */
static double hybrid_total(const struct cs_cost_inputs *in, long B, double *cats, double *net)
{
    double lvl[CS_COST_MAX_DEMAND + 2], w[CS_COST_MAX_DEMAND + 2];
    int nd = demand_of(in, lvl, w);
    double N = in->gpus, H = in->years * HOURS_PER_YEAR;
    double owned_hours = 0, burst_hours = 0;
    for (int i = 0; i < nd; i++) {
        double want = lvl[i] * N;
        owned_hours += fmin(want, (double)B) * H * w[i];
        burst_hours += fmax(want - (double)B, 0) * H * w[i];
    }
    double c[CS_CAT_COUNT] = {0};
    if (B > 0) {
        struct owned_parts p;
        double ub = owned_hours / ((double)B * H);
        owned_cost(in, in->hybrid_owned, ub, &p);
        for (int k = 0; k < CS_CAT_COUNT; k++)
            c[k] = p.cat[k] * (double)B / N;
        if (net)
            for (int k = 0; k < CS_NET_PART_COUNT; k++)
                net[k] = p.net[k] * (double)B / N;
    }
    c[CS_CAT_CLOUD] += burst_hours * cloud_rate(in, in->hybrid_burst);
    double t = 0;
    for (int k = 0; k < CS_CAT_COUNT; k++) {
        t += c[k];
        if (cats)
            cats[k] = c[k];
    }
    return t;
}

static void fill_years(const struct cs_cost_inputs *in, struct cs_cost_option_result *r,
                       double upfront_capex_usd, double amortized_capex_usd)
{
    int ny = (int)ceil(in->years - 1e-9);
    if (ny > 64)
        ny = 64;
    if (ny < 1)
        ny = 1;
    r->n_years = ny;
    double rest = r->total_usd - amortized_capex_usd;
    for (int y = 0; y < ny; y++) {
        double share = fmin(1.0, in->years - y) / in->years;
        r->by_year_usd[y] = r->total_usd * share;
        r->cash_by_year_usd[y] = rest * share + (y == 0 ? upfront_capex_usd : 0);
    }
}

void cs_cost_evaluate(const struct cs_cost_inputs *in, struct cs_cost_result *out)
{
    memset(out, 0, sizeof *out);
    double u = in->v[CS_CIN_UTILIZATION];
    double H = in->years * HOURS_PER_YEAR, N = in->gpus;
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        struct cs_cost_option_result *r = &out->opt[o];
        r->available = in->available[o];
        r->usd_per_run = NAN;
        r->hybrid_baseline_gpus = -1;
        if (!r->available)
            continue;
        double upfront = 0, amortized = 0;
        r->gpu_hours = N * H;
        r->utilized_gpu_hours = N * H * u;
        if (cs_cost_option_owned((enum cs_cost_option)o)) {
            struct owned_parts p;
            owned_cost(in, (enum cs_cost_option)o, u, &p);
            memcpy(r->by_cat_usd, p.cat, sizeof p.cat);
            upfront = p.upfront;
            amortized = p.cat[CS_CAT_CAPEX] + (o == CS_OPT_ONPREM ? p.cat[CS_CAT_SITE] : 0);
            if (o == CS_OPT_COLO && in->liquid_cooling) {
                double life = isfinite(in->v[CS_CIN_FACILITY_LIFE]) ? in->v[CS_CIN_FACILITY_LIFE]
                                                                     : in->v[CS_CIN_DEPRECIATION];
                double r0 = isfinite(in->v[CS_CIN_COST_OF_CAPITAL]) ? in->v[CS_CIN_COST_OF_CAPITAL]
                                                                     : 0;
                amortized += in->v[CS_CIN_LIQUID_PER_KW] * p.it_kw * crf(r0, life) * in->years;
            }
            out->it_power_kw = p.it_kw;
            out->avg_power_kw = p.avg_kw;
            out->capex_hw_usd = p.hw_usd;
            out->network_usd = p.network_usd;
            out->network_unpriced_usd = p.unpriced_usd;
            memcpy(r->network_usd, p.net, sizeof p.net);
        } else if (o == CS_OPT_HYBRID) {
            long step = in->gpus_per_node > 0 ? (long)in->gpus_per_node : 1;
            long best = 0;
            double best_t = INFINITY;
            if (in->hybrid_baseline_gpus >= 0) {
                best = in->hybrid_baseline_gpus;
            } else {
                for (long B = 0; B <= (long)N; B += step) {
                    double t = hybrid_total(in, B, NULL, NULL);
                    if (t < best_t - 1e-9 * fabs(t)) {
                        best_t = t;
                        best = B;
                    }
                }
            }
            hybrid_total(in, best, r->by_cat_usd, r->network_usd);
            r->hybrid_baseline_gpus = (int)best;
            double lvl[CS_COST_MAX_DEMAND + 2], w[CS_COST_MAX_DEMAND + 2], mean = 0;
            int nd = demand_of(in, lvl, w);
            for (int i = 0; i < nd; i++)
                mean += lvl[i] * w[i];
            r->utilized_gpu_hours = N * H * mean;
        } else {
            r->by_cat_usd[CS_CAT_CLOUD] = cloud_total(in, (enum cs_cost_option)o, u);
        }
        r->total_usd = 0;
        for (int c = 0; c < CS_CAT_COUNT; c++)
            r->total_usd += r->by_cat_usd[c];
        r->upfront_usd = upfront;
        fill_years(in, r, upfront, amortized);
        r->usd_per_gpu_hour = r->gpu_hours > 0 ? r->total_usd / r->gpu_hours : NAN;
        r->usd_per_utilized_gpu_hour =
            r->utilized_gpu_hours > 0 ? r->total_usd / r->utilized_gpu_hours : NAN;
        /* The run holds the cluster for its wall-clock time, the ideal
         * time over the goodput (failures, checkpoints, restarts). */
        double g = in->run_goodput > 0 && in->run_goodput <= 1 ? in->run_goodput : 1.0;
        if (isfinite(in->run_hours))
            r->usd_per_run = r->usd_per_utilized_gpu_hour * N * in->run_hours / g;
    }
}

/* ------------------------------------------------------------------------ */
/* Break-even, sensitivity, Monte Carlo.                                     */

static void break_even(const struct cs_cost_inputs *in, enum cs_cost_option o,
                       enum cs_cost_option c, struct cs_cost_break_even *row)
{
    double ao = option_total_at(in, o, 0), bo = option_total_at(in, o, 1) - ao;
    double ac = option_total_at(in, c, 0), bc = option_total_at(in, c, 1) - ac;
    row->owned = o;
    row->cloud = c;
    row->utilization = NAN;
    double den = bc - bo;
    double scale = fmax(fabs(ao) + fabs(bo), fabs(ac) + fabs(bc));
    if (fabs(den) <= 1e-12 * scale) {
        row->owned_cheaper = ao < ac ? "always" : "never";
        return;
    }
    double ustar = (ao - ac) / den;
    if (ustar > 0 && ustar <= 1) {
        row->utilization = ustar;
        row->owned_cheaper = den > 0 ? "above" : "below";
    } else {
        /* no crossing in (0, 1]: the sign at u = 1 decides */
        row->owned_cheaper = ao + bo < ac + bc ? "always" : "never";
    }
}

int cs_cost_break_even_all(const struct cs_cost_inputs *in, struct cs_cost_break_even *rows)
{
    int n = 0;
    for (int o = CS_OPT_ONPREM; o <= CS_OPT_COLO; o++)
        for (int c = CS_OPT_ON_DEMAND; c <= CS_OPT_SPOT; c++)
            if (in->available[o] && in->available[c])
                break_even(in, (enum cs_cost_option)o, (enum cs_cost_option)c, &rows[n++]);
    return n;
}

static void totals(const struct cs_cost_inputs *in, double *t)
{
    struct cs_cost_result r;
    cs_cost_evaluate(in, &r);
    for (int o = 0; o < CS_OPT_COUNT; o++)
        t[o] = r.opt[o].available ? r.opt[o].total_usd : NAN;
}

/* Keeps a perturbed input inside its meaning. */
static double clamp_input(enum cs_cost_input i, double v)
{
    switch (i) {
    case CS_CIN_UTILIZATION:
    case CS_CIN_POWER_UTIL:
    case CS_CIN_IDLE_FRACTION:
    case CS_CIN_SUPPORT: return fmin(v, 1.0);
    case CS_CIN_NETWORK_FRACTION: return fmin(v, 0.99);
    case CS_CIN_PUE:
    case CS_CIN_POWER_MULT: return fmax(v, 1.0);
    default: return v;
    }
}

static int cmp_swing(const void *a, const void *b)
{
    const struct cs_cost_sens_row *x = a, *y = b;
    if (x->swing_usd != y->swing_usd)
        return x->swing_usd < y->swing_usd ? 1 : -1;
    return (int)x->input - (int)y->input; /* stable, deterministic order */
}

int cs_cost_sensitivity(const struct cs_cost_inputs *in, double step,
                        struct cs_cost_sens_row *rows)
{
    int n = 0;
    for (int i = 0; i < CS_CIN_COUNT; i++) {
        double v0 = in->v[i];
        if (!isfinite(v0) || v0 == 0)
            continue;
        struct cs_cost_inputs t = *in;
        struct cs_cost_sens_row *r = &rows[n];
        r->input = (enum cs_cost_input)i;
        r->base_value = v0;
        r->low_value = clamp_input((enum cs_cost_input)i, v0 * (1 - step));
        r->high_value = clamp_input((enum cs_cost_input)i, v0 * (1 + step));
        t.v[i] = r->low_value;
        totals(&t, r->low_usd);
        t.v[i] = r->high_value;
        totals(&t, r->high_usd);
        r->swing_usd = 0;
        for (int o = 0; o < CS_OPT_COUNT; o++)
            if (isfinite(r->low_usd[o]) && isfinite(r->high_usd[o]))
                r->swing_usd = fmax(r->swing_usd, fabs(r->high_usd[o] - r->low_usd[o]));
        if (r->swing_usd > 0)
            n++;
    }
    qsort(rows, (size_t)n, sizeof *rows, cmp_swing);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

cs_status cs_cost_monte_carlo(const struct cs_cost_inputs *in, const struct cs_cost_range *ranges,
                              int n_ranges, int samples, uint64_t seed, struct cs_cost_mc *out)
{
    if (samples < 1)
        return CS_EINVAL;
    int idx[CS_COST_MAX_RANGES];
    if (n_ranges > CS_COST_MAX_RANGES)
        return CS_EINVAL;
    for (int k = 0; k < n_ranges; k++) {
        idx[k] = cs_cost_input_parse(ranges[k].key);
        if (idx[k] < 0)
            return CS_EINVAL;
    }
    gsl_rng *rng = cs_rng_create(seed, CS_RNG_USER + 6);
    double *tot = cs_xmalloc((size_t)samples * CS_OPT_COUNT * sizeof *tot);
    struct cs_cost_mc m;
    memset(&m, 0, sizeof m);
    m.samples = samples;
    for (int sidx = 0; sidx < samples; sidx++) {
        struct cs_cost_inputs t = *in;
        for (int k = 0; k < n_ranges; k++)
            t.v[idx[k]] = ranges[k].low + (ranges[k].high - ranges[k].low) * gsl_rng_uniform(rng);
        double tt[CS_OPT_COUNT];
        totals(&t, tt);
        int best = -1;
        for (int o = 0; o < CS_OPT_COUNT; o++) {
            tot[(size_t)o * (size_t)samples + (size_t)sidx] = tt[o];
            if (isfinite(tt[o]) && (best < 0 || tt[o] < tt[best]))
                best = o;
        }
        if (best >= 0)
            m.cheapest_share[best] += 1.0 / samples;
    }
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        double *col = tot + (size_t)o * (size_t)samples;
        if (!isfinite(col[0])) {
            m.p05[o] = m.p50[o] = m.p95[o] = m.mean[o] = NAN;
            continue;
        }
        qsort(col, (size_t)samples, sizeof *col, cmp_double);
        m.mean[o] = gsl_stats_mean(col, 1, (size_t)samples);
        m.p05[o] = gsl_stats_quantile_from_sorted_data(col, 1, (size_t)samples, 0.05);
        m.p50[o] = gsl_stats_quantile_from_sorted_data(col, 1, (size_t)samples, 0.50);
        m.p95[o] = gsl_stats_quantile_from_sorted_data(col, 1, (size_t)samples, 0.95);
    }
    free(tot);
    gsl_rng_free(rng);
    *out = m;
    return CS_OK;
}

/* ------------------------------------------------------------------------ */
/* Claims.                                                                   */

static enum cs_cost_verdict near(double computed, double claimed, double tol)
{
    if (!isfinite(computed))
        return CS_VERDICT_NOT_SUPPORTED;
    return fabs(computed - claimed) <= tol * fabs(claimed) ? CS_VERDICT_SUPPORTED
                                                           : CS_VERDICT_NOT_SUPPORTED;
}

cs_status cs_cost_claim_evaluate(const struct cs_scenario *s, const struct cs_cost_inputs *in,
                                 cs_diags *d, struct cs_cost_claim_result *out)
{
    const struct cs_cost_claim *cl = &s->cost.ext.claim;
    if (cl->metric == CS_CLAIM_NONE)
        return CS_EINVAL;
    int o = cs_cost_option_parse(cl->owned), c = cs_cost_option_parse(cl->cloud);
    assert(o >= 0 && c >= 0);
    struct cs_cost_claim_result r;
    memset(&r, 0, sizeof r);
    r.verdict = CS_VERDICT_UNDECIDED;
    r.computed = NAN;
    bool range = isfinite(cl->low) && isfinite(cl->high);
    if (cl->metric != CS_CLAIM_CHEAPER_BELOW_GPUS &&
        (!in->available[o] || (cl->metric != CS_CLAIM_TOTAL && !in->available[c]))) {
        snprintf(r.explanation, sizeof r.explanation,
                 "cannot decide: %s or %s lacks a price (see the warnings)", cl->owned, cl->cloud);
        *out = r;
        return CS_OK;
    }
    struct cs_cost_result res;
    cs_cost_evaluate(in, &res);
    double u = in->v[CS_CIN_UTILIZATION];
    switch (cl->metric) {
    case CS_CLAIM_BREAK_EVEN: {
        struct cs_cost_break_even be;
        break_even(in, (enum cs_cost_option)o, (enum cs_cost_option)c, &be);
        r.computed = be.utilization;
        if (range)
            r.verdict = isfinite(be.utilization) && be.utilization >= cl->low &&
                                be.utilization <= cl->high && !strcmp(be.owned_cheaper, "above")
                            ? CS_VERDICT_SUPPORTED
                            : CS_VERDICT_NOT_SUPPORTED;
        else
            r.verdict = near(be.utilization, cl->claimed, cl->tolerance);
        if (isfinite(be.utilization))
            snprintf(r.explanation, sizeof r.explanation,
                     "%s is cheaper than %s %s %.1f%% utilization", cl->owned, cl->cloud,
                     be.owned_cheaper, 100 * be.utilization);
        else
            snprintf(r.explanation, sizeof r.explanation,
                     "no break-even in (0, 100%%]: %s is %s cheaper than %s", cl->owned,
                     !strcmp(be.owned_cheaper, "always") ? "always" : "never", cl->cloud);
        break;
    }
    case CS_CLAIM_SAVINGS:
        r.computed = res.opt[o].total_usd - res.opt[c].total_usd;
        r.verdict = range ? (r.computed >= cl->low && r.computed <= cl->high
                                 ? CS_VERDICT_SUPPORTED
                                 : CS_VERDICT_NOT_SUPPORTED)
                          : near(r.computed, cl->claimed, cl->tolerance);
        snprintf(r.explanation, sizeof r.explanation,
                 "%s $%.0f - %s $%.0f = $%.0f saved by %s over %g years at %.0f%% utilization",
                 cl->owned, res.opt[o].total_usd, cl->cloud, res.opt[c].total_usd, r.computed,
                 cl->cloud, in->years, 100 * u);
        break;
    case CS_CLAIM_RATIO:
        r.computed = res.opt[c].total_usd / res.opt[o].total_usd;
        r.verdict = range ? (r.computed >= cl->low && r.computed <= cl->high
                                 ? CS_VERDICT_SUPPORTED
                                 : CS_VERDICT_NOT_SUPPORTED)
                          : near(r.computed, cl->claimed, cl->tolerance);
        snprintf(r.explanation, sizeof r.explanation,
                 "%s / %s = $%.0f / $%.0f = %.2fx at %.0f GPUs and %.0f%% utilization", cl->cloud,
                 cl->owned, res.opt[c].total_usd, res.opt[o].total_usd, r.computed, in->gpus,
                 100 * u);
        break;
    case CS_CLAIM_TOTAL:
        r.computed = res.opt[o].total_usd;
        r.verdict = range ? (r.computed >= cl->low && r.computed <= cl->high
                                 ? CS_VERDICT_SUPPORTED
                                 : CS_VERDICT_NOT_SUPPORTED)
                          : near(r.computed, cl->claimed, cl->tolerance);
        snprintf(r.explanation, sizeof r.explanation, "%s over %g years: $%.0f", cl->owned,
                 in->years, r.computed);
        break;
    case CS_CLAIM_CHEAPER_BELOW_GPUS: {
        /* Smallest cluster (whole nodes, up to 2x the scenario's) at which
         * the owned option is cheaper than the cloud option. */
        int maxn = s->cluster.nodes * 2 > 64 ? s->cluster.nodes * 2 : 64;
        double found = NAN;
        for (int nodes = 1; nodes <= maxn; nodes++) {
            struct cs_scenario t = *s;
            t.cluster.nodes = nodes;
            struct cs_cost_inputs ti;
            cs_diags dd;
            cs_diags_init(&dd);
            cs_status st = cs_cost_inputs_from_scenario(&t, NAN, true, &dd, &ti);
            cs_diags_fini(&dd);
            if (st != CS_OK || !ti.available[o] || !ti.available[c])
                continue;
            if (option_total_at(&ti, (enum cs_cost_option)o, u) <
                option_total_at(&ti, (enum cs_cost_option)c, u)) {
                found = (double)nodes * s->cluster.gpus_per_node;
                break;
            }
        }
        r.computed = found;
        r.verdict = range ? (isfinite(found) && found >= cl->low && found <= cl->high
                                 ? CS_VERDICT_SUPPORTED
                                 : CS_VERDICT_NOT_SUPPORTED)
                          : near(found, cl->claimed, cl->tolerance);
        if (isfinite(found))
            snprintf(r.explanation, sizeof r.explanation,
                     "%s becomes cheaper than %s from %.0f GPUs (scanned 1..%d nodes of %d "
                     "GPUs at %.0f%% utilization)",
                     cl->owned, cl->cloud, found, maxn, s->cluster.gpus_per_node, 100 * u);
        else
            snprintf(r.explanation, sizeof r.explanation,
                     "%s stays cheaper than %s at every size from %d to %d GPUs", cl->cloud,
                     cl->owned, s->cluster.gpus_per_node, maxn * s->cluster.gpus_per_node);
        break;
    }
    default: break;
    }
    (void)d;
    *out = r;
    return CS_OK;
}
