/* step.h: one training iteration of a transformer on a cluster, simulated as
 * a discrete-event timeline on the engine's clock (models/step.c; evaluated
 * directly, with the engine's event-by-event run as the tested reference,
 * docs/step.md "Speed"). Each pipeline stage has a
 * compute stream (forward/backward of its layers, with the tensor-parallel
 * collectives on the critical path, as Megatron-LM runs them), a data-parallel
 * communication stream (bucketed gradient reduction overlapped with the last
 * micro-batch's backward, FSDP gathers and scatters) and point-to-point links
 * to its neighbours. Bubbles and exposed communication are measured from the
 * simulated timeline, not assumed.
 *
 * Symmetry: all data-parallel replicas (and all GPUs of one tensor-parallel
 * group) run the same timeline, so one replica's pp stages are simulated and
 * one GPU stands for its TP x CP group. This holds for the homogeneous,
 * packed placements the step model is given; the fabric model handles
 * placements where ranks differ. */
#ifndef CLUSTERSIM_STEP_H
#define CLUSTERSIM_STEP_H

#include "clustersim/models/collective.h"
#include "clustersim/models/compute.h"
#include "clustersim/base/diag.h"
#include "clustersim/models/memory.h"
#include "clustersim/models/netmodel.h"
#include "clustersim/models/scenario.h"
#include "clustersim/sim/sim.h"
#include "clustersim/models/workload.h"

#include <stdbool.h>
#include <stdint.h>

/* Compute slowdown under overlapped communication (see docs/step.md). */
#define CS_STEP_OVERLAP_SLOWDOWN 0.3

struct cs_step_options {
    struct cs_compute_params compute;  /* from cs_compute_params_default unless calibrated */
    struct cs_coll_params coll;        /* collective model; launch floor off (see below) */
    bool dp_overlap;           /* bucketed DP reduction overlapped with backward (default on) */
    double dp_bucket_bytes;    /* gradient bucket size (default 40e6 parameters' worth, Megatron) */
    bool tp_across_nodes_ok;   /* allow tp > gpus_per_node (default off: invalid) */
    double tp_overlap;         /* fraction of TP communication hidden behind compute (default 0) */
    double overlap_slowdown;   /* compute time lost per second of communication overlapped with
                                  it (NCCL kernels take SMs and HBM bandwidth; default
                                  CS_STEP_OVERLAP_SLOWDOWN) */
    /* The network model (netmodel.h, borrowed; NULL by default): every
     * communicator that leaves a node gets its network share from the flow
     * model on the job's placement, with the neighbour jobs. NULL: the
     * topology geometry's closed-form estimate (cs_coll_fabric_view). It
     * must be built for this cluster and the workload's GPU count. */
    cs_netmodel *net;
    /* Seed of the MoE routing stream (moe.h; the scenario's seed). */
    uint64_t moe_seed;
};

/* GPU to host memory, one direction: the catalog's host_bw (NVLink-C2C) or
 * the PCIe generation's x16 rate times the collective model's PCIe
 * efficiency; NAN when neither is known. Used by activation offload. */
double cs_step_host_bw(const struct cs_gpu_spec *gpu, const struct cs_coll_params *coll);

/* Fills `o` with the defaults for `gpu` (compute params from the GPU). The
 * collective model's host-launch floor (which nccl-tests sees, one thread
 * driving 8 GPUs synchronously) is set to 0: in training, collectives are
 * enqueued asynchronously behind compute kernels, so launch overlaps. */
void cs_step_options_default(const struct cs_gpu_spec *gpu, struct cs_step_options *o);

/* The part of a stage's parameter all-gather (ZeRO-1/2's updated shards,
 * t_ag seconds on its DP stream) that the next step's forward does not
 * hide (docs/step.md, "Data parallelism"). Megatron-Core's
 * overlap_param_gather gathers bucket by bucket in the forward's layer
 * order, each module's pre-hook waiting for its bucket and dispatching the
 * next (param_and_grad_buffer.py, finish_param_sync), so chunk c's
 * parameters must be in by the end of the stage's first forward of chunk
 * c: after fill_s (the first micro-batch's forward through the stages
 * before this one), the earlier chunks' `rounds` forwards each (min(pp, m):
 * the interleaved schedule runs pp micro-batches of a chunk before the
 * next) and its own, fwd_s[c]. The gather runs in parameter order at t_ag
 * over the stage's parameters (params[0..vp)). Returns the most by which
 * the gathered share overruns a deadline (0 when hidden). A step with few
 * micro-batches and many parameters per GPU (an MoE model's experts)
 * cannot hide it in one forward. */
