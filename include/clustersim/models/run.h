/* run.h: a whole training run simulated on the discrete-event engine
 * (models/run.c): steps at the step model's rate, checkpoints (sync or
 * async, to a tier, with a background copy), failures by component class,
 * detection + restart + restore, lost work, hot spares and repairs, elastic
 * resume on fewer nodes, spot preemption; Monte Carlo over seeds.
 *
 * Progress is tracked as training time at full speed (the work W), not as
 * one event per step, so a 54-day run costs a few thousand events:
 * checkpoint starts and ends, failures, restarts, repairs. Checkpoints are
 * taken between steps (the interval is a whole number of steps).
 *
 * Failures arrive in wall-clock time whatever the job is doing (hardware
 * ages while a job restarts); every failure is an interruption: while
 * training it loses the work since the last durable checkpoint, while
 * restarting it restarts the restart. Definitions of every output are in
 * docs/run.md. */
#ifndef CLUSTERSIM_RUN_H
#define CLUSTERSIM_RUN_H

#include "clustersim/models/checkpoint.h"
#include "clustersim/models/failure.h"
#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"
#include "clustersim/models/step.h"

#include <stdbool.h>
#include <stdint.h>

struct cs_run_options {
    int replicas;      /* 0: the scenario's run.replicas */
    int threads;       /* worker threads (pthreads), each with its own engines; >= 1 */
    long switches;     /* units of switch-scope classes; -1: count from the topology */
    double max_wall_factor; /* give up a replica past this x the failure-free time */
    uint64_t max_events;    /* event budget of one replica (sim.h); 0: CS_RUN_MAX_EVENTS */
    double max_wall_s;      /* wall-clock bound of one replica (s); 0: the engine's default */
    /* Progress, nullable: called with the replicas finished and their
     * number after each replica, from the worker threads one at a time
     * (under a lock). It must not touch the run. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
};

/* A replica's default event budget: a year-long run with a failure every
 * second and a checkpoint every step of 0.3 s fires about 1.4e8 events;
 * every bundled scenario needs under 1e6. Past it the run "did not complete"
 * (CS_EBUDGET), reported as such. */
#define CS_RUN_MAX_EVENTS ((uint64_t)200000000)

/* Defaults: replicas 0, threads 1, switches -1, max_wall_factor 100, the
 * default budgets. */
void cs_run_options_default(struct cs_run_options *o);

/* A Monte Carlo estimate: mean and the 5th/95th percentiles over replicas
 * (Hyndman-Fan type 7). NAN when not applicable. */
struct cs_run_dist {
    double mean, p05, p95;
};

/* Indices of cs_run_replica.lost_by_scope_s past the scopes. */
#define CS_RUN_LOST_MAINT CS_FAIL_N_SCOPES
#define CS_RUN_LOST_STRAG (CS_FAIL_N_SCOPES + 1)
#define CS_RUN_N_LOST (CS_FAIL_N_SCOPES + 2)

/* One replica's totals. */
struct cs_run_replica {
    double wall_s;          /* time to train, or the fixed duration */
    double work_s;          /* useful training time kept (full-speed equivalent) */
    double ckpt_s;          /* GPU time blocked by checkpoints (stalls included) */
    double lost_s;          /* training redone after interruptions */
    double down_s;          /* detection + restart + restore, and waiting for nodes */
    double tokens;          /* tokens kept */
    int interruptions;      /* failures (preemptions excluded) */
    int preemptions;
    int checkpoints;
    bool completed;         /* reached the target (tokens mode) */
    int by_cause[CS_MAX_FAIL_COMPONENTS];
    double maintenances;    /* planned stops */
    double maintenance_s;   /* their stopped time (restart and restore excluded) */
    double straggler_removals;
    double straggler_s;     /* work-equivalent time lost to slow steps */
    /* Fault domains (docs/run.md "Fault domains"): interruptions by the
     * scope of their class, and the time each cost: work rolled back,
     * downtime until the job runs again, the slow steps of a degraded
     * fabric (spine), the stall of a storage outage; lost[CS_RUN_LOST_MAINT]
     * for planned maintenance, lost[CS_RUN_LOST_STRAG] for stragglers. */
    double by_scope[CS_FAIL_N_SCOPES];
    double lost_by_scope_s[CS_RUN_N_LOST];
    double storage_outages;     /* checkpoint-tier outages */
    double storage_stall_s;     /* blocked at a checkpoint while the tier was out */
    double checkpoints_skipped; /* due during an outage (storage_outage: continue) */
    double spine_degraded_s;    /* running with a spine out */
    double spares_lost;         /* free spares a rack or leaf event took out (spread placement) */
    uint64_t events;
};

struct cs_run_result {
    bool enabled;           /* false: no tokens and no run.duration: nothing simulated */
    bool failures;          /* the scenario has `failures:` */
    bool default_rates;     /* failure classes from the Llama 3 table */
    bool duration_mode;     /* run.duration instead of workload.tokens */
    int replicas;
    int completed;          /* replicas that reached the target */
    long gpus, nodes, switches;
    struct cs_fail_domains dom;  /* units of every scope (switches, leaves, spines from the topology) */
    long spares;            /* the spare pool (spares_per_rack x racks when given); -1 unlimited */
    double net_exposed_s;   /* the step's exposed scale-out communication (spine slowdown) */
    double step_time_s;
    double tokens_per_s;    /* failure-free, from the step */
    double target_s;        /* failure-free training time, or the duration */
    double mtbi_s;          /* job mean time between interruptions (rates) */
    struct cs_ckpt_plan ckpt;
    struct cs_run_dist time_to_train_s; /* NAN in duration mode */
    struct cs_run_dist goodput;         /* work / wall */
    struct cs_run_dist interruptions;
    struct cs_run_dist preemptions;
    struct cs_run_dist lost_gpu_hours;  /* GPUs x (wall - work) / 3600 */
    struct cs_run_dist checkpoint_overhead_s;
    struct cs_run_dist lost_work_s;
    struct cs_run_dist downtime_s;
    struct cs_run_dist tokens;
    struct cs_run_dist maintenances, maintenance_s, straggler_removals, straggler_s;
    struct cs_run_dist by_scope[CS_FAIL_N_SCOPES];
    struct cs_run_dist lost_by_scope_s[CS_RUN_N_LOST];
    bool scope_used[CS_FAIL_N_SCOPES]; /* a class of that scope exists */
    struct cs_run_dist storage_outages, storage_stall_s, checkpoints_skipped, spine_degraded_s, spares_lost;
    int n_causes;
    char cause_name[CS_MAX_FAIL_COMPONENTS][CS_NAME_MAX];
    bool cause_outage[CS_MAX_FAIL_COMPONENTS]; /* a storage class: outages, not interruptions */
    struct cs_run_dist cause[CS_MAX_FAIL_COMPONENTS];
    uint64_t events;        /* engine events over all replicas */
};

/* Simulates one replica with engine seed `seed` (replica i of
 * cs_run_simulate uses cs_run_replica_seed(s->seed, i)). `r` must come from
 * cs_run_simulate's setup: it is the plan-level result (ckpt, target_s, ...)
 * filled by cs_run_prepare. Thread-safe: its own engine. */
cs_status cs_run_replica_simulate(const struct cs_scenario *s, const struct cs_run_result *r,
                                  const struct cs_run_options *o, uint64_t seed,
                                  struct cs_run_replica *out);

/* The engine seed of replica i. */
uint64_t cs_run_replica_seed(uint64_t scenario_seed, int i);

/* Fills the plan-level fields of r (everything but the distributions) from
 * the scenario and the step: target, rates, checkpoint plan. Returns CS_OK
 * with r->enabled false when there is nothing to simulate. */
cs_status cs_run_prepare(const struct cs_scenario *s, const struct cs_step_result *step,
                         const struct cs_run_options *o, cs_diags *d, struct cs_run_result *r);

/* Runs the whole Monte Carlo: prepare, then o->replicas (or run.replicas)
 * replicas on o->threads threads, and fills the distributions. Same seed and
 * inputs give the same result whatever the thread count. `step` must have
 * fits true and time_s > 0. Errors go to d. */
cs_status cs_run_simulate(const struct cs_scenario *s, const struct cs_step_result *step,
                          const struct cs_run_options *o, cs_diags *d, struct cs_run_result *out);

#endif
