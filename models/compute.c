/* compute.c: roofline time of the GEMMs, attention and memory-bound kernels
 * of one transformer layer, the embedding, the output layer and the
 * optimizer step, on one GPU of a tensor x context parallel group. Sits
 * below the step model (step.c), which schedules these costs on streams.
 * Equations and defaults: docs/models.md, "Compute". */
#include "clustersim/models/compute.h"
#include "clustersim/models/cluster.h"
#include "clustersim/models/memory.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* The GEMM shape at which the default gemm_eff_max is anchored to the
 * measured MAMF (stas00's benchmark reports its maximum around such shapes). */
#define ANCHOR_DIM 8192.0
#define DEFAULT_DIM_HALF 128.0
#define DEFAULT_EFF_AT_ANCHOR 0.75   /* without a MAMF: a 8192^3 GEMM reaches 75% (as
                                        0.9 x MAMF does on A100 0.78 and H100 0.72) */
#define DEFAULT_MEM_EFF 0.8
/* The floor of one kernel (launch to completion of a tiny kernel): the
 * smallest bf16 GEMMs of OpenXLA's measured H100 (sm_90) matmul table take
 * 5.2-5.4 us (256 x 512 x 256: 5.36 us; 256 x 1024 x 256: 5.23 us;
 * xla/service/gpu/model/matmul_interpolator_data.h, validation/kernels/
 * xla-h100-gemm.csv), of which the arithmetic is under 0.3 us. Memory-bound
 * kernels get the same floor (no measurement of theirs at hand). Was 4 us,
 * unsourced; docs/models.md, "Compute". */
#define DEFAULT_KERNEL_OVERHEAD_S 5e-6
/* Fused causal attention: fraction of peak on the executed FLOPs. Fitted
 * once on the Megatron-Core H100 table (the only reference with fused
 * attention): 0.2, i.e. ~200 TFLOP/s forward on H100, below the 230-335
 * TFLOP/s FlashAttention-2 reaches in isolation (Dao 2023, Fig. 7), because
 * in training it also absorbs RoPE, masking and layout kernels that the
 * model does not list. docs/step.md, "Calibration". */
#define DEFAULT_ATTN_EFF 0.2
/* FlashAttention-2 reaches 35% of the BF16 peak on H100 (Shah et al. 2024,
 * FlashAttention-3, Section 1), the GPU DEFAULT_ATTN_EFF was fitted on; a
 * GPU whose catalog entry gives flash_attn_frac gets the fitted efficiency
 * times flash_attn_frac / 0.35 (its kernels reach a different fraction of a
 * different peak); others keep 0.2. docs/models.md, "Compute". */
#define H100_FLASH_ATTN_FRAC 0.35
/* Training GEMMs reach this fraction of the catalog's MAMF (the best GEMM of
 * a shape sweep, stas00's benchmark): fitted once on the two A100 tables
 * (Narayanan et al. 2021, Korthikanti et al. 2022); docs/step.md. */
#define MAMF_FRACTION 0.9
/* Blackwell's training rates against the kernel benchmarks the catalog gives
 * it (docs/step.md, "Blackwell's generation factors"): FITTED on the one
 * Blackwell step table registered fit, NeMo 25.04's Llama 3 8B FP8 sweep on
 * 2-256 B200 at 8K-1M tokens (validation/step/nemo-25.04-b200-llama3-8b-
 * longseq.csv), whose rows separate the attention core (growing with the
 * sequence) from the rest (not). Grid over attention 1.0-2.5 x and the rest
 * 1.0-1.5 x slower, then 0.05 steps: MAPE there 30.1% at (1, 1), 2.0% at
 * (1.85, 1.35); the GEMM-only variant of the rest gives 2.1% at (1.85,
 * 1.45). The attention factor puts GB200's fused attention at 0.36 of its
 * BF16 peak, 0.79 of cuDNN's own benchmark; the rest's factor (GEMMs and
 * memory-bound kernels 1.35x slower than 0.9 x MAMF and 0.8 of HBM) has no
 * identified mechanism. Every other step table is held out. */
#define BLACKWELL_ATTN_FACTOR 1.85
#define BLACKWELL_REST_SLOWDOWN 1.35
/* Host dispatch per kernel (docs/models.md, "Host dispatch"). From Python,
 * an eager forward op: PyTorch's own measurement of the simplest op with
 * autograd recording is 5-7 us of CPU time before any CUDA launch
 * (pytorch/pytorch#41383: 6.8 us for y = 2*x with requires_grad, 5 us
 * without; ngimel: about half of it the Python binding), and the launch
 * (cudaLaunchKernel, a few us) comes on top: 10 us. From C++ (the autograd
 * engine's backward, a compiled graph's wrapper), dispatch and launch
 * without the interpreter: "4 us per op on CUDA" (pytorch/pytorch#82793,
 * the dispatch overhead PyTorch's profiler maintainers quote). Neither is
 * fitted on a step-time table. */
#define DEFAULT_HOST_PY_OP_S 10e-6
#define DEFAULT_HOST_CPP_OP_S 4e-6
/* A Megatron-Core linear layer's forward on the host, BF16, TP 1, as
 * Transformer Engine's developers measured it (NVIDIA/TransformerEngine#1191,
 * merged 2024-09): the local ColumnParallelLinear 74 us, TE's
 * TEColumnParallelLinear 140 us, 115 us with that PR's optimizations ("many
 * basic PyTorch operations, e.g. getting attributes from torch.Tensor,
 * involve O(1 us) overhead"). A plain torch.nn.Linear forward takes 13.48 us
 * of CPU on a DGX H100 (NVIDIA/TransformerEngine#2053), one op at about
 * DEFAULT_HOST_PY_OP_S. */
#define DEFAULT_HOST_MCORE_LINEAR_S 74e-6
#define DEFAULT_HOST_TE_LINEAR_S 115e-6
/* The training loop's Python host time over the isolated-call measurements
 * above (docs/models.md, "Host dispatch"): FITTED on the DGX H100 rows of
 * Megatron-LM's CI iteration times (validation/step/
 * megatron-ci-functional-small-h100.csv, role fit), where the GPU's work is
 * a few percent of the step and the host's time is the step. Grid 1-12,
 * MAPE there: 1 418.0%, 4 78.6%, 6 28.7%, 7 19.4%, 7.5 18.5%, 8 18.2%,
 * 8.5 19.1%, 9 20.6%, 10 25.3%, 12 35.7%; since the table's rows without
 * sequence parallelism say so (2026-12-08): 7 18.5%, 7.5 17.9%, 8 17.7%,
 * 8.5 18.3%, 9 19.7%, the minimum unmoved. It multiplies every
 * Python-issued host cost (module calls both ways, eager ops, graph
 * launches); C++-issued ops keep host_cpp_op_s. The DGX A100 rows, every
 * other step table and the MoE tables are held out.
 * `workload.host_python_scale` sets it per scenario. */
#define DEFAULT_HOST_PYTHON_SCALE 8.0
/* FlashAttention-2's backward runs 5 GEMMs against the forward's 2 (Dao 2023,
 * Section 3.1.2): it recomputes the scores. */
#define FUSED_ATTN_BWD_RATIO 2.5
/* A causal fused kernel skips the fully masked blocks: half the s x s work. */
#define CAUSAL_FRACTION 0.5

static double g_dim(double x, double half)
{
    return x / (x + half);
}

double cs_gpu_clock_factor(const struct cs_gpu_spec *gpu)
{
    double lim = gpu->power_limit_w, tdp = gpu->tdp_w;
    if (!(isfinite(lim) && lim > 0 && isfinite(tdp) && tdp > 0 && lim < tdp))
        return 1.0;
    return cbrt(lim / tdp);
}

double cs_gpu_host_speed(const struct cs_gpu_spec *gpu)
{
    double s = gpu->host_speed;
    return isfinite(s) && s > 0 ? s : 1.0;
}

/* The FP8 GEMM rate (cs_compute_params.fp8_gemm_rate) of an NVIDIA GPU
 * with FP8 tensor cores: Transformer Engine's measured BF16-over-FP8 GEMM
 * time on its benchmark layer (CS_TE_FP8_OVER_BF16_*: Blackwell for GPUs
 * with block-scaled tensor cores, Hopper otherwise) over the model's own on
 * the same twelve GEMMs with p (whose rate is 1). Other GPUs: 1 (no
 * measurement). */
static double fp8_gemm_rate(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p)
{
    if (strcasecmp(gpu->vendor, "nvidia") != 0 || !(isfinite(gpu->peak_flops[CS_PREC_FP8]) &&
                                                 gpu->peak_flops[CS_PREC_FP8] > 0))
        return 1.0;
    const double t = 15872.0, kn[4][2] = {{4096, 12288}, {4096, 4096}, {4096, 16384}, {16384, 4096}};
    double meas = cs_gpu_block_scaled(gpu) ? CS_TE_FP8_OVER_BF16_BLACKWELL : CS_TE_FP8_OVER_BF16_HOPPER;
    struct cs_compute_params q = *p;
    q.fp8_gemm_rate = 1.0;
    /* the rate divides only the GEMMs' compute time (not their launch or
     * a memory-bound shape), so a few fixed-point steps reach the ratio */
    for (int it = 0; it < 12; it++) {
        double b = 0.0, f = 0.0;
        for (int i = 0; i < 4; i++) {
            double k = kn[i][0], n = kn[i][1];
            b += cs_compute_gemm_s(gpu, &q, CS_PREC_BF16, t, n, k, 1.0) +
                 cs_compute_gemm_s(gpu, &q, CS_PREC_BF16, t, k, n, 1.0) +
                 cs_compute_gemm_s(gpu, &q, CS_PREC_BF16, k, n, t, 1.0);
            f += cs_compute_gemm_s(gpu, &q, CS_PREC_FP8, t, n, k, 1.0) +
                 cs_compute_gemm_s(gpu, &q, CS_PREC_FP8, t, k, n, 1.0) +
                 cs_compute_gemm_s(gpu, &q, CS_PREC_FP8, k, n, t, 1.0);
        }
        if (!(b > 0 && f > 0 && isfinite(b) && isfinite(f)))
            return 1.0;
        double step = meas / (b / f);
        q.fp8_gemm_rate *= step;
        if (fabs(step - 1.0) < 1e-13)
            break;
    }
    return q.fp8_gemm_rate;
}

void cs_compute_params_default(const struct cs_gpu_spec *gpu, struct cs_compute_params *p)
{
    double peak = gpu->peak_flops[CS_PREC_BF16];
    double half = isfinite(gpu->gemm_dim_half) && gpu->gemm_dim_half > 0 ? gpu->gemm_dim_half
                                                                           : DEFAULT_DIM_HALF;
    double g = g_dim(ANCHOR_DIM, half);
    double at_anchor = DEFAULT_EFF_AT_ANCHOR;
    if (isfinite(gpu->mamf_bf16_flops) && gpu->mamf_bf16_flops > 0 && isfinite(peak) &&
        peak > 0)
        at_anchor = MAMF_FRACTION * gpu->mamf_bf16_flops / peak;
    double eff_max = at_anchor / (g * g * g);
    struct cs_compute_params r;
    r.gemm_eff_max = eff_max < 1.0 ? eff_max : 1.0;
    r.gemm_dim_half = half;
    r.mem_eff = DEFAULT_MEM_EFF;
    r.kernel_overhead_s = DEFAULT_KERNEL_OVERHEAD_S;
    r.attn_eff = DEFAULT_ATTN_EFF;
    r.host_py_op_s = DEFAULT_HOST_PY_OP_S;
    r.host_cpp_op_s = DEFAULT_HOST_CPP_OP_S;
    r.host_mcore_linear_s = DEFAULT_HOST_MCORE_LINEAR_S;
    r.host_te_linear_s = DEFAULT_HOST_TE_LINEAR_S;
    r.host_python_scale = DEFAULT_HOST_PYTHON_SCALE;
    if (isfinite(gpu->flash_attn_frac) && gpu->flash_attn_frac > 0)
        r.attn_eff = fmin(1.0, DEFAULT_ATTN_EFF * gpu->flash_attn_frac / H100_FLASH_ATTN_FRAC);
    r.fused_attention = isfinite(peak) && peak > 0;
    /* A power-capped GPU runs its tensor cores at a lower clock. */
    double cf = cs_gpu_clock_factor(gpu);
    r.gemm_eff_max *= cf;
    r.attn_eff *= cf;
    /* The host costs above were measured (and host_python_scale fitted) on
     * DGX H100's Xeon Platinum 8480C: a slower or faster host CPU issues the
     * same operations in proportionally more or less time. */
    double hs = cs_gpu_host_speed(gpu);
    r.host_py_op_s /= hs;
    r.host_cpp_op_s /= hs;
    r.host_mcore_linear_s /= hs;
    r.host_te_linear_s /= hs;
    /* Blackwell (cs_gpu_block_scaled): the generation's fitted factors */
    bool blackwell = cs_gpu_block_scaled(gpu);
    if (blackwell) {
        r.attn_eff = fmin(1.0, r.attn_eff * BLACKWELL_ATTN_FACTOR);
        r.gemm_eff_max /= BLACKWELL_REST_SLOWDOWN;
        r.mem_eff /= BLACKWELL_REST_SLOWDOWN;
    }
    r.mem_reserve_bytes = CS_MEMORY_RESERVE_FIXED_BYTES;
    r.mem_fragmentation = CS_MEMORY_RESERVE_FRACTION;
    r.torch_grouped_mm_slowdown = blackwell ? CS_TORCH_GROUPED_MM_BF16_BLACKWELL : 1.0;
    r.fp8_linear_factor = 1.0;
    r.fp8_gemm_rate = 1.0;
    r.fp8_gemm_rate = fp8_gemm_rate(gpu, &r);
    *p = r;
}