double cs_step_param_gather_exposed_s(const double *fwd_s, const double *params, int vp, double fill_s,
                                      int rounds, double t_ag);

struct cs_step_result {
    bool fits;                          /* memory fits; when false nothing was simulated */
    struct cs_memory_breakdown memory;
    int microbatches;                   /* per pipeline per step (gradient accumulation) */
    double time_s;                      /* one optimizer step */
    /* Breakdown of the critical (last-finishing) stage; the parts add up to time_s. */
    double compute_s;                   /* GPU compute incl. recomputation */
    double host_wait_s;                 /* of compute_s, the time the GPU waits on the host to issue
                                           its kernels (operations whose host dispatch outlasts their
                                           kernels; docs/models.md, "Host dispatch") */
    double host_issue_s;                /* the host's dispatch time of all of one stage's operations
                                           in the step, waited on or not (the longest stage's): a
                                           lower bound of time_s the host alone sets */
    double tp_comm_s;                   /* exposed tensor/context-parallel collectives */
    double pp_comm_s;                   /* waiting on pipeline transfers in flight */
    double dp_comm_s;                   /* exposed data-parallel / FSDP communication */
    double exposed_comm_s;              /* tp + pp + dp + ep */
    double bubble_s;                    /* pipeline bubble: waiting on other stages' compute */
    double optimizer_s;
    double data_stall_s;                /* data pipeline stall (0 until the data model exists) */
    double dp_comm_total_s;             /* DP/FSDP communication time incl. the hidden part */
    int critical_stage;
    double tokens_per_s;
    double hw_flops_per_iter;           /* Narayanan et al. 2021 count, recomputation included */
    double model_flops_per_iter;        /* without recomputation (PaLM MFU) */
    double tflops_per_gpu;              /* hw FLOPs / step / GPUs / 1e12 */
    double mfu;                         /* model FLOPs / step / GPUs / peak */
    uint64_t events;                    /* engine events fired */
    /* Network shares the communicators that leave a node got (netmodel.h):
     * 1 when uncontended; NAN without a network model (step_options.net
     * NULL), when the communicator does not exist or stays in a node. */
    double tp_net_share, cp_net_share, dp_net_share, pp_net_share;
    /* Step time with the neighbour jobs over alone (set by the app layer
     * when the scenario has neighbours); NAN otherwise. */
    double network_slowdown;
    /* Step time with the job's own remote storage traffic (async
     * checkpoint writes, dataset reads) on the compute fabric over without
     * (set by the app layer, storage_network: compute); NAN otherwise. */
    double storage_slowdown;
    /* Mixture of experts (0, 1 and NAN for dense models): the exposed
     * dispatch/combine all-to-alls of the busiest pipeline stage (moe_stage,
     * the one that paces the pipeline; with leading dense layers the
     * critical stage may hold no MoE layer), what the most loaded EP rank
     * added to that stage's compute and all-to-alls (part of the step
     * already counted), that rank's load over the mean, the share of routed
     * copies dropped at the capacity factor, the EP communicator's network
     * share. The critical stage's own exposed all-to-alls are in
     * exposed_comm_s and out of tp_comm_s. */
    int moe_stage;
    double ep_comm_s;
    double moe_imbalance_s;
    double moe_load;
    double moe_dropped;
    double ep_net_share;
};

/* The communicator of `size` ranks whose members are `stride` ranks apart in
 * Megatron's rank order (tp fastest, then cp, dp, pp) on nodes of g GPUs:
 * ranks per node, groups sharing each node's NICs, nodes spanned. The step
 * model builds its TP (stride 1), CP (tp), DP (tp*cp) groups with it. */
struct cs_coll_group cs_step_group(int size, long stride, int g);

/* The scenario keys a workload rule names (cs_step_rules). */
enum cs_step_key { CS_STEP_KEY_PARALLELISM, CS_STEP_KEY_TP, CS_STEP_KEY_PP, CS_STEP_KEY_VP, CS_STEP_KEY_CP,
                   CS_STEP_KEY_FSDP, CS_STEP_KEY_MODEL, CS_STEP_KEY_KV_HEADS, CS_STEP_KEY_HIDDEN,
                   CS_STEP_KEY_GLOBAL_BATCH, CS_STEP_KEY_GPUS, CS_STEP_KEY_EP, CS_STEP_KEY_COUNT };

