/* plan.h: inverse planning (app layer, app/plan.c; method in docs/plan.md).
 * For every candidate cluster of a plan file (GPU type x node count x
 * fabric): a bound on the time to train (the model's GEMM FLOPs at the
 * GPU's peak) drops the clusters that cannot meet the deadline even at
 * peak, unsimulated; the others get the parallelism search's fastest
 * configuration that fits, the run model's time to train with failures and
 * checkpoints (mean, p05, p95 over its Monte Carlo replicas) and the TCO
 * model's cost for each ownership option. Then: the cheapest plan that
 * meets the deadline at p95, the fastest within the budget, the Pareto
 * front of cost against time, and, when nothing qualifies, which
 * constraint binds and by how much. */
#ifndef CLUSTERSIM_APP_PLAN_H
#define CLUSTERSIM_APP_PLAN_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/plan.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/run.h"
#include "clustersim/models/workload.h"
#include "clustersim/app/uncertainty.h"

#include <stdbool.h>
#include <stddef.h>

#define CS_PLAN_MAX_THREADS 64

typedef void (*cs_plan_progress)(size_t done, size_t total, void *ctx);

struct cs_app_plan_opts {
    int threads;              /* candidates evaluated at once, 1..CS_PLAN_MAX_THREADS; default 1 */
    int replicas;             /* run-model replicas per candidate; 0: the plan's run.replicas
                               * when it states them, else CS_PLAN_DEFAULT_REPLICAS */
    cs_plan_progress progress; /* may be NULL; called under a lock from the workers */
    void *progress_ctx;
    /* --uncertainty: each evaluated cluster's time to train (and so its
     * costs' p05/p95) from the Monte Carlo over the model's own parameters
     * (app/uncertainty.h: the step's validation error on that GPU, failure
     * rates, restarts), `replicas` samples, instead of the failures'
     * randomness alone. */
    bool uncertainty;
    /* --shard K/N: only the candidates whose index % N == K - 1 (the
     * others are CS_PLAN_OTHER_SHARD); 0/0: all. */
    int shard_k, shard_n;
};
#define CS_PLAN_DEFAULT_REPLICAS 64

void cs_app_plan_opts_default(struct cs_app_plan_opts *o);

enum cs_plan_state {
    CS_PLAN_EVALUATED,        /* searched, run and priced */
    CS_PLAN_PRUNED,           /* the peak-FLOPs bound exceeds the deadline: not simulated */
    CS_PLAN_NOFIT,            /* no configuration fits in memory */
    CS_PLAN_FAILED,           /* the candidate cannot be built or simulated (why) */
    CS_PLAN_OTHER_SHARD,      /* --shard: another shard's */
};
extern const char *const cs_plan_state_names[]; /* "evaluated", "pruned", "no-fit", "failed",
                                                 * "other-shard" */

/* One ownership option of one candidate. Costs in USD; p05/p95 follow the
 * time to train's (a rental scales with it; reservations and owned
 * clusters are fixed until the run outgrows a term or the horizon). */
struct cs_plan_own {
    bool available;           /* priced (the catalog or the plan's cost: gives the prices) */
    double time_s[3];         /* mean, p05, p95 time to train under this option: the cluster's,
                               * and for spot over (1 - the cost model's spot loss share: the
                               * hours reclaimed are redone) */
    double run_usd[3];        /* mean, p05, p95: the run's share (TCO model usd_per_run) */
    double commitment_usd[3]; /* what is signed for (plan.h, CS_PLAN_BASIS_COMMITMENT) */
    double tco_usd;           /* the option's total over cost.years */
    double cost_usd[3];       /* the budget basis's: run_usd or commitment_usd */
    bool meets_deadline;      /* time_s p95 <= deadline */
    bool within_budget;       /* cost_usd p95 <= budget */
};

/* One cloud offer's prices for a cluster: its cloud options' plans
 * (candidates.cloud_offers). */
struct cs_plan_offer {
    char name[CS_NAME_MAX];
    struct cs_plan_own own[CS_OPT_COUNT];   /* the cloud options only */
};