/* Kernels one dense layer launches, forward and backward, by stack (the
 * derivations, kernel by kernel, are in docs/models.md, "Host dispatch").
 * Megatron's stacks call their GEMMs through linear-layer modules whose
 * host time was measured per call (DEFAULT_HOST_*_LINEAR_S), so their four
 * linear layers count as modules and only the other kernels as ops:
 *   megatron-2021 (megatron/model/transformer.py, ParallelTransformerLayer):
 *     forward 4 linear modules (QKV, projection, fc1, fc2) and 11 kernels: 2
 *     fused layernorms, Q K^T (baddbmm), fused scale-mask-softmax, attention
 *     dropout, P V (bmm), the context's permute-contiguous, 2
 *     bias-dropout-adds, the fused bias-GeLU; backward 30: 2 per GEMM-like
 *     kernel (12), 2 per layernorm (4), softmax, dropout, permute, 2
 *     bias-dropout-adds, bias-GeLU (6), 4 bias-gradient reductions and 4
 *     main_grad accumulations.
 *   mcore (Megatron-Core's TE spec): forward 4 TE linear modules (2
 *     LayerNormLinear with their norms, 2 Linear) and 6 kernels: fused RoPE
 *     on q and k, the cuDNN attention kernel, the fused activation, 2
 *     bias-dropout-adds; backward 16: LayerNormLinear 3 each (norm, dgrad,
 *     wgrad), Linear 2 each, RoPE 2, attention 1, activation 1,
 *     bias-dropout-adds 2 (bias gradients and main_grad accumulation fused
 *     into TE's GEMMs).
 *   torchtitan (torchtitan/models/llama3/model.py TransformerBlock under
 *     torch.compile, as its benchmark tables run): forward 13: 7 matmuls (wq,
 *     wk, wv, wo, w1, w3, w2 stay cuBLAS calls), SDPA's flash kernel, 5 fused
 *     Triton kernels (2 RMSNorms with their residual adds, RoPE, SiLU x gate,
 *     the last residual add); backward 23: 14 matmuls, SDPA backward, 8 fused
 *     Triton kernels. Issued by Inductor's wrapper, not op by op from Python.
 *   composer (llm-foundry MPTBlock, low_precision_layernorm, triton flash
 *     attention): forward 14: 2 norms of 3 kernels (the autocast casts of
 *     weight and bias, the norm), 4 linear GEMMs, the flash kernel, GeLU, 2
 *     residual adds; backward 26: 8 GEMMs, 2 x 2 norm and 2 x 2 cast
 *     backwards, the flash backward with its preprocessing kernel (2), GeLU,
 *     2 residual adds, 4 bias gradients.
 *   custom: mcore's 12 kernels forward and 16 backward, each as one op and
 *     no module overhead (nothing preset: the floor least likely to bind).
 * The backward's host time is counted per kernel from C++ for every stack:
 * Transformer Engine's and Megatron's autograd Functions run Python in their
 * backward too, for which no measurement was found (a lower bound). */
void cs_compute_host_ops(const struct cs_workload *w, bool moe, struct cs_host_ops *out)
{
    /* custom: the attention block's 7 of the 12 kernels forward (norm, QKV,
     * RoPE q and k, attention, projection, bias-dropout-add) and 9 of the
     * 16 backward (QKV 3 with its norm, projection 2, RoPE 2, attention,
     * bias-dropout-add), as mcore's below */
    struct cs_host_ops r = {12.0, 16.0, 0.0, false, true, 7.0, 9.0, 0.0, 0.0, 0.0, 0.0};
    bool fsdp_hooks = false;
    switch (w->stack) {
    case CS_STACK_MEGATRON_2021:
    case CS_STACK_MEGATRON_DEEPSPEED:
        r.fwd = 11.0;
        r.bwd = 30.0;
        r.linears = 4.0;
        /* megatron-deepspeed runs the same layer code; after each
         * micro-batch's backward DeepSpeed's BF16_Optimizer.update_hp_grads
         * loops over the parameters in Python, `hp_grad.data.add_(lp.grad.
         * data.to(hp_grad.dtype))`: a cast and an add per tensor (runtime/
         * bf16_optimizer.py, microsoft/DeepSpeed@735406e5, 2022-06) */
        if (w->stack == CS_STACK_MEGATRON_DEEPSPEED)
            r.py_bwd = 2.0 * cs_layer_param_tensors(&w->model);
        break;
    case CS_STACK_MCORE_2024:
        r.fwd = 6.0;
        r.linears = 4.0;
        r.te = true;
        /* the attention block: LayerNormLinear QKV and the projection (2
         * modules), RoPE on q and k, the attention kernel and its
         * bias-dropout-add forward; backward QKV 3, projection 2, RoPE 2,
         * attention 1, bias-dropout-add 1 */
        r.attn_fwd = 4.0;
        r.attn_linears = 2.0;
        break;
    case CS_STACK_TORCHTITAN:
        r.fwd = 13.0;
        r.bwd = 23.0;
        r.py_fwd = false;
        if (cs_workload_torch_eager(w)) {
            /* eager (torch_compile off; models/llama/model.py at
             * 1ea476e9f): forward 23 kernels, each issued from Python: 2
             * norms, wq wk wv, RoPE's 3 per tensor on q and k (.float(),
             * the complex product, .type_as), repeat_kv's 2 copies, SDPA,
             * the .contiguous() after it, wo, 2 residual adds, w1, w3,
             * SiLU, the gate product, w2; backward 33: 14 matmuls, SDPA,
             * RoPE 6, repeat_kv 2, the copy, SiLU and the product 3, the
             * norms 2 each (FusedRMSNorm's Triton kernels), 2 gradient
             * adds at the residual branches. Eager norms (norm_kernel
             * eager: 8 ops each way instead of 1 forward, 10 instead of 2
             * backward) add 14 and 16. Views and reshapes are not counted. */
            r.fwd = 23.0;
            r.bwd = 33.0;
            r.py_fwd = true;
            if (cs_workload_eager_norm(w)) {
                r.fwd += 14.0;
                r.bwd += 16.0;
            }
        }
        fsdp_hooks = true;
        break;
    case CS_STACK_COMPOSER:
        r.fwd = 14.0;
        r.bwd = 26.0;
        fsdp_hooks = true;
        break;
    case CS_STACK_CUSTOM:
    case CS_STACK_COUNT:
    default:
        break;
    }
    if (moe && cs_model_is_moe(&w->model)) {
        /* router GEMM, top-k and softmax, permute, 2 grouped GEMMs, the
         * experts' activation, unpermute (7); each backward twice that
         * (the routed experts replace the dense MLP's 2 GEMMs and activation);
         * the router's GEMM and top-k (its backward: the GEMM's two and the
         * softmax's one) are what moe_router captures */
        r.fwd += 4.0;
        r.bwd += 8.0;
        r.router_fwd = 2.0;
        r.router_bwd = 3.0;
        const struct cs_moe_shape *mo = &w->model.moe;
        if (w->stack == CS_STACK_MCORE_2024) {
            /* Megatron-Core's token dispatchers issue more than the permute
             * and unpermute above (core_v0.15.0,
             * transformer/moe/token_dispatcher.py), each from Python:
             *   alltoall (MoEAlltoAllTokenDispatcher, dropless, ep > 1):
             *   preprocess, 8: the routing map's sum and its cast, the
             *   per-rank split sum, the token counts' all-gather over the
             *   EP group, the local experts' slice copy, the per-rank and
             *   per-expert sums (what the moe_preprocess graph scope
             *   holds); the device-to-host copies of the split sizes and
             *   counts and the stream synchronize, 5
             *   (_maybe_dtoh_and_synchronize); two all_to_all calls to
             *   dispatch (tokens, probabilities) and one to combine, and
             *   sort_chunks_by_idxs each way, 5: 18 forward; backward the
             *   three all-to-alls, the two sorts and the all-gather's
             *   reduce-scatter, 6;
             *   flex (_DeepepManager, DeepEP or HybridEP): the top-k of the
             *   routing probabilities and their fp32 cast, 2 (preprocess),
             *   the fused dispatch and combine, 2, the received indices
             *   turned into a multi-hot map (_indices_to_multihot: two
             *   zeros, an arange, a sum, a repeat_interleave and the
             *   scatter, 6) and the token count's .item(), 1: 11 forward;
             *   backward the dispatch's and combine's, 2.
             * Aux-loss, z-loss and router-jitter ops depend on settings the
             * workload does not carry and are left out (a lower bound). */
            bool a2a = mo->dispatcher == CS_MOE_DISPATCH_ALLTOALL;
            r.fwd += a2a ? 18.0 : 11.0;
            r.bwd += a2a ? 6.0 : 2.0;
            r.router_fwd += a2a ? 8.0 : 2.0;   /* the preprocessing moe_preprocess captures */
        }
        if (w->fused_grouped_mlp) {
            /* the activation inside the grouped GEMMs */
            r.fwd -= 1.0;
            r.bwd -= 2.0;
        } else {
            /* cs_compute_moe_act_bytes: the clamp's chunk, two clamps and
             * cat; fc2's bias as two splits, a multiply and an add per
             * local expert, and the cat (each backward once more) */
            if (mo->glu_clamp > 0 && w->model.activation == CS_ACT_SWIGLU) {
                r.fwd += 3.0;
                r.bwd += 3.0;
            }
            if (mo->expert_bias) {
                double e_loc = (double)mo->experts / (w->par.ep > 0 ? w->par.ep : 1);
                r.fwd += 2.0 * e_loc + 3.0;
                r.bwd += 2.0 * e_loc + 3.0;
            }
        }
    }
    /* an activation of several unfused kernels (squared-relu: relu, then
     * pow) issues the extra ones each way, for the dense MLP or the
     * experts alike */
    if (!(moe && cs_model_is_moe(&w->model) && w->fused_grouped_mlp)) {
        double extra = cs_activation_kernels(w->model.activation) - 1.0;
        r.fwd += extra;
        r.bwd += extra;
    }
    /* Megatron-Core's unfused RoPE: 11 more ops forward per tensor (q, k),
     * 6 more backward (cs_compute_rope_unfused), in the attention block */
    if (cs_workload_rope_unfused(w)) {
        r.fwd += 2.0 * CS_ROPE_UNFUSED_FWD_KERNELS;
        r.bwd += 2.0 * CS_ROPE_UNFUSED_BWD_KERNELS;
        r.attn_fwd += 2.0 * CS_ROPE_UNFUSED_FWD_KERNELS;
        r.attn_bwd += 2.0 * CS_ROPE_UNFUSED_BWD_KERNELS;
    }
    /* one call per TP collective (compute.c's tp_collectives: 2 each way
     * without sequence parallelism, 4 with it) */
    if (w->par.tp > 1) {
        double c = w->par.sp ? 4.0 : 2.0;
        r.fwd += c;
        r.bwd += c;
        r.attn_fwd += c / 2.0;   /* the attention block's pair */
        r.attn_bwd += c / 2.0;
    }
    /* FSDP's per-layer unit (PyTorch FSDP1 and FSDP2): forward all-gather
     * with its copy-in and copy-out; backward all-gather again (full shard),
     * reduce-scatter with its copies */
    if (fsdp_hooks && cs_memory_shards_grads(w->par.fsdp)) {
        r.fwd += 3.0;
        r.bwd += 6.0;
    }
    *out = r;
}

/* Graph launches per layer each way with w->cuda_graphs: Transformer
 * Engine's per-layer scopes capture the attention and the MLP parts
 * (Megatron-Bridge docs, "CUDA Graphs": cuda_graph_scope attn, mlp). Each
 * graphed callable is called from Python like one eager op (its forward
 * from the module, its backward from the autograd Function), so a launch
 * costs host_py_op_s. */
#define CS_HOST_GRAPHS_PER_LAYER 2.0

void cs_compute_host_layer(const struct cs_workload *w, const struct cs_compute_params *p,
                           bool moe, double *fwd_s, double *bwd_s)
{
    double k = cs_compute_host_python_scale(p);
    if (w->cuda_graphs && w->cuda_graph_scope == CS_GRAPH_SCOPE_ITERATION) {
        *fwd_s = *bwd_s = 0.0;   /* one graph for the step */
        return;
    }
    /* a transformer layer has no Mamba mixer: the mamba scope captures
     * nothing of it, attn+mamba what attn does */
    bool graphs = w->cuda_graphs && w->cuda_graph_scope != CS_GRAPH_SCOPE_MAMBA;
    if (graphs && !cs_graph_scope_per_module(w->cuda_graph_scope)) {
        *fwd_s = CS_HOST_GRAPHS_PER_LAYER * k * p->host_py_op_s;
        *bwd_s = CS_HOST_GRAPHS_PER_LAYER * k * p->host_py_op_s;
        return;
    }
    struct cs_host_ops ops;
    cs_compute_host_ops(w, moe, &ops);
    if (graphs) {
        /* attn scope: the attention block one graph each way, an MoE
         * layer's router and preprocessing another (Megatron-Core's
         * cuda_graph_scope attn, moe_router, moe_preprocess); moe_router
         * scope: only the latter; the rest as issued eagerly */
        bool a = cs_graph_scope_has_attn(w->cuda_graph_scope);
        bool m = moe && cs_model_is_moe(&w->model) && cs_graph_scope_has_router(w->cuda_graph_scope);
        double launches = (a ? 1.0 : 0.0) + (m ? 1.0 : 0.0);
        double lin = ops.linears - (a ? ops.attn_linears : 0.0);
        double f = ops.fwd - (a ? ops.attn_fwd : 0.0) - (m ? ops.router_fwd : 0.0);
        double b = ops.bwd - (a ? ops.attn_bwd : 0.0) - (m ? ops.router_bwd : 0.0);
        double mod_e = (lin > 0 ? lin : 0.0) * (ops.te ? p->host_te_linear_s : p->host_mcore_linear_s);
        double g = launches * k * p->host_py_op_s;
        *fwd_s = g + k * mod_e + (f > 0 ? f : 0.0) * (ops.py_fwd ? k * p->host_py_op_s : p->host_cpp_op_s);
        *bwd_s = g + k * mod_e + (b > 0 ? b : 0.0) * p->host_cpp_op_s +
                 ops.py_bwd * k * p->host_py_op_s;
        return;
    }
    /* The linear modules' autograd Functions run Python both ways
     * (Transformer Engine's _Linear / _LayerNormLinear.backward, Megatron's
     * LinearWithGradAccumulationAndAsyncCommunication.backward): one module
     * call's host time each way. */
    double mod = ops.linears * (ops.te ? p->host_te_linear_s : p->host_mcore_linear_s);
    *fwd_s = k * mod + ops.fwd * (ops.py_fwd ? k * p->host_py_op_s : p->host_cpp_op_s);
    *bwd_s = k * mod + ops.bwd * p->host_cpp_op_s + ops.py_bwd * k * p->host_py_op_s;
}

bool cs_compute_block_graphed(const struct cs_workload *w, enum cs_block kind)
{
    if (!w->cuda_graphs)
        return false;
    enum cs_graph_scope sc = w->cuda_graph_scope;
    bool layer = !cs_graph_scope_per_module(sc);
    switch (kind) {
    case CS_BLOCK_ATTN:
        return layer || cs_graph_scope_has_attn(sc);
    case CS_BLOCK_MOE:   /* its router and preprocessing */
        return layer || cs_graph_scope_has_router(sc);
    case CS_BLOCK_MAMBA:
        return layer || cs_graph_scope_has_mamba(sc);
    case CS_BLOCK_LAYER:
    case CS_BLOCK_MLP:   /* Transformer Engine's mlp scope: only per layer */
    case CS_BLOCK_COUNT:
    default:
        return layer;
    }
}

