/* compute.h: per-operation roofline model of GPU compute for transformer
 * training (models/compute.c). An operation takes
 *     max(flops / (peak[precision] * eff(shape)), bytes / (hbm_bw * mem_eff))
 *     + kernel_overhead_s
 * seconds, where eff(shape) = gemm_eff_max * g(m) g(n) g(k), g(x) = x / (x +
 * gemm_dim_half), so that small and skinny GEMMs run below peak. The model
 * sums operations; it knows nothing of streams or overlap (the step model,
 * step.h, schedules them). Equations and defaults: docs/models.md, "Compute".
 * All functions are pure: no allocation, no global state. */
#ifndef CLUSTERSIM_COMPUTE_H
#define CLUSTERSIM_COMPUTE_H

#include "clustersim/models/hw.h"
#include "clustersim/base/status.h"
#include "clustersim/models/workload.h"

#include <stdbool.h>

struct cs_compute_params {
    double gemm_eff_max;      /* fraction of peak a large, well-shaped GEMM reaches */
    double gemm_dim_half;     /* GEMM dimension at which g(x) = 1/2 */
    double mem_eff;           /* achievable fraction of HBM bandwidth */
    double kernel_overhead_s; /* launch + tail per kernel */
    double attn_eff;          /* fused attention: fraction of peak, on executed FLOPs */
    bool fused_attention;     /* FlashAttention-style attention core (no s^2 in HBM) */
    /* Host (CPU) dispatch (docs/models.md, "Host dispatch"): the time the
     * framework's host thread spends to issue one GPU kernel, from Python
     * (an eager forward op: interpreter, nn.Module call, dispatcher,
     * autograd recording, cudaLaunchKernel) and from C++ (the autograd
     * engine's backward, a compiled graph's wrapper). A layer takes at
     * least its kernels times these (cs_compute_host_layer). 0 disables. */
    double host_py_op_s;
    double host_cpp_op_s;
    /* Host time of one forward call of a Megatron-Core linear layer
     * (ColumnParallelLinear / RowParallelLinear: Python, argument handling,
     * autograd Function, its GEMM launch): the local implementation's and
     * Transformer Engine's (TELayerNormColumnParallelLinear & co., norm
     * included). Measured by TE's developers (docs/models.md). */
    double host_mcore_linear_s;
    double host_te_linear_s;
    /* The training loop's Python host time over those isolated-call
     * measurements: multiplies every Python-issued host cost (module calls
     * forward and backward, eager ops, graph launches). FITTED on Megatron-LM's
     * CI iteration times on DGX H100 (docs/models.md, "Host dispatch"). */
    double host_python_scale;
    /* Device memory the framework cannot use (memory.h): a fixed part (CUDA
     * context, NCCL buffers) and a fraction of HBM (caching-allocator
     * fragmentation); defaults CS_MEMORY_RESERVE_FIXED_BYTES and
     * CS_MEMORY_RESERVE_FRACTION, `workload.memory_reserve` and
     * `workload.memory_fragmentation` in a scenario. */
    double mem_reserve_bytes;
    double mem_fragmentation;
    /* PyTorch's torch._grouped_mm (the kernel torchtitan's MoE experts
     * call) in bf16/fp16, time over this model's GEMM time for the same
     * grouped shapes: CS_TORCH_GROUPED_MM_BF16_BLACKWELL on Blackwell
     * (measured), 1 elsewhere (no measurement). Applied to the expert GEMMs
     * of the torchtitan stack only (docs/moe.md, "Compute"). */
    double torch_grouped_mm_slowdown;
    /* The FP8 linear layers' GEMM and cast time over the per-tensor
     * recipe's: CS_FP8_BLOCKWISE_FACTOR for the block-wise recipe on GPUs
     * without block-scaled tensor cores (workload.fp8_recipe blockwise;
     * cs_compute_fp8_linear_factor), else 1. */
    double fp8_linear_factor;
    /* FP8 (per-tensor) GEMMs run at this share of the rate the efficiency
     * curve gives them (cs_compute_gemm_s): set so that the model's FP8 over
     * BF16 GEMM time on Transformer Engine's benchmark layer equals TE's
     * kernel-only measurement on that GPU generation (CS_TE_FP8_OVER_BF16_*),
     * 1 where there is none (cs_compute_params_default). */
    double fp8_gemm_rate;
};

