/* memory.h: per-GPU memory of a training configuration (models/memory.c):
 * model states by precision, ZeRO/FSDP sharding and optimizer offload
 * (Rajbhandari et al. 2020), activations by recompute policy, tensor/sequence
 * and context parallelism and pipeline schedule (Korthikanti et al. 2022),
 * and the reserve a real process cannot use. docs/models.md, "Memory", gives
 * every equation. All functions are pure. */
#ifndef CLUSTERSIM_MEMORY_H
/* E5M6: 1 sign, 5 exponent and 6 mantissa bits (DeepSeek-V3 report,
 * Section 3.3.2). */
#define CS_MEMORY_E5M6_BYTES 1.5
#define CLUSTERSIM_MEMORY_H

#include "clustersim/models/compute.h"
#include "clustersim/models/hw.h"
#include "clustersim/base/status.h"
#include "clustersim/models/workload.h"

#include <stdbool.h>

/* Memory the framework cannot use: CUDA context and NCCL buffers (1.5 GiB)
 * plus allocator fragmentation (5% of HBM). */
#define CS_MEMORY_RESERVE_FIXED_BYTES (1.5 * 1073741824.0)
#define CS_MEMORY_RESERVE_FRACTION 0.05
/* cuBLAS / cuDNN / Transformer Engine workspaces. */
#define CS_MEMORY_WORKSPACE_BYTES (256.0 * 1048576.0)

struct cs_memory_breakdown {
    double weights_bytes, grads_bytes, optimizer_bytes, activations_bytes,
        comm_buffers_bytes, workspace_bytes, total_bytes, capacity_bytes;
    bool fits;              /* total_bytes <= capacity_bytes - reserve_bytes */
    double reserve_bytes;   /* unusable part of capacity_bytes (see above) */
    int stage;              /* pipeline stage reported: 0 (first) or pp - 1 (last) */
    double params;          /* parameters held by that stage's GPU before sharding */
    double host_bytes;      /* activations offloaded to host memory by that GPU */
};

/* Per-GPU memory of the most loaded GPU (the larger of the first pipeline
 * stage under 1F1B and the last stage with the logits). Attention is fused
 * or not as cs_compute_params_default decides for `gpu`. Returns CS_EINVAL
 * for an inconsistent workload or a GPU without hbm_bytes; `out` is
 * untouched then. */
cs_status cs_memory_per_gpu(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            struct cs_memory_breakdown *out);
/* The same with an explicit fused-attention choice (p->fused_attention). */
cs_status cs_memory_per_gpu_params(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                                   const struct cs_compute_params *p,
                                   struct cs_memory_breakdown *out);

/* Activation bytes one layer stores for backward, per micro-batch, on one
 * GPU, under w->recompute (Korthikanti et al. 2022, Table 2, generalized to
 * GQA, swiglu, f != 4h and context parallelism; docs/models.md). Under full
 * recompute this is the stored layer input only. */
double cs_memory_layer_activations(const struct cs_workload *w, bool fused_attention);
/* Of those, the bytes w->offload_modules sends to host memory for one layer
 * (an MoE layer when moe_layer), per micro-batch on one GPU: the saved
 * inputs of the named modules (0 without offload_modules or under full
 * recomputation, which keeps the layer input only). */
double cs_memory_layer_offload_bytes(const struct cs_workload *w, bool moe_layer);
/* The smallest count in [1, hi] for the knob *count of *w (a field of it:
 * recomputed or offloaded layers, memory falling as the count grows) at
 * which the workload fits on gpu with p; hi when none below it does.
 * Bisection on cs_memory_per_gpu_params; *w is left as it was. */
int cs_memory_fewest_that_fit(struct cs_workload *w, const struct cs_gpu_spec *gpu,
                              const struct cs_compute_params *p, int *count, int hi);

/* Bytes per parameter of the working weights, the gradients and the
 * optimizer state (before sharding): 2 / 4 / 12 in mixed precision with
 * fsdp none or zero1 (Megatron-LM keeps fp32 gradients), 2 / 2 / 12 with
 * ZeRO-2/3 and FSDP (Rajbhandari et al. 2020's 16 bytes per parameter);
 * fp32 / tf32 training: 4 / 4 / 8. */