double cs_compute_host_moe_pre(const struct cs_workload *w, const struct cs_compute_params *p)
{
    if (w == NULL || p == NULL || !cs_model_is_moe(&w->model))
        return 0.0;
    if (w->cuda_graphs && w->cuda_graph_scope == CS_GRAPH_SCOPE_ITERATION)
        return 0.0;
    /* a captured router and preprocessing: the graph's launch, issued from
     * Python before the synchronization (cs_compute_host_layer's launch) */
    if (cs_compute_block_graphed(w, CS_BLOCK_MOE))
        return cs_compute_host_python_scale(p) * p->host_py_op_s;
    struct cs_host_ops ops;
    cs_compute_host_ops(w, true, &ops);
    return ops.router_fwd * (ops.py_fwd ? cs_compute_host_python_scale(p) * p->host_py_op_s : p->host_cpp_op_s);
}

void cs_compute_host_block(const struct cs_workload *w, const struct cs_compute_params *p, enum cs_block kind,
                           double *fwd_s, double *bwd_s)
{
    if (kind == CS_BLOCK_LAYER || kind >= CS_BLOCK_COUNT) {
        cs_compute_host_layer(w, p, false, fwd_s, bwd_s);
        return;
    }
    double k = cs_compute_host_python_scale(p);
    if (w->cuda_graphs && w->cuda_graph_scope == CS_GRAPH_SCOPE_ITERATION) {
        *fwd_s = *bwd_s = 0.0;
        return;
    }
    struct cs_host_ops ops;
    cs_compute_host_ops(w, kind == CS_BLOCK_MOE, &ops);
    double lin, f, b;
    switch (kind) {
    case CS_BLOCK_ATTN:
        lin = ops.attn_linears;
        f = ops.attn_fwd;
        b = ops.attn_bwd;
        break;
    case CS_BLOCK_MAMBA:
        /* Megatron-Core's MambaMixer: in_proj (a LayerNormLinear) and
         * out_proj modules; forward the convolution, the scan's five
         * kernels, the gated norm and the residual add (8); backward the
         * convolution again and its gradient, about ten scan kernels, the
         * norm's and the add's (14) */
        lin = 2.0;
        f = 8.0;
        b = 14.0;
        break;
    default: /* MLP, MoE: the layer's ops less its attention part */
        lin = ops.linears - ops.attn_linears;
        f = ops.fwd - ops.attn_fwd;
        b = ops.bwd - ops.attn_bwd;
        break;
    }
    double g = 0.0;
    if (cs_compute_block_graphed(w, kind)) {
        /* Transformer Engine's per-module scopes (attn, mamba, moe_router
         * and moe_preprocess) capture a block as one graph; an MoE block's
         * dispatch and experts stay eager */
        g = k * p->host_py_op_s;
        if (kind == CS_BLOCK_MOE) {
            f -= ops.router_fwd;
            b -= ops.router_bwd;
        } else {
            lin = f = b = 0.0;
        }
    }
    double mod = (lin > 0 ? lin : 0.0) * (ops.te ? p->host_te_linear_s : p->host_mcore_linear_s);
    *fwd_s = g + k * mod + (f > 0 ? f : 0.0) * (ops.py_fwd ? k * p->host_py_op_s : p->host_cpp_op_s);
    *bwd_s = g + k * mod + (b > 0 ? b : 0.0) * p->host_cpp_op_s;
}

double cs_compute_host_python_scale(const struct cs_compute_params *p)
{
    return isfinite(p->host_python_scale) && p->host_python_scale >= 0 ? p->host_python_scale : 1.0;
}

double cs_compute_gemm_eff(const struct cs_compute_params *p, double m, double n, double k)
{
    double h = p->gemm_dim_half;
    return p->gemm_eff_max * g_dim(m, h) * g_dim(n, h) * g_dim(k, h);
}

/* The K-dimension's half-width over the BF16 one for a precision's tensor-core
 * instruction: an MMA consumes 32 bytes of K per row whatever the element
 * width (PTX ISA: wgmma and tcgen05.mma take K = 16 for kind::f16, 32 for
 * kind::f8f6f4, 64 for kind::mxf4nvf4), so an 8-bit GEMM needs twice the K
 * to fill the same pipeline and a 4-bit one four times. Fitted against
 * nothing: OpenXLA's sm_100 table agrees (FP8 E4M3, 125 single GEMMs: 9.7%
 * with one half-width, 7.8% with K's doubled; docs/models.md, 2.2). */
static double k_half_scale(enum cs_precision prec)
{
    switch (prec) {
    case CS_PREC_FP8:
    case CS_PREC_MXFP8: return 2.0;
    case CS_PREC_NVFP4: return 4.0;
    default: return 1.0;
    }
}

double cs_compute_gemm_eff_prec(const struct cs_compute_params *p, enum cs_precision prec,
                                double m, double n, double k)
{
    double eff = cs_compute_gemm_eff(p, m, n, k);
    double ks = k_half_scale(prec), h = p->gemm_dim_half;
    if (ks == 1.0 || !(h > 0))
        return eff;
    /* gemm_eff_max is anchored at an 8192^3 GEMM: keep that anchor */
    return eff * g_dim(k, ks * h) / g_dim(k, h) * g_dim(ANCHOR_DIM, h) /
           g_dim(ANCHOR_DIM, ks * h);
}

/* One kernel moving `bytes` through HBM at `share` of its peak, plus its floor. */
static double hbm_kernel_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p, double bytes,
                           double share)
{
    if (!(bytes > 0))
        return 0.0;
    return bytes / (gpu->hbm_bw_bytes_per_s * share) + p->kernel_overhead_s;
}

double cs_compute_mem_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                        double bytes)
{
    return hbm_kernel_s(gpu, p, bytes, p->mem_eff);
}

double cs_compute_ssd_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p, double bytes)
{
    return hbm_kernel_s(gpu, p, bytes, CS_SSD_HBM_FRAC);
}

double cs_compute_gemm_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                         enum cs_precision prec, double m, double n, double k, double batch)
{
    if (!(m > 0 && n > 0 && k > 0 && batch > 0))
        return 0.0;
    double peak = (unsigned)prec < CS_PREC_COUNT ? gpu->peak_flops[prec] : NAN;
    if (!(isfinite(peak) && peak > 0))
        return INFINITY;
    double flops = 2.0 * m * n * k * batch;
    double t_flops = flops / (peak * cs_compute_gemm_eff_prec(p, prec, m, n, k));
    if (prec == CS_PREC_FP8 && isfinite(p->fp8_gemm_rate) && p->fp8_gemm_rate > 0)
        t_flops /= p->fp8_gemm_rate;
    double bytes = batch * ((m * k + k * n) * cs_precision_bytes(prec) +
                            m * n * cs_workload_act_bytes(prec));
    double t_bytes = bytes / (gpu->hbm_bw_bytes_per_s * p->mem_eff);
    return (t_flops > t_bytes ? t_flops : t_bytes) + p->kernel_overhead_s;
}

/* The per-GPU dimensions every cost below uses. */
struct dims {
    double b, s, sq, h, f, v, hd;   /* micro-batch, sequence, local queries, widths */
    double dv;                      /* value head width (hd: query/key head width) */
    double win_frac, win;           /* share of sliding-window layers, their window */
    double a_g, kv_g;               /* query and kv heads on this GPU */
    double tp, cp;
    double tokens;                  /* b sq: rows of every linear-layer GEMM */
    double n_h;                     /* elements of a b x sq x h tensor as stored (/tp with SP) */
    double e;                       /* activation bytes */
    double hd_factor;               /* fused attention's speed at this head width, over 128's;
                                       times flash2_over_cudnn for FlashAttention-2 where given */
    enum cs_attn_kernel len_kernel; /* whose length curve the fused kernel follows (auto: the mean) */
    bool sp;
    bool fp8_attn, fp8_attn_mx;     /* FP8 attention core; block-scaled (mxfp8/nvfp4) or tensor-scaled */
    enum cs_precision prec, attn_prec;
};

static cs_status get_dims(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                          const struct cs_compute_params *p, struct dims *d)
{
    if (gpu == NULL || p == NULL || cs_workload_check(w) != CS_OK)
        return CS_EINVAL;
    if (!(isfinite(gpu->hbm_bw_bytes_per_s) && gpu->hbm_bw_bytes_per_s > 0) ||
        !(p->gemm_eff_max > 0 && p->mem_eff > 0 && p->gemm_dim_half >= 0 && p->attn_eff > 0 &&
          p->kernel_overhead_s >= 0))
        return CS_EINVAL;
    const struct cs_model_shape *m = &w->model;
    if ((unsigned)w->precision >= CS_PREC_COUNT)
        return CS_EINVAL;
    struct dims r;
    r.prec = w->precision;
    /* fp8, mxfp8 and nvfp4 recipes (Transformer Engine) run the attention
     * core in bf16. */
    r.attn_prec = cs_precision_quantized(r.prec) ? CS_PREC_BF16 : r.prec;
    /* fp8_attention: the kernel at its FP8 speed over bf16's (the rate
     * stays bf16's times cs_compute_attn_fp8_factor) */
    r.fp8_attn = w->fp8_attention && cs_precision_quantized(r.prec);
    r.fp8_attn_mx = cs_precision_block_scaled(r.prec);
    double peak = gpu->peak_flops[r.prec], peak_a = gpu->peak_flops[r.attn_prec];
    if (!(isfinite(peak) && peak > 0 && isfinite(peak_a) && peak_a > 0))
        return CS_EUNSUPPORTED;
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    r.b = w->micro_batch;
    r.s = m->seq_len;
    r.tp = w->par.tp;
    r.cp = w->par.cp;
    r.sq = r.s / r.cp;
    r.h = m->hidden;
    r.f = m->ffn_hidden;
    r.v = m->vocab;
    r.hd = cs_model_qk_head_dim(m);
    r.dv = cs_model_v_head_dim(m);
    r.win = m->sliding_window;
    r.win_frac = m->sliding_window > 0 && m->sliding_every > 0 && m->sliding_window < m->seq_len
                     ? 1.0 / m->sliding_every
                     : 0.0;
    r.a_g = (double)m->heads / w->par.tp;
    /* Fewer kv heads than tp ranks: each rank keeps (a copy of) one. */
    r.kv_g = kv >= w->par.tp ? (double)kv / w->par.tp : 1.0;
    r.sp = w->par.sp && w->par.tp > 1;
    r.tokens = r.b * r.sq;
    r.n_h = r.tokens * r.h / (r.sp ? r.tp : 1.0);
    r.e = cs_workload_act_bytes(r.prec);
    /* Transformer Engine's cuDNN kernels on GPUs with FP8 tensor cores
     * (Hopper and later; attention_kernel cudnn, the mcore stack's),
     * FlashAttention-2 otherwise */
    enum cs_attn_kernel ak = cs_workload_attention_kernel(w);
    bool hopper_fused = ak == CS_ATTN_KERNEL_CUDNN && isfinite(gpu->peak_flops[CS_PREC_FP8]) &&
                        gpu->peak_flops[CS_PREC_FP8] > 0;
    r.hd_factor = cs_compute_attn_hd_factor(r.hd, hopper_fused);
    /* the length curves were measured on Hopper: cuDNN's where Transformer
     * Engine runs it there, PyTorch SDPA's FlashAttention-2 for flash2,
     * the two kernels' mean otherwise */
    r.len_kernel = hopper_fused ? CS_ATTN_KERNEL_CUDNN
                   : (ak == CS_ATTN_KERNEL_FLASH2 || ak == CS_ATTN_KERNEL_TRITON) ? CS_ATTN_KERNEL_FLASH2
                                                                                 : CS_ATTN_KERNEL_AUTO;
    /* The fitted efficiency is cuDNN's (the Megatron-Core H100 table ran
     * Transformer Engine, which picks cuDNN on sm90), kernel and the rest
     * it absorbs: FlashAttention-2's kernel runs at the GPU's measured
     * fraction of cuDNN's (H100: 0.62), the rest as it is
     * (cs_compute_attn_flash2_factor); MPT's Triton kernel, unbenchmarked,
     * at that fraction over the whole time (docs/models.md 2.2) */
    if ((ak == CS_ATTN_KERNEL_FLASH2 || ak == CS_ATTN_KERNEL_TRITON) &&
        isfinite(gpu->flash2_over_cudnn) && gpu->flash2_over_cudnn > 0)
        r.hd_factor *= ak == CS_ATTN_KERNEL_FLASH2 ? cs_compute_attn_flash2_factor(gpu->flash2_over_cudnn)
                                                   : gpu->flash2_over_cudnn;
    *d = r;
    return CS_OK;
}

/* The attention core (scores, softmax, dropout, P V) of one layer: forward
 * time, backward time, FLOPs in the convention, forward HBM bytes of its
 * memory-bound kernels. */
struct attn_cost {
    double fwd_s, bwd_s, flops, bytes;
};

/* Fused attention's speed against the sequence length it runs on, relative
 * to 4,096 tokens (the Megatron-Core H100 table's length, where attn_eff
 * was fitted), forward and backward: the mean of FlashAttention-2's and
 * cuDNN's published H100 curves (Shah et al. 2024, FlashAttention-3, Fig. 5
 * (causal forward, head dimension 128: FA2 191/260/298/319/333/335 and
 * cuDNN 315/410/484/518/529/539 TFLOP/s at 512-16K) and Fig. 6 (backward:
 * FA2 214/260/291/310/318/322, cuDNN 305/408/465/499/518/516)), each
 * normalized at 4K; the two kernels' shapes agree within 3%. Between the
 * points log-linear in the length; flat beyond them. docs/models.md. */
static const double cs__attn_len[] = {512, 1024, 2048, 4096, 8192, 16384};
static const double cs__attn_fwd_rel[] = {0.603, 0.803, 0.934, 1.0, 1.033, 1.045};
static const double cs__attn_bwd_rel[] = {0.651, 0.828, 0.935, 1.0, 1.032, 1.036};

/* Fused attention's speed against the query/key head width, relative to
 * 128 (where attn_eff was fitted), from the kernels' published causal
 * curves (validation/kernels/flash_attention_repo_figures_from_plot.csv,
 * FlashAttention-3 paper Fig. 5 and FlashAttention-2 paper Fig. 4, read off
 * the plots; ratios at 4K-16K tokens): cuDNN on H100, forward, head width 64
 * at 0.70-0.72 of 128 and 256 at 0.93-0.94 (FlashAttention-3: 0.73-0.77
 * and 1.04-1.06); FlashAttention-2, forward and backward, 64 at 0.87-0.89
 * of 128 on H100 and 0.90 on A100, 256 at 0.89-0.92 (H100 forward).
 * Log-linear in the width between 64, 128 and 256, flat outside. */