/* BF16 over FP8 (current scaling) GEMM time, kernels only (inputs
 * pre-quantized), over the twelve forward, data- and weight-gradient GEMMs
 * of a 5B layer (hidden 4,096, intermediate 16,384, 32 heads, 15,872
 * tokens): Transformer Engine's GEMM profiling guide (docs/examples/
 * gemm_profiling/gemm_profiling.rst, PR #2863, 2026-05), H200 NVL 31.968 /
 * 16.785 ms per layer, B300 13.102 / 6.812 ms. */
#define CS_TE_FP8_OVER_BF16_HOPPER (31.968 / 16.785)
#define CS_TE_FP8_OVER_BF16_BLACKWELL (13.102 / 6.812)

/* Transformer Engine's Float8BlockScaling (DeepSeek-V3's 1x128 activation
 * and 128x128 weight tiles) on Hopper over its per-tensor current scaling,
 * GEMMs with their quantization (autocast): 22.882 / 20.285 ms per layer
 * on an H200 NVL for a 5B config (hidden 4096, intermediate 16384, 15,872
 * tokens; all 12 forward, data- and weight-gradient GEMMs), TE's GEMM
 * profiling guide (NVIDIA/TransformerEngine docs/examples/gemm_profiling/
 * gemm_profiling.rst, PR #2863, 2026-05): the per-block scales of both the
 * row- and column-wise copies and the block-scaled cuBLAS GEMM. On
 * Blackwell TE emulates the recipe with MXFP8 kernels (TE PR #2157), where
 * the same guide has MXFP8 at 0.98 of FP8 current scaling (B300): 1 there.
 * Not fitted on a step table. */
#define CS_FP8_BLOCKWISE_FACTOR (22.882 / 20.285)

/* The FP8 linear layers' time factor of workload `w` on `gpu`
 * (cs_compute_params.fp8_linear_factor): CS_FP8_BLOCKWISE_FACTOR for
 * fp8_recipe blockwise at precision fp8 on a GPU without block-scaled
 * tensor cores, whatever the stack (Transformer Engine's recipe is the one
 * measured; the costs it stands for, a scale per block for both copies and
 * the scales applied inside the GEMM's main loop, are the recipe's: the
 * DeepSeek-V3 report, Section 3.3.2, promotes partial sums every 128
 * elements of K); 1 otherwise (Blackwell runs it as MXFP8). */
double cs_compute_fp8_linear_factor(const struct cs_workload *w, const struct cs_gpu_spec *gpu);

/* torch._grouped_mm's bf16 forward + backward (three grouped GEMMs) on B200
 * over this model's GEMM time for the same shapes, the mean of the eight
 * rows of torchao's benchmark (pytorch/ao torchao/prototype/moe_training/
 * README.md, "Autograd function", bf16_fwd_bwd_us; torch 2.10.0a0+gitf6de195,
 * 2025-10/11, B200): Llama 4 Scout shapes (M 128,000, N 8,192, K 5,120) at
 * G = 1/2/4/8 groups 43,140.2 / 39,487.6 / 39,189.2 / 37,700.7 us against
 * the model's 27,408 / 27,463 / 27,572 / 27,791 us, DeepSeek-V3 shapes (N
 * 2,048, K 7,168) 13,064.8 / 14,900.2 / 15,823.6 / 14,966.8 us against
 * 10,332 / 10,353 / 10,394 / 10,476 us: ratios 1.26-1.57, mean 1.43 (about
 * 750-860 TFLOP/s, under half of B200's bf16 MAMF, even with one group).
 * Not fitted on a step table. docs/moe.md, "Compute". */