double cs_memory_weight_bytes_per_param(const struct cs_workload *w);
/* Bytes per parameter the parameter all-gathers move: the stored width
 * (the quantized one with fp8_param_gather / fp4_param_gather). */
double cs_memory_gather_bytes_per_param(const struct cs_workload *w);
double cs_memory_grad_bytes_per_param(const struct cs_workload *w);
/* Whether DeepSpeed's BF16 optimizer holds the gradients: stack
 * megatron-deepspeed at bf16 with fsdp none or zero1 (ZeRO-2/3 run
 * DeepSpeed's ZeRO optimizers instead). It keeps an fp32 gradient per
 * parameter beside the bf16 ones autograd leaves between micro-batches (6
 * bytes a parameter), accumulates into it after every micro-batch
 * (cs_compute_hp_grad_s) and all-reduces in bf16 (2 bytes). docs/step.md,
 * "Software stacks". */
bool cs_memory_ds_bf16_optimizer(const struct cs_workload *w);

/* Bytes per gradient element the data-parallel reduction moves (the reduce
 * dtype), which can differ from what a gradient occupies in memory: PyTorch
 * FSDP under torchtitan (FSDP2, MixedPrecisionPolicy reduce_dtype float32,
 * torchtitan's training.mixed_precision_reduce default) and Composer (FSDP1,
 * mixed_precision DEFAULT: reduce_dtype float32 since mosaicml/composer
 * d745fcb1b) reduce the bf16 gradients in fp32 (4) unless
 * workload.grad_reduce_bf16 says bf16 (Composer's PURE); DeepSpeed's BF16
 * optimizer in bf16 (2); everything else as cs_memory_grad_bytes_per_param.
 * docs/step.md "FSDP". */
double cs_memory_grad_reduce_bytes(const struct cs_workload *w);
/* Whether the sharding scheme shards the gradients over its data-parallel
 * group (ZeRO-2, FSDP FULL and HYBRID), not only the optimizer state. */
bool cs_memory_shards_grads(enum cs_fsdp f);
double cs_memory_optimizer_bytes_per_param(const struct cs_workload *w);
/* Bytes per logit (of the last stage's micro-batch tokens x vocab / tp)
 * the loss holds at its peak, by cs_workload_cross_entropy: fused 4,
 * eager 12 (16 with tp > 1: loss parallelism), compiled 4. */
double cs_memory_loss_bytes_per_logit(const struct cs_workload *w);

/* Parameters held by one GPU after tensor-parallel sharding (replicated
 * norms and row-parallel biases counted in full): one transformer layer; the
 * first stage's embeddings (vocabulary-parallel, plus learned positions for
 * gelu models); the last stage's final norm and output layer (none with tied
 * embeddings and pp == 1, where the embedding serves). */
double cs_memory_layer_params(const struct cs_workload *w);
/* A mixture-of-experts layer on one GPU: attention and norms (as a dense
 * layer), the router (replicated), the shared experts (tensor-parallel)
 * and this GPU's experts (E / ep of them, each 1/etp of its width); the
 * last part alone, which the expert data-parallel group shards. */
double cs_memory_layer_moe_params(const struct cs_workload *w);
/* One hybrid block's parameters on one GPU (workload.model.hybrid_pattern):
 * its mixer's, TP-split as Megatron-Core splits them, and its RMSNorm's.
 * CS_BLOCK_LAYER is cs_memory_layer_params. */
double cs_memory_block_params(const struct cs_workload *w, enum cs_block kind);
double cs_memory_layer_expert_params(const struct cs_workload *w);
double cs_memory_embedding_params(const struct cs_workload *w);
double cs_memory_logits_params(const struct cs_workload *w);
/* Parameters per GPU of one multi-token-prediction module beside its
 * transformer layer: the projection eh_proj (2h x h over tp) and the two
 * RMSNorms (h each). */
double cs_memory_mtp_extra_params(const struct cs_workload *w);

/* Data-parallel degree over which the model states are sharded: dp for
 * zero1/zero2/full, min(dp, G / (tp cp)) for hybrid with G =
 * fsdp_shard_group (or the GPU's server_gpus, else 8, when 0), 1 for none. */
int cs_memory_shard_degree(const struct cs_workload *w, const struct cs_gpu_spec *gpu);

#endif