double cs_compute_attn_hd_factor(double hd, bool hopper_fused)
{
    const double r64 = hopper_fused ? 0.71 : 0.88, r256 = hopper_fused ? 0.94 : 0.90;
    if (!(hd > 64.0))
        return r64;
    if (hd >= 256.0)
        return r256;
    if (hd <= 128.0)
        return r64 + (1.0 - r64) * log2(hd / 64.0);
    return 1.0 + (r256 - 1.0) * log2(hd / 128.0);
}

/* cuDNN's fused attention on H100 SXM5 at 4,096 tokens, causal, head width
 * 128, bf16 (Shah et al. 2024, FlashAttention-3, Figs. 5-6): 518 TFLOP/s
 * forward, 499 backward; over a forward and its backward (2.5 times the
 * forward's FLOPs) 3.5 / (1/518 + 2.5/499) = 504.3 TFLOP/s. The fitted
 * DEFAULT_ATTN_EFF (0.2 of H100's 989 TFLOP/s, 197.8) is the time of that
 * kernel and of what the model does not list beside it, so the kernel is
 * 197.8 / 504.3 = 0.392 of it. */
#define CUDNN_H100_4K_FWD 518e12
#define CUDNN_H100_4K_BWD 499e12
#define H100_BF16_PEAK 989e12

double cs_compute_attn_flash2_factor(double ratio)
{
    if (!(isfinite(ratio) && ratio > 0))
        return 1.0;
    double kernel = (1.0 + FUSED_ATTN_BWD_RATIO) /
                    (1.0 / CUDNN_H100_4K_FWD + FUSED_ATTN_BWD_RATIO / CUDNN_H100_4K_BWD);
    double share = DEFAULT_ATTN_EFF * H100_BF16_PEAK / kernel;
    if (share > 1.0)
        share = 1.0;
    return 1.0 / (share / ratio + (1.0 - share));
}

/* Log-linear between points one octave apart, flat outside. */
static double octave_curve(const double *len_pts, const double *rel, int n, double len)
{
    if (!(len > len_pts[0]))
        return rel[0];
    if (len >= len_pts[n - 1])
        return rel[n - 1];
    int i = 0;
    while (len > len_pts[i + 1])
        i++;
    double t = log2(len / len_pts[i]); /* the points are one octave apart */
    return rel[i] + t * (rel[i + 1] - rel[i]);
}

double cs_compute_attn_seq_factor(double len, bool backward)
{
    const int n = (int)(sizeof cs__attn_len / sizeof cs__attn_len[0]);
    return octave_curve(cs__attn_len, backward ? cs__attn_bwd_rel : cs__attn_fwd_rel, n, len);
}

/* The same by kernel, causal, head width 128, normalized at 4,096 tokens,
 * 512 to 65,536, flat outside.
 * cuDNN, from cuDNN's own training-SDPA benchmark on Llama 3.1's attention
 * shape (64 query heads over 8 kv heads, bf16, top-left causal; NVIDIA/
 * cudnn-frontend@3929da2ef benchmark/sdpa_benchmark_training/results):
 *   Hopper, H200 with cuDNN 9.19 (h200_919_only_cudnn/llama3.1_20260227_
 *   034703.csv, batch 1, each pass timed on its own: fwd_time_ms 0.142,
 *   0.465, 1.708, 6.531, 25.566 and bwd_time_ms 0.464, 1.450, 5.083,
 *   19.002, 75.688 at 2K-32K), so a speed (L^2 / t) of 0.819, 1, 1.089,
 *   1.139 and 1.164 of 4K's forward and 0.781, 1, 1.141, 1.221 and 1.226
 *   backward (until 2026-12-07 the backward's curve stood for both
 *   passes, the backward times read as the two passes together);
 *   Blackwell (cs_gpu_block_scaled), cuDNN 9.22, batch 2, the mean of GB200
 *   (llama3.1/gb200/llama3.1_20260424_100750.csv: forward 1097/1408/1574/
 *   1708/1622, backward 885/1148/1332/1328/1226 TFLOP/s at 2K-32K) and GB300
 *   (llama3.1/gb300/..._100757.csv: 1373/1703/1856/1915/1953 and 967/1248/
 *   1435/1507/1490): forward 0.793/1/1.104/1.169/1.149, backward
 *   0.773/1/1.155/1.182/1.131.
 * These replace the FlashAttention-3 paper's cuDNN curve (Shah et al. 2024,
 * Figs. 5-6, cuDNN of early 2024 at 16 heads: 0.934 at 2K, 1.08 at 16K),
 * which current cuDNN on the shape current models use does not follow.
 * Below 2K (not benchmarked there) the paper's ratios to its own 2K point:
 * 512 and 1K at 0.608/0.934 and 0.792/0.934 of 2K forward, 0.611/0.932 and
 * 0.818/0.932 backward.
 * FlashAttention-2: up to 4,096 the FlashAttention-3 paper's curves
 * (191/260/298/319 and 214/260/291/310 TFLOP/s at 512-4K); from 4,096 on
 * NVIDIA/cudnn-frontend@505fcfe benchmark/benchmark_results.csv
 * (validation/kernels/text_tables.csv), PyTorch SDPA's FlashAttention-2
 * backend at 4K-64K tokens, 16 heads, bf16, on Hopper: forward 314.1/325.1/
 * 324.8/345.3/342.7 and backward 248.8/277.4/305.2/317.3/323.2 TFLOP/s.
 * PyTorch's FlashAttention-2 backward keeps gaining with length (+30% at
 * 64K; TorchBench's tritonbench c0409aa measured +33% from 4K to 16K),
 * unlike the FlashAttention repository's own build in the FlashAttention-3
 * paper (+4%), so the PyTorch runs are the ones the flash2 kernel
 * (torchtitan's, Composer's SDPA) follows. */
static const double cs__attn_len8[] = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const double cs__cudnn_hop_fwd[] = {0.53292, 0.69420, 0.81866, 1.0, 1.08899, 1.13918, 1.16405, 1.16405};
static const double cs__cudnn_hop_bwd[] = {0.51218, 0.68569, 0.78125, 1.0, 1.14106, 1.22092, 1.22609, 1.22609};
static const double cs__cudnn_bw_fwd[] = {0.51599, 0.67215, 0.79267, 1.0, 1.10387, 1.16878, 1.14940, 1.14940};
static const double cs__cudnn_bw_bwd[] = {0.50667, 0.67833, 0.77287, 1.0, 1.15506, 1.18216, 1.13093, 1.13093};
static const double cs__fa2_fwd[] = {0.599, 0.815, 0.934, 1.0, 1.035, 1.034, 1.099, 1.091};
static const double cs__fa2_bwd[] = {0.690, 0.839, 0.939, 1.0, 1.115, 1.227, 1.275, 1.299};

/* A full (unmasked) block's speed over a causal one of the same length,
 * forward and backward together, from the same cudnn-frontend run at
 * 4K-64K (non-causal over causal TFLOP/s: cuDNN 550.1/467.9, 563.7/490.3,
 * 564.5/520.3, 556.0/519.6, 552.9/520.4; PyTorch SDPA's FlashAttention-2
 * 303.7/264.5, 316.6/289.6, 321.3/310.5, 322.2/324.8, 330.2/328.5): a
 * causal kernel loses time on the diagonal tiles it masks, less at longer
 * lengths. Below 4K the 4K ratio; the mean of the two for other kernels. */
static const double cs__nc_len[] = {4096, 8192, 16384, 32768, 65536};
static const double cs__nc_cudnn[] = {1.176, 1.150, 1.085, 1.070, 1.062};
static const double cs__nc_fa2[] = {1.148, 1.093, 1.035, 0.992, 1.005};

double cs_compute_attn_noncausal_ratio(enum cs_attn_kernel k, double len)
{
    const int n = (int)(sizeof cs__nc_len / sizeof cs__nc_len[0]);
    if (k == CS_ATTN_KERNEL_CUDNN)
        return octave_curve(cs__nc_len, cs__nc_cudnn, n, len);
    if (k == CS_ATTN_KERNEL_FLASH2)
        return octave_curve(cs__nc_len, cs__nc_fa2, n, len);
    return 0.5 * (octave_curve(cs__nc_len, cs__nc_cudnn, n, len) +
                  octave_curve(cs__nc_len, cs__nc_fa2, n, len));
}

double cs_compute_attn_len_factor(enum cs_attn_kernel k, double len, bool backward,
                                  bool blackwell)
{
    const int n = (int)(sizeof cs__attn_len8 / sizeof cs__attn_len8[0]);
    switch (k) {
    case CS_ATTN_KERNEL_CUDNN:
        if (blackwell)
            return octave_curve(cs__attn_len8, backward ? cs__cudnn_bw_bwd : cs__cudnn_bw_fwd, n, len);
        return octave_curve(cs__attn_len8, backward ? cs__cudnn_hop_bwd : cs__cudnn_hop_fwd, n, len);
    case CS_ATTN_KERNEL_FLASH2:
        return octave_curve(cs__attn_len8, backward ? cs__fa2_bwd : cs__fa2_fwd, n, len);
    case CS_ATTN_KERNEL_AUTO:
    case CS_ATTN_KERNEL_COUNT:
    default:
        return cs_compute_attn_seq_factor(len, backward);
    }
}

/* A sliding-window layer's fused kernel against the causal kernel of the
 * same head width, on the executed FLOPs (the window's, W keys a query):
 * each 128-row query tile visits W/128 + 1 key tiles, of which W/128 tiles'
 * worth is inside the window, and pays a fixed cost per query tile (loading
 * Q, the softmax's final rescale, writing O and its statistics) worth c key
 * tiles: speed ratio w / (w + 1 + c), w = W / 128. c is read off cuDNN's own
 * training-SDPA benchmark (NVIDIA/cudnn-frontend@3929da2ef
 * benchmark/sdpa_benchmark_training/results, bf16, top-left causal):
 *   Blackwell, cuDNN 9.22, gpt_oss config (window 128, head width 64, 128
 *   heads, batch 2) against llama3.1 (causal, head width 128): GB200 forward
 *   161/1408 and 165/1574 TFLOP/s at 4K/8K, backward 182/1148 and 187/1332;
 *   GB300 167/1703, 172/1856 and 191/1248, 198/1435. Ratios 0.10 forward,
 *   0.15 backward, over the 0.70 that head width 64 costs
 *   (cs_compute_attn_hd_factor): 0.143 and 0.214, so c = 5.0 and 2.7.
 *   Hopper, H200 with cuDNN 9.19 (h200_919_only_cudnn, window 1024, head
 *   width 64, 64 heads over 8 kv), 4K: 336 forward and 289 backward against
 *   llama3.1's 591 and 474: 0.57 and 0.61, over 0.70: 0.81 and 0.87, so
 *   c = 0.9 and 0.2.
 * Blackwell's tensor cores run the tile's GEMMs twice as fast as Hopper's
 * while its per-tile work does not speed up as much, hence the larger c. A
 * GPU without block-scaled FP8 (pre-Blackwell) takes Hopper's values (A100
 * unmeasured). The window kernel's speed barely moves with the sequence
 * (GB200 forward 153-167 TFLOP/s from 2K to 16K), so no length curve. */
static const double cs__win_c[2][2] = {{0.88, 0.19}, {5.0, 2.67}}; /* [blackwell][bwd] */

double cs_compute_attn_window_factor(double window, bool blackwell, bool backward)
{
    if (!(window > 0))
        return 1.0;
    double w = window / 128.0;
    return w / (w + 1.0 + cs__win_c[blackwell ? 1 : 0][backward ? 1 : 0]);
}

/* cuDNN's FP8 attention over its bf16 attention, same shape, GPU and
 * length (NVIDIA/cudnn-frontend@3929da2ef benchmark/sdpa_benchmark_training/
 * results, cuDNN 9.22, causal, the mean of GB200 and GB300 at 4K and 8K):
 *   llama3.1 shape (head width 128, 64 heads over 8): block-scaled (mxfp8)
 *   forward 1685/1408, 1902/1574, 2272/1703, 2570/1856 -> 1.281, backward
 *   1054/1148, 1287/1332, 1143/1248, 1404/1435 -> 0.945; tensor-scaled
 *   (fp8) forward 1.408, backward 1.120;
 *   dsv3 shape (head width 192 for Q/K, 128 for V, 128 heads): mxfp8
 *   forward 1925/1406, 2219/1585, 2517/1590, 2829/1825 -> 1.476, backward
 *   1364/1057, 1494/1193, 1522/1143, 1780/1291 -> 1.313; fp8 1.617 and
 *   1.692.
 * Log-linear in the Q/K head width between 128 and 192, flat outside.
 * Sliding-window layers (gpt_oss shape, window 128, head width 64): forward
 * mxfp8 161/161, 164/165, 194/167, 200/172 -> 1.080, fp8 1.143 (`window`
 * true). Their FP8 backward is not a window kernel at all: 1.73, 6.18,
 * 23.2 and 90.3 ms on GB200 from 4K to 32K, 3.6-3.9x per doubling, the full
 * causal grid; the caller costs it so. */
double cs_compute_attn_fp8_factor(double hd, bool block_scaled, bool backward, bool window)
{
    if (window)
        return block_scaled ? 1.080 : 1.143;
    static const double f128[2][2] = {{1.408, 1.120}, {1.281, 0.945}}; /* [mx][bwd] */
    static const double f192[2][2] = {{1.617, 1.692}, {1.476, 1.313}};
    int m = block_scaled ? 1 : 0, b = backward ? 1 : 0;
    if (!(hd > 128))
        return f128[m][b];
    if (hd >= 192)
        return f192[m][b];
    double t = log(hd / 128.0) / log(192.0 / 128.0);
    return exp((1.0 - t) * log(f128[m][b]) + t * log(f192[m][b]));
}

/* DeepSpeed's BF16 optimizer (stack megatron-deepspeed, bf16): after each
 * micro-batch's backward, update_hp_grads casts every bf16 gradient to
 * fp32 (reads 2 bytes, writes 4) and adds it into the parameter's fp32
 * gradient (reads 4 and 4, writes 4): 18 bytes of HBM traffic per
 * parameter the GPU holds (runtime/bf16_optimizer.py at microsoft/
 * DeepSpeed@735406e5, called from the pipeline engine's
 * _exec_backward_pass). Megatron's stacks accumulate inside the weight
 * gradient GEMM (gradient_accumulation_fusion) and pay nothing. The BF16
 * optimizer is DeepSpeed's path for bf16 without ZeRO stages 1-3 (it shards
 * the fp32 state itself, ZeRO-1's saving: fsdp none or zero1 here); ZeRO-2
 * and ZeRO-3 run DeepSpeed's ZeRO optimizers instead, which this does not
 * model. */
#define CS_DS_HP_GRAD_BYTES 18.0