#define CS_TORCH_GROUPED_MM_BF16_BLACKWELL 1.43

/* The share of its rated clock a GPU sustains under its power limit:
 * (power_limit / tdp)^(1/3), dynamic CMOS power being C V^2 f with the
 * voltage scaled with the frequency (P ~ f^3; Hennessy & Patterson,
 * Computer Architecture, 6th ed., Section 1.5); static power is left out,
 * so the clock it gives is an upper bound. 1 without a limit below the
 * TDP. The GEMM and attention rates scale with it; HBM bandwidth does not. */
double cs_gpu_clock_factor(const struct cs_gpu_spec *gpu);

/* The smallest power limit, as a fraction of TDP, down to which the clock
 * law above holds within 5 points of measured compute-bound throughput
 * (validation/hardware/power-cap-throughput.csv, docs/run.md "Clocks under
 * power limits: validation"); below it the law is optimistic. */
#define CS_CLOCK_LAW_MIN_CAP 0.65

/* The GPU's host CPU single-thread speed relative to DGX H100's Xeon
 * Platinum 8480C (the catalog's host_speed), 1 where the catalog gives
 * none. Host dispatch costs divide by it (docs/models.md 2.6). */
double cs_gpu_host_speed(const struct cs_gpu_spec *gpu);

/* Default parameters for `gpu` (borrowed; read only): gemm_eff_max such that
 * an 8192^3 GEMM reaches the catalog's measured MAMF (mamf_bf16_flops /
 * peak_flops[bf16]) or, without a MAMF, 0.75 x g(8192)^-3; gemm_dim_half the
 * GPU's catalog figure (Blackwell 256), else 128;
 * mem_eff 0.8; kernel_overhead_s 5 us; attn_eff 0.2 (scaled by the GPU's flash_attn_frac);
 * host_py_op_s 10 us, host_cpp_op_s 4 us, host_mcore_linear_s 74 us and
 * host_te_linear_s 115 us (docs/models.md, "Host dispatch"), each divided by
 * cs_gpu_host_speed;
 * the memory reserve of memory.h; fused_attention true
 * when the GPU has a bf16 peak (Ampere and later, CDNA3). Never fails. */
void cs_compute_params_default(const struct cs_gpu_spec *gpu, struct cs_compute_params *p);

/* Fused attention's speed at `len` tokens relative to 4,096 (forward or
 * backward), from published FlashAttention-2 and cuDNN H100 curves
 * (compute.c): 0.603 / 0.651 at 512 or below, 1 at 4,096, 1.045 / 1.036 at
 * 16,384 and above. */
/* Fused attention's speed at query/key head width hd relative to 128:
 * cuDNN on Hopper and later under the mcore stack (hopper_fused), else
 * FlashAttention-2 (docs/models.md, 2.3). */
double cs_compute_attn_hd_factor(double hd, bool hopper_fused);
/* FlashAttention-2's attention time over the fitted (cuDNN) one, as a speed
 * factor, where its kernel runs at `ratio` of cuDNN's kernel and the rest of
 * the fitted time (what the model does not list beside the kernel) stays:
 * 1 / (k / ratio + 1 - k), k the kernel's share of the fitted time at 4K on
 * H100 (0.392: cuDNN's benchmark against DEFAULT_ATTN_EFF); 0.806 at 0.62.
 * 1 for a ratio that is not a positive number. docs/models.md 2.2. */
double cs_compute_attn_flash2_factor(double ratio);
/* Kernel floors an MoE layer's two Transformer Engine GroupedLinear layers
 * add, forward or backward, beyond the grouped-GEMM model's one kernel per
 * GEMM call and one cast per quantized operand: per layer ceil(e_loc / 4) - 1
 * per GEMM call (one cuBLAS GEMM per local expert over 4 streams; forward 1
 * call, backward 2) and q e_loc - 1 per quantized operand (q quantize kernels
 * per expert: FP8 2, MXFP8 1, NVFP4 2, else 0). 0 outside `stack: mcore`,
 * with fused_grouped_mlp, without experts or with one local expert.
 * docs/moe.md, "Compute". */
