/* replay_stats.h: what an operator reads off a trace replay beyond its
 * totals (models layer, models/replay_stats.c): queueing delay and JCT by
 * job-size class, by user and by partition; the trace's demand against the
 * cluster's capacity, with the warnings a replay on a cluster far larger or
 * far smaller than that demand calls for; and the demand timeline (the GPUs
 * the trace's jobs would hold if none ever waited), drawn beside the
 * replay's busy GPUs. Computed from a replay run with keep_times
 * (scheduler.h). Definitions and thresholds: docs/replay.md, "Breakdowns
 * and warnings". Plain data; no printing. */
#ifndef CLUSTERSIM_MODELS_REPLAY_STATS_H
#define CLUSTERSIM_MODELS_REPLAY_STATS_H

#include "clustersim/base/status.h"
#include "clustersim/models/jobs.h"
#include "clustersim/models/scheduler.h"

#include <stdbool.h>
#include <stddef.h>

/* Job-size classes by the GPUs a job asks for, g: "<1" (0 < g < 1, a
 * GPU-sharing task), "1" (g = 1), "2-8" (1 < g <= 8: up to one 8-GPU
 * node), "9-64" (8 < g <= 64: up to 8 nodes, within a leaf of most
 * fabrics), "65-512" (64 < g <= 512: up to 64 nodes), ">512" (g > 512). */
#define CS_RSTAT_N_SIZES 6
extern const char *const cs_rstat_size_names[CS_RSTAT_N_SIZES];
/* The class of a job asking for g GPUs (g > 0). */
int cs_rstat_size_class(double gpus);

/* Allocated utilization under which a replay warns that the cluster is far
 * larger than the trace's demand: below 5% the cluster holds over 20 times
 * the GPUs the trace keeps allocated, and queueing is next to nothing
 * whatever the policy (Erlang C: even 2 servers at a load of 0.05 make
 * 0.48% of arrivals wait; more servers, fewer), so the replay says nothing
 * about queueing or the policy. */
#define CS_RSTAT_LOW_UTILIZATION 0.05
/* Offered load (the trace's GPU-time over its no-wait window, / capacity)
 * over which the queue grows while jobs arrive: the cluster cannot do the
 * work in the time the trace's own jobs would take with no waiting, and no
 * queue fed more work than it can serve has a steady state. */
#define CS_RSTAT_OVERLOAD 1.0
/* Offered load over which (up to CS_RSTAT_OVERLOAD) the replay is near
 * saturation: queueing grows as rho / (1 - rho) (Kingman's heavy-traffic
 * approximation, J. F. C. Kingman, "The single server queue in heavy
 * traffic", Proc. Cambridge Phil. Soc. 57, 1961), whose elasticity in rho
 * is 1 / (1 - rho): at 0.9 a 1% change in load or capacity moves the
 * queueing by about 10%, so its figures are fragile. */
#define CS_RSTAT_HEAVY_LOAD 0.9

/* One group of jobs (a size class, a user, a partition). */
struct cs_rstat_group {
    char name[64];
    long jobs;          /* trace jobs in the group */
    long completed;
    long rejected;      /* never placeable */
    double gpu_hours;   /* allocated GPU-hours of its completed jobs */
    double share;       /* gpu_hours / all allocated GPU-hours (0 when none) */
    struct cs_sched_summary queue_s, jct_s; /* over its completed jobs; NAN when none */
};

/* A group dimension: its groups with jobs, ranked by allocated GPU-hours
 * (most first; ties: more jobs first, then the name) unless in a given
 * order (the scheduler's partitions), and the union of the groups past the
 * first `top` in `others` ("(others)", n_others groups in it). */
struct cs_rstat_dim {
    struct cs_rstat_group *groups; /* owned */
    size_t n;
    struct cs_rstat_group others;
    size_t n_others;
    bool named;                    /* at least one job names a group (else one "(none)" group) */
    bool ranked;                   /* sorted by GPU-hours (else in the given order) */
};

struct cs_rstat_warning {
    const char *id;     /* "low_utilization", "overloaded", "near_saturation", "jobs_larger_than_cluster" */
    char msg[480];      /* one sentence or two, with the figures and the figure file to look at */
};
#define CS_RSTAT_MAX_WARNINGS 4

struct cs_replay_stats {
    struct cs_rstat_group size[CS_RSTAT_N_SIZES];  /* every class, empty ones too */
    struct cs_rstat_dim users;
    /* By partition: the scheduler's partitions (parts[] of the result, in
     * their order, "(none)" last when it has jobs) when the replay has
     * configured partitions (from_scheduler), else the trace's partition
     * column (sorted as users). */
    struct cs_rstat_dim parts;
    bool parts_from_scheduler;
    /* Demand: every trace job, rejected ones too. Its window is the time
     * the trace's jobs would take on a cluster where none waits: from the
     * first submission to the latest submit + duration. (Over the arrival
     * window alone a short trace of long jobs would look overloaded: 4
     * jobs of a week submitted within 3 minutes are not 4,000 GPUs.) */
    long capacity_gpus;
    double span_s;            /* arrival window: last submit - first submit */
    double window_s;          /* no-wait window: latest submit + duration - first submit */
    double demand_gpu_h;      /* sum of gpus x duration over the trace's jobs / 3600 */
    double demand_gpus;       /* demand_gpu_h x 3600 / window_s: GPUs busy on average; NAN for an empty trace */
    double offered_load;      /* demand_gpus / capacity_gpus; NAN for an empty trace */
    double largest_job_gpus;  /* 0 for an empty trace */
    long too_large;           /* jobs asking for more GPUs than the whole cluster has */
    double too_large_gpu_h;   /* their demand */
    /* The demand timeline on the result's bins (n_bins of bin_s from the
     * first arrival): the average GPUs of the trace's jobs running over the
     * bin if each had started at its submission (no queueing). Owned. */
    int n_bins;
    double *demand_bin_gpus;
    struct cs_rstat_warning warnings[CS_RSTAT_MAX_WARNINGS];
    int n_warnings;
};

/* Fills *out (overwritten; release with cs_replay_stats_fini) from trace t,
 * the replay's config c and result r (all borrowed), keeping the first
 * `top` users and partitions by name and the rest in `others` (top >= 1).
 * CS_EINVAL (out zeroed) when r was not run with keep_times or does not
 * belong to t. O(n log n) in the jobs. */
cs_status cs_replay_stats_compute(const struct cs_sched_config *c, const struct cs_trace *t,
                                  const struct cs_sched_result *r, size_t top, struct cs_replay_stats *out);
/* Accepts a zeroed struct. */
void cs_replay_stats_fini(struct cs_replay_stats *s);

#endif
