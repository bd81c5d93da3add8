/* compare.h: what one scenario contributes to `clustersim compare` (app
 * layer, app/compare.c): one training step, the bus bandwidth of the job's
 * data- and tensor-parallel collectives at their message sizes, and the
 * network hardware counted from the built fabric. */
#ifndef CLUSTERSIM_APP_COMPARE_H
#define CLUSTERSIM_APP_COMPARE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/topology.h"

#include <stdbool.h>
#include <stddef.h>

/* One scenario's column; NAN where not applicable. Plain data. */
struct cs_app_compare {
    const char *file;           /* borrowed: the name the caller gave */
    char name[128];
    long gpus;
    bool has_step, fits;
    double step_s, mfu, tokens_per_s, exposed_comm_s, dp_comm_total_s, busy_s;
    double dp_net_share;            /* the flow model's share for the DP rings (NAN: one node) */
    double network_slowdown;        /* with the scenario's neighbours over alone; NAN without */
    double dp_msg_bytes, dp_busbw, dp_time_s;
    double tp_msg_bytes, tp_busbw, tp_time_s;
    char dp_algo[16], tp_algo[16];
    int dp_ranks, tp_ranks;
    struct cs_fabric_counts counts;
    bool has_counts;
    char topology[32], link[CS_NAME_MAX], placement[16];
    double oversub;
    /* Mixture of experts (NAN, 0 for dense models): the busiest stage's
     * exposed dispatch/combine, what imbalance adds, the EP communicator's
     * network share, ep. */
    bool moe;
    double ep_comm_s, moe_imbalance_s, ep_net_share;
    int ep;
    struct cs_claim_cfg claim;  /* the scenario's `claim:` */
    double claim_metric;        /* its metric, simulated */
};

/* Fills *r for scenario s (borrowed; `file` is kept as r->file): the step
 * from the pipeline without the data pipeline or the run level (a
 * configuration that does not fit gives r->fits false), the DP collective
 * (all_reduce, or reduce_scatter with ZeRO/FSDP, at the gradient bucket
 * size) and the TP all_reduce (at the per-layer activation size) from the
 * closed-form collective model, and the fabric's hardware counts. Returns
 * CS_OK, or the step model's error (CS_EINVAL, diagnostics in d). */
cs_status cs_app_compare_eval(const struct cs_scenario *s, const char *file, cs_diags *d,
                              struct cs_app_compare *r);

/* The metric of claim `c` for scenario r (for ratio claims: the baseline);
 * NAN when r has no fitting step. */
double cs_app_compare_metric(const struct cs_claim_cfg *c, const struct cs_app_compare *r);

#endif