double cs_compute_te_grouped_kernels(const struct cs_workload *w, enum cs_precision px, double e_loc,
                                     bool backward);
double cs_compute_attn_seq_factor(double len, bool backward);
/* The same for one kernel family (cuDNN, PyTorch SDPA's FlashAttention-2;
 * auto: the mean curve above), 512 to 65,536 tokens, normalized at 4,096
 * (compute.c; docs/models.md 2.3). */
double cs_compute_attn_len_factor(enum cs_attn_kernel k, double len, bool backward,
                                  bool blackwell);
/* A full (unmasked) attention block's speed over a causal one of length
 * len, forward and backward together (cuDNN, FlashAttention-2; auto: their
 * mean): ring attention's off-diagonal steps (compute.c). */
double cs_compute_attn_noncausal_ratio(enum cs_attn_kernel k, double len);
/* A sliding-window layer's fused attention kernel against the causal
 * kernel of the same head width, on the window's FLOPs: w / (w + 1 + c), w =
 * window / 128 key tiles, c the per-query-tile cost read off cuDNN's training
 * SDPA benchmark (Blackwell, i.e. a GPU with an mxfp8 peak: 5.0 forward, 2.7
 * backward; otherwise Hopper's 0.88 and 0.19). 1 for window <= 0. */
double cs_compute_attn_window_factor(double window, bool blackwell, bool backward);
/* cuDNN's FP8 attention kernel over its bf16 one at Q/K head width hd
 * (workload.fp8_attention), forward or backward, block-scaled (mxfp8,
 * nvfp4 recipes) or tensor-scaled (fp8); `window`: a sliding-window layer's
 * forward. From cuDNN's training-SDPA benchmark on GB200/GB300. */
double cs_compute_attn_fp8_factor(double hd, bool block_scaled, bool backward, bool window);

/* Kernels (and NCCL calls) the host issues for one layer of `w` on one GPU,
 * forward and backward (data and weight gradients), as w->stack launches
 * them: Megatron-LM 2021's unfused layer, Megatron-Core with Transformer
 * Engine's fused modules, torchtitan's torch.compile'd blocks, Composer's
 * MPT blocks (docs/models.md, "Host dispatch", for the count of each). An
 * MoE layer (`moe`) adds its router, permutation and grouped GEMMs; TP
 * collectives add one call each; FSDP's per-layer gathers and
 * reduce-scatters add their calls. `py_fwd` is true when the forward's ops are
 * issued from Python (eager), false when from a compiled graph. */
struct cs_host_ops {
    double fwd, bwd;  /* kernel launches per layer per micro-batch, besides the linear modules */
    double linears;   /* linear-layer modules called in the forward, each at its module's host
                         time (Megatron-Core stacks; 0: their GEMMs are counted in fwd) */
    bool te;          /* those modules are Transformer Engine's (host_te_linear_s), else
                         Megatron-Core's local ones (host_mcore_linear_s) */
    bool py_fwd;      /* forward issued op by op from Python */
    /* Of the above, the attention block's (its norm and projections, RoPE,
     * the attention kernel, its bias-dropout-add, its half of the TP
     * collectives): what Transformer Engine's attn scope captures
     * (workload.cuda_graph_scope attn) */
    double attn_fwd, attn_bwd, attn_linears;
    /* An MoE layer's router and dispatch preprocessing, captured by the
     * moe_router and moe_preprocess scopes: launches each way */
    double router_fwd, router_bwd;
    /* Ops the stack issues from Python after each micro-batch's backward,
     * per layer (megatron-deepspeed: the BF16 optimizer's gradient
     * accumulation, 2 per parameter tensor), each at host_py_op_s */
    double py_bwd;
};
void cs_compute_host_ops(const struct cs_workload *w, bool moe, struct cs_host_ops *out);

