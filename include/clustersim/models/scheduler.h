/* scheduler.h: cluster-level replay of a job trace (models/scheduler.c) on
 * the discrete-event engine. Jobs arrive at their submission time, wait in a
 * queue ordered by priority and policy, and start as a gang (all GPUs at
 * once) when the placement finds room; each runs for its trace duration,
 * or, when it names a workload and a fabric is given, for that duration
 * stretched by its step time (step.h, on its GPU count, parallelism by the
 * rule of docs/replay.md) at the leaf-uplink bandwidth share it gets beside
 * the other running workload jobs over its step time at full share;
 * shares are recomputed whenever such a job starts or ends. Outputs are
 * the figures operators look at: utilization, queueing delay, JCT,
 * fragmentation, per-partition shares and a utilization timeline.
 *
 * Units: seconds (double) in the API; the engine runs in integer ns.
 * Capacity is counted in MIG slices (CS_SCHED_MIG_SLICES per GPU) so that
 * whole-GPU and fractional jobs share one accounting; a GPU-hour is 7
 * slice-hours. */
#ifndef CLUSTERSIM_SCHEDULER_H
#define CLUSTERSIM_SCHEDULER_H

#include "clustersim/base/diag.h"
#include "clustersim/models/topology.h"
#include "clustersim/base/status.h"
#include "clustersim/models/jobs.h"

#include <stdbool.h>
#include <stdint.h>

/* A100/H100 MIG: 7 compute slices per GPU (NVIDIA MIG User Guide, "Supported
 * MIG profiles": 1g.10gb x 7 on A100-80GB, 1g.10gb x 7 on H100-80GB). */
#define CS_SCHED_MIG_SLICES 7
#define CS_SCHED_MAX_GROUPS 32
#define CS_SCHED_MAX_PARTITIONS 16

/* fifo: strict queue order (head-of-line blocking); backfill: EASY (Lifka
 * 1995; Mu'alem & Feitelson 2001): a reservation for the first blocked job,
 * later jobs may start if they end before it or fit beside it; sjf: strict
 * order by shortest trace duration first. */
enum cs_sched_policy { CS_SCHED_FIFO, CS_SCHED_BACKFILL, CS_SCHED_SJF };
/* packed: lowest nodes first, a multi-node job in one leaf when one has
 * room; bestfit: the node (or leaf) with the least free GPUs that fits;
 * scattered: random nodes (the placement of a topology-blind scheduler). */
enum cs_sched_place { CS_SCHED_PACKED, CS_SCHED_SCATTERED, CS_SCHED_BESTFIT };

const char *cs_sched_policy_name(enum cs_sched_policy p);
/* Policy and placement names in enum order, NULL-terminated. */
extern const char *const cs_sched_policy_names[];
extern const char *const cs_sched_place_names[];
cs_status cs_sched_policy_parse(const char *s, enum cs_sched_policy *out);
const char *cs_sched_place_name(enum cs_sched_place p);
cs_status cs_sched_place_parse(const char *s, enum cs_sched_place *out);

/* Nodes of one GPU type and size. */
struct cs_sched_group {
    char gpu_type[64];
    int nodes;
    int gpus_per_node;   /* 1..72 */
};

/* A partition (virtual cluster, queue) with a quota: the largest fraction
 * of the cluster's GPUs its running jobs may hold at once (a hard cap; NAN
 * for none) and a priority added to its jobs' own. */
struct cs_sched_partition {
    char name[64];
    double quota;
    int priority;
    /* Match rule for jobs whose trace partition is none of the configured
     * ones: the first partition with a rule the job satisfies takes it
     * (bounds inclusive; NAN = no bound). */
    bool rule;
    double min_gpus, max_gpus, max_duration_s;
};

