/* datapipe.h: the input data pipeline of a training step (models/datapipe.c).
 * Each GPU rank has its own loader (PyTorch DataLoader style) with worker
 * processes on the node's CPU cores; a step needs global_batch / dp samples
 * per rank, each costing CPU preprocessing time and bytes read from a
 * storage tier (shared by the node's ranks and, for a remote tier, with the
 * collectives on the NICs). With GPU-side decoding (DALI-like) the
 * preprocessing runs on the GPU instead and lengthens the step.
 *
 * The loader is simulated on the engine (docs/run.md, "Data pipeline"):
 * each of a rank's W workers builds whole batches in turn (PyTorch
 * DataLoader: batch b on worker b mod W), at most prefetch x W batches
 * outstanding; a batch costs the sum of its samples' CPU times (lognormal
 * with data.sample_cv) or its read time at the rank's share of the tier,
 * whichever is longer. The synchronous step k starts when every simulated
 * rank has batch k and step k-1 is done, so the step waits for the slowest
 * loader; the stall of a step is its start minus the previous end. With
 * prefetch 0 the loader runs in series: each batch starts when the step
 * before it ends, its samples split over the workers. With deterministic
 * samples the mean stall is max(0, load - step) (prefetch >= 1) or load
 * (prefetch 0), the closed forms. */
#ifndef CLUSTERSIM_DATAPIPE_H
#define CLUSTERSIM_DATAPIPE_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"
#include "clustersim/models/step.h"

#include <stdbool.h>

struct cs_data_result {
    bool enabled;
    double samples_per_rank;    /* per step */
    double cpu_s;               /* preprocessing per step, spread over the workers */
    double read_s;              /* dataset reads per step */
    double gpu_s;               /* GPU-side decoding per step (adds to the step) */
    double load_s;              /* loader time per step: data.batch_time or max(cpu, read) */
    double compute_s;           /* the step without the stall (GPU decoding included) */
    double stall_s;             /* the step waits this long per step */
    double starved_fraction;    /* stall / (compute + stall) */
    /* The simulation's stall distribution over its measured steps. */
    int ranks_simulated, steps_simulated;
    double stall_p50_s, stall_p95_s, stall_p99_s, stall_max_s;
    double stalled_steps_fraction;  /* steps that waited at all */
    /* Checkpoint traffic on data.tier (an async write, an upload from or
     * to it; docs/run.md "Data pipeline"): the window's length per
     * checkpoint (lengthened by its share of the tier) and its share of the
     * wall time, the reads' slowdown inside it, the stall one window adds
     * (simulated: the prefetch queue absorbs a short one) and the stall per
     * step without windows. stall_s = stall_outside + extra / steps per
     * checkpoint; the distribution above is the steps outside. Without
     * such traffic: fraction, window and extra 0, slowdown 1. */
    double ckpt_window_fraction, ckpt_window_s;
    double ckpt_read_slowdown;
    double ckpt_extra_stall_s, stall_outside_ckpt_s;
};

/* Evaluates s->data against the simulated step. With s->data.enabled false,
 * out->enabled is false and everything is 0. Errors (a tier without read
 * bandwidth, a missing tier) go to d; returns CS_EINVAL then. */
cs_status cs_data_evaluate(const struct cs_scenario *s, const struct cs_step_result *step,
                           cs_diags *d, struct cs_data_result *out);

/* Folds the pipeline into the step: adds gpu_s + stall_s to time_s,
 * stall_s to data_stall_s, and rescales tokens_per_s, tflops_per_gpu and
 * mfu to the longer step. No-op when dr->enabled is false. */
void cs_data_apply(const struct cs_data_result *dr, struct cs_step_result *step);

#endif