/* Megatron-Core's unfused RoPE (cs_workload_rope_unfused) beyond the fused
 * kernel the attention's efficiency holds, per rotated element of e bytes
 * and per tensor (q, k): bytes and kernels each way (compute.c gives the
 * op-by-op count). */
#define CS_ROPE_UNFUSED_FWD_BYTES 10.0
#define CS_ROPE_UNFUSED_BWD_BYTES 11.0
#define CS_ROPE_UNFUSED_FWD_KERNELS 11.0
#define CS_ROPE_UNFUSED_BWD_KERNELS 6.0
/* Its time each way for q and k rotated elements: the bytes at the
 * memory-bound kernels' sustained bandwidth plus each kernel's floor. */
void cs_compute_rope_unfused(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                             double e, double q, double k, double *fwd_s, double *bwd_s);

/* Eager blocks (cs_workload_torch_eager): the forward bytes of one layer's
 * eager kernels beyond the fused ones the layer model counts (RoPE over q
 * and k elements, the gated activation over n_f, `norms` eager norms over
 * n_h; element width e). 0 when the blocks are compiled. */
void cs_compute_eager_bytes(const struct cs_workload *w, double e, double q, double k, double n_f,
                            double n_h, int norms, double *bytes);

/* Host time of one layer (`moe`: an MoE layer) per micro-batch: forward =
 * linears x the module's host time + fwd ops x (host_py_op_s if issued
 * from Python, else host_cpp_op_s),
 * backward = bwd ops x host_cpp_op_s (the C++ autograd engine); with
 * w->cuda_graphs, by w->cuda_graph_scope: layer, two graph launches per
 * layer each way instead (the attention and MLP parts), each host_py_op_s;
 * attn, a launch for the attention block (and one for an MoE layer's router
 * and preprocessing) and the rest of the layer eager as above; iteration,
 * nothing per layer (one launch per step, not counted). The GPU
 * runs ahead of the host only when its kernels are longer, so the step
 * takes max(GPU time, host time) per operation (step.c). */
/* p->host_python_scale, or 1 where it is not a finite number >= 0. */
double cs_compute_host_python_scale(const struct cs_compute_params *p);
void cs_compute_host_layer(const struct cs_workload *w, const struct cs_compute_params *p,
                           bool moe, double *fwd_s, double *bwd_s);
/* The same for one block of a hybrid model (CS_BLOCK_LAYER: a dense layer,
 * as cs_compute_host_layer): its share of the layer's operations, a
 * Mamba-2 mixer's own, and one graph launch per block under CUDA graphs. */
void cs_compute_host_block(const struct cs_workload *w, const struct cs_compute_params *p, enum cs_block kind,
                           double *fwd_s, double *bwd_s);
/* Whether w's CUDA graphs capture a block of this kind (an MoE block: its
 * router and preprocessing): layer and iteration capture every block;
 * attn the attention blocks and MoE routers; mamba the Mamba-2 mixers;
 * attn+mamba both (Transformer Engine's scopes attn, mamba, moe_router,
 * moe_preprocess); a dense MLP block only per layer (TE's mlp scope). */
bool cs_compute_block_graphed(const struct cs_workload *w, enum cs_block kind);

/* The forward host time an MoE layer spends before its token dispatcher
 * synchronizes with the GPU: its router and dispatch preprocessing
 * (cs_host_ops.router_fwd launches, issued as the forward is), 0 when CUDA
 * graphs capture them (cs_compute_block_graphed) or the model has no
 * experts. The rest of cs_compute_host_layer's (or host_block's) MoE
 * forward comes after the synchronization (models/step.c). */
double cs_compute_host_moe_pre(const struct cs_workload *w, const struct cs_compute_params *p);

/* Efficiency of an (m x k) * (k x n) GEMM: gemm_eff_max g(m) g(n) g(k). */
double cs_compute_gemm_eff(const struct cs_compute_params *p, double m, double n, double k);
/* The same at a precision: 8-bit inputs take K's half-width twice, 4-bit four
 * times (an MMA consumes 32 bytes of K), the 8192^3 anchor kept. */
