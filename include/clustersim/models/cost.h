/* cost.h: total cost of ownership of a cluster over a horizon (models
 * layer, models/cost.c) for seven ways of owning or renting it: on-prem,
 * colocation, cloud on-demand, reserved 1y/3y, spot, and a hybrid of an
 * owned baseline plus cloud burst. Equations and sources: docs/cost.md.
 *
 * Two steps: cs_cost_inputs_from_scenario resolves a scenario (bill of
 * materials from the built fabric, prices, power, site, time per training
 * run) into a flat struct cs_cost_inputs of doubles; cs_cost_evaluate is a
 * pure function of those inputs, so sensitivity and Monte Carlo vary the
 * inputs and re-evaluate. All money is USD, energy kWh, power W, time h
 * (per-hour prices) unless the name says otherwise. */
#ifndef CLUSTERSIM_COST_H
#define CLUSTERSIM_COST_H

#include "clustersim/base/diag.h"
#include "clustersim/models/topology.h"
#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"
#include "clustersim/models/step.h"

#include <stdbool.h>

struct cs_run_result; /* models/run.h */

/* A sized storage tier holds the run's data at most this full: parallel
 * file systems slow down and fragment near full (Lustre operations
 * guidance keeps OSTs under about 80%; estimate). */
#define CS_STORAGE_FILL_LIMIT 0.8

enum cs_cost_option { CS_OPT_ONPREM, CS_OPT_COLO, CS_OPT_ON_DEMAND, CS_OPT_RESERVED_1Y,
                      CS_OPT_RESERVED_3Y, CS_OPT_SPOT, CS_OPT_HYBRID, CS_OPT_COUNT };
/* The contract names: "on-prem", "colocation", "cloud-on-demand", ... */
const char *cs_cost_option_name(enum cs_cost_option o);
/* -1 when `name` is not an option name. */
int cs_cost_option_parse(const char *name);
static inline bool cs_cost_option_owned(enum cs_cost_option o)
{
    return o == CS_OPT_ONPREM || o == CS_OPT_COLO;
}

/* Whether catalog cloud offer `o` can rent cluster `c` (docs/cost.md,
 * "Cloud offers"): it rents c's GPU; an instance holds at least one of c's
 * nodes (an instance smaller than a node cannot give the node's GPU-GPU
 * links); and a cluster of several nodes needs an offer that states a
 * scale-out bandwidth per instance of at least the node's NICs x line rate
 * (an offer that states none is not assumed to have one). On false, `why`
 * (may be NULL) says which test failed, in words. */
bool cs_cost_offer_fits(const struct cs_cloud_offer *o, const struct cs_cluster_cfg *c, char *why,
                        size_t why_len);

enum cs_cost_cat { CS_CAT_CAPEX, CS_CAT_POWER, CS_CAT_SITE, CS_CAT_OPS, CS_CAT_CLOUD,
                   CS_CAT_COUNT };
const char *cs_cost_cat_name(enum cs_cost_cat c); /* "capex", "power", ... */

/* The inputs that sensitivity and Monte Carlo may vary; names are the
 * scenario's `cost:` keys. */
enum cs_cost_input {
    CS_CIN_GPU_PRICE, CS_CIN_NETWORK_FRACTION, CS_CIN_ELECTRICITY, CS_CIN_PUE,
    CS_CIN_COLOCATION, CS_CIN_CONSTRUCTION, CS_CIN_SUPPORT, CS_CIN_STAFF, CS_CIN_UTILIZATION,
    CS_CIN_COST_OF_CAPITAL, CS_CIN_DEPRECIATION, CS_CIN_POWER_MULT, CS_CIN_POWER_UTIL,
    CS_CIN_IDLE_FRACTION, CS_CIN_LIQUID_PER_KW, CS_CIN_FACILITY_LIFE, CS_CIN_ON_DEMAND,
    CS_CIN_RESERVED_1Y, CS_CIN_RESERVED_3Y, CS_CIN_SPOT, CS_CIN_COUNT
};
const char *cs_cost_input_name(enum cs_cost_input i);
/* -1 when unknown. */
int cs_cost_input_parse(const char *name);

