/* pipeline.h: the one evaluation of a resolved scenario (app layer,
 * app/pipeline.c): the step model with the scenario's options
 * (cs_step_options_from_scenario: defaults + calibration) and its memory
 * fit, the data pipeline's stall folded into the step, the run-level Monte
 * Carlo when the scenario asks for it (run: or workload.tokens), and the
 * cluster's cost when asked. `clustersim run`, `report`, `compare`, `tco`
 * and every sweep point call it, so they cannot drift apart. */
#ifndef CLUSTERSIM_APP_PIPELINE_H
#define CLUSTERSIM_APP_PIPELINE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/datapipe.h"
#include "clustersim/models/run.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/step.h"

#include <stdbool.h>

/* What the evaluation is for. */
enum cs_app_goal {
    /* The step is the result (run, report, compare, sweep points): simulated
     * whenever the scenario has a workload; a configuration that does not
     * fit in GPU memory returns CS_ENOFIT. */
    CS_APP_GOAL_STEP,
    /* The cluster's cost is the result (tco): the workload only times one
     * training run, so the step, data and run models run only when
     * workload.tokens is set, a configuration that does not fit is a
     * warning (no cost per run), and the cost is always evaluated. */
    CS_APP_GOAL_COST,
};

/* The stage an error came from (cs_app_result.failed). */
enum cs_app_stage {
    CS_APP_STAGE_NONE,
    CS_APP_STAGE_STEP,  /* step model: an invalid configuration (CS_EINVAL), or CS_ENOFIT */
    CS_APP_STAGE_DATA,  /* data pipeline: a missing storage tier */
    CS_APP_STAGE_RUN,   /* run-level model */
    CS_APP_STAGE_COST,  /* cost inputs: a missing price (CS_ECONFIG) */
};

struct cs_app_eval_opts {
    enum cs_app_goal goal;
    bool data;          /* fold the data pipeline (data:) into the step; default true */
    bool run;           /* the run level when the scenario asks for it; default true */
    bool cost;          /* STEP goal: also price the cluster when the step fits (the COST
                         * goal always does); default false */
    bool only_priced;   /* cost: options without prices are left out (warnings) instead of
                         * failing with CS_ECONFIG; default false */
    bool best_effort;   /* an error of the run or cost stage is recorded in
                         * out->run_status / out->cost_status and the evaluation goes on
                         * (sweep points keep their step row); default false */
    bool quiet_nofit;   /* STEP goal: CS_ENOFIT without a diagnostic, for callers whose
                         * report shows the memory breakdown itself; default false */
    int threads;        /* run-level Monte Carlo worker threads, >= 1; default 1 */
    int replicas;       /* Monte Carlo replicas; 0 (default): the scenario's run.replicas */
    uint64_t max_events;/* event budget of each run-level replica; 0 (default): CS_RUN_MAX_EVENTS */
    /* Progress of the run-level Monte Carlo (cs_run_options.progress):
     * replicas finished and their number; NULL (default): none. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* The network model of this scenario's cluster to run the step on
     * (borrowed; cs_app_netmodel's, without neighbours), so that a caller
     * that already costed communicators on it (the plan's search) reuses
     * its shares; NULL (default): built here. Not used for neighbours or
     * the pass with the job's storage traffic. */
    struct cs_netmodel *net;
};

/* The defaults above (STEP goal, data and run on, no cost, 1 thread). */
void cs_app_eval_opts_default(struct cs_app_eval_opts *o);

/* Everything one evaluation produced. Owns cost_in and cost (heap); the
 * rest is plain data. Release with cs_app_result_fini. */
struct cs_app_result {
    bool has_step;                  /* the step model ran (the scenario has a workload;
                                     * COST goal: and workload.tokens) */
    struct cs_step_options step_opt; /* the options it ran with */
    struct cs_step_result step;     /* the step, the data stall folded in */
    struct cs_data_result data;     /* data.enabled false: no data: section (or not fitting) */
    struct cs_run_result run;       /* run.enabled false: not simulated */
    enum cs_app_stage failed;       /* the stage whose error was returned; NONE */
    cs_status run_status;           /* best_effort: the run stage's status (run zeroed) */
    cs_status cost_status;          /* best_effort: the cost stage's status */
    bool has_cost;                  /* cost_in and cost are set */
    struct cs_cost_run cost_run;    /* the time per training run (cost stage) */
    struct cs_cost_inputs *cost_in; /* owned; run_hours and run_goodput from cost_run */
    struct cs_cost_result *cost;    /* owned; cs_cost_evaluate(cost_in) */
    /* Neighbour jobs (`neighbours:`): the step alone on the fabric and the
     * slowdown they cause (step time with them over alone); NAN without
     * neighbours. step_opt.net is NULL after the evaluation (the network
     * model lived only while the step ran). */
    double step_alone_s;
    double network_slowdown;
};

/* Builds the network model (models/netmodel.h) of scenario s's job on its
 * cluster: the job's placement and, when `neighbours`, the scenario's
 * neighbour jobs. *out NULL (and CS_OK) when the job stays in one node, so
 * nothing goes over the fabric. On failure an error naming what went wrong
 * is appended to d. The caller destroys *out. */
cs_status cs_app_netmodel(const struct cs_scenario *s, bool neighbours, cs_diags *d, cs_netmodel **out);

/* Evaluates scenario s (borrowed; it must outlive nothing here: out keeps no
 * pointer into it) as `o` asks (NULL: the defaults), appending diagnostics
 * (warnings of every model, errors) to d, and fills *out (zeroed first; the
 * caller releases it with cs_app_result_fini whatever the status). Returns
 * CS_OK; CS_ENOFIT (STEP goal: the configuration does not fit in GPU
 * memory; out->step holds the memory breakdown; an error in d unless
 * o->quiet_nofit); or the first stage's error (CS_EINVAL for an invalid
 * configuration, CS_ECONFIG for a missing price), with out->failed naming
 * the stage and what ran before it kept in *out. Same scenario and seed:
 * identical results whatever o->threads. Thread-safe. */
cs_status cs_app_evaluate(const struct cs_scenario *s, const struct cs_app_eval_opts *o,
                          cs_diags *d, struct cs_app_result *out);

/* Frees what *r owns and zeroes it; accepts a zeroed result. */
void cs_app_result_fini(struct cs_app_result *r);

#endif
