/* plan.h: plan files for `clustersim plan` (config layer, config/plan.c;
 * the method in docs/plan.md, the names in DESIGN.md's contract).
 *
 * A plan file states a workload (a scenario's `workload:` with `tokens`),
 * a deadline, a budget and the candidate space: GPU types, node counts,
 * fabrics and ownership options; `cluster:` (a base every candidate
 * starts from: storage tiers, NICs), `failures:`, `checkpoint:`, `cost:`,
 * `run:` and `seed:` as in a scenario. Each candidate cluster (one GPU
 * type x one node count x one fabric) is bound as a scenario: the plan's
 * sections with cluster.gpu, cluster.nodes and cluster.fabric.* set, so
 * its errors carry the plan file's lines and the scenario binder checks
 * every key as it does for `run`, but for the parallelism rules: the
 * workload is bound with tp = pp = cp = 1 over the whole cluster, and the
 * plan's search replaces that with configurations that obey them. */
#ifndef CLUSTERSIM_CONFIG_PLAN_H
#define CLUSTERSIM_CONFIG_PLAN_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/sweep.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/scenario.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CS_PLAN_MAX_GPUS 32
#define CS_PLAN_MAX_NODES 64
#define CS_PLAN_MAX_FABRICS 32
#define CS_PLAN_MAX_OFFERS 16
#define CS_PLAN_MAX_STORAGE 16

/* What the budget is compared with (plan.budget_basis). */
enum cs_plan_basis {
    /* The money signed for (default): a cloud run's rental for its
     * wall-clock time (on-demand, spot); a reservation's whole terms; an
     * owned or hybrid cluster's total over cost.years (the TCO). */
    CS_PLAN_BASIS_COMMITMENT,
    /* The run's share: the option's cost per utilized GPU-hour x the GPUs x
     * the run's wall-clock hours (the TCO model's usd_per_run). */
    CS_PLAN_BASIS_RUN,
};
extern const char *const cs_plan_basis_names[]; /* "commitment", "run" */

typedef struct cs_plan cs_plan;

struct cs_plan_info {
    const char *file;            /* as given */
    char name[CS_NAME_MAX];      /* name:, else the file's base name */
    double deadline_s;           /* deadline: (a duration, > 0) */
    double budget_usd;           /* budget: (money, > 0); INFINITY when absent */
    enum cs_plan_basis basis;
    int n_gpus, n_nodes, n_fabrics;
    int n_storage;               /* candidates.storage variants; 1: the base cluster's */
    int n_variants;              /* n_fabrics x n_storage: the network-and-storage choices */
    int n_ownership;
    enum cs_cost_option ownership[CS_OPT_COUNT]; /* in the file's order; default all seven */
    double tokens;               /* workload.tokens when written as a plain number; NAN */
    /* candidates.cloud_offers: every catalog offer (`all`) or the listed
     * ones are priced for the cloud options of the clusters of their GPU;
     * absent: the scenario's offer (cost.cloud.offer, else the catalog's
     * first for the GPU) alone. */
    bool offers_all;
    int n_offers;
    char offers[CS_PLAN_MAX_OFFERS][CS_NAME_MAX];
    bool replicas_given;         /* run.replicas is in the file */
    uint64_t hash;               /* FNV-1a of the file's bytes and the overrides: shards of one
                                  * plan carry it, and merge refuses others */
};

/* Loads and checks a plan file ("-" is not accepted: candidates re-read
 * nothing, but the file name anchors includes), with the overrides applied
 * to its tree first (--set; key paths as in sweep axes, e.g.
 * workload.tokens=1T or deadline=60d). CS_OK, CS_EIO (unreadable) or
 * CS_ECONFIG (diagnostics in d). */
cs_status cs_plan_load(const char *path, const struct cs_cfg_override *ov, size_t nov, cs_diags *d,
                       cs_plan **out);
void cs_plan_destroy(cs_plan *p);

const struct cs_plan_info *cs_plan_info(const cs_plan *p);
/* Labels for reports: the GPU's catalog name; the node count; a variant
 * (fabric x storage, index fi in 0..n_variants: fabric fi / n_storage,
 * storage fi % n_storage) as "fat-tree ib-ndr 1:1" (the fabric's topology,
 * link and oversubscription as written, defaults from the base cluster),
 * with " storage nvme-gen4+s3" when the plan varies the storage. Borrowed. */
const char *cs_plan_gpu(const cs_plan *p, int gi);
int cs_plan_nodes(const cs_plan *p, int ni);
const char *cs_plan_fabric(const cs_plan *p, int fi);

/* The listed cloud offers exist in the catalog and sell one of the plan's
 * GPUs: CS_OK, else CS_ECONFIG with the offer's line. */
cs_status cs_plan_check_offers(const cs_plan *p, const cs_catalog *cat, cs_diags *d);

/* Binds candidate (gi, ni, fi: a variant, above) as a scenario (see above): out->workload
 * spans the whole cluster with parallelism 1 x 1 x 1 for the caller's
 * search to replace. Thread-safe for distinct outputs (the plan and the
 * catalog are only read). Same statuses as cs_cfg_load_scenario. */
cs_status cs_plan_candidate(const cs_plan *p, int gi, int ni, int fi, const cs_catalog *cat,
                            cs_diags *d, struct cs_scenario *out);

#endif