/* The network's parts in the bill of materials and in each owned option's
 * breakdown: the switches by tier, NICs, optics, optical cables and copper
 * (DAC) cables bought; `unpriced` is what cost.network_cost_fraction stands
 * for (the items without a price); `power` the energy of the network's
 * devices (breakdown only). Names: "switches_leaf", "switches_spine",
 * "switches_core", "nics", "optics", "cables", "dac_cables", "unpriced",
 * "power". */
enum cs_net_part { CS_NET_LEAF, CS_NET_SPINE, CS_NET_CORE, CS_NET_NICS, CS_NET_OPTICS,
                   CS_NET_CABLES, CS_NET_DACS, CS_NET_UNPRICED, CS_NET_POWER,
                   CS_NET_PART_COUNT };
#define CS_NET_ITEM_COUNT CS_NET_UNPRICED /* the bought items: LEAF .. DACS */
const char *cs_cost_net_part_name(enum cs_net_part p);

/* How an item of the network is paid for. */
enum cs_net_pay {
    CS_PAY_NONE,      /* none counted */
    CS_PAY_PRICED,    /* count x unit price (the link's override or the hardware row's) */
    CS_PAY_IN_SERVER, /* NICs without a price: inside the all-in server price per GPU */
    CS_PAY_IN_CABLE,  /* optics without a price: the cable row's price includes them */
    CS_PAY_FRACTION   /* no price: covered by cost.network_cost_fraction (with a warning) */
};
const char *cs_cost_net_pay_name(enum cs_net_pay p); /* "none", "priced", "in-server", ... */

struct cs_cost_net_item {
    long count;
    enum cs_net_pay pay;
    double unit_usd;                  /* NAN unless priced */
    double usd;                       /* count x unit_usd; 0 unless priced */
    char model[CS_NAME_MAX];          /* the hardware row; "" = the link names none */
    char price_from[96];              /* "cluster.fabric.link.switch_price" or "catalog ..." */
    enum cs_price_basis basis;        /* of the row's price; none for an override */
    double unit_w;                    /* per unit counted in the power; NAN = unknown */
    double power_w;                   /* watts this item adds to the IT load */
};

/* Bill of materials counted from the built cluster. */
struct cs_cost_bom {
    long gpus, servers;
    double servers_usd;               /* gpus x all-in server price per GPU */
    struct cs_fabric_counts fabric;   /* from cs_fabric_counts */
    long switches;
    bool network_priced;              /* every counted item priced (or included in another's
                                       * price): no fraction */
    double network_hw_usd;            /* priced network hardware; NAN when not priced */
    struct cs_cost_net_item net[CS_NET_ITEM_COUNT];
    double network_priced_usd;        /* sum of the priced items (0 when none) */
    bool network_fraction;            /* some item rests on cost.network_cost_fraction */
    double storage_usd;               /* capital, priced storage tiers */
    double storage_usd_per_month;     /* object tiers */
    double network_power_w;           /* switches + optics + cables (+ NICs priced apart) */
    long unpowered_switches;          /* switches counted at 0 W: the link lacks switch_power */
    long unpowered_optics;            /* optics counted at 0 W: the link lacks optic_power */
    char unsized_storage[160];        /* shared tiers left out for want of a capacity */
    /* Storage capacity plan (docs/cost.md, "Storage capacity"): per tier of
     * the cluster, what the scenario needs on it and what is bought. */
    int n_store;
    struct cs_cost_store {
        char tier[CS_NAME_MAX];
        double dataset_bytes, checkpoint_bytes;   /* needed */
        double capacity_bytes;                    /* given, or sized from the need */
        bool sized;                               /* capacity derived: need / fill limit */
        bool short_of_need;                       /* a given capacity below the need */
        double usd;                               /* capital (or per month for object) */
    } store[CS_MAX_STORAGE_TIERS];
};

