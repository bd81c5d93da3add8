/* failure.h: the failure model of a training run (models/failure.c):
 * component classes, each failing at a rate per unit of its scope (GPU,
 * node, switch or the whole job) with an exponential or Weibull time to
 * failure, and the default classes derived from the Llama 3 405B
 * interruption table (Dubey et al. 2024, "The Llama 3 Herd of Models",
 * arXiv 2407.21783, Table 5; validation/failures/).
 *
 * A job fails when any of its units fails ("nodes in series", Kokolis et
 * al., HPCA 2025): with exponential classes the job's interruption rate is
 * the sum over classes of units / MTBF. */
#ifndef CLUSTERSIM_FAILURE_H
#define CLUSTERSIM_FAILURE_H

#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"

#include <gsl/gsl_rng.h>
#include <stdbool.h>

/* The shape of the Llama 3 snapshot the default rates are derived from:
 * 16,384 H100 GPUs in 2,048 nodes of 8, 54 days, 419 unexpected
 * interruptions. */
#define CS_FAIL_LLAMA3_GPUS 16384
#define CS_FAIL_LLAMA3_NODES 2048
#define CS_FAIL_LLAMA3_DAYS 54
#define CS_FAIL_LLAMA3_UNEXPECTED 419

/* One row of the Llama 3 table as clustersim uses it. */
struct cs_fail_llama3_row {
    const char *component;     /* as the paper names it */
    const char *name;          /* clustersim class name */
    enum cs_fail_scope scope;  /* GPU classes per GPU; everything else per node */
    int interruptions;         /* in the 54-day snapshot */
    bool replace;              /* hardware that takes its node out */
};

/* The 18 rows of Table 5 (counts sum to 419). *n receives the row count.
 * Borrowed static data. */
const struct cs_fail_llama3_row *cs_fail_llama3_table(int *n);

/* Replaces f's components with the classes derived from the Llama 3 table:
 * MTBF per unit = units x 54 days / interruptions, units = 16,384 for GPU
 * classes, 2,048 for node classes; exponential. Sets f->defaults. Leaves
 * the other fields of f (detection, restart, spares, ...) alone. */
void cs_fail_llama3_defaults(struct cs_failures_cfg *f);

/* Units of `scope` in a job: GPUs, nodes, switches, or 1 for the job; a
 * rack here is one node (cs_fail_units knows the racks). */
long cs_fail_scope_units(enum cs_fail_scope scope, long gpus, long nodes, long switches);
/* The same with f's racks: ceil(nodes / f->nodes_per_rack) for the rack
 * scope (the facility model's placement). */
long cs_fail_units(const struct cs_failures_cfg *f, enum cs_fail_scope scope, long gpus, long nodes,
                   long switches);
/* Nodes one failure of `scope` takes out when it replaces hardware: one,
 * or the rack's nodes for the rack scope. */
long cs_fail_nodes_out(const struct cs_failures_cfg *f, enum cs_fail_scope scope);

/* The fault domains of a job, from the built topology (models/run.c fills
 * them with cs_fabric_geometry / cs_fabric_counts): its GPUs and nodes, the
 * switches of the whole fabric (the `switch` scope), the leaves it sits
 * under (the fabric's leaves x job nodes / cluster nodes, at least one),
 * the spines (aggregation + core switches; 0 when the job sits under one
 * leaf domain), the nodes one leaf failure takes out (a leaf domain:
 * ceil(nodes_per_leaf), rail-optimized: the scalable unit, whose nodes each
 * lose a rail) and one rack failure (the facility's nodes per rack). */
struct cs_fail_domains {
    long gpus, nodes, switches, leaves, spines;
    long nodes_per_leaf, nodes_per_rack;
};

/* Units of `scope` in the job: GPUs, nodes, switches, 1 (job, storage),
 * racks = ceil(nodes / nodes_per_rack), leaves, spines. */
long cs_fail_domain_units(const struct cs_fail_domains *d, enum cs_fail_scope scope);
/* Nodes one replacing failure of `scope` takes out: 1 for gpu and node, a
 * rack's or a leaf domain's nodes (at most the job's), else 0. */
long cs_fail_domain_nodes_out(const struct cs_fail_domains *d, enum cs_fail_scope scope);
/* Whether a failure of the class interrupts the job: every scope but
 * storage (an outage of the checkpoint tier stops checkpoints, not the
 * training; docs/run.md). */
bool cs_fail_interrupts(const struct cs_fail_component *c);
/* The job's MTBI over the classes that interrupt it (storage excluded),
 * 1 / sum(units_c / MTBF_c); INFINITY when none. */
double cs_fail_domain_mtbi_s(const struct cs_failures_cfg *f, const struct cs_fail_domains *d);
/* The scope's name as the scenario spells it ("gpu", ..., "storage"). */
const char *cs_fail_scope_name(enum cs_fail_scope scope);

/* The job's mean time between interruptions, 1 / sum(units_c / MTBF_c),
 * treating every class as a Poisson process at its mean rate (exact for
 * exponential classes, the long-run rate of a renewal process for Weibull
 * ones). INFINITY when f has no component or is disabled. */
double cs_fail_job_mtbi_s(const struct cs_failures_cfg *f, long gpus, long nodes, long switches);

/* Weibull scale for a mean of mtbf_s at shape k: mtbf / Gamma(1 + 1/k). */
double cs_fail_weibull_scale_s(double mtbf_s, double shape);

/* Draws one unit's time to failure in seconds from c's distribution. */
double cs_fail_draw_s(const struct cs_fail_component *c, gsl_rng *r);

#endif
