/* scenario.h: a fully resolved, validated scenario as plain data. config/
 * builds it from YAML (file values over catalog values over defaults) and
 * records where each value came from; models read it and never see YAML.
 * Every quantity is SI (bytes, bytes/s, seconds, watts, USD). */
#ifndef CLUSTERSIM_SCENARIO_H
#define CLUSTERSIM_SCENARIO_H

#include "clustersim/models/hw.h"
#include "clustersim/models/workload.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The topology kinds, one row each: (enum suffix, scenario name, switch
 * tiers, rail-optimized, builder). Tiers: 1, 2 or 3 builds that many; 0 as
 * few as the cluster fits in (2, else 3); -1 what cluster.fabric.tiers says
 * (0 there: as few as fit). Rail-optimized kinds put GPU i of every node of
 * a scalable unit on leaf i. The builder is the descriptor that wires the
 * kind (enum cs_topology_builder; models/topo/, one file each, registered in
 * topology.c's table). The topology builder, the loader's name table and
 * the writers all read this list: adding a kind an existing descriptor can
 * wire is one row here (docs/architecture.md). */
#define CS_TOPOLOGY_KINDS(X)                                          \
    X(SINGLE_SWITCH, "single-switch", 1, false, SINGLE_SWITCH)        \
    X(FAT_TREE, "fat-tree", -1, false, FAT_TREE)                      \
    X(SPINE_LEAF, "spine-leaf", 2, false, SPINE_LEAF)                 \
    X(RAIL_OPTIMIZED, "rail-optimized", 0, true, RAIL_OPTIMIZED)      \
    X(NVL_DOMAIN, "nvl-domain", -1, false, NVL_DOMAIN)                \
    X(DRAGONFLY, "dragonfly", 0, false, DRAGONFLY)

enum cs_topology {
#define CS__TOPO_ENUM(id, name, tiers, rail, builder) CS_TOPO_##id,
    CS_TOPOLOGY_KINDS(CS__TOPO_ENUM)
#undef CS__TOPO_ENUM
    CS_TOPO_COUNT
};

/* The topology descriptors (models/topo/, one file each). FAT_TREE is 0, so a kind
 * written as {name, tiers, rail} builds a k-ary fat tree of those tiers. */
enum cs_topology_builder {
    CS_TOPO_BUILD_FAT_TREE,
    CS_TOPO_BUILD_SINGLE_SWITCH,
    CS_TOPO_BUILD_SPINE_LEAF,
    CS_TOPO_BUILD_RAIL_OPTIMIZED,
    CS_TOPO_BUILD_NVL_DOMAIN,
    CS_TOPO_BUILD_DRAGONFLY,
    CS_TOPO_BUILD_COUNT
};

/* A kind as the builder reads it. */
struct cs_topology_kind {
    const char *name;
    int tiers;   /* 1, 2, 3; 0 as few as fit; -1 from cluster.fabric.tiers */
    bool rail;
    enum cs_topology_builder builder;
};
/* The row of kind t, or NULL for a value outside the list. */
const struct cs_topology_kind *cs_topology_kind_of(enum cs_topology t);
const char *cs_topology_name(enum cs_topology t);
/* Name tables in enum order, NULL-terminated (models/names.c): the loader's
 * field tables and the writers read these, so every layer spells an enum
 * the same way. */
extern const char *const cs_topology_names[];
extern const char *const cs_placement_names[];
extern const char *const cs_scn_compare_names[];  /* enum cs_scn_claim_compare */

/* Where a job's nodes sit on the fabric (models/topology.c, docs/fabric.md):
 * packed fills one leaf after another in rank order; scattered puts the
 * ranks' nodes in a random order over the leaves. */
enum cs_placement { CS_PLACEMENT_PACKED, CS_PLACEMENT_SCATTERED };

/* How a flow picks among equal-cost paths (models/topology.c,
 * docs/fabric.md section 2): AUTO is STATIC on InfiniBand / Omni-Path and
 * ECMP on Ethernet / RoCE; STATIC is destination-based d-mod-k as subnet
 * managers program it; ECMP hashes each flow onto one path; ADAPTIVE
 * spreads a flow over every uplink (InfiniBand adaptive routing,
 * Spectrum-X per-packet spraying). */
enum cs_routing { CS_ROUTING_AUTO, CS_ROUTING_STATIC, CS_ROUTING_ECMP, CS_ROUTING_ADAPTIVE };
extern const char *const cs_routing_names[]; /* "auto", "static", "ecmp", "adaptive" */

struct cs_fabric_cfg {
    enum cs_topology topology;
    struct cs_link_spec link;
    int nics_per_node;
    double oversubscription;         /* leaf downlink:uplink ratio; 1 = non-blocking */
    bool in_network_reduction;       /* SHARP-style */
    int tiers;                       /* fat-tree tiers (2 or 3); 0 = smallest that fits */
    enum cs_placement placement;     /* of the scenario's job; default packed */
    enum cs_routing routing;         /* how flows pick among equal-cost paths; default by link kind */
    int qps_per_connection;          /* NCCL_IB_QPS_PER_CONNECTION: hashed flows per connection (ECMP entropy); 1 */
    /* Topology descriptors' numbers (docs/fabric.md section 2); 0 (or 1 for
     * a ratio) = derived from the radix and the oversubscription. */
    double agg_oversubscription;     /* 3-tier fat tree: aggregation down:up; 1 = non-blocking */
    int leaves;                      /* spine-leaf: leaf switches */
    int uplinks_per_leaf;            /* spine-leaf: cables from each leaf to the spines */
    int spines;                      /* spine-leaf: spine switches */
    int domain_gpus;                 /* nvl-domain: GPUs of one NVLink domain (NVL72: 72); 0 = gpu.scaleup_domain */
    int df_routers_per_group;        /* dragonfly a */
    int df_terminals_per_router;     /* dragonfly p (NIC ports per router) */
    int df_global_per_router;        /* dragonfly h */
    bool df_valiant;                 /* dragonfly: Valiant routing through a random group */
};

#define CS_MAX_STORAGE_TIERS 4
struct cs_storage_cfg {
    int n_tiers;
    struct cs_storage_spec tiers[CS_MAX_STORAGE_TIERS];
};

struct cs_cluster_cfg {
    struct cs_gpu_spec gpu;
    int nodes;
    int gpus_per_node;
    struct cs_intra_spec intra;
    struct cs_fabric_cfg fabric;
    struct cs_storage_cfg storage;
    /* Where remote storage traffic (checkpoint writes, dataset reads) runs:
     * false (`storage_network: compute`, the default) on the compute
     * fabric's NICs and switches, sharing them with the collectives
     * (models/netmodel.c); SEPARATE (`separate`) on a storage network of its
     * own (DGX SuperPOD's storage fabric), touching no collective. */
    enum cs_storage_net { CS_STORAGE_NET_COMPUTE, CS_STORAGE_NET_SEPARATE } storage_network;
    double cpu_cores_per_node;
    double host_memory_bytes;        /* per node */
};

/* Fault domains (docs/run.md "Fault domains"): leaf and spine count the
 * built fabric's leaf and spine (aggregation + core) switches; storage is
 * an outage of the checkpoint tier. Appended in this order: the values are
 * indices of run.interruptions_by_scope. */
enum cs_fail_scope {
    CS_SCOPE_GPU,
    CS_SCOPE_NODE,
    CS_SCOPE_SWITCH,
    CS_SCOPE_JOB,
    CS_SCOPE_RACK,
    CS_SCOPE_LEAF,
    CS_SCOPE_SPINE,
    CS_SCOPE_STORAGE
};
#define CS_FAIL_N_SCOPES 8
enum cs_fail_dist { CS_DIST_EXPONENTIAL, CS_DIST_WEIBULL };

#define CS_MAX_FAIL_COMPONENTS 32
struct cs_fail_component {
    char name[CS_NAME_MAX];
    enum cs_fail_scope scope;
    double mtbf_s;                   /* per unit of scope */
    enum cs_fail_dist dist;
    double shape;                    /* Weibull shape; 1 for exponential */
    /* Run-level model (models/failure.c): */
    bool replace;                    /* the failed unit's node leaves until repaired */
    bool preemption;                 /* spot reclaim: reported apart from failures */
    double repair_s;                 /* NAN: failures.repair */
};

struct cs_failures_cfg {
    bool enabled;
    int n_components;
    struct cs_fail_component components[CS_MAX_FAIL_COMPONENTS];
    double detection_s;
    double restart_s;
    /* Run-level model (models/failure.c): */
    bool defaults;                   /* components from the Llama 3 table (none given) */
    int spares;                      /* hot-spare nodes; -1 = unlimited (instant swap) */
    double repair_s;                 /* a replaced node is out this long */
    bool elastic;                    /* resume on fewer nodes when no spare is left */
    /* Planned maintenance (docs/run.md "Maintenance and stragglers"):
     * every maint_interval_s the job stops for maint_duration_s; drained,
     * it checkpoints first and loses no work. NAN interval = none. */
    double maint_interval_s, maint_duration_s;
    bool maint_drain;                /* kind != restart-required (the old key) */
    /* scheduled: the whole job stops at the window after a checkpoint;
     * drained: maint_nodes nodes are drained, the job swaps them at its
     * next checkpoint (a planned restart, no lost work, no stop of the
     * whole job); restart-required: stops at once, rolls back. */
    enum cs_maint_kind { CS_MAINT_SCHEDULED, CS_MAINT_DRAINED, CS_MAINT_RESTART } maint_kind;
    int maint_nodes;                 /* drained: nodes taken out per window */
    /* Spare placement (docs/run.md "Fault domains"): SEPARATE, spares in
     * racks and under leaves of their own, which no rack or leaf event of
     * the job reaches; SPREAD, spread over the job's racks and leaves, so a
     * domain event takes out the spares in it too. spares_per_rack > 0
     * sets spares = that x the job's racks, spread. */
    enum cs_spare_place { CS_SPARES_SEPARATE, CS_SPARES_SPREAD } spares_placement;
    int spares_per_rack;
    /* A checkpoint-tier outage: STALL, the job blocks at its next
     * checkpoint until the tier is back (a hard-mounted file system);
     * CONTINUE, it skips the checkpoints due (no durable ones meanwhile). */
    enum cs_storage_outage { CS_STORAGE_STALL, CS_STORAGE_CONTINUE } storage_outage;
    /* Stragglers: a GPU turns slow (per-GPU MTBF strag_mtbf_s; NAN = none),
     * every synchronous step runs 1 + strag_slowdown times longer until it
     * is found (strag_detect_s) and its node swapped (a restart). */
    double strag_mtbf_s, strag_slowdown, strag_detect_s;
    /* Set by the facility model (config/scenario.c): the nodes a rack
     * holds, which a rack-scope failure (PDU, top-of-rack switch) takes
     * out together; 1 without a facility. */
    int nodes_per_rack;
};

enum cs_ckpt_mode { CS_CKPT_SYNC, CS_CKPT_ASYNC };
struct cs_checkpoint_cfg {
    bool enabled;
    bool interval_optimal;           /* Young/Daly instead of interval_s */
    double interval_s;
    enum cs_ckpt_mode mode;
    char tier[CS_NAME_MAX];          /* a storage tier name */
    /* Run-level model (models/checkpoint.c): */
    double size_bytes;               /* NAN: from the model state */
    char upload[CS_NAME_MAX];        /* tier of the background copy; "" = none */
    double snapshot_bw_bytes_per_s;  /* async GPU->host copy per GPU; NAN: PCIe of the GPU */
    int keep;                        /* checkpoints retained on the tier (and the upload tier); 10 */
};

/* Input data pipeline (models/datapipe.c). */
struct cs_data_cfg {
    bool enabled;
    double batch_time_s;             /* measured loader time per step; NAN: derive */
    double sample_cpu_s;             /* CPU seconds to preprocess one sample */
    int workers_per_gpu;             /* loader worker processes per GPU */
    int prefetch;                    /* batches prefetched; 0 = loader runs in series */
    double sample_bytes;             /* bytes read per sample */
    bool gpu_decode;                 /* DALI-like: preprocessing on the GPU */
    double gpu_sample_s;             /* GPU seconds per sample when gpu_decode */
    char tier[CS_NAME_MAX];          /* dataset storage tier; "" = first tier */
    double dataset_bytes;            /* the dataset held on data.tier; 0 = not sized */
    double sample_cv;                /* coefficient of variation of a sample's CPU time (lognormal); 0 */
    double other_jobs_share;         /* share of the tier's read bandwidth other jobs take; 0 */
};

/* `uncertainty:` (app/uncertainty.h): the Monte Carlo over the model's own
 * parameters of `run --uncertainty`, `tco --uncertainty`, `plan
 * --uncertainty`. */
struct cs_uncertainty_cfg {
    bool given;                      /* the section is in the file */
    int samples;                     /* default 200 */
    double step_error;               /* the step's relative error (mean |error|); NAN: the
                                      * validation index's held-out MAPE */
    double mtbf_lo, mtbf_hi;         /* factor on every failure class's MTBF; 0.5, 2 */
    double restart_lo, restart_hi;   /* factor on detection and restart; 0.5, 2 */
};

struct cs_run_cfg {
    bool enabled;
    double duration_s;               /* NAN: train workload.tokens instead */
    int replicas;                    /* Monte Carlo replicas */
};

/* TCO inputs beyond the cost table above, parsed by config/cfg_cost.c (keys
 * and defaults: docs/cost.md). NAN = not given. */
#define CS_COST_MAX_DEMAND 120
#define CS_COST_MAX_RANGES 24
struct cs_cost_range { char key[CS_NAME_MAX]; double low, high; };
enum cs_cost_claim_metric { CS_CLAIM_NONE, CS_CLAIM_BREAK_EVEN, CS_CLAIM_SAVINGS,
                            CS_CLAIM_RATIO, CS_CLAIM_TOTAL, CS_CLAIM_CHEAPER_BELOW_GPUS };
struct cs_cost_claim {
    enum cs_cost_claim_metric metric;
    char id[32];
    char text[256];
    char owned[32], cloud[32];       /* option names */
    double claimed, low, high;       /* a value, or a range [low, high] */
    double tolerance;                /* relative, for values */
};
/* Published figures a scenario reproduces (`cost.reference:`), printed
 * beside clustersim's by `clustersim tco --table`. NAN = not given. */
struct cs_cost_reference {
    char id[32];
    double on_demand_usd_per_h;      /* whole cluster */
    double reserved_usd_per_year;    /* whole cluster */
    double owned_usd;                /* owned total over cost.years */
    double throughput;               /* relative effective throughput */
    double tolerance;                /* relative, for the throughput verdict */
};
/* The default annual cost of capital (an estimate; config/cfg_cost.c). */
#define CS_COST_DEFAULT_COST_OF_CAPITAL 0.08

struct cs_cost_ext {
    double staff_usd_per_year;       /* given, else nodes / servers_per_admin x staff_per_admin */
    double servers_per_admin;        /* servers one systems FTE runs (default 250) */
    double staff_usd_per_admin_year; /* loaded cost of one FTE (default $125,600) */
    bool staff_default;              /* staff_per_year not given: derived as above */
    bool cost_of_capital_default;    /* cost_of_capital not given: the default rate */
    int cooling;                     /* 0 air, 1 liquid, 2 rear-door */
    double rear_door_usd_per_rack;   /* NAN: none given */
    double liquid_cooling_usd_per_kw;
    double cost_of_capital;          /* per year */
    double facility_life_years;
    double idle_power_fraction;      /* idle draw / nameplate */
    double egress_usd_per_tb, egress_bytes_per_month;
    double cloud_storage_usd_per_tb_month, cloud_storage_bytes;
    double spot_interruptions_per_h, spot_lost_s_per_interruption;
    int hybrid_baseline_gpus;        /* -1: the cheapest baseline */
    int hybrid_owned;                /* 0 colocation, 1 on-prem */
    int hybrid_burst;                /* 0 on-demand, 1 spot */
    int n_demand;
    double demand[CS_COST_MAX_DEMAND];   /* busy fraction of the cluster per period */
    double sensitivity;              /* relative step, e.g. 0.2 */
    int monte_carlo;                 /* samples; 0 = none */
    int n_ranges;
    struct cs_cost_range ranges[CS_COST_MAX_RANGES];
    struct cs_cost_claim claim;
    struct cs_cost_reference reference;
};

/* How a cloud price was chosen: given in the scenario; from the offer the
 * scenario names (cost.cloud.offer); the cheapest catalog offer that fits
 * the cluster (cs_cost_offer_fits); the cheapest that does not, when none
 * fits (a warning says so); none priced. */
enum cs_cloud_offer_rule { CS_OFFER_SCENARIO, CS_OFFER_NAMED, CS_OFFER_CHEAPEST_FIT,
                           CS_OFFER_CHEAPEST_UNFIT, CS_OFFER_NONE };
enum cs_cloud_price { CS_CLOUD_ON_DEMAND, CS_CLOUD_RESERVED_1Y, CS_CLOUD_RESERVED_3Y, CS_CLOUD_SPOT };

struct cs_cost_cfg {
    bool enabled;
    double years;
    double utilization;
    double electricity_usd_per_kwh;
    double pue;
    double colocation_usd_per_kw_month;
    double gpu_price_usd;            /* NAN: from the catalog */
    double cloud_on_demand_usd_per_gpu_h;
    double cloud_reserved_1y_usd_per_gpu_h;
    double cloud_reserved_3y_usd_per_gpu_h;
    double cloud_spot_usd_per_gpu_h;
    /* Added by the config loader; defaults from the catalog site entry. */
    char site[CS_NAME_MAX];               /* catalog site entry */
    char cloud_offer[CS_NAME_MAX];        /* catalog cloud offer; "" when none */
    /* Which catalog offer set each cloud price (on-demand, reserved 1y,
     * reserved 3y, spot, as enum cs_cloud_price), and by which rule
     * (docs/cost.md, "Cloud offers"). */
    char cloud_offer_for[4][CS_NAME_MAX];
    int cloud_offer_rule[4];              /* enum cs_cloud_offer_rule */
    char cloud_unfit_why[4][160];         /* CS_OFFER_CHEAPEST_UNFIT: why the offer does not fit */
    int cloud_offers_fitting;             /* catalog offers of the GPU that fit the cluster */
    int cloud_offers_total;               /* catalog offers of the GPU */
    double server_price_usd;              /* per server of gpu.server_gpus; NAN */
    double construction_usd_per_mw;
    double depreciation_years;
    double support_fraction_per_year;
    double server_power_utilization;
    double server_power_multiplier;
    double network_cost_fraction;
    struct cs_cost_ext ext;               /* config/cfg_cost.c */
};

/* `calibration:` (config/cfg_calib.c; written by `clustersim calibrate`,
 * docs/calibration.md): parameters fitted to measurements. NAN = not
 * calibrated. A curve is the fitted nccl-tests time of one (op, ranks,
 * nodes, algorithm): t(S) = smoothmax(launch, min over regimes of
 * lat + S x busbw_factor / busbw). Enums are stored as int (collective.h
 * includes this header). */
#define CS_CALIB_MAX_CURVES 48
struct cs_calib_curve {
    int op;                          /* enum cs_coll_op */
    int algo;                        /* enum cs_coll_algo measured with (AUTO: NCCL's choice) */
    int ranks, nodes;
    int n_regimes;                   /* 1 or 2 (protocol regimes) */
    double launch_s;                 /* host launch floor; 0 = none */
    double lat_s[2];
    double busbw_bytes_per_s[2];
    double min_bytes, max_bytes;     /* measured size range */
    double mape, max_err;            /* busbw residuals of the fit (fractions) */
};
struct cs_calib_cfg {
    bool enabled;
    double intra_efficiency;         /* applied to cluster.intra.efficiency at load */
    double net_efficiency;           /* applied to cluster.fabric.link.efficiency at load */
    double nvls_efficiency;          /* struct cs_coll_params */
    double launch_floor_s;           /* struct cs_coll_params (nccl-tests only) */
    double gemm_eff_max, gemm_dim_half;   /* struct cs_compute_params */
    double compute_scale;            /* multiplies gemm_eff_max, attn_eff, mem_eff */
    double overlap_slowdown;         /* struct cs_step_options */
    /* The step-time fit's residual (fit: steps_N: {points, mape}; the
     * largest MAPE when several): the in-sample error of the calibrated step
     * model on the user's measurements, for --uncertainty; NAN, 0 without. */
    double step_fit_mape;
    int step_fit_points;
    int n_curves;
    struct cs_calib_curve curves[CS_CALIB_MAX_CURVES];
};

/* A published claim the scenario puts to the test (`claim:`): the figure
 * `metric` the claim states for this scenario (`value`), or its ratio to
 * the first scenario of a `clustersim compare` (`ratio`), within a relative
 * `tolerance`; or a bound on either (`at_least`/`at_most` on the figure,
 * `ratio_at_least`/`ratio_at_most` on the ratio) for claims that state a
 * direction or a threshold, not a figure. run and compare print
 * clustersim's verdict. The run-level metrics (goodput and
 * checkpoint_overhead_s, means over the replicas; checkpoint_blocking_s,
 * the GPUs' idle time per checkpoint) need the run model, so only `run`
 * (and `claims`) judge them. */
enum cs_claim_metric { CS_CLAIM_MFU, CS_CLAIM_TOKENS_PER_S, CS_CLAIM_STEP_TIME_S,
                       CS_CLAIM_EXPOSED_COMM_FRACTION, CS_CLAIM_GPU_BUSY_FRACTION,
                       CS_CLAIM_DATA_STALL_FRACTION, CS_CLAIM_GOODPUT,
                       CS_CLAIM_CHECKPOINT_OVERHEAD_S, CS_CLAIM_CHECKPOINT_BLOCKING_S,
                       CS_CLAIM_NODE_POWER_W, CS_CLAIM_KW_PER_RACK, CS_CLAIM_COOLING_OK,
                       CS_CLAIM_TIME_TO_THROTTLE_S,
                       CS_CLAIM_METRIC_COUNT };
struct cs_claim_cfg {
    bool enabled;
    char text[512];
    char source[128];
    int metric;                      /* enum cs_claim_metric */
    double value;                    /* NAN when not stated */
    double ratio;                    /* NAN when not stated */
    double at_least, at_most;        /* bounds on the figure; NAN when not stated */
    double ratio_at_least, ratio_at_most; /* bounds on the ratio; NAN when not stated */
    double tolerance;                /* relative */
};

/* `scheduler:` (config/cfg_scheduler.c, docs/replay.md): the settings of
 * `clustersim replay`. Enums as int (scheduler.h includes this header):
 * policy enum cs_sched_policy, placement enum cs_sched_place; -1 = not
 * given. A partition's match rule (min_gpus, max_gpus, max_duration_s)
 * assigns jobs that name no configured partition. */
#define CS_SCN_MAX_PARTITIONS 16
struct cs_scn_partition {
    char name[CS_NAME_MAX];
    double quota;                    /* fraction of all GPUs; NAN: none */
    int priority;
    bool rule;                       /* any match bound given */
    double min_gpus, max_gpus;       /* match bounds; NAN: none */
    double max_duration_s;           /* match bound; NAN: none */
};
enum cs_scn_claim_compare { CS_SCN_COMPARE_NONE, CS_SCN_COMPARE_PLACEMENT, CS_SCN_COMPARE_MIG };
struct cs_scn_scheduler {
    bool enabled;
    int policy, placement;           /* -1: not given */
    int preempt;                     /* -1: not given; 0/1 */
    int mig_slices;                  /* -1: not given; 0: MIG off; 1..7 */
    int backfill_depth;              /* 0: not given */
    int n_partitions;
    struct cs_scn_partition partitions[CS_SCN_MAX_PARTITIONS];
    char claim_id[32];               /* "" = no claim */
    char claim_text[512];
    int claim_compare;               /* enum cs_scn_claim_compare */
    double claim_tolerance;          /* absolute share / relative figure; default 0.05 */
};

/* A neighbour job on the same fabric (`neighbours:`; models/netmodel.c,
 * docs/fabric.md section 3b): `gpus` of the cluster's free nodes placed as
 * `placement` says, running a ring collective of `bytes` per GPU every
 * `interval_s` (a data-parallel job's gradient reduction). */
enum cs_nb_traffic { CS_NB_ALL_REDUCE, CS_NB_ALL_GATHER, CS_NB_REDUCE_SCATTER };
extern const char *const cs_nb_traffic_names[]; /* "all_reduce", "all_gather", "reduce_scatter" */
#define CS_MAX_NEIGHBOURS 16
struct cs_neighbour_cfg {
    long gpus;                       /* whole nodes */
    enum cs_placement placement;
    enum cs_nb_traffic traffic;
    double bytes;                    /* per GPU, nccl-tests convention */
    double interval_s;               /* one collective starts every interval */
};

/* `facility:` (config/scenario.c; models/facility.h, docs/run.md
 * "Facility"): how the nodes sit in racks and are cooled and powered.
 * Settings (NAN or 0 = default) and the result cs_facility_evaluate fills. */
struct cs_facility_result {
    double node_power_w;             /* nameplate of one node */
    double rack_limit_w;             /* heat one rack can shed */
    int nodes_per_rack;              /* as placed */
    int nodes_per_rack_space;        /* rack units allow */
    int nodes_per_rack_cooling;      /* the cooling limit allows (0: not one node) */
    int racks;                       /* compute racks */
    double kw_per_rack;              /* the fullest rack's nameplate, kW */
    double it_power_w;               /* every node's nameplate */
    double facility_power_w;         /* it_power x PUE */
    double ups_loss_w, distribution_loss_w, cooling_power_w; /* parts of the PUE overhead */
    double floor_m2;                 /* racks x floor per rack (aisles included) */
    bool cooling_ok;                 /* every rack within its cooling limit */
    double gpu_power_cap_w;          /* a rack over its limit caps its GPUs; NAN = none */
    /* Thermal transient of a rack over its cooling limit (facility.c,
     * docs/run.md "Facility"): the excess heat warms the rack's lumped
     * thermal mass until the inlet reaches the throttle inlet temperature. */
    double excess_heat_w;            /* rack draw at full power - rack limit; 0 within the limit */
    double thermal_mass_j_per_k;     /* the rack's nodes and its share of the room's air */
    double time_to_throttle_s;       /* INFINITY within the limit; the hardware warming with the air */
    double time_to_throttle_air_s;   /* the air alone warming (the first, fastest rate): a lower bound */
    double sustained_clock_factor;   /* after throttling: (cap / per-GPU power)^(1/3); 1 within */
    char why[256];                   /* what decided the placement, in words */
};
struct cs_facility_cfg {
    bool given;                      /* the section is in the file */
    int cooling;                     /* enum cs_cooling (facility.h); default: cost.cooling, else air */
    double rack_power_w;             /* cooling limit per rack; NAN = by cooling kind */
    int rack_units;                  /* usable U per rack; default 42 */
    int node_units;                  /* U per node; 0 = by GPUs per node (8 GPUs: 8U) */
    double node_power_w;             /* NAN = GPUs x TDP (or cap) x server_power_multiplier */
    int racks;                       /* racks available; 0 = as many as the nodes need */
    double floor_m2_per_rack;        /* default 2.8 m^2 (30 sq ft with aisles) */
    double ups_efficiency;           /* default 0.96 */
    double distribution_loss;        /* PDU and transformer losses, share of IT; default 0.02 */
    double inlet_temp_c;             /* supply air at the server inlet; NAN = 25 C */
    double throttle_inlet_c;         /* inlet at which the GPUs throttle; NAN = 30 C */
    double node_mass_kg;             /* NAN = 130.45 kg per 8 GPUs (DGX H100) */
    struct cs_facility_result res;
};

struct cs_scenario {
    int schema_version;
    char name[128];
    uint64_t seed;
    char *file;                      /* owned; the top-level file path */
    struct cs_cluster_cfg cluster;
    bool has_workload;
    struct cs_workload workload;
    struct cs_failures_cfg failures;
    struct cs_checkpoint_cfg checkpoint;
    struct cs_run_cfg run;
    struct cs_uncertainty_cfg uncertainty;
    struct cs_cost_cfg cost;
    struct cs_facility_cfg facility;
    struct cs_claim_cfg claim;       /* `claim:`; enabled false when absent */
    struct cs_data_cfg data;         /* `data:`; enabled false when absent */
    struct cs_calib_cfg calibration; /* `calibration:`; enabled false when absent */
    struct cs_scn_scheduler scheduler; /* `scheduler:`; enabled false when absent */
    int n_neighbours;                /* `neighbours:` */
    struct cs_neighbour_cfg neighbours[CS_MAX_NEIGHBOURS];
};

/* GPUs job w runs on in cluster c: w->gpus, or every GPU when 0. */
static inline long cs_job_gpus(const struct cs_cluster_cfg *c, const struct cs_workload *w)
{
    return w && w->gpus > 0 ? w->gpus : (long)c->nodes * (long)c->gpus_per_node;
}

/* Total GPUs of the cluster. */
static inline long cs_scenario_gpus(const struct cs_scenario *s)
{
    return (long)s->cluster.nodes * (long)s->cluster.gpus_per_node;
}

#endif