struct cs_cost_inputs {
    double v[CS_CIN_COUNT];           /* NAN = not given */
    double years;
    double gpus;
    double gpus_per_node;
    double gpu_tdp_w;
    struct cs_cost_bom bom;
    bool liquid_cooling;
    double rear_door_usd;               /* rear-door heat exchangers: racks x price (capital) */
    double node_power_w;                /* facility.node_power given; NAN = GPUs x TDP x multiplier */
    double gpus_per_node_f;             /* for node_power_w */
    double egress_usd_per_year;       /* cloud egress + cloud storage; NAN when not priced */
    double spot_loss_fraction;        /* preempted share of spot GPU-hours, 0 .. <1 */
    double run_hours;                 /* one training run at full speed (tokens / tokens/s); NAN */
    double run_goodput;               /* useful share of the run's wall-clock time, (0, 1];
                                       * 1 unless the caller sets it (the app pipeline: cs_cost_run_from) */
    int hybrid_baseline_gpus;         /* -1 = cheapest */
    enum cs_cost_option hybrid_owned, hybrid_burst;
    int n_demand;
    double demand[CS_COST_MAX_DEMAND];
    bool available[CS_OPT_COUNT];     /* false: a price is missing (see diagnostics) */
};

/* Resolves scenario s into *out: builds the fabric for its counts, prices
 * the bill of materials, takes `run_hours` (NAN when unknown) for the cost
 * per training run. A price that neither the catalog nor the scenario gives
 * is an error naming the key; with `skip_unpriced` it is a warning and the
 * options that need it are marked unavailable instead. Returns CS_OK,
 * CS_ECONFIG (diagnostics in d, *out untouched) or the fabric's error. */
cs_status cs_cost_inputs_from_scenario(const struct cs_scenario *s, double run_hours,
                                       bool skip_unpriced, cs_diags *d,
                                       struct cs_cost_inputs *out);

/* Time per training run for the cost per run: the step model's tokens/s
 * (after the data pipeline's stall) and, unless skipped, the run model's
 * time to train and goodput (failures, checkpoints, restarts). */
struct cs_cost_run {
    bool has_step;              /* the workload simulated, fits, and has tokens */
    bool run_model;             /* time and goodput from cs_run_simulate */
    double step_time_s, tokens_per_s;
    double ideal_hours;         /* tokens / tokens_per_s: the run without losses */
    double wall_hours;          /* mean time to train (run model), else ideal_hours */
    double goodput;             /* ideal_hours / wall_hours; 1 without the run model */
    double goodput_mean, goodput_p05, goodput_p95; /* per replica (run model); NAN */
    double interruptions;       /* mean per run; NAN without the run model */
    int replicas;               /* Monte Carlo replicas of the run model; 0 */
};

/* The time per training run from a step already simulated (`step`, the
 * data stall folded in; NULL: none) and the run-level result (`run`; NULL
 * or not enabled: no run model; only a tokens-mode run is used). Without a
 * workload or workload.tokens out->has_step is false; when the step does
 * not fit (or has no throughput) too, with a warning in d. Borrows
 * everything; out is plain data. */
void cs_cost_run_from(const struct cs_scenario *s, const struct cs_step_result *step,
                      const struct cs_run_result *run, cs_diags *d, struct cs_cost_run *out);

struct cs_cost_option_result {
    bool available;
    double total_usd;
    double by_cat_usd[CS_CAT_COUNT];
    int n_years;
    double by_year_usd[64];           /* amortized: capital as a yearly charge */
    double cash_by_year_usd[64];      /* cash: owned capital paid in year 1 */
    double upfront_usd;               /* capital paid at the start (owned) */
    double gpu_hours;                 /* available: GPUs x horizon */
    double utilized_gpu_hours;
    double usd_per_gpu_hour;
    double usd_per_utilized_gpu_hour;
    double usd_per_run;               /* $/utilized GPU-h x GPUs x run_hours / run_goodput;
                                       * NAN without a run time */
    int hybrid_baseline_gpus;         /* hybrid only */
    /* Owned options (and hybrid's owned share): the part of `capex` each
     * network item accounts for (its price x the capital charge) and the
     * part of `power` the network's devices draw; inside by_cat_usd, not in
     * addition to it. Zero for cloud options. */
    double network_usd[CS_NET_PART_COUNT];
};

