/* search.h: enumerate every valid parallel configuration of a scenario's
 * model on its cluster, simulate each with the step model, and rank them
 * by throughput (models/search.c), as Calculon's search does. */
#ifndef CLUSTERSIM_SEARCH_H
#define CLUSTERSIM_SEARCH_H

#include "clustersim/models/scenario.h"
#include "clustersim/models/step.h"

#include <stdbool.h>
#include <stddef.h>

#define CS_SEARCH_MAX_THREADS 64

struct cs_search_space {
    bool vary_tp, vary_pp, vary_dp_sharding, vary_cp, vary_vp, vary_micro_batch, vary_recompute;
    int max_micro_batch;      /* largest micro-batch tried (powers of two); default 16 */
    int max_vp;               /* largest interleaving tried; default 8 */
    int max_cp;               /* largest context parallelism tried; default 8 */
    /* Mixture-of-experts models: expert parallelism over the powers of two
     * that divide the experts and the GPUs of a stage, up to max_ep
     * (default 256), and expert tensor parallelism over the powers of two
     * up to max_etp (default 8, inside a node). Dense models: ep = etp = 1. */
    bool vary_ep;
    int max_ep, max_etp;
    /* With full recomputation, recompute only the fewest layers per
     * (virtual) stage that fit (recompute_layers; default on): found by
     * bisection on the memory model, one simulation. */
    bool partial_recompute;
    /* Where a configuration needs full recomputation and the catalog gives
     * the GPU a host link (host_bw: Grace's NVLink-C2C), also try the
     * fewest activation-offloaded layers without recomputation, and keep
     * the faster (default on). */
    bool try_offload;
    bool include_unfit;       /* keep configurations that do not fit (ranked last) */
    /* Only the fastest configuration matters (the plan's search): each is
     * given a lower bound on its step time (the busiest stage's compute,
     * nothing else), they are simulated best bound first, and the search
     * stops once the bound exceeds the fastest step found. The first point
     * is the one the full search ranks first; the others are a subset.
     * Runs in the calling thread (threads is ignored). Default off. */
    bool best_only;
    int threads;              /* worker threads (each simulation has its own engine); default 1 */
};

/* Everything varies, with the defaults above. */
void cs_search_space_default(struct cs_search_space *sp);

struct cs_search_point {
    struct cs_workload w;     /* the configuration (copy of the base with degrees set) */
    struct cs_step_result r;
};

struct cs_search_result {
    struct cs_search_point *points;  /* sorted: fitting first, then by tokens/s, descending */
    size_t n;
    size_t considered;               /* combinations enumerated */
    size_t invalid;                  /* rejected by cs_step_check */
    size_t unfit;                    /* valid but not fitting in memory */
    size_t bounded;                  /* best_only: left out by the bound, unsimulated */
};

/* Progress callback: called every few hundred configurations with (done,
 * total) from the calling thread (single-threaded runs only, and once at the
 * end); may be NULL. */
typedef void (*cs_search_progress)(size_t done, size_t total, void *ctx);

/* Searches around `base` (its model, global batch, precision and step
 * options are kept). Caller frees out with cs_search_result_fini. */
cs_status cs_search_run(const struct cs_cluster_cfg *c, const struct cs_workload *base,
                        const struct cs_step_options *o, const struct cs_search_space *sp,
                        cs_search_progress progress, void *ctx, struct cs_search_result *out);
void cs_search_result_fini(struct cs_search_result *r);

#endif