double cs_compute_hp_grad_s(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *p, double params)
{
    if (w == NULL || !cs_memory_ds_bf16_optimizer(w) || !(params > 0))
        return 0.0;
    return cs_compute_mem_s(gpu, p, CS_DS_HP_GRAD_BYTES * params);
}

static struct attn_cost attention(const struct cs_gpu_spec *gpu,
                                  const struct cs_compute_params *p, const struct dims *d)
{
    struct attn_cost c;
    /* Q K^T and P V: 2 b a_g sq s hd FLOPs each (Narayanan et al. 2021);
     * with values dv wide, P V is 2 b a_g sq s dv. A sliding-window layer
     * attends to `win` keys per query instead of s (its share win_frac of
     * the layers, averaged into this cost). */
    double full = 2.0 * d->b * d->a_g * d->sq * d->s * (d->hd + d->dv);
    double wkeys = d->win < d->s ? d->win : d->s;
    double winf = 2.0 * d->b * d->a_g * d->sq * wkeys * (d->hd + d->dv);
    c.flops = (1.0 - d->win_frac) * full + d->win_frac * winf;
    if (p->fused_attention) {
        /* causal: half the full matrix; a window: every query sees its window */
        double causal = (1.0 - d->win_frac) * CAUSAL_FRACTION * full;
        double win_exec = d->win_frac * winf;
        double rate = gpu->peak_flops[d->attn_prec] * p->attn_eff * d->hd_factor;
        double rate_c = rate;
        /* Ring attention (cp > 1, load-balanced: each rank holds chunks i
         * and 2cp-1-i; Transformer Engine's p2p context parallelism,
         * PyTorch's ring with load balancing): of its cp steps only the
         * first, its own chunks, is causal; the other cp - 1 are unmasked
         * half blocks of the same work each, which run at the full-block
         * speed. The rate is the causal kernel's. */
        if (d->cp > 1 && causal > 0) {
            double nc = cs_compute_attn_noncausal_ratio(d->len_kernel, d->sq);
            double w_nc = (d->cp - 1.0) / d->cp * causal;
            /* the same FLOPs at the blended rate: causal / rate_eff */
            rate_c *= causal / (causal - w_nc + w_nc / nc);
        }
        /* Reads Q, K, V and writes O (and its log-sum-exp, ignored). */
        double io = d->tokens * (d->a_g * (d->hd + d->dv) + d->kv_g * (d->hd + d->dv)) * d->e;
        double t_io = io / (gpu->hbm_bw_bytes_per_s * p->mem_eff);
        /* The kernel runs on this rank's sq queries against blocks of sq
         * keys (ring attention's blocks with cp > 1); the sliding-window
         * layers at the window kernel's speed (cs_compute_attn_window_factor) */
        bool bw = cs_gpu_block_scaled(gpu);
        /* FP8 attention (fp8_attention): each pass at its FP8 speed over
         * bf16's (cs_compute_attn_fp8_factor) */
        double f8f = d->fp8_attn ? cs_compute_attn_fp8_factor(d->hd, d->fp8_attn_mx, false, false) : 1.0;
        double f8b = d->fp8_attn ? cs_compute_attn_fp8_factor(d->hd, d->fp8_attn_mx, true, false) : 1.0;
        double tf = causal / (rate_c * f8f * cs_compute_attn_len_factor(d->len_kernel, d->sq, false, bw));
        double tb = FUSED_ATTN_BWD_RATIO * causal /
                    (rate_c * f8b * cs_compute_attn_len_factor(d->len_kernel, d->sq, true, bw));
        if (win_exec > 0) {
            double f8w = d->fp8_attn ? cs_compute_attn_fp8_factor(d->hd, d->fp8_attn_mx, false, true) : 1.0;
            tf += win_exec / (rate * f8w * cs_compute_attn_window_factor(d->win, bw, false));
            if (d->fp8_attn)
                /* FP8's window backward walks the whole causal grid, at the
                 * causal FP8 backward's speed */
                tb += FUSED_ATTN_BWD_RATIO * d->win_frac * CAUSAL_FRACTION * full /
                      (rate * f8b * cs_compute_attn_len_factor(d->len_kernel, d->sq, true, bw));
            else
                tb += FUSED_ATTN_BWD_RATIO * win_exec /
                      (rate * cs_compute_attn_window_factor(d->win, bw, true));
        }
        c.fwd_s = (tf > t_io ? tf : t_io) + p->kernel_overhead_s;
        c.bwd_s = (tb > 2.0 * t_io ? tb : 2.0 * t_io) + p->kernel_overhead_s;
        c.bytes = 0.0;
        return c;
    }
    double batch = d->b * d->a_g;
    double t_qk = cs_compute_gemm_s(gpu, p, d->attn_prec, d->sq, d->s, d->hd, batch);
    double t_pv = cs_compute_gemm_s(gpu, p, d->attn_prec, d->sq, d->dv, d->s, batch);
    double s2 = batch * d->sq * d->s;
    double softmax = 2.0 * d->e * s2;            /* fused scale-mask-softmax */
    double dropout = (2.0 * d->e + 1.0) * s2;    /* attention dropout + mask */
    double t_mem = cs_compute_mem_s(gpu, p, softmax) + cs_compute_mem_s(gpu, p, dropout);
    double t_mem_b = cs_compute_mem_s(gpu, p, 2.0 * softmax) +
                     cs_compute_mem_s(gpu, p, 2.0 * dropout);
    c.fwd_s = t_qk + t_pv + t_mem;
    c.bwd_s = 2.0 * (t_qk + t_pv) + t_mem_b;
    c.bytes = softmax + dropout;
    return c;
}

double cs_compute_fp8_linear_factor(const struct cs_workload *w, const struct cs_gpu_spec *gpu)
{
    if (w == NULL || gpu == NULL || w->fp8_recipe != 1 || w->precision != CS_PREC_FP8 ||
        cs_gpu_block_scaled(gpu))
        return 1.0;
    return CS_FP8_BLOCKWISE_FACTOR;
}

/* The scaling recipe's factor on an FP8 linear layer's GEMMs and casts
 * (p->fp8_linear_factor: block-wise on Hopper), 1 at other precisions. */
static double fp8_linear_factor(const struct cs_compute_params *p, enum cs_precision prec)
{
    return prec == CS_PREC_FP8 && isfinite(p->fp8_linear_factor) && p->fp8_linear_factor > 0
               ? p->fp8_linear_factor
               : 1.0;
}

/* One GEMM of a linear layer at precision `prec`. */
static double lin_gemm_s(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                         enum cs_precision prec, double m, double n, double k, double batch)
{
    return fp8_linear_factor(p, prec) * cs_compute_gemm_s(gpu, p, prec, m, n, k, batch);
}

/* The quantization casts of a linear layer whose inputs hold `in` elements
 * (T x k) and whose output gradients hold `out` (T x n), under the
 * quantized precisions (nothing for the others). */
static void linear_casts(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                         enum cs_precision prec, double in, double out, double *fwd_s,
                         double *bwd_s)
{
    if (prec == CS_PREC_FP8) {
        /* FP8 GEMMs take FP8 operands, and the weight-gradient GEMM takes
         * them transposed (Hopper's FP8 tensor cores read both operands
         * K-major; Transformer Engine's cast_transpose kernels). Forward:
         * the input's FP8 copy and its transpose are written, 1 byte each
         * per element (the cast itself is fused into the norm or
         * activation that produces the input: TE's LayerNormLinear and
         * fused activation-cast). Backward: the bf16 output gradient is read
         * (2 bytes) and written as FP8 and FP8-transposed (1 + 1). The
         * weights' casts are cached across micro-batches and not counted. */
        double f = fp8_linear_factor(p, prec);
        *fwd_s += f * cs_compute_mem_s(gpu, p, 2.0 * in);
        *bwd_s += f * cs_compute_mem_s(gpu, p, 4.0 * out);
    } else if (prec == CS_PREC_MXFP8) {
        /* MXFP8 (Transformer Engine's MXFP8BlockScaling): a scale per 32
         * consecutive elements along one axis, so the row-wise copy (1x32
         * blocks, for the forward and data-gradient GEMMs) and the
         * column-wise copy (32x1 blocks, for the weight gradient) are
         * separate quantizations of the bf16 tensor, not a transpose of one
         * another (TE docs, low_precision_training/mxfp8, "Handling
         * transposes"; module/linear.py: input_quantizer.set_usage(rowwise,
         * columnwise)). Each copy is q = 1 + 1/32 bytes per element (E8M0
         * scales). Forward: both copies of the input written, the cast fused
         * into the producer as for FP8 (layernorm_linear.py:
         * with_quantized_norm). Backward: the bf16 output gradient read and
         * both of its copies written. */
        double q = cs_precision_bytes(prec);
        *fwd_s += cs_compute_mem_s(gpu, p, 2.0 * q * in);
        *bwd_s += cs_compute_mem_s(gpu, p, (2.0 + 2.0 * q) * out);
    } else if (prec == CS_PREC_NVFP4) {
        /* NVFP4 (TE's NVFP4BlockScaling): E2M1 with an E4M3 scale per 16
         * elements and an FP32 scale per tensor, q = 1/2 + 1/16 bytes per
         * element and copy. The per-tensor scale needs the tensor's amax
         * before any element is cast, and the column-wise copies of the
         * input and of the output gradient (the weight-gradient operands)
         * take a 16-point random Hadamard transform first, whose amax is
         * taken after the transform (csrc/quantizer.cpp,
         * NVFP4Quantizer::quantize_impl: nvte_hadamard_transform_amax, then
         * the fused RHT-cast kernel; normalization.cpp leaves the amax to
         * the quantizer when RHT is on). So each quantized tensor costs an
         * amax pass (read bf16) and a cast pass (read bf16, write the
         * row-wise and column-wise copies), forward for the input and
         * backward for the output gradient. The transform's 16 MACs per
         * element on the tensor cores and the stochastic rounding of the
         * gradients ride on those memory-bound passes and are not counted.
         * The weights' (16x16-block) casts are cached across micro-batches
         * as for FP8. */
        double q = cs_precision_bytes(prec);
        *fwd_s += cs_compute_mem_s(gpu, p, 2.0 * in) +
                  cs_compute_mem_s(gpu, p, (2.0 + 2.0 * q) * in);
        *bwd_s += cs_compute_mem_s(gpu, p, 2.0 * out) +
                  cs_compute_mem_s(gpu, p, (2.0 + 2.0 * q) * out);
    }
}

/* Forward time of a linear layer (T x k) * (k x n) and its backward (data
 * gradient (T x n) * (n x k) and weight gradient (k x T) * (T x n)). */
static void linear(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                   enum cs_precision prec, double t, double n, double k, double *fwd_s,
                   double *bwd_s, double *flops)
{
    *fwd_s += lin_gemm_s(gpu, p, prec, t, n, k, 1.0);
    *bwd_s += lin_gemm_s(gpu, p, prec, t, k, n, 1.0) + lin_gemm_s(gpu, p, prec, k, n, t, 1.0);
    *flops += 2.0 * t * n * k;
    linear_casts(gpu, p, prec, t * k, t * n, fwd_s, bwd_s);
}

enum cs_precision cs_compute_router_prec(const struct cs_workload *w)
{
    if (w == NULL || (unsigned)w->precision >= CS_PREC_COUNT)
        return CS_PREC_BF16;
    return cs_precision_quantized(w->precision) ? CS_PREC_BF16 : w->precision;
}

/* Adds one memory-bound kernel's forward bytes (backward moves twice as much:
 * it reads the output gradient and the saved input, writes the input
 * gradient, and for norms reduces the weight gradient). */
static void mem_op(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                   double bytes, struct cs_layer_cost *c)
{
    c->fwd_s += cs_compute_mem_s(gpu, p, bytes);
    c->bwd_s += cs_compute_mem_s(gpu, p, 2.0 * bytes);
    c->fwd_bytes += bytes;
    c->bwd_bytes += 2.0 * bytes;
}

/* Megatron-Core's RoPE without fusion (rope_utils.py
 * _apply_rotary_pos_emb_bshd, NVIDIA/Megatron-LM dev d48bd6be0a), per
 * tensor t of n elements of e bytes (q, then k):
 *   forward  t * cos (2e n), -x2 of rotate_half (e n), its cat (2e n),
 *            * sin (2e n), the sum (3e n), the final cat with the empty
 *            pass-through part (2e n): 12e n in 6 kernels, plus 6 small
 *            ones on the [s, 1, 1, d] frequencies (cos, sin, their mscale
 *            products and casts);
 *   backward grad * sin (2e n), the neg's backward (e n), the chunk's
 *            backward cat (2e n), grad * cos (2e n), the two paths' sum
 *            (3e n), the slice t[..., :rot_dim]'s backward (zeros and a
 *            copy, 3e n): 13e n in 7 kernels (the cats' backwards are
 *            views).
 * Transformer Engine's fused kernel, folded into the attention's fitted
 * efficiency, moves 2e n each way in one kernel; this adds the rest:
 * 10e / 11e bytes per element and 11 / 6 kernels per tensor. */
void cs_compute_rope_unfused(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                             double e, double q, double k, double *fwd_s, double *bwd_s)
{
    double bw = gpu->hbm_bw_bytes_per_s * p->mem_eff;
    double n = q + k;
    int tensors = (q > 0 ? 1 : 0) + (k > 0 ? 1 : 0);
    *fwd_s = n > 0 ? CS_ROPE_UNFUSED_FWD_BYTES * e * n / bw +
                         tensors * CS_ROPE_UNFUSED_FWD_KERNELS * p->kernel_overhead_s
                   : 0.0;
    *bwd_s = n > 0 ? CS_ROPE_UNFUSED_BWD_BYTES * e * n / bw +
                         tensors * CS_ROPE_UNFUSED_BWD_KERNELS * p->kernel_overhead_s
                   : 0.0;
}

/* Eager blocks (torchtitan with torch_compile off): the forward bytes its
 * kernels move beyond the fused kernels the layer already counts (one norm
 * kernel of 2 passes each, a gated activation of 3 passes, RoPE folded into
 * the attention's fitted efficiency), element width e bytes; torchtitan
 * models/llama/model.py at 1ea476e9f (2024-04-24), each op a kernel:
 *   RoPE  xq.float() (e + 4 bytes per element), the complex product with
 *         freqs_cis (4 + 4), .type_as(xq) (4 + e): 16 + 2e against a fused
 *         kernel's 2e, so 16 bytes per element of q and of k;
 *   SwiGLU  F.silu(w1 x) (2 passes) then * w3 x (3): 5 passes against the
 *         fused kernel's 3, 2e per element of the FFN width;
 *   RMSNorm (norm_kernel eager, norm_type rmsnorm; models/norms.py):
 *         x.float() (e + 4), pow(2) (8), mean (4), x * rsqrt (8),
 *         .type_as (4 + e), * weight (2e): 28 + 4e against the fused 2e,
 *         28 + 2e per element of each norm.
 * mem_op doubles the forward's bytes for the backward (the autograd
 * kernels of the same ops read the gradient and the saved input and
 * write the input's gradient). q and k are the elements of this GPU's
 * queries and keys (tokens x heads x head width), n_f the FFN's
 * (tokens x width / tp), n_h a b x s x h tensor's. */