struct cs_cost_result {
    struct cs_cost_option_result opt[CS_OPT_COUNT];
    double it_power_kw;               /* nameplate IT load */
    double avg_power_kw;              /* average IT draw at the utilization */
    double capex_hw_usd;              /* servers + network + storage */
    double network_usd;               /* network hardware bought (priced + unpriced) */
    double network_unpriced_usd;      /* the part cost.network_cost_fraction stands for */
};

/* Pure: evaluates every available option. */
void cs_cost_evaluate(const struct cs_cost_inputs *in, struct cs_cost_result *out);

/* Total of one owned or cloud option (not hybrid) at utilization u, the
 * other inputs as given; for the cost-vs-utilization curves. */
double cs_cost_option_total(const struct cs_cost_inputs *in, enum cs_cost_option o, double u);

/* Break-even utilization between an owned and a cloud option: both totals
 * are linear in the utilization u (owned: power; cloud on-demand/spot: used
 * hours), C_o(u) = a_o + b_o u and C_c(u) = a_c + b_c u, so
 * u* = (a_o - a_c) / (b_c - b_o). `owned_cheaper` is "above" / "below" u*
 * when u* lies in (0, 1], else "always" or "never"; utilization NAN then. */
struct cs_cost_break_even {
    enum cs_cost_option owned, cloud;
    double utilization;
    const char *owned_cheaper;
};
/* Fills up to 8 rows (2 owned x 4 cloud, the available ones); returns n. */
int cs_cost_break_even_all(const struct cs_cost_inputs *in, struct cs_cost_break_even *rows);

/* Sensitivity: each input with a finite, nonzero value at (1 - step) and
 * (1 + step) (utilization capped at 1); rows ranked by the largest change of
 * any option's total. */
struct cs_cost_sens_row {
    enum cs_cost_input input;
    double base_value, low_value, high_value;
    double low_usd[CS_OPT_COUNT], high_usd[CS_OPT_COUNT]; /* totals */
    double swing_usd;                                     /* max |high - low| */
};
/* Writes up to CS_CIN_COUNT rows; returns n. */
int cs_cost_sensitivity(const struct cs_cost_inputs *in, double step,
                        struct cs_cost_sens_row *rows);

/* Monte Carlo: each ranged input uniform on [low, high] (GSL mt19937 stream
 * CS_RNG_USER + 6 of `seed`); percentiles of each option's total, and how
 * often each option is the cheapest. */
struct cs_cost_mc {
    int samples;
    double p05[CS_OPT_COUNT], p50[CS_OPT_COUNT], p95[CS_OPT_COUNT], mean[CS_OPT_COUNT];
    double cheapest_share[CS_OPT_COUNT];
};
/* Returns CS_EINVAL for an unknown range key or samples < 1. */
cs_status cs_cost_monte_carlo(const struct cs_cost_inputs *in, const struct cs_cost_range *ranges,
                              int n_ranges, int samples, uint64_t seed, struct cs_cost_mc *out);

/* A seed claim evaluated against the model (scenario `cost.claim`). */
enum cs_cost_verdict { CS_VERDICT_SUPPORTED, CS_VERDICT_NOT_SUPPORTED, CS_VERDICT_UNDECIDED };
struct cs_cost_claim_result {
    enum cs_cost_verdict verdict;
    double computed;                  /* the metric as clustersim computes it */
    char explanation[512];
};
const char *cs_cost_verdict_name(enum cs_cost_verdict v);
/* Evaluates s->cost.ext.claim. cheaper_below_gpus re-resolves the scenario
 * at 1 .. 2x its node count. Returns CS_EINVAL when there is no claim. */
cs_status cs_cost_claim_evaluate(const struct cs_scenario *s, const struct cs_cost_inputs *in,
                                 cs_diags *d, struct cs_cost_claim_result *out);

#endif