double cs_compute_gemm_eff_prec(const struct cs_compute_params *p, enum cs_precision prec,
                                double m, double n, double k);

/* Time of one GEMM (m x k) * (k x n), `batch` times (one batched kernel), at
 * precision `prec`: 2 m n k batch FLOPs; HBM bytes (m k + k n) inputs at
 * cs_precision_bytes(prec) plus m n outputs at the activation width
 * (cs_workload_act_bytes). Returns +INFINITY when the GPU has no peak for
 * `prec` (NAN in the spec) and 0 for an empty GEMM. */
double cs_compute_gemm_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                         enum cs_precision prec, double m, double n, double k, double batch);

/* Time of one memory-bound kernel moving `bytes` through HBM. */
double cs_compute_mem_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                        double bytes);

/* The share of HBM peak bandwidth the Mamba-2 scan's Triton kernels
 * (mamba_ssm ops/triton/ssd_*.py: chunk_cumsum, chunk_state, state_passing,
 * bmm_chunk, chunk_scan) reach on the bytes they move (docs/models.md,
 * "Hybrid models"). From NVIDIA/Megatron-LM#5829 (2026-08): Nemotron 3
 * Nano's scan forward takes 369 us in Nsight Systems on Blackwell (8 TB/s)
 * at 8,192 tokens, 64 heads of 64, state 128, 8 groups, chunk 128, whose
 * 889.2 MB (the model's bytes) less five 5 us kernel floors give 0.323 of
 * the peak: short kernels that do not stream at full bandwidth.
 * Applied to every GPU. */
#define CS_SSD_HBM_FRAC 0.323

/* Time of the Mamba-2 scan moving `bytes`: bytes / (HBM peak x
 * CS_SSD_HBM_FRAC) plus one kernel floor (the caller adds the other
 * kernels' floors). */
double cs_compute_ssd_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p, double bytes);

/* One transformer layer, one micro-batch, on ONE GPU of its tensor (x
 * context) parallel group. FLOP counts follow the Narayanan et al. 2021
 * convention (full s x s attention matrix); times use executed work (a fused
 * causal attention kernel skips the masked half). */
