/* replay.h: the setup and runs of `clustersim replay` (app layer,
 * app/replay.c): the scheduler configuration built from the command's
 * settings and a scenario's cluster (its GPUs, seed, fabric and
 * `scheduler:` section) or a node list, then the trace replayed through
 * cs_sched_run, twice when a `scheduler.claim` compares two settings. */
#ifndef CLUSTERSIM_APP_REPLAY_H
#define CLUSTERSIM_APP_REPLAY_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/trace.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/scheduler.h"
#include "clustersim/models/topology.h"

#include <stdbool.h>

/* The settings the caller gave explicitly: they win over the scenario's
 * `scheduler:` section. */
struct cs_app_replay_given {
    bool policy, placement, preempt, mig, backfill_depth, partitions, seed;
};

struct cs_app_replay {
    struct cs_sched_config cfg;     /* what is replayed; cfg.fabric is `fabric` */
    cs_fabric *fabric;              /* owned; NULL without a scenario or when it failed */
    cs_status fabric_status;        /* the scenario's fabric build (CS_OK, or why none) */
    const struct cs_scn_scheduler *claim; /* borrowed from the scenario: its claim; NULL */
    struct cs_sched_config cfg2;    /* the claim's other side (placement or MIG toggled) */
    struct cs_sched_result res, res2; /* owned */
    bool have_res, have_res2;
};

/* Starts r from the caller's configuration (copied; its groups are
 * replaced by the cluster's). Release r with cs_app_replay_fini. */
void cs_app_replay_init(struct cs_app_replay *r, const struct cs_sched_config *cfg);

/* The cluster of scenario s (borrowed: it must outlive r): one group of its
 * GPUs, its seed unless given->seed, its fabric (a failure is kept in
 * r->fabric_status and the replay goes on with leaves of nodes_per_leaf or
 * 16 nodes, unscaled run times), its `scheduler:` settings where not given,
 * and its scheduler claim. */
void cs_app_replay_use_scenario(struct cs_app_replay *r, const struct cs_scenario *s,
                                const struct cs_app_replay_given *given);

/* The cluster of a node list: one group per GPU type. CS_EFULL when it has
 * more than CS_SCHED_MAX_GROUPS groups. */
cs_status cs_app_replay_use_nodes(struct cs_app_replay *r, const struct cs_trace_nodes *nl);

/* Replays trace t (borrowed) on r->cfg, then on r->cfg2 when the claim
 * compares two settings, appending diagnostics to d. Returns CS_OK; the
 * scheduler's error (CS_EINVAL: the trace does not fit the cluster); or
 * CS_ECONFIG when it returned CS_OK but reported errors. */
cs_status cs_app_replay_run(struct cs_app_replay *r, const struct cs_trace *t, cs_diags *d);

void cs_app_replay_fini(struct cs_app_replay *r);

#endif