struct cs_sched_config {
    enum cs_sched_policy policy;
    enum cs_sched_place place;
    int n_groups;
    struct cs_sched_group groups[CS_SCHED_MAX_GROUPS];
    int nodes_per_leaf;      /* leaf-switch size; 0 = from the fabric, else 16 */
    bool mig;                /* fractional jobs take ceil(7 x share) slices of one GPU */
    bool preempt;            /* a blocked job evicts running jobs of lower priority */
    int backfill_depth;      /* queued jobs examined per pass (Slurm bf_max_job_test); default 1000 */
    int n_partitions;
    struct cs_sched_partition partitions[CS_SCHED_MAX_PARTITIONS];
    int timeline_bins;       /* default 200 */
    uint64_t seed;           /* scattered placement */
    const cs_fabric *fabric; /* borrowed, nullable; must describe group 0 when given */
    int mig_slices;          /* slices per GPU (1..7); 0 = CS_SCHED_MIG_SLICES */
    bool keep_jobs;          /* fill result.per_job */
    uint64_t max_events;     /* event budget (sim.h); 0: 64 per job + 1e6 */
    double max_wall_s;       /* wall-clock bound (s); 0: the engine's default */
    bool walk_queue;         /* testing: every pass walks the queue job by job instead of
                                asking the shape index (same schedule, slower) */
    bool keep_times;         /* fill result.job_queue_s, job_jct_s, job_gpu_h, job_part
                                (28 bytes a job: what the breakdowns of replay_stats.h need) */
    /* Progress, nullable: called with the jobs ended so far (completed or
     * rejected) and the trace's job count, from the thread that runs the
     * replay: once before the first event, every 1024 ended jobs, and once
     * at the end. It must not touch the replay. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
};

/* Defaults: FIFO, packed, no MIG, no preemption, depth 1000, 200 bins,
 * no groups (the caller adds at least one). */
void cs_sched_config_default(struct cs_sched_config *c);

struct cs_sched_summary { double mean, p50, p95; };

struct cs_sched_part_result {
    char name[64];           /* "(none)" for jobs of no configured partition */
    double quota;            /* NAN when none */
    long jobs;
    double gpu_hours;        /* allocated */
    double share;            /* gpu_hours / all allocated GPU-hours */
    double queue_mean_s;
    double queue_p95_s;
};

struct cs_sched_job_result {
    double submit_s, start_s, end_s; /* start: the first start; end: completion */
    double run_s;                    /* time actually run (after any slowdown) */
    double slowdown;                 /* run_s / trace duration (1 without a workload) */
    int nodes, leaves;               /* of the (last) placement */
    double share_min;                /* workload jobs: smallest leaf-uplink bandwidth share seen (1 = none lost) */
    double step_s;                   /* workload jobs: step-model step time at share 1; NAN otherwise */
    int preemptions;
    bool rejected;                   /* asked for more than any allowed group holds */
};

struct cs_sched_result {
    long gpus;                  /* capacity */
    long jobs;                  /* in the trace */
    long completed;
    long rejected;              /* never placeable (too big, unknown GPU type) */
    long preemptions;
    double first_submit_s;      /* trace time of the first arrival */
    double makespan_s;          /* last completion - first arrival */
    double utilization;         /* allocated GPU-time / (gpus x makespan) */
    double busy_utilization;    /* used GPU-time (fractions as asked) / (gpus x makespan) */
    double allocated_gpu_h, busy_gpu_h;
    double trace_gpu_h;         /* sum of gpus x trace duration of the completed jobs */
    struct cs_sched_summary queue_s, jct_s;
    double fragmentation;       /* time average of free GPUs while jobs wait, / gpus */
    long max_queue;             /* longest queue seen */
    long workload_jobs;         /* jobs whose run time came from the workload model */
    double workload_slowdown_mean;  /* mean of run time / trace duration over those jobs */
    double workload_jct_mean_s;     /* mean JCT of those jobs */
    long workload_unfit;            /* workload jobs whose model fits no parallelism of the rule: trace durations */
    int n_parts;
    struct cs_sched_part_result parts[CS_SCHED_MAX_PARTITIONS + 1];
    /* Timeline: bin i covers [t_s[i], t_s[i] + bin_s) from the first arrival,
     * with the average allocated and busy GPUs, and per partition (n_parts
     * columns, row-major) the allocated GPUs. Owned. */
    int n_bins;
    double bin_s;
    double *t_s, *alloc_gpus, *busy_gpus, *part_gpus;
    double *wait_gpus;          /* per bin: average GPUs asked by the jobs waiting (queued demand); owned */
    double *jct_sorted;         /* completed jobs' JCTs ascending, for the CDF; owned */
    long n_jct;
    struct cs_sched_job_result *per_job;  /* trace order; NULL unless keep_jobs; owned */
    /* keep_times (else NULL), trace order, owned: each job's queueing delay
     * (first start - submit) and JCT (end - submit), NAN unless it
     * completed; its allocated GPU-hours (the GPUs it held, MIG slices /
     * slices per GPU, times the time it ran; 0 unless it completed); its
     * scheduler partition (index into parts[], n_parts - 1 for none). */
    double *job_queue_s, *job_jct_s, *job_gpu_h;
    int *job_part;
    uint64_t events;
    uint64_t examined;          /* queued jobs looked at by scheduling passes (a cost figure) */
};

/* Replays trace t (borrowed) on the cluster of cfg. A replay that reaches
 * its budgets (cfg.max_events, cfg.max_wall_s) returns CS_EBUDGET with an
 * error saying it did not complete, and no result. Validates the config
 * (CS_EINVAL with diagnostics: no group, bad counts, a quota outside
 * [0, 1], quotas over 1 in total, a workload that names no model preset).
 * Jobs that can never fit are rejected, counted and reported (one warning
 * per cause). `out` is overwritten; free it with cs_sched_result_fini. */
cs_status cs_sched_run(const struct cs_sched_config *cfg, const struct cs_trace *t, cs_diags *d,
                       struct cs_sched_result *out);
void cs_sched_result_fini(struct cs_sched_result *r);

#endif