struct cs_plan_cand {
    int gi, ni, fi;
    bool uncertainty;         /* time_s is the uncertainty Monte Carlo's */
    int n_tornado;            /* --uncertainty: the inputs that move its time to train most */
    struct cs_unc_tornado tornado[CS_UNC_COUNT];
    int nodes;
    long gpus;
    enum cs_plan_state state;
    char why[320];            /* pruned / no-fit / failed: the reason */
    double bound_s;           /* lower bound on the time to train (peak GEMM FLOPs) */
    size_t configs;           /* configurations the search simulated */
    struct cs_workload w;     /* the configuration chosen (evaluated) */
    double step_time_s, tokens_per_s, mfu;
    double comm_share;        /* exposed communication / step time */
    struct cs_run_dist time_s;/* time to train: mean, p05, p95 */
    double failure_share;     /* (lost work + downtime) / wall-clock, mean */
    double checkpoint_share;  /* checkpoint stalls / wall-clock, mean */
    double interruptions;     /* mean per run */
    /* The candidate's facility (the plan's `facility:`, docs/run.md
     * "Facility"): racks placed, the fullest rack's kW, the cooling kind
     * (facility.cooling's name) and whether every rack is within its
     * limit; racks 0 when the candidate was not bound. */
    int racks;
    double kw_per_rack;
    char cooling[16];
    bool cooling_ok;
    struct cs_plan_own own[CS_OPT_COUNT]; /* at the scenario's prices (its cloud offer: offer0) */
    char offer0[CS_NAME_MAX];  /* cost.cloud.offer, else the catalog's first for the GPU; "" */
    int n_offers;              /* with candidates.cloud_offers: the cloud options per offer (own[]'s
                                * cloud options are then unavailable) */
    struct cs_plan_offer offers[CS_PLAN_MAX_OFFERS];
};

struct cs_plan_ref {
    int cand;                 /* index into c[] */
    enum cs_cost_option opt;
    int offer;                /* -1: own[] (the scenario's prices); else offers[offer] */
};

/* The plan a reference names, and its cloud offer ("" for an owned option). */
const struct cs_plan_own *cs_plan_own_of(const struct cs_plan_cand *c, struct cs_plan_ref r);
const char *cs_plan_offer_of(const struct cs_plan_cand *c, struct cs_plan_ref r);

struct cs_app_plan {
    const cs_plan *plan;      /* borrowed: the labels (cs_plan_gpu, cs_plan_fabric) */
    struct cs_plan_info info; /* copy */
    struct cs_plan_cand *c;   /* every candidate: gpu-major, then nodes, then fabric */
    size_t n;
    size_t evaluated, pruned, nofit, failed;
    size_t configs;           /* configurations simulated in all */
    bool uncertainty;         /* the times are the uncertainty Monte Carlo's */
    bool has_cheapest, has_fastest;
    struct cs_plan_ref cheapest;   /* meets the deadline at p95, cheapest (cost_usd mean) */
    struct cs_plan_ref fastest;    /* within budget, fastest (time mean) */
    struct cs_plan_ref *front;     /* Pareto front of (time mean, cost mean), by time */
    size_t nfront;
    bool both;                     /* some plan meets the deadline and the budget */
    char binding[640];             /* "" when `both`; else the constraint(s) that bind */
};

/* Evaluates the plan. Bad input (a candidate that cannot be bound: the
 * workload, a GPU name, a fabric key) is CS_ECONFIG with the diagnostics at
 * the plan file's lines, before anything is simulated. Otherwise CS_OK,
 * also when nothing qualifies (out->binding says why). */
cs_status cs_app_plan(const cs_plan *p, const cs_catalog *cat, const struct cs_app_plan_opts *o,
                      cs_diags *d, struct cs_app_plan *out);
void cs_app_plan_fini(struct cs_app_plan *r);

/* Shards. The first line of a shard file: cs_app_plan_shard_header; then
 * one line per candidate of the shard: cs_app_plan_cand_line (JSON, every
 * figure exactly as computed). Both heap strings without the newline. */
char *cs_app_plan_shard_header(const struct cs_app_plan *r, int k, int n);
char *cs_app_plan_cand_line(const struct cs_app_plan *r, size_t i);
/* Joins shard files of plan p (each the output of --shard K/N of the same
 * plan file and overrides: the header's hash and N must agree) into *out,
 * as cs_app_plan would have filled it: every candidate exactly once, else
 * CS_ECONFIG naming the file and the missing or repeated candidate; an
 * unreadable file is CS_EIO. The catalog binds the candidates again for
 * their workloads (their shapes and names). */
cs_status cs_app_plan_merge(const cs_plan *p, const cs_catalog *cat, const char *const *files, size_t nfiles,
                            cs_diags *d, struct cs_app_plan *out);

/* The Pareto front of n points (t[i], c[i]): indices of the points no other
 * point beats on both (<= on both, < on one), sorted by t; ties on both
 * keep the first. Writes at most n indices into idx; returns the count.
 * Points with a non-finite coordinate are left out. */
size_t cs_plan_pareto(const double *t, const double *c, size_t n, size_t *idx);

/* The lower bound on the time to train: 6 x (active parameters - the
 * input embedding) x tokens / (gpus x the GPU's peak at the precision),
 * seconds; every GEMM of the model at the tensor cores' peak, nothing else. */
double cs_plan_time_bound(const struct cs_workload *w, const struct cs_gpu_spec *gpu, long gpus);

#endif