void cs_compute_eager_bytes(const struct cs_workload *w, double e, double q, double k, double n_f,
                            double n_h, int norms, double *bytes)
{
    double b = 0.0;
    if (cs_workload_torch_eager(w)) {
        if (w->model.activation != CS_ACT_GELU)   /* rotary positions (workload.h) */
            b += 16.0 * (q + k);
        if (w->model.activation == CS_ACT_SWIGLU)
            b += 2.0 * e * n_f;
        if (cs_workload_eager_norm(w))
            b += norms * (28.0 + 2.0 * e) * n_h;
    }
    *bytes = b;
}

static void tp_collectives(const struct dims *d, int fwd_pairs, int bwd_pairs,
                           struct cs_layer_cost *c)
{
    if (d->tp <= 1)
        return;
    c->tp_msg_bytes = d->tokens * d->h * d->e;
    if (d->sp) {
        c->tp_allgather_fwd = fwd_pairs;
        c->tp_reducescatter_fwd = fwd_pairs;
        c->tp_allgather_bwd = bwd_pairs;
        c->tp_reducescatter_bwd = bwd_pairs;
    } else {
        c->tp_allreduce_fwd = fwd_pairs;
        c->tp_allreduce_bwd = bwd_pairs;
    }
}

/* The attention block's projections on this GPU: standard (fused QKV,
 * column-parallel by heads, output row-parallel) or MLA (Megatron-Core's
 * MLASelfAttention: the down projections to the latents run on every TP
 * rank (parallel_mode "duplicated"), the up projections are
 * column-parallel by heads, the output row-parallel). */
static void attn_projections(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                             const struct cs_workload *w, const struct dims *d, double *fwd,
                             double *bwd, double *flops)
{
    const struct cs_model_shape *m = &w->model;
    /* the input projections at attn_qkv's precision, the output one at
     * attn_proj's (workload.module_precision) */
    enum cs_precision pq = cs_workload_module_precision(w, CS_QMOD_ATTN_QKV, d->prec);
    enum cs_precision po = cs_workload_module_precision(w, CS_QMOD_ATTN_PROJ, d->prec);
    if (m->attention == CS_ATTN_MLA) {
        const struct cs_mla_shape *l = &m->mla;
        double qk = (double)l->qk_nope_dim + l->qk_rope_dim;
        if (l->q_lora_rank > 0) {
            linear(gpu, p, pq, d->tokens, l->q_lora_rank, d->h, fwd, bwd, flops);
            linear(gpu, p, pq, d->tokens, d->a_g * qk, l->q_lora_rank, fwd, bwd, flops);
        } else {
            linear(gpu, p, pq, d->tokens, d->a_g * qk, d->h, fwd, bwd, flops);
        }
        linear(gpu, p, pq, d->tokens, (double)l->kv_lora_rank + l->qk_rope_dim, d->h, fwd,
               bwd, flops);
        linear(gpu, p, pq, d->tokens, d->a_g * ((double)l->qk_nope_dim + l->v_dim),
               l->kv_lora_rank, fwd, bwd, flops);
    } else {
        double qkv_n = d->a_g * d->hd + 2.0 * d->kv_g * d->hd;
        linear(gpu, p, pq, d->tokens, qkv_n, d->h, fwd, bwd, flops);
    }
    linear(gpu, p, po, d->tokens, d->h, d->a_g * d->dv, fwd, bwd, flops);
}

/* Megatron-Core's alltoall dispatcher (token_dispatcher.py,
 * MoEAlltoAllTokenDispatcher, NVIDIA/Megatron-LM d98e8a64dd): with more
 * than one local expert, the copies an all-to-all delivers arrive grouped
 * by source rank and are sorted by local expert before the experts
 * (dispatch_postprocess, "Permutation 2", sort_chunks_by_idxs: torch.cat
 * of the split chunks, or Transformer Engine's fused sort with
 * moe_permute_fusion) and sorted back before the combine
 * (combine_preprocess, "Unpermutation 2"); the routing probabilities
 * (fp32, 4 bytes a row) travel with the dispatch's sort and are counted with
 * every sort (under 0.2% of a row). Each sort reads and writes every row once;
 * its backward is the inverse sort, the same bytes. The flex dispatchers
 * (DeepEP, HybridEP) deliver tokens that one permute orders (the layer's
 * permute above), so they have none. */
double cs_compute_moe_sort_bytes(const struct cs_workload *w, double e, double rows, double h,
                                 double e_loc)
{
    if (w == NULL || w->model.moe.dispatcher != CS_MOE_DISPATCH_ALLTOALL || !(e_loc > 1.0) ||
        !(rows > 0) || !(h > 0) || !(e > 0))
        return 0.0;
    return 2.0 * (e * h + 4.0) * rows;
}

void cs_compute_moe_act_bytes(const struct cs_workload *w, double e, double rows, double f,
                              double h, double e_loc, double *fwd, double *bwd, int *kernels)
{
    const struct cs_model_shape *m = &w->model;
    const struct cs_moe_shape *mo = &m->moe;
    double nf = rows * f, nh = rows * h;
    *fwd = *bwd = 0.0;
    *kernels = 0;
    if (w->fused_grouped_mlp)
        return; /* in the GEMMs' epilogues */
    /* the (weighted) activation: reads the GLU's two halves, writes one */
    double act = cs_activation_mem_passes(m->activation) * e * nf;
    *fwd += act;
    *bwd += 2.0 * act;
    *kernels = 1;
    if (mo->glu_clamp > 0 && m->activation == CS_ACT_SWIGLU) {
        /* Megatron-Core fused_bias_geglu.weighted_bias_quick_geglu_impl
         * with clamp_value: chunk (views), x_glu.clamp and x_linear.clamp
         * (each reads and writes n f), torch.cat of the two (reads and
         * writes 2 n f), then the fused activation on the copy. Backward:
         * each clamp's gradient (reads the incoming gradient and the saved
         * input, writes n f) and the chunk's, the two halves concatenated
         * (reads and writes 2 n f). */
        *fwd += 8.0 * e * nf;
        *bwd += 10.0 * e * nf;
        *kernels += 3;
    }
    if (mo->expert_bias) {
        /* TEGroupedMLP._apply_bias (fc2 built with skip_bias_add):
         * torch.cat([t + b * p for each local expert]): b p writes n h,
         * the sum reads 2 n h and writes n h, the cat reads and writes
         * n h. Backward: the probabilities' gradient reads the output
         * gradient (n h) and the split gradients are concatenated (reads
         * and writes n h). Two kernels per local expert and the cat. */
        *fwd += 6.0 * e * nh;
        *bwd += 3.0 * e * nh;
        *kernels += (int)(2.0 * e_loc) + 1;
    }
}

/* Transformer Engine's GroupedLinear outside the fused expert MLP runs one
 * cuBLAS GEMM per expert, round-robin over its compute streams
 * (transformer_engine/common/gemm/cublaslt_gemm.cu, multi_stream_cublas_gemm;
 * util/multi_stream.cpp get_num_compute_streams: 4; CUTLASS's grouped kernel
 * only on Hopper with NVTE_USE_CUTLASS_GROUPED_GEMM), NVIDIA/
 * TransformerEngine d0067d0; an MoE layer has two (fc1, fc2). */
#define TE_COMPUTE_STREAMS 4.0
#define TE_GROUPED_LINEARS 2.0

/* A grouped GEMM's linear layer: `groups` experts, each (t x k) * (k x n),
 * as one batched kernel each way (Megatron-Core's TEGroupedLinear /
 * CUTLASS grouped GEMM); its efficiency is the per-expert shape's. */
static void grouped_linear(const struct cs_gpu_spec *gpu, const struct cs_compute_params *p,
                           enum cs_precision prec, double groups, double t, double n, double k,
                           double slow, double *fwd_s, double *bwd_s, double *flops)
{
    if (!(t > 0 && groups > 0))
        return;
    /* slow: the grouped kernel's time over the model's GEMM time
     * (torch_grouped_mm_slowdown for torchtitan's bf16 experts) */
    *fwd_s += slow * lin_gemm_s(gpu, p, prec, t, n, k, groups);
    *bwd_s += slow * (lin_gemm_s(gpu, p, prec, t, k, n, groups) +
                      lin_gemm_s(gpu, p, prec, k, n, t, groups));
    *flops += 2.0 * groups * t * n * k;
    /* the casts of linear(), over every expert's rows */
    linear_casts(gpu, p, prec, groups * t * k, groups * t * n, fwd_s, bwd_s);
}

/* Quantize kernels Transformer Engine launches per expert for one quantized
 * operand in GroupedLinear's split_quantize (NVIDIA/TransformerEngine
 * 4c572f0, pytorch/csrc/extensions/cast.cpp, multi_tensor_quantize_impl:
 * one quantize per split except FP8 delayed scaling's fused
 * multi_cast_transpose): FP8 current scaling an amax and a cast, MXFP8 one
 * kernel (row- and column-wise together), NVFP4 its amax and cast. */
static double te_quantize_kernels(enum cs_precision px)
{
    switch (px) {
    case CS_PREC_FP8:
    case CS_PREC_NVFP4:
        return 2.0;
    case CS_PREC_MXFP8:
        return 1.0;
    default:
        return 0.0;
    }
}

double cs_compute_te_grouped_kernels(const struct cs_workload *w, enum cs_precision px, double e_loc,
                                     bool backward)
{
    if (w == NULL || w->stack != CS_STACK_MCORE_2024 || w->fused_grouped_mlp ||
        !cs_model_is_moe(&w->model) || !(e_loc > 1.0))
        return 0.0;
    /* per grouped linear: its GEMM calls (forward 1, backward dgrad and
     * wgrad), each e_loc GEMMs round-robin over the 4 compute streams, so
     * ceil(e_loc / 4) floors in a row where the model has one; and the
     * quantized operand's q e_loc kernels in a row where linear_casts has
     * one */
    double calls = backward ? 2.0 : 1.0;
    double gemm = calls * (ceil(e_loc / TE_COMPUTE_STREAMS) - 1.0);
    double q = te_quantize_kernels(px);
    double quant = q > 0 ? q * e_loc - 1.0 : 0.0;
    return TE_GROUPED_LINEARS * (gemm + quant);
}

/* The Mamba-2 mixer's kernels (docs/models.md, "Hybrid models"): in_proj
 * and out_proj as the TP pair of GEMMs; the causal convolution over [x, B,
 * C]; the chunked scan (mamba_chunk_scan_combined: chunk_cumsum,
 * chunk_state, state_passing, bmm_chunk, chunk_scan) costed by the bytes it
 * moves, its fp32 chunk states written, read, rewritten and read again;
 * the gated RMSNorm. */
static void mamba_mixer(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                        const struct cs_compute_params *p, const struct dims *d, struct cs_layer_cost *c)
{
    const struct cs_mamba_shape *mb = &w->model.mamba;
    double H = (double)mb->heads / d->tp, P = mb->head_dim, N = mb->state;
    double G = (double)mb->groups / d->tp, Q = mb->chunk;
    double din = H * P, gn = G * N, xbc = din + 2.0 * gn, T = d->tokens;
    double f0 = 0.0, b0 = 0.0, f1 = 0.0, b1 = 0.0;
    linear(gpu, p, cs_workload_module_precision(w, CS_QMOD_MAMBA_IN_PROJ, d->prec), T,
           2.0 * din + 2.0 * gn + H, d->h, &f0, &b0, &c->fwd_flops);
    linear(gpu, p, cs_workload_module_precision(w, CS_QMOD_MAMBA_OUT_PROJ, d->prec), T, d->h, din,
           &f1, &b1, &c->fwd_flops);
    c->fwd_s += f0 + f1;
    c->bwd_s += b0 + b1;
    c->tp_gemm_fwd_s[0] = f0;
    c->tp_gemm_bwd_s[0] = b0;
    c->tp_gemm_fwd_s[1] = f1;
    c->tp_gemm_bwd_s[1] = b1;
    /* causal_conv1d with its SiLU: reads and writes [x, B, C] */
    mem_op(gpu, p, 2.0 * d->e * T * xbc, c);
    c->fwd_flops += 2.0 * T * xbc * mb->conv;
    /* SSD forward (five kernels): x read twice and y written (3 e d), B and
     * C twice each (4 e G N), the fp32 chunk states (H P N per chunk) four
     * times, the fp32 C B^T blocks (G Q per token) written and read, dt
     * and its cumulative sum (fp32) about four times */
    double ssd = T * (d->e * (3.0 * din + 4.0 * gn) + 16.0 * H * P * N / Q + 8.0 * G * Q + 32.0 * H);
    /* SSD backward (mamba_ssm _mamba_chunk_scan_combined_bwd, docs/
     * models.md): four forward kernels rerun (C B^T, the chunk states and
     * their pass), then dstates, the state pass's backward, dx, dB, dC,
     * dCB, two bmm backwards and ddA (14 Triton kernels and about six
     * small torch ops), counted kernel by kernel: x, dout and dx 11 e d,
     * B, C and their gradients 11 e G N and 16 G N (fp32 partials), the
     * fp32 C B^T and its gradient 24 G Q, states and their gradients 34 H
     * P N / Q, dt and the decays' cumulative sums 48 H */
    double ssd_b = T * (d->e * (11.0 * din + 11.0 * gn) + 16.0 * gn + 24.0 * G * Q + 34.0 * H * P * N / Q +
                        48.0 * H);
    /* at the share of HBM bandwidth its Triton kernels reach (CS_SSD_HBM_FRAC) */
    c->fwd_s += cs_compute_ssd_s(gpu, p, ssd);
    c->bwd_s += cs_compute_ssd_s(gpu, p, ssd_b);
    c->fwd_bytes += ssd;
    c->bwd_bytes += ssd_b;
    c->fwd_s += 4.0 * p->kernel_overhead_s;
    c->bwd_s += 19.0 * p->kernel_overhead_s;
    c->fwd_flops += T * (2.0 * Q * gn + 2.0 * H * P * (2.0 * N + Q));
    /* the gated RMSNorm: reads y and z, writes its output */
    mem_op(gpu, p, 3.0 * d->e * T * din, c);
    /* context parallelism: the scan needs whole sequences, so [x, B, C, dt]
     * go from sequence-split to head-split and y back (all_to_all_sp2hp /
     * hp2sp, megatron/core/ssm/mamba_context_parallel.py); the work per
     * GPU stays the same */
    if (d->cp > 1) {
        c->cp_a2a_in_bytes = d->e * T * (xbc + H);
        c->cp_a2a_out_bytes = d->e * T * din;
    }
}

