/* checkpoint.h: the checkpoint model of a training run (models/checkpoint.c):
 * how big a checkpoint is, how long the GPUs wait for it (synchronous: the
 * whole write; asynchronous: a snapshot to host memory, then a background
 * write), when it is durable, its background copy to another tier, its
 * restore time, and the interval (fixed, or optimal by Young's or Daly's
 * formula; validation/failures/checkpoint-and-failure-facts.md). */
#ifndef CLUSTERSIM_CHECKPOINT_H
#define CLUSTERSIM_CHECKPOINT_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"
#include "clustersim/models/step.h"

#include <stdbool.h>

/* Young (Commun. ACM 17(9), 1974): T = sqrt(2 delta M), where delta is the
 * time one checkpoint costs and M the mean time between interruptions.
 * NAN unless delta >= 0 and M > 0. */
double cs_ckpt_young_s(double delta_s, double mtbi_s);

/* Daly (Future Gener. Comput. Syst. 22(3), 2006, eq. 37): for delta < 2M,
 * T = sqrt(2 delta M) [1 + sqrt(delta/(2M))/3 + (delta/(2M))/9] - delta;
 * T = M otherwise. NAN unless delta >= 0 and M > 0. */
double cs_ckpt_daly_s(double delta_s, double mtbi_s);

/* Bytes of a full training checkpoint of w's model with mixed-precision
 * Adam: per parameter the training-precision weights (2 bytes in bf16/fp16/
 * fp8, none extra in fp32), fp32 master weights (4) and the two fp32 Adam
 * moments (8): 14 bytes (12 in fp32). Sharding (ZeRO/FSDP) spreads it over
 * more writers but does not change the total. */
double cs_ckpt_state_bytes(const struct cs_workload *w);

enum cs_ckpt_rule { CS_CKPT_RULE_FIXED, CS_CKPT_RULE_YOUNG, CS_CKPT_RULE_DALY,
                    CS_CKPT_RULE_NONE };
const char *cs_ckpt_rule_name(enum cs_ckpt_rule r);

struct cs_ckpt_plan {
    bool enabled;
    double size_bytes;
    bool size_from_model;       /* false: checkpoint.size */
    int writer_nodes;           /* nodes writing shards concurrently */
    double bytes_per_node;
    char tier[CS_NAME_MAX];
    char upload[CS_NAME_MAX];   /* "" = no background copy */
    double write_s;             /* the write to the tier, all writers sharing it */
    double snapshot_s;          /* async: GPU-to-host copy; 0 for sync */
    double blocking_s;          /* GPU idle time per checkpoint (the delta of Young/Daly) */
    double durable_s;           /* from start until the checkpoint is on the tier */
    double upload_s;            /* background copy after durable; 0 = none */
    double restore_s;           /* read back from the tier on restart */
    double restore_upload_s;    /* read back from the upload tier (node-local tier lost) */
    double host_bytes_per_node; /* async snapshot buffer */
    bool host_fits;             /* snapshot fits in host memory */
    double mtbi_s;              /* job mean time between interruptions used */
    enum cs_ckpt_rule rule;
    double interval_s;          /* training time between checkpoints, whole steps */
    double interval_steps;
    double young_s, daly_s;     /* for the report (NAN without failures) */
};

/* Builds the plan for scenario s (checkpoint, cluster.storage, workload)
 * given the simulated step (its time and DP communication share) and the
 * job's mean time between interruptions mtbi_s (INFINITY: none). With an
 * `optimal` interval and no failures the interval is the run itself (one
 * final checkpoint is not modelled) and rule is NONE. Errors (tier missing,
 * a tier without bandwidth) go to d; returns CS_EINVAL then. */
cs_status cs_ckpt_plan_make(const struct cs_scenario *s, const struct cs_step_result *step,
                            double mtbi_s, cs_diags *d, struct cs_ckpt_plan *out);

#endif
