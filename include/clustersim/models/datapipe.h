/* datapipe.h: the input data pipeline of a training step (models/datapipe.c).
 * Each GPU rank has its own loader (PyTorch DataLoader style) with worker
 * processes on the node's CPU cores; a step needs global_batch / dp samples
 * per rank, each costing CPU preprocessing time and bytes read from a
 * storage tier (shared by the node's ranks and, for a remote tier, with the
 * collectives on the NICs). With GPU-side decoding (DALI-like) the
 * preprocessing runs on the GPU instead and lengthens the step.
 *
 * Overlap: with prefetch >= 1 the loader prepares the next batch while the
 * GPU computes, so the step waits max(0, load - step) (a steady-state
 * throughput bound; prefetch depth absorbs jitter, which is not modelled);
 * with prefetch 0 the loader runs in series and the step waits the whole
 * load time. */
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