static cs_status layer_cost(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *p, enum cs_block kind, bool moe,
                            struct cs_layer_cost *out)
{
    struct dims d;
    cs_status st = get_dims(w, gpu, p, &d);
    if (st != CS_OK)
        return st;
    if (out == NULL || (unsigned)kind >= CS_BLOCK_COUNT)
        return CS_EINVAL;
    const struct cs_model_shape *m = &w->model;
    const struct cs_moe_shape *mo = &m->moe;
    /* a hybrid model's block is one pre-norm, one mixer and its residual
     * add (Megatron-Core MambaStack); a transformer layer has two of each */
    bool block = kind != CS_BLOCK_LAYER;
    bool has_attn = kind == CS_BLOCK_LAYER || kind == CS_BLOCK_ATTN;
    bool has_ffn = kind == CS_BLOCK_LAYER || kind == CS_BLOCK_MLP || kind == CS_BLOCK_MOE;
    if (kind == CS_BLOCK_MOE)
        moe = true;
    else if (block)
        moe = false;
    moe = moe && cs_model_is_moe(m);
    if (kind == CS_BLOCK_MOE && !moe)
        return CS_EINVAL;
    struct cs_layer_cost c;
    memset(&c, 0, sizeof c);
    double gemm_fwd = 0.0, gemm_bwd = 0.0, flops = 0.0;
    /* the dense FFN, or an MoE layer's shared experts (a dense FFN of
     * shared x expert width, tensor-parallel like one) */
    double f_dense = !has_ffn ? 0.0 : moe ? (double)mo->shared_experts * mo->expert_ffn_hidden : d.f;
    double up_n = (m->activation == CS_ACT_SWIGLU ? 2.0 : 1.0) * f_dense / d.tp;
    /* the precisions of the modules' linear layers (workload.module_precision) */
    enum cs_precision p_qkv = cs_workload_module_precision(w, CS_QMOD_ATTN_QKV, d.prec);
    enum cs_precision p_proj = cs_workload_module_precision(w, CS_QMOD_ATTN_PROJ, d.prec);
    enum cs_precision p_ffn =
        cs_workload_module_precision(w, moe ? CS_QMOD_SHARED_EXPERTS : CS_QMOD_MLP, d.prec);
    if (has_attn) {
        attn_projections(gpu, p, w, &d, &gemm_fwd, &gemm_bwd, &flops);
        /* the output projection apart (the pair of the reduce-scatter
         * after it); the input projections are the rest */
        double of = 0.0, ob = 0.0, ofl = 0.0;
        linear(gpu, p, p_proj, d.tokens, d.h, d.a_g * d.dv, &of, &ob, &ofl);
        c.tp_gemm_fwd_s[0] = gemm_fwd - of;
        c.tp_gemm_bwd_s[0] = gemm_bwd - ob;
        c.tp_gemm_fwd_s[1] = of;
        c.tp_gemm_bwd_s[1] = ob;
    }
    if (f_dense > 0) {
        double f1 = 0.0, b1 = 0.0, f2 = 0.0, b2 = 0.0;
        linear(gpu, p, p_ffn, d.tokens, up_n, d.h, &f1, &b1, &flops);
        linear(gpu, p, p_ffn, d.tokens, d.h, f_dense / d.tp, &f2, &b2, &flops);
        gemm_fwd += f1 + f2;
        gemm_bwd += b1 + b2;
        c.tp_gemm_fwd_s[2] = f1;
        c.tp_gemm_bwd_s[2] = b1;
        c.tp_gemm_fwd_s[3] = f2;
        c.tp_gemm_bwd_s[3] = b2;
    }
    struct attn_cost at;
    memset(&at, 0, sizeof at);
    if (has_attn)
        at = attention(gpu, p, &d);
    c.fwd_s = gemm_fwd + at.fwd_s;
    c.bwd_s = gemm_bwd + at.bwd_s;
    c.attn_fwd_s = at.fwd_s;
    c.attn_bwd_s = at.bwd_s;
    c.fwd_flops = flops + at.flops;
    c.fwd_bytes = at.bytes;
    c.bwd_bytes = 2.0 * at.bytes;

    /* Memory-bound kernels (docs/models.md): two norms, two fused
     * bias-dropout-adds, the activation function. */
    double n_f = d.tokens * f_dense / d.tp;
    double before_mem = c.fwd_s;
    int norms = block ? 1 : 2;
    for (int i = 0; i < norms; i++)
        mem_op(gpu, p, 2.0 * d.e * d.n_h, &c);
    for (int i = 0; i < norms; i++)
        mem_op(gpu, p, (3.0 * d.e + 1.0) * d.n_h, &c);
    if (n_f > 0)
        mem_op(gpu, p, cs_activation_mem_passes(m->activation) * d.e * n_f, &c);
    /* the rotated elements: every query and key head's, or MLA's rope
     * part (each query head's, one shared key) */
    bool mla = m->attention == CS_ATTN_MLA;
    double rot_q = !has_attn ? 0.0 : d.tokens * d.a_g * (mla ? m->mla.qk_rope_dim : d.hd);
    double rot_k = !has_attn ? 0.0 : d.tokens * (mla ? m->mla.qk_rope_dim : d.kv_g * d.hd);
    /* Eager PyTorch (torchtitan without torch.compile; docs/models.md 2.3,
     * "Eager blocks"): what its kernels move beyond the fused ones above */
    if (cs_workload_torch_eager(w)) {
        double eb = 0.0;
        cs_compute_eager_bytes(w, d.e, rot_q, rot_k, n_f, d.n_h, norms, &eb);
        if (eb > 0)
            mem_op(gpu, p, eb, &c);
    }
    /* Megatron-Core's unfused RoPE (docs/models.md 2.3, "Unfused RoPE") */
    if (has_attn && cs_workload_rope_unfused(w)) {
        double rf = 0.0, rb = 0.0;
        cs_compute_rope_unfused(gpu, p, d.e, rot_q, rot_k, &rf, &rb);
        c.fwd_s += rf;
        c.bwd_s += rb;
        c.fwd_bytes += CS_ROPE_UNFUSED_FWD_BYTES * d.e * (rot_q + rot_k);
        c.bwd_bytes += CS_ROPE_UNFUSED_BWD_BYTES * d.e * (rot_q + rot_k);
    }
    double mem_fwd = c.fwd_s - before_mem;
    /* TP pairs (an all-reduce, or all-gather + reduce-scatter with SP):
     * the attention's, the dense FFN's (an MoE layer's shared experts),
     * the Mamba mixer's in_proj / out_proj */
    int pairs = (has_attn ? 1 : 0) + (f_dense > 0 ? 1 : 0) + (kind == CS_BLOCK_MAMBA ? 1 : 0);
    tp_collectives(&d, pairs, pairs, &c);
    if (kind == CS_BLOCK_MAMBA)
        mamba_mixer(w, gpu, p, &d, &c);

    double before_moe_fwd = c.fwd_s;
    if (moe) {
        /* docs/moe.md, "Compute". Each GPU routes its sequence-parallel
         * share of the tokens (Megatron-Core requires sequence parallelism
         * for MoE with tp > 1); the EP group exchanges them so that each
         * expert slot gets its tokens; each of the etp GPUs of a slot
         * computes all of the slot's tokens on 1/etp of every expert's
         * width. Balanced: etp t_r k rows per GPU, over E / ep experts. */
        double ep = w->par.ep > 0 ? w->par.ep : 1, etp = w->par.etp > 0 ? w->par.etp : 1;
        double t_r = d.tokens / d.tp, k = mo->top_k, fe = mo->expert_ffn_hidden;
        double e_loc = (double)mo->experts / ep;
        double rows = etp * t_r * k;
        double m_e = rows / e_loc;
        double up_e = (m->activation == CS_ACT_SWIGLU ? 2.0 : 1.0) * fe / etp;
        /* the width the routed copies travel and the experts work at: the
         * hidden size, or a latent MoE's latent width (Megatron-Core's
         * fc1_latent_proj before the dispatch, fc2_latent_proj after the
         * combine: two GEMMs on the GPU's t_r tokens, weights duplicated
         * over TP) */
        double hx = mo->latent > 0 ? (double)mo->latent : d.h;
        /* router: t_r x h x E, then its scores, top-k and softmax (fp32),
         * the GEMM at cs_compute_router_prec (bf16 under the quantized
         * recipes, without casts) */
        linear(gpu, p, cs_compute_router_prec(w), t_r, mo->experts, d.h, &c.fwd_s, &c.bwd_s, &c.fwd_flops);
        mem_op(gpu, p, 3.0 * 4.0 * t_r * mo->experts, &c);
        if (mo->latent > 0) {
            enum cs_precision pl = cs_workload_module_precision(w, CS_QMOD_MOE_LATENT_PROJ, d.prec);
            linear(gpu, p, pl, t_r, hx, d.h, &c.fwd_s, &c.bwd_s, &c.fwd_flops);
            linear(gpu, p, pl, t_r, d.h, hx, &c.fwd_s, &c.bwd_s, &c.fwd_flops);
        }
        /* permute (gather the routed copies) and unpermute (weighted sum back) */
        mem_op(gpu, p, 2.0 * d.e * hx * t_r * k, &c);
        mem_op(gpu, p, d.e * hx * t_r * (k + 1.0), &c);
        /* the alltoall dispatcher's second permutation: the received
         * copies sorted by local expert and back (cs_compute_moe_sort_bytes) */
        double sb = cs_compute_moe_sort_bytes(w, d.e, rows, hx, e_loc);
        if (sb > 0) {
            c.fwd_s += 2.0 * cs_compute_mem_s(gpu, p, sb);
            c.bwd_s += 2.0 * cs_compute_mem_s(gpu, p, sb);
            c.fwd_bytes += 2.0 * sb;
            c.bwd_bytes += 2.0 * sb;
        }
        double ef = 0.0, eb = 0.0, efl = 0.0;
        enum cs_precision px = cs_workload_module_precision(w, CS_QMOD_EXPERTS, d.prec);
        /* torchtitan's GroupedExperts call torch._grouped_mm, whose bf16
         * kernel was measured slower than this model's GEMMs on Blackwell
         * (CS_TORCH_GROUPED_MM_BF16_BLACKWELL); its quantized recipes
         * (torchao's MXFP8 grouped GEMMs) matched them there */
        double gslow = 1.0;
        if (w->stack == CS_STACK_TORCHTITAN && (px == CS_PREC_BF16 || px == CS_PREC_FP16) &&
            isfinite(p->torch_grouped_mm_slowdown) && p->torch_grouped_mm_slowdown > 0)
            gslow = p->torch_grouped_mm_slowdown;
        grouped_linear(gpu, p, px, e_loc, m_e, up_e, hx, gslow, &ef, &eb, &efl);
        grouped_linear(gpu, p, px, e_loc, m_e, hx, fe / etp, gslow, &ef, &eb, &efl);
        /* Transformer Engine's per-expert kernels beyond the grouped
         * model's one (cs_compute_te_grouped_kernels), each at the floor */
        ef += cs_compute_te_grouped_kernels(w, px, e_loc, false) * p->kernel_overhead_s;
        eb += cs_compute_te_grouped_kernels(w, px, e_loc, true) * p->kernel_overhead_s;
        /* the experts' activation function, its clamp and fc2's bias
         * (docs/moe.md, "Compute"; cs_compute_moe_act_bytes) */
        double xf = 0.0, xb = 0.0;
        int xk = 0;
        cs_compute_moe_act_bytes(w, d.e, rows, fe / etp, hx, e_loc, &xf, &xb, &xk);
        ef += cs_compute_mem_s(gpu, p, xf);
        eb += cs_compute_mem_s(gpu, p, xb);
        if (xk > 1) { /* the per-expert bias kernels' own floors */
            ef += (xk - 1) * p->kernel_overhead_s;
            eb += (xk - 1) * p->kernel_overhead_s;
        }
        c.expert_fwd_s = ef;
        c.expert_bwd_s = eb;
        c.fwd_s += ef;
        c.bwd_s += eb;
        /* the FLOPs of the convention count the tokens' own top-k experts */
        c.fwd_flops += efl;
        /* token dispatch and combine (all-to-all over the EP group): each
         * GPU sends its t_r k routed copies of h and gets as many back */
        c.ep_a2a_bytes = t_r * k * hx * d.e;
        c.ep_a2a_fwd = 2;
        c.ep_a2a_bwd = 2;
        if (etp > 1) { /* the slot's tokens gathered over, and scattered back from, the ETP group */
            c.etp_msg_bytes = rows * hx * d.e;
            c.etp_pairs = 1;
        }
        c.expert_params = cs_memory_layer_expert_params(w);
    }
    c.bwd_flops = 2.0 * c.fwd_flops;