struct cs_layer_cost {
    double fwd_s, bwd_s;          /* compute time of forward and of backward (data + weight gradients) */
    double recompute_s;           /* forward work redone in backward under the recompute policy (0 for none) */
    double fwd_flops, bwd_flops, recompute_flops;   /* on this GPU */
    double fwd_bytes, bwd_bytes;  /* HBM bytes of the memory-bound ops */
    /* Tensor-parallel collectives on the critical path per layer per
     * micro-batch (Megatron: without SP 2 all-reduces fwd + 2 bwd; with SP
     * 2 all-gathers + 2 reduce-scatters each way). Message size in the
     * nccl-tests convention (all_reduce: per-rank buffer; all_gather /
     * reduce_scatter: total gathered buffer). Zero when tp == 1. The
     * backward counts do not include the recomputed forward's collectives:
     * those are the *_recompute counts below. */
    int tp_allreduce_fwd, tp_allreduce_bwd, tp_allgather_fwd, tp_allgather_bwd,
        tp_reducescatter_fwd, tp_reducescatter_bwd;
    double tp_msg_bytes;
    /* The tensor-parallel GEMM each TP collective feeds or drains (docs/
     * step.md, "TP communication overlap"): [0] the attention's input
     * projections (fed by the first all-gather), [1] its output projection
     * (drained by a reduce-scatter), [2] the FFN's first linear, [3] its
     * second; forward and backward (data + weight gradient) times, 0 for a
     * pair the layer does not have (an MoE layer without shared experts). */
    double tp_gemm_fwd_s[4], tp_gemm_bwd_s[4];
    /* Collectives of the forward redone under full recompute (equal to the
     * forward counts then, zero otherwise), run at the start of backward. */
    int tp_allreduce_recompute, tp_allgather_recompute, tp_reducescatter_recompute;
    /* Context-parallel exchange per layer (ring of KV blocks), total bytes
     * sent per GPU fwd and bwd; 0 when cp == 1. */
    double cp_bytes_fwd, cp_bytes_bwd;
    /* Mamba-2 blocks under context parallelism (Megatron-Core's
     * MambaContextParallel): per GPU, the bytes of the all-to-all that
     * turns the sequence-split [x, B, C, dt] into head-split ones before
     * the convolution and scan, and of the one that turns the scan's output
     * back; each runs once each way (the backward's the reverse). */
    double cp_a2a_in_bytes, cp_a2a_out_bytes;
    /* The attention core's share of fwd_s and bwd_s: ring attention
     * overlaps each KV block's transfer with the attention on the previous
     * block (step.c). */
    double attn_fwd_s, attn_bwd_s;
    double params;                /* parameters of this layer held by this GPU (after TP sharding, before FSDP) */
    double act_msg_bytes;         /* activation tensor sent to the next pipeline stage per micro-batch */
    /* Mixture-of-experts layers (cs_compute_moe_layer; 0 for dense ones):
     * the routed experts' share of fwd_s, bwd_s and recompute_s, balanced
     * (the step scales it by the most loaded rank's load); token dispatch
     * and combine, all-to-alls over the EP group of ep_a2a_bytes per rank
     * (nccl-tests convention), counts per direction and under full
     * recompute; with etp > 1 one all-gather and one reduce-scatter of
     * etp_msg_bytes over the ETP group each way; the part of params that
     * is this GPU's share of the experts (reduced over the expert data
     * parallel group). */
    double expert_fwd_s, expert_bwd_s, expert_recompute_s;
    double ep_a2a_bytes;
    int ep_a2a_fwd, ep_a2a_bwd, ep_a2a_recompute;
    double etp_msg_bytes;
    int etp_pairs;
    double expert_params;
};

/* Fills `out` for one layer of `w` on `gpu` with parameters `p` (all
 * borrowed). Returns CS_EINVAL for an inconsistent shape or parallelism
 * (non-positive sizes, hidden % heads, heads % tp, seq_len % cp), or
 * CS_EUNSUPPORTED when the GPU has no peak for w->precision; `out` is
 * untouched then. */
cs_status cs_compute_layer(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                           const struct cs_compute_params *p, struct cs_layer_cost *out);

/* The same for a mixture-of-experts layer of w (attention, router, routed
 * and shared experts, token permutation; docs/moe.md). CS_EINVAL for a
 * dense model. */
cs_status cs_compute_moe_layer(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                               const struct cs_compute_params *p, struct cs_layer_cost *out);
/* One block of a hybrid model (workload.model.hybrid_pattern): a pre-norm,
 * the block's mixer (attention, MLP, mixture of experts or Mamba-2) and
 * its residual add; CS_BLOCK_LAYER is cs_compute_layer. */
cs_status cs_compute_block(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                           const struct cs_compute_params *p, enum cs_block kind,
                           struct cs_layer_cost *out);

/* The embedding (first stage) and the output layer with final norm and
 * cross-entropy loss (last stage), same struct: times, FLOPs, bytes, TP
 * collectives, params; the other fields are 0. Same errors as
 * cs_compute_layer. */
cs_status cs_compute_embedding(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                               const struct cs_compute_params *p, struct cs_layer_cost *out);
/* HBM bytes the loss moves per logit (forward into *fwd, backward into
 * *bwd) for cross-entropy kernel k, with logits of e bytes per element
 * (docs/models.md 2.2, the table under cs_compute_logits). */
void cs_compute_ce_bytes(enum cs_cross_entropy k, double e, double *fwd, double *bwd);
cs_status cs_compute_logits(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *p, struct cs_layer_cost *out);