/* Where each key sits in the scenario file (line 0: no position), so that
 * the config loader's errors carry file:line:col. Borrowed. */
struct cs_step_marks {
    const char *file;
    int line[CS_STEP_KEY_COUNT];
    int col[CS_STEP_KEY_COUNT];
};

/* The one set of rules a workload must satisfy on cluster c: degrees
 * multiply to the GPU count, heads / key-value heads / hidden / layers /
 * batch / sequence divisibility, interleaving constraints, tp inside a node
 * unless allowed (tp_across_nodes_ok or parallelism.tp_across_nodes), the
 * hybrid FSDP shard group. config/scenario.c calls it with the marks of the
 * file (the user's errors); cs_step_check and the search call it without.
 * Appends one error per problem to d (at its key's mark when marks is
 * non-NULL) and returns CS_EINVAL, or returns CS_OK. */
cs_status cs_step_rules(const struct cs_cluster_cfg *c, const struct cs_workload *w, bool tp_across_nodes_ok,
                        const struct cs_step_marks *marks, cs_diags *d);

/* cs_step_rules(c, w, o->tp_across_nodes_ok, NULL, d): for callers that
 * build workloads themselves (search); a loaded scenario has passed it. */
cs_status cs_step_check(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                        const struct cs_step_options *o, cs_diags *d);

/* Simulates one step. Returns CS_EINVAL (with diagnostics) for an invalid
 * configuration; CS_OK otherwise, with out->fits false (and no timings) when
 * the memory does not fit. Thread-safe: uses its own engine. */
cs_status cs_step_simulate(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                           const struct cs_step_options *o, cs_diags *d,
                           struct cs_step_result *out);

/* The same with a caller's scratch engine. The step's timeline does not
 * depend on the order of simultaneous events, so it is evaluated directly
 * (docs/step.md, "Speed"), with the engine's clock and conversions; only a
 * step that goes wrong (a duration the clock cannot hold, a model error, a
 * stalled schedule) is run on the engine (`scratch`, reset first and left
 * reset-able; NULL: an engine of its own), which reports it. */
cs_status cs_step_simulate_on(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                              const struct cs_step_options *o, cs_engine *scratch,
                              cs_diags *d, struct cs_step_result *out);

/* The same step run event by event on the engine (one event per operation's
 * end and per wake-up of a stage waiting for an input in flight): the
 * reference the direct evaluation is tested against; identical results,
 * events included. */
cs_status cs_step_simulate_events(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                                  const struct cs_step_options *o, cs_engine *scratch,
                                  cs_diags *d, struct cs_step_result *out);

/* TP communication overlapped with the GEMMs of one layer (docs/step.md,
 * "TP communication overlap"): with sequence parallelism, each all-gather
 * (time ag) and reduce-scatter (time rs) of layer L overlaps the GEMM it
 * feeds or drains, split into tp chunks, so min(ov x c, (tp - 1) / tp x g)
 * of it is hidden (ov: the stack's overlap share, tp_comm_overlap); the
 * sum over the layer's forward (bwd false) or backward pairs. 0 without
 * overlap, for tp 1, and for all-reduces (no sequence parallelism). */
double cs_step_tp_hidden_s(const struct cs_layer_cost *L, double ov, int tp, double ag, double rs, bool bwd);

/* Expert-parallel communication overlap (docs/moe.md, "Overlap"): the time
 * of one MoE layer's forward of one micro-batch run together with another
 * micro-batch's backward of it, as Megatron-Core's combined 1F1B schedules
 * them (TransformerLayerSchedulePlan.run, model_chunk_schedule_plan.py):
 * two streams,
 *   compute: attn_f | mlp_dgrad, mlp_wgrad, mlp_f | attn_b
 *   comm:    combine_b | dispatch_f, dispatch_b    | combine_f
 * each op starting when its stream is free and its input is ready
 * (dispatch_f after attn_f, mlp_dgrad after combine_b, dispatch_b after
 * mlp_dgrad, mlp_f after dispatch_f, combine_f after mlp_f, attn_b after
 * dispatch_b). comp[] = {attn_f, mlp_f, attn_b, mlp_dgrad, mlp_wgrad}
 * (s), t the time of one all-to-all. Returns the pair's makespan: between
 * max(F + B, 4 t) and F + B + 4 t. */