    switch (w->recompute) {
    case CS_RECOMPUTE_OP: {
        /* torchtitan's per-op selective activation checkpointing
         * (torchtitan/distributed/activation_checkpoint.py, _save_list and
         * "save every other mm"): of the layer's matmuls in call order (wq,
         * wk, wv, wo, w1, [w3,] w2) the odd ones' outputs are kept, so the
         * backward redoes wk, wo and w3 (swiglu) or w2 (gelu), and every
         * memory-bound kernel; the attention kernel's output is kept. (An
         * MoE layer: the attention's wk and wo, and the memory-bound
         * kernels.) */
        bool swiglu = m->activation == CS_ACT_SWIGLU;
        double fr = moe ? 0.0 : d.f / d.tp;
        double t_rc = lin_gemm_s(gpu, p, p_qkv, d.tokens, d.kv_g * d.hd, d.h, 1.0) +
                      lin_gemm_s(gpu, p, p_proj, d.tokens, d.h, d.a_g * d.dv, 1.0) +
                      (fr <= 0 ? 0.0
                       : swiglu ? lin_gemm_s(gpu, p, p_ffn, d.tokens, fr, d.h, 1.0)
                                : lin_gemm_s(gpu, p, p_ffn, d.tokens, d.h, fr, 1.0));
        c.recompute_s = t_rc + mem_fwd;
        c.recompute_flops = 2.0 * d.tokens * d.h * (d.kv_g * d.hd + d.a_g * d.dv + fr);
        /* the all-gathered inputs of sequence parallelism are not kept */
        c.tp_allgather_recompute = c.tp_allgather_fwd;
        break;
    }
    case CS_RECOMPUTE_FULL:
        /* the whole forward again, token dispatch and combine included */
        c.recompute_s = c.fwd_s;
        c.recompute_flops = c.fwd_flops;
        c.tp_allreduce_recompute = c.tp_allreduce_fwd;
        c.tp_allgather_recompute = c.tp_allgather_fwd;
        c.tp_reducescatter_recompute = c.tp_reducescatter_fwd;
        c.ep_a2a_recompute = c.ep_a2a_fwd;
        c.expert_recompute_s = c.expert_fwd_s;
        break;
    case CS_RECOMPUTE_SELECTIVE: {
        /* Korthikanti et al. 2022, Section 4.2: only the attention core. A
         * fused kernel stores no s^2 tensor and already recomputes the
         * scores inside its backward, so there is nothing more to redo. */
        unsigned mods = w->recompute_modules ? w->recompute_modules : CS_RC_MOD_CORE_ATTN;
        if ((mods & CS_RC_MOD_CORE_ATTN) && !p->fused_attention) {
            c.recompute_s = at.fwd_s;
            c.recompute_flops = at.flops;
        }
        /* Megatron-Core's recompute_modules (memory.c keeps their inputs
         * only): each rebuilt in the backward by its forward again */
        if (mods & CS_RC_MOD_LAYERNORM)
            c.recompute_s += norms * cs_compute_mem_s(gpu, p, 2.0 * d.e * d.n_h);
        if ((mods & CS_RC_MOD_MLP) && f_dense > 0) {
            c.recompute_s += lin_gemm_s(gpu, p, p_ffn, d.tokens, up_n, d.h, 1.0) +
                             lin_gemm_s(gpu, p, p_ffn, d.tokens, d.h, f_dense / d.tp, 1.0) +
                             cs_compute_mem_s(gpu, p,
                                              cs_activation_mem_passes(m->activation) * d.e * n_f);
            c.recompute_flops += 2.0 * d.tokens * d.h * (up_n + f_dense / d.tp);
        }
        if ((mods & CS_RC_MOD_MOE) && moe) {
            /* the MoE block again: router, permutation, experts, and its
             * dispatch and combine (the step adds those all-to-alls) */
            c.recompute_s += c.expert_fwd_s + (c.fwd_s - before_moe_fwd - c.expert_fwd_s);
            c.expert_recompute_s = c.expert_fwd_s;
            c.ep_a2a_recompute = c.ep_a2a_fwd;
        } else if ((mods & CS_RC_MOD_MOE_ACT) && moe && !w->fused_grouped_mlp) {
            /* the activation (with its clamp) again; fc2's bias is after
             * the checkpointed function and is not redone */
            double etp = w->par.etp > 0 ? w->par.etp : 1;
            double rows = etp * d.tokens / d.tp * mo->top_k;
            struct cs_workload nb = *w;
            nb.model.moe.expert_bias = false;
            double rf = 0.0, rb = 0.0;
            int rk = 0;
            cs_compute_moe_act_bytes(&nb, d.e, rows, mo->expert_ffn_hidden / etp,
                                     mo->latent > 0 ? (double)mo->latent : d.h, 1.0, &rf, &rb, &rk);
            c.recompute_s += cs_compute_mem_s(gpu, p, rf);
        }
        if ((mods & CS_RC_MOD_MLA_UP_PROJ) && m->attention == CS_ATTN_MLA) {
            const struct cs_mla_shape *l = &m->mla;
            double qk = (double)l->qk_nope_dim + l->qk_rope_dim, kvw = (double)l->qk_nope_dim + l->v_dim;
            double qin = l->q_lora_rank > 0 ? (double)l->q_lora_rank : d.h;
            c.recompute_s += lin_gemm_s(gpu, p, p_qkv, d.tokens, d.a_g * qk, qin, 1.0) +
                             lin_gemm_s(gpu, p, p_qkv, d.tokens, d.a_g * kvw, l->kv_lora_rank, 1.0);
            c.recompute_flops += 2.0 * d.tokens * (d.a_g * qk * qin + d.a_g * kvw * l->kv_lora_rank);
        }
        break;
    }
    case CS_RECOMPUTE_NONE:
        break;
    }
    if (d.cp > 1 && has_attn) {
        /* Ring attention: cp - 1 steps, each forwarding this rank's K and V
         * block; the backward circulates K, V and their gradients. */
        c.cp_bytes_fwd = (d.cp - 1.0) * d.tokens * d.kv_g * (d.hd + d.dv) * d.e;
        c.cp_bytes_bwd = 2.0 * c.cp_bytes_fwd;
    }
    c.params = block ? cs_memory_block_params(w, kind)
               : moe ? cs_memory_layer_moe_params(w)
                     : cs_memory_layer_params(w);
    c.bwd_s += cs_compute_hp_grad_s(w, gpu, p, c.params + c.expert_params);
    c.act_msg_bytes = d.n_h * d.e;
    *out = c;
    return CS_OK;
}

cs_status cs_compute_layer(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                           const struct cs_compute_params *p, struct cs_layer_cost *out)
{
    return layer_cost(w, gpu, p, CS_BLOCK_LAYER, false, out);
}

cs_status cs_compute_moe_layer(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                               const struct cs_compute_params *p, struct cs_layer_cost *out)
{
    if (w == NULL || !cs_model_is_moe(&w->model))
        return CS_EINVAL;
    return layer_cost(w, gpu, p, cs_model_is_hybrid(&w->model) ? CS_BLOCK_MOE : CS_BLOCK_LAYER, true, out);
}

cs_status cs_compute_block(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                           const struct cs_compute_params *p, enum cs_block kind,
                           struct cs_layer_cost *out)
{
    if (w == NULL)
        return CS_EINVAL;
    return layer_cost(w, gpu, p, kind, kind == CS_BLOCK_MOE, out);
}

cs_status cs_compute_embedding(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                               const struct cs_compute_params *p, struct cs_layer_cost *out)
{
    struct dims d;
    cs_status st = get_dims(w, gpu, p, &d);
    if (st != CS_OK)
        return st;
    if (out == NULL)
        return CS_EINVAL;
    struct cs_layer_cost c;
    memset(&c, 0, sizeof c);
    double full = d.tokens * d.h;   /* b sq h, before sequence-parallel split */
    /* Vocabulary-parallel lookup: read this rank's rows, write the whole
     * (partial) output; then positions (gelu models) and dropout. */
    mem_op(gpu, p, d.e * full / d.tp + d.e * full, &c);
    if (w->model.activation == CS_ACT_GELU)
        mem_op(gpu, p, 3.0 * d.e * d.n_h, &c);
    mem_op(gpu, p, (2.0 * d.e + 1.0) * d.n_h, &c);
    if (d.tp > 1) {
        c.tp_msg_bytes = full * d.e;
        if (d.sp) {
            c.tp_reducescatter_fwd = 1;
            c.tp_allgather_bwd = 1;
        } else {
            c.tp_allreduce_fwd = 1;
        }
    }
    c.params = cs_memory_embedding_params(w);
    c.bwd_s += cs_compute_hp_grad_s(w, gpu, p, c.params);
    c.act_msg_bytes = d.n_h * d.e;
    *out = c;
    return CS_OK;
}

void cs_compute_ce_bytes(enum cs_cross_entropy k, double e, double *fwd, double *bwd)
{
    switch (k) {
    case CS_CE_EAGER:
        /* F.cross_entropy(logits.float()): the cast (read e, write 4);
         * log_softmax's max, sum and write passes (read 4 + 4 + 4, write 4).
         * Backward: nll_loss's gradient written (4), log_softmax's backward
         * (read its output and the gradient, a sum pass, write: 4 x 4), the
         * cast back (read 4, write e). */
        *fwd = e + 4.0 + 16.0;
        *bwd = 4.0 + 16.0 + 4.0 + e;
        return;
    case CS_CE_COMPILED:
        /* one generated kernel each way: the logits read, the fp32 work kept
         * in registers; backward reads them and writes their gradient (the
         * figure this model used for every kernel before 2026-12-03) */
        *fwd = e + 8.0;
        *bwd = 4.0 + e;
        return;
    case CS_CE_TE:
        /* Transformer Engine's Triton kernels up to TE 2.17
         * (transformer_engine/pytorch/triton/cross_entropy.py):
         * online_softmax_kernel reads the logits (e) for each row's max and
         * sum; cross_entropy_kernel reads them again and writes the
         * gradient over them (e + e). Backward: element_mul_kernel scales
         * it by the per-token loss gradient in place (e + e). */
        *fwd = 3.0 * e;
        *bwd = 2.0 * e;
        return;
    case CS_CE_TE_FP32:
        /* from TE 2.18 (01bbe3eea): the second kernel writes an fp32
         * gradient (e + e + 4 forward); the backward scales it in place
         * (4 + 4) and autograd casts it to the logits' type (4 + e) */
        *fwd = 2.0 * e + 4.0;
        *bwd = 8.0 + 4.0 + e;
        return;
    default:
        /* Megatron-LM's vocab-parallel cross entropy
         * (megatron/core/tensor_parallel/cross_entropy.py): .float() (read e,
         * write 4), max (read 4), -= max in place (read 4, write 4), exp
         * out= (read 4, write 4), sum (read 4), div_ (read 4, write 4).
         * Backward: grad_input.mul_ (read 4, write 4) and the cast of the
         * fp32 gradient back to the logits' type (read 4, write e). */
        *fwd = e + 4.0 + 4.0 + 8.0 + 8.0 + 4.0 + 8.0;
        *bwd = 8.0 + 4.0 + e;
        return;
    }
}

cs_status cs_compute_logits(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *p, struct cs_layer_cost *out)
{
    struct dims d;
    cs_status st = get_dims(w, gpu, p, &d);
    if (st != CS_OK)
        return st;
    if (out == NULL)
        return CS_EINVAL;
    struct cs_layer_cost c;
    memset(&c, 0, sizeof c);
    double gf = 0.0, gb = 0.0, flops = 0.0;
    /* Megatron-Core's output layer is its own ColumnParallelLinear
     * (megatron/core/models/gpt/gpt_model.py), not a Transformer Engine
     * module, and torchtitan's float8/MX converters leave `output` out:
     * with the block-scaled recipes it runs in bf16. (fp8 keeps its earlier
     * convention, the FP8 rate; docs/models.md, 2.3 "Block-scaled precisions".) */
    enum cs_precision lp = cs_precision_block_scaled(d.prec) ? CS_PREC_BF16 : d.prec;
    linear(gpu, p, lp, d.tokens, d.v / d.tp, d.h, &gf, &gb, &flops);
    c.fwd_s = gf;
    c.bwd_s = gb;
    c.fwd_flops = flops;
    c.bwd_flops = 2.0 * flops;
    mem_op(gpu, p, 2.0 * d.e * d.n_h, &c);   /* final norm */
    double eager_b = 0.0;   /* an eager final norm's bytes beyond it (0 unless eager) */
    cs_compute_eager_bytes(w, d.e, 0.0, 0.0, 0.0, d.n_h, 1, &eager_b);
    mem_op(gpu, p, eager_b, &c);
    /* The loss's HBM traffic per logit (docs/models.md 2.2). The
     * all-reduces of b s floats (max, sum, target logit) are too small to
     * count. */
    double n_v = d.tokens * d.v / d.tp, pf = 0.0, pb = 0.0;
    cs_compute_ce_bytes(cs_workload_cross_entropy(w), d.e, &pf, &pb);
    double ce_f = n_v * pf, ce_b = n_v * pb;
    c.fwd_s += cs_compute_mem_s(gpu, p, ce_f);
    c.bwd_s += cs_compute_mem_s(gpu, p, ce_b);
    c.fwd_bytes += ce_f;
    c.bwd_bytes += ce_b;
    if (d.tp > 1) {
        c.tp_msg_bytes = d.tokens * d.h * d.e;
        if (d.sp) {
            c.tp_allgather_fwd = 1;
            c.tp_reducescatter_bwd = 1;
        } else {
            c.tp_allreduce_bwd = 1;
        }
    }
    c.params = cs_memory_logits_params(w);
    c.bwd_s += cs_compute_hp_grad_s(w, gpu, p, c.params);
    *out = c;
    return CS_OK;
}

cs_status cs_compute_mtp_extra(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                               const struct cs_compute_params *p, struct cs_layer_cost *out)
{
    struct dims d;
    cs_status st = get_dims(w, gpu, p, &d);
    if (st != CS_OK)
        return st;
    if (out == NULL)
        return CS_EINVAL;
    struct cs_layer_cost c;
    memset(&c, 0, sizeof c);
    double gf = 0.0, gb = 0.0, flops = 0.0;
    /* eh_proj: the b s x 2h concatenation into h / tp columns */
    linear(gpu, p, d.prec, d.tokens, d.h / d.tp, 2.0 * d.h, &gf, &gb, &flops);
    c.fwd_s = gf;
    c.bwd_s = gb;
    c.fwd_flops = flops;
    c.bwd_flops = 2.0 * flops;
    /* two RMSNorms (each reads and writes a b s h tensor) and the
     * concatenation (reads two, writes one of twice the width) */
    mem_op(gpu, p, 2.0 * 2.0 * d.e * d.n_h + 4.0 * d.e * d.n_h, &c);
    c.params = cs_memory_mtp_extra_params(w);
    *out = c;
    return CS_OK;
}

/* Achievable host-link (PCIe x16) bandwidth of one direction for the
 * offload copies: 80% of the line rate (cluster.h), the DMA efficiency
 * ZeRO-Offload's measurements imply (Ren et al. 2021). NAN for a GPU without
 * a PCIe generation; the scenario loader refuses offload there. */
static double pcie_bw(int gen)
{
    return 0.8 * cs_pcie_x16_bytes_per_s(gen);
}

double cs_compute_optimizer_s(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                              const struct cs_compute_params *p, double params)
{
    if (!(params > 0))
        return 0.0;
    bool fp32 = w->precision == CS_PREC_FP32 || w->precision == CS_PREC_TF32;
    double g = cs_memory_grad_bytes_per_param(w);
    double wb = cs_memory_weight_bytes_per_param(w);
    /* Read and write master weights (fp32 training: the weights), m and v
     * (24 bytes), read the gradient, write the working-precision copy. */
    double bytes = 24.0 + g + (fp32 ? 0.0 : wb);
    if (!w->par.optimizer_offload)
        return params * bytes / (gpu->hbm_bw_bytes_per_s * p->mem_eff) + p->kernel_overhead_s;
    /* ZeRO-Offload (Ren et al. 2021): gradients go down, the CPU upcasts them
     * and runs Adam over fp32 states, updated weights come back up. */
    double cpu = params * (24.0 + 4.0) / CS_COMPUTE_CPU_ADAM_BW_BYTES_PER_S;
    double pcie = params * (g + wb) / pcie_bw(gpu->pcie_gen);
    return cpu + pcie;
}