/* DeepSpeed's BF16 optimizer's fp32 gradient accumulation after each
 * micro-batch's backward, for `params` parameters on the GPU: 18 bytes
 * each of memory-bound traffic under stack megatron-deepspeed at bf16 with
 * fsdp none or zero1 (the BF16 optimizer's own sharding), 0 otherwise
 * (docs/step.md, "Software stacks"). */
double cs_compute_hp_grad_s(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *p, double params);

/* The precision of an MoE router's GEMM (t x h x E): the run's, except under
 * the quantized recipes (fp8, mxfp8, nvfp4), where it stays bf16. Neither
 * stack quantizes it: Megatron-Core's router is not a Transformer Engine
 * module (moe_utils.py router_gating_linear: a bf16 GEMM with an fp32 or
 * bf16 output, NVIDIA/Megatron-LM d98e8a64dd), and torchtitan's float8 and
 * mxfp8 conversions leave `router.gate` out (components/quantization/
 * float8.md, mxfp8.md: filter_fqns). docs/moe.md, "Compute". */
enum cs_precision cs_compute_router_prec(const struct cs_workload *w);

/* HBM bytes of an MoE layer's expert activation path on one GPU, forward
 * (*fwd) and backward (*bwd), and its kernel count (*kernels), for `rows`
 * routed copies into experts of width f (per GPU) and hidden h, e bytes per
 * element, e_loc local experts: the (weighted) activation, the clamp of a
 * clamped GLU (moe.glu_clamp) and fc2's bias added expert by expert
 * (moe.expert_bias) as Megatron-Core core_v0.15-0.17 runs them unfused
 * (fused_bias_geglu.py, experts.py TEGroupedMLP); none of it with
 * workload.fused_grouped_mlp (the GEMMs' epilogues). docs/moe.md. */
void cs_compute_moe_act_bytes(const struct cs_workload *w, double e, double rows, double f,
                              double h, double e_loc, double *fwd, double *bwd, int *kernels);

/* HBM bytes of one of the alltoall dispatcher's sorts by local expert
 * (Megatron-Core's sort_chunks_by_idxs), for `rows` routed copies of width
 * h at e bytes and their fp32 probabilities: 2 (e h + 4) rows (each read
 * and written once); 0 for the flex dispatchers (moe.dispatcher
 * hierarchical) or one local expert. A layer sorts twice forward (after the
 * dispatch, before the combine) and twice backward. docs/moe.md. */
double cs_compute_moe_sort_bytes(const struct cs_workload *w, double e, double rows, double h,
                                 double e_loc);

/* What one multi-token-prediction module adds beside its transformer layer
 * (which costs as a decoder layer) and its pass through the output layer
 * (as cs_compute_logits): the RMSNorms of the hidden state and of the
 * shifted tokens' embedding, their concatenation, and the projection
 * eh_proj (2h -> h, column-parallel over tp; Megatron-Core
 * multi_token_prediction.py); params are the projection's and the norms'.
 * Same errors as cs_compute_layer. docs/models.md 2.7. */
cs_status cs_compute_mtp_extra(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                               const struct cs_compute_params *p, struct cs_layer_cost *out);

/* Achievable CPU memory bandwidth per GPU for the offloaded Adam step: a
 * 2-socket server streams about 400 GB/s (STREAM triad on 8-channel DDR5
 * per socket) shared by 8 GPUs; docs/models.md. */
#define CS_COMPUTE_CPU_ADAM_BW_BYTES_PER_S 50e9

/* Optimizer step time (Adam, memory-bound: read and write fp32 master
 * weights and both moments, read the gradients, write the working-precision
 * weights) for `params` parameters on this GPU. With
 * w->par.optimizer_offload the step runs on the CPU at
 * CS_COMPUTE_CPU_ADAM_BW_BYTES_PER_S, plus the PCIe transfer of gradients
 * down and weights up (pcie_gen x16 at 80% of line rate). */
double cs_compute_optimizer_s(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                              const struct cs_compute_params *p, double params);

#endif