double cs_step_a2a_pair_s(const double comp[5], double t);

/* Of a stage's m x vp forward chunks, the share run paired with a backward
 * (the steady state of the schedule): Megatron-Core's warm-up forwards,
 * (pp - s - 1) x 2 + (vp - 1) x pp interleaved or pp - s - 1 without, and
 * the first steady forward run alone; without pipelining all but the
 * first forward pair up ((m - 1) / m). */
double cs_step_paired_share(int pp, int vp, int stage, long micro);

/* HBM bytes per parameter that PyTorch FSDP moves over the unsharded
 * gradients of each micro-batch's backward before it reduce-scatters them
 * (docs/step.md, "FSDP": the gradient's own passes), and in *kernels the
 * kernels per FSDP unit (layer), for the workload's stack and sharding,
 * dp ranks, pp stages, `micro` micro-batches a step and gradients reduced
 * at grad_bytes per element:
 *   composer (FSDP1; full, hybrid, zero2): the cast to the reduce dtype
 *     when it is wider than the 16-bit gradient (2 + r bytes) and the
 *     in-place pre-divide (2 r): 14 at fp32, 4 at bf16, 2 kernels or 1;
 *   torchtitan (FSDP2; full, hybrid): the copy-in into the reduce-scatter
 *     buffer (2 + r), every micro-batch, or once a step under pipelining
 *     (spread as 1/micro of it per micro-batch);
 * 0 for other stacks (Megatron reduces its fp32 main_grad buffers in
 * place), without sharding or with dp = 1. */
double cs_step_grad_prep(const struct cs_workload *w, enum cs_fsdp fsdp, int dp, int pp, long micro,
                         double grad_bytes, double *kernels);

/* Whether the workload's MoE layers synchronize the host with the GPU in
 * their forward (Megatron-Core's token dispatchers read the routing counts
 * back: stack mcore), so that the host cannot run ahead across them
 * (docs/models.md 2.6, "Synchronizing MoE layers"). */
bool cs_step_moe_syncs(const struct cs_workload *w);

/* One forward or backward of `layers` layers under FSDP (full or hybrid
 * shard) on its stage's DP/FSDP stream, NCCL's one stream per communicator
 * running the collectives in the order they were issued (docs/step.md,
 * "FSDP"): the first layer's all-gather when the operation starts (now_s,
 * or when the stream frees at comm_free_s); each layer's successor's
 * all-gather issued as the layer starts (`post` false: forward prefetch,
 * BACKWARD_PRE) or, with `post` in the backward, when it ends (BACKWARD_POST);
 * in the backward each layer's reduce-scatter when it ends. A layer starts
 * when its predecessor has ended and its gather is done, and runs
 * per_layer_s plus overlap_slowdown times the collective time that runs
 * during it (as overlapped DP and TP communication slows the GEMMs). */
struct cs_fsdp_timeline {
    double end_s;        /* when the last layer ends */
    double comm_free_s;  /* when the stream is free again */
    double comm_s;       /* collective time issued on the stream */
    double slowdown_s;   /* of end_s - now_s, the compute slowed by overlap */
};
void cs_step_fsdp_layers(double now_s, double comm_free_s, int layers, double per_layer_s,
                         double ag_s, double rs_s, bool backward, bool post,
                         double overlap_slowdown, struct cs_fsdp_timeline *out);

/* Hybrid sharding's all-reduce of the gradient shards over the replicas,
 * for a backward of `units` FSDP units that runs from now_s to end_s: each
 * unit's shard is all-reduced (ar_s) right after its reduce-scatter, on a
 * stream of its own (PyTorch FSDP1's _all_reduce_stream in _reduce_grad;
 * FSDP2's foreach_reduce per parameter group), so it overlaps the backward
 * of the units still to run. Unit i's shard is taken ready at now_s +
 * (i + 1) (end_s - now_s) / units. *free_s (in: when the stream frees; out:
 * when its last all-reduce ends) and *comm_s (collective time added) are
 * updated; returns the backward's slowdown, overlap_slowdown times the
 * all-reduce time that runs before end_s (docs/step.md, "FSDP"). */
double cs_step_hsdp_allreduce(double now_s, double end_s, int units, double ar_s,
                              double overlap_slowdown, double *free_s, double *comm_s);

#endif
