/* memory.c: per-GPU memory of a training configuration: model states
 * (Rajbhandari et al. 2020), activations (Korthikanti et al. 2022), buffers,
 * workspaces and the unusable reserve. Used by the step model to refuse
 * configurations that do not fit. Equations: docs/models.md, "Memory". */
#include "clustersim/models/memory.h"

#include <math.h>
#include <string.h>

static bool full_precision(const struct cs_workload *w)
{
    return w->precision == CS_PREC_FP32 || w->precision == CS_PREC_TF32;
}

/* Bytes of a weight in the working precision (16-bit, or fp32 training) */
static double working_bytes(const struct cs_workload *w)
{
    return full_precision(w) ? 4.0 : 2.0;
}

double cs_memory_weight_bytes_per_param(const struct cs_workload *w)
{
    /* Quantized recipes keep bf16 weights and cast per GEMM (the quantized
     * copies are not counted), unless the weights are stored quantized
     * (fp8_param_gather / fp4_param_gather: one usage's data and scales,
     * cs_precision_bytes; the copies per weight are weight_copies'). */
    if (cs_workload_quantized_params(w) && w->stack != CS_STACK_TORCHTITAN)
        return cs_precision_bytes(w->precision);
    return working_bytes(w);
}

double cs_memory_gather_bytes_per_param(const struct cs_workload *w)
{
    /* The parameter all-gathers (FSDP, the distributed optimizer's) move
     * the weights quantized with fp8/fp4_param_gather: Megatron-Core
     * all-gathers the stored Float8/MXFP8/NVFP4 data; under torchtitan the
     * flag is torchao's enable_fsdp_float8_all_gather, which keeps the
     * sharded weights in bf16 and casts them to FP8 before FSDP2's
     * all-gather (torchtitan docs/float8.md, 2024-10: "so we can
     * communicate in float8 to save bandwidth"). Otherwise the working
     * precision. */
    if (cs_workload_quantized_params(w))
        return cs_precision_bytes(w->precision);
    return working_bytes(w);
}

/* Stored copies of each quantized weight (fp8/fp4_param_gather): the
 * block-scaled formats keep a row-wise and a column-wise quantization (the
 * forward GEMM reads one, the data-gradient GEMM the other; Transformer
 * Engine's MXFP8Tensor and NVFP4Tensor with both usages); a tensor-scaled
 * FP8 weight keeps its transpose as well on Hopper, whose FP8 GEMMs take
 * only the TN layout (Float8Tensor's transpose cache), except under FSDP
 * (Megatron-Core DistributedDataParallelConfig keep_fp8_transpose_cache,
 * default false); Blackwell's FP8 GEMMs take either layout, so one copy. A
 * GPU with an mxfp8 peak is taken as Blackwell. */
static double weight_copies(const struct cs_workload *w, const struct cs_gpu_spec *gpu)
{
    if (!cs_workload_quantized_params(w) || w->stack == CS_STACK_TORCHTITAN)
        return 1.0;   /* torchao's Float8Linear casts the weight's transpose per GEMM */
    if (cs_precision_block_scaled(w->precision))
        return 2.0;
    bool blackwell = cs_gpu_block_scaled(gpu);
    bool fsdp = w->par.fsdp == CS_FSDP_FULL || w->par.fsdp == CS_FSDP_HYBRID;
    return blackwell || fsdp ? 1.0 : 2.0;
}

bool cs_memory_ds_bf16_optimizer(const struct cs_workload *w)
{
    return w->stack == CS_STACK_MEGATRON_DEEPSPEED && w->precision == CS_PREC_BF16 &&
           (w->par.fsdp == CS_FSDP_NONE || w->par.fsdp == CS_FSDP_ZERO1);
}

double cs_memory_grad_bytes_per_param(const struct cs_workload *w)
{
    if (full_precision(w))
        return 4.0;
    /* DeepSpeed's BF16 optimizer: the fp32 gradient it accumulates into
     * (fp32_groups_gradients, one per parameter, not sharded) and the bf16
     * gradients autograd leaves until the next micro-batch's backward
     * (clear_lp_grads runs before it, update_hp_grads after it without
     * clearing: runtime/bf16_optimizer.py, pipe/engine.py at
     * microsoft/DeepSpeed@735406e5) */
    if (cs_memory_ds_bf16_optimizer(w))
        return 6.0;
    /* Megatron-LM accumulates and all-reduces gradients in fp32 (its
     * distributed optimizer docs: 18 bytes per parameter, 6 + 12/d sharded);
     * ZeRO-2/3 and FSDP keep them in the working precision. */
    return (!w->grad_reduce_bf16 && (w->par.fsdp == CS_FSDP_NONE || w->par.fsdp == CS_FSDP_ZERO1))
               ? 4.0
               : 2.0;
}

bool cs_memory_shards_grads(enum cs_fsdp f)
{
    return f == CS_FSDP_ZERO2 || f == CS_FSDP_FULL || f == CS_FSDP_HYBRID;
}

double cs_memory_grad_reduce_bytes(const struct cs_workload *w)
{
    /* the engine's communication_data_type is bf16 under bf16 (engine.py):
     * the fp32 gradients are cast, all-reduced and copied back */
    if (cs_memory_ds_bf16_optimizer(w))
        return 2.0;
    if (!full_precision(w) && !w->grad_reduce_bf16 &&
        (w->stack == CS_STACK_TORCHTITAN || w->stack == CS_STACK_COMPOSER) &&
        cs_memory_shards_grads(w->par.fsdp))
        return 4.0;
    return cs_memory_grad_bytes_per_param(w);
}

double cs_memory_optimizer_bytes_per_param(const struct cs_workload *w)
{
    /* Adam: fp32 momentum and variance, plus the fp32 master copy in mixed
     * precision (Rajbhandari et al. 2020, Section 3.1: K = 12); with the
     * moments in bf16 (DeepSeek-V3 report, Section 3.3.3) 2 + 2 + 4 = 8 (in
     * fp32 training, 2 + 2: the weights are the master copy). */
    if (w->optimizer_moments_bf16)
        return full_precision(w) ? 4.0 : 8.0;
    return full_precision(w) ? 8.0 : 12.0;
}

double cs_memory_loss_bytes_per_logit(const struct cs_workload *w)
{
    switch (cs_workload_cross_entropy(w)) {
    case CS_CE_EAGER:
        /* F.cross_entropy(logits.float()): log_softmax saves its fp32 output;
         * in the backward nll_loss's fp32 gradient and log_softmax's fp32
         * gradient are made while it lives: 3 x 4 bytes. Loss parallelism
         * (DTensor, torchtitan with tp > 1) decomposes the backward
         * (tensor/parallel/loss.py: grad_output - exp(output) x sum), one
         * more fp32 temporary: 16. */
        return w->par.tp > 1 ? 16.0 : 12.0;
    case CS_CE_COMPILED:
        /* one Inductor kernel each way: the bf16 logits kept for the
         * backward, their bf16 gradient written by it */
        return 4.0;
    case CS_CE_TE:
        /* the gradient written over the logits in the forward: the logits'
         * own e bytes, nothing beside them */
        return cs_workload_act_bytes(w->precision);
    case CS_CE_TE_FP32:
        /* the fp32 gradient made beside the logits (forward), and beside
         * its cast back (backward) */
        return cs_workload_act_bytes(w->precision) + 4.0;
    case CS_CE_FUSED:
    case CS_CE_AUTO:
    case CS_CE_COUNT:
    default:
        /* the fp32 logits, softmax and gradient made in place (Megatron-
         * Core's _VocabParallelCrossEntropy; Korthikanti et al. 2022, 4.3) */
        return 4.0;
    }
}

static int kv_heads(const struct cs_model_shape *m)
{
    return m->kv_heads > 0 ? m->kv_heads : m->heads;
}

/* kv heads held per GPU: kv/tp, or one replicated head when kv < tp. */
static double kv_per_gpu(const struct cs_workload *w)
{
    int kv = kv_heads(&w->model);
    return kv >= w->par.tp ? (double)kv / w->par.tp : 1.0;
}

/* A layer's parameters on one GPU with an FFN of width f (dense, or an MoE
 * layer's shared experts) tensor-parallel. */
static double layer_params_f(const struct cs_workload *w, double f)
{
    const struct cs_model_shape *m = &w->model;
    double t = w->par.tp, h = m->hidden;
    double hd = cs_model_qk_head_dim(m), dv = cs_model_v_head_dim(m), a_g = m->heads / t;
    bool gpt = m->activation == CS_ACT_GELU;
    double qkv_n = (a_g + 2.0 * kv_per_gpu(w)) * hd;
    double up_n = (m->activation == CS_ACT_SWIGLU ? 2.0 : 1.0) * f / t;
    double attn = h * qkv_n;
    if (m->attention == CS_ATTN_MLA) {
        /* MLA: the down projections (and their norms) on every TP rank, the
         * up projections split by heads (compute.c, attn_projections) */
        const struct cs_mla_shape *l = &m->mla;
        double qk = (double)l->qk_nope_dim + l->qk_rope_dim;
        attn = l->q_lora_rank > 0 ? h * l->q_lora_rank + l->q_lora_rank + l->q_lora_rank * a_g * qk
                                  : h * a_g * qk;
        attn += h * ((double)l->kv_lora_rank + l->qk_rope_dim) + l->kv_lora_rank +
                (double)l->kv_lora_rank * a_g * ((double)l->qk_nope_dim + l->v_dim);
    }
    double p = attn + a_g * dv * h + h * up_n + f / t * h;
    if (gpt)   /* column-parallel biases are split, row-parallel ones replicated */
        p += qkv_n + h + up_n + h;
    p += 2.0 * (cs_activation_norm_bias(m->activation) ? 2.0 * h : h);
    return p;
}

double cs_memory_layer_params(const struct cs_workload *w)
{
    return layer_params_f(w, w->model.ffn_hidden);
}

double cs_memory_layer_expert_params(const struct cs_workload *w)
{
    const struct cs_moe_shape *e = &w->model.moe;
    if (!cs_model_is_moe(&w->model))
        return 0.0;
    double ep = w->par.ep > 0 ? w->par.ep : 1, etp = w->par.etp > 0 ? w->par.etp : 1;
    double fe = e->expert_ffn_hidden, h = e->latent > 0 ? e->latent : w->model.hidden;
    double up = (w->model.activation == CS_ACT_SWIGLU ? 2.0 : 1.0) * fe;
    return (double)e->experts / ep * (h * up + fe * h) / etp;
}

/* A latent MoE layer's two projections (hidden <-> latent), duplicated on
 * every TP rank (Megatron-Core's fc1/fc2_latent_proj, parallel_mode
 * "duplicated"); 0 without a latent width. */
static double latent_proj_params(const struct cs_workload *w)
{
    const struct cs_moe_shape *e = &w->model.moe;
    return e->latent > 0 ? 2.0 * (double)w->model.hidden * e->latent : 0.0;
}

double cs_memory_layer_moe_params(const struct cs_workload *w)
{
    const struct cs_moe_shape *e = &w->model.moe;
    if (!cs_model_is_moe(&w->model))
        return cs_memory_layer_params(w);
    double shared = (double)e->shared_experts * e->expert_ffn_hidden;
    return layer_params_f(w, shared) + (double)w->model.hidden * e->experts +
           cs_memory_layer_expert_params(w) + latent_proj_params(w);
}

double cs_memory_block_params(const struct cs_workload *w, enum cs_block kind)
{
    const struct cs_model_shape *m = &w->model;
    double t = w->par.tp, h = m->hidden;
    switch (kind) {
    case CS_BLOCK_ATTN: {
        /* the attention part of a layer without an MLP, its one norm */
        double two_norms = 2.0 * (cs_activation_norm_bias(m->activation) ? 2.0 * h : h);
        return layer_params_f(w, 0.0) - two_norms + h;
    }
    case CS_BLOCK_MLP: {
        double f = m->ffn_hidden, up = (m->activation == CS_ACT_SWIGLU ? 2.0 : 1.0) * f / t;
        return h * up + f / t * h + h;
    }
    case CS_BLOCK_MOE: {
        const struct cs_moe_shape *e = &m->moe;
        double fs = (double)e->shared_experts * e->expert_ffn_hidden;
        double up = (m->activation == CS_ACT_SWIGLU ? 2.0 : 1.0) * fs / t;
        return h * up + fs / t * h + h * e->experts + cs_memory_layer_expert_params(w) + latent_proj_params(w) + h;
    }
    case CS_BLOCK_MAMBA:
        /* in_proj, the convolution, the per-head and gated-norm weights and
         * out_proj, all split over tp (mamba_mixer.py) */
        return cs_model_mamba_params(m) / t + h;
    case CS_BLOCK_LAYER:
    case CS_BLOCK_COUNT:
        break;
    }
    return cs_memory_layer_params(w);
}

double cs_memory_embedding_params(const struct cs_workload *w)
{
    const struct cs_model_shape *m = &w->model;
    double p = (double)m->vocab * m->hidden / w->par.tp;
    if (m->activation == CS_ACT_GELU)
        p += (double)m->seq_len * m->hidden;   /* learned positions, replicated */
    return p;
}

double cs_memory_logits_params(const struct cs_workload *w)
{
    const struct cs_model_shape *m = &w->model;
    double p = cs_activation_norm_bias(m->activation) ? 2.0 * m->hidden : (double)m->hidden;
    if (!(m->tied_embeddings && w->par.pp == 1))
        p += (double)m->vocab * m->hidden / w->par.tp;
    return p;
}

double cs_memory_mtp_extra_params(const struct cs_workload *w)
{
    double h = w->model.hidden;
    return 2.0 * h * h / w->par.tp + 2.0 * h;
}

int cs_memory_shard_degree(const struct cs_workload *w, const struct cs_gpu_spec *gpu)
{
    /* With context parallelism the cp ranks of a data-parallel replica hold
     * the same weights and reduce the same gradients, so the gradient
     * reduction and the sharding run over dp x cp ranks: Megatron-Core's
     * distributed optimizer uses the data-parallel group "with context
     * parallel" (parallel_state.get_data_parallel_group(
     * with_context_parallel=True)), torchtitan's FSDP2 shards over its
     * dp_shard x cp mesh dimension. */
    int dpcp = w->par.dp * (w->par.cp > 0 ? w->par.cp : 1);
    switch (w->par.fsdp) {
    case CS_FSDP_NONE:
        return 1;
    case CS_FSDP_ZERO1:
    case CS_FSDP_ZERO2:
    case CS_FSDP_FULL:
        return dpcp;
    case CS_FSDP_HYBRID: {
        int g = w->par.fsdp_shard_group;
        if (g <= 0)
            g = (gpu != NULL && gpu->server_gpus > 0) ? gpu->server_gpus : 8;
        /* tp ranks are innermost (Megatron-LM's rank order: tp, cp, dp), so
         * a group of g GPUs holds g / tp of the dp x cp ranks. */
        int d = g / w->par.tp;
        if (d < 1)
            d = 1;
        return d < dpcp ? d : dpcp;
    }
    }
    return 1;
}

/* Activations of one layer with nothing recomputed, or only the attention
 * core kept out (store_s2 false), for one micro-batch on one GPU; of its
 * attention part, its MLP part, or both (a transformer layer). */
static double layer_acts_parts(const struct cs_workload *w, bool store_s2, bool attn_part, bool mlp_part)
{
    const struct cs_model_shape *m = &w->model;
    double e = cs_workload_act_bytes(w->precision);
    double t = w->par.tp, b = w->micro_batch, s = m->seq_len, sq = s / w->par.cp;
    double h = m->hidden, f = m->ffn_hidden, a = m->heads;
    bool sp = w->par.sp && w->par.tp > 1;
    double n = sq * b * h;
    double kv_frac = kv_per_gpu(w) * t / a;
    /* Korthikanti et al. 2022, Section 4.1, in elements of size e: */
    /* replicated across TP ranks unless SP: both norm inputs (2e), the QKV
     * and the MLP input (e each), two 1-byte dropout masks (when the model
     * trains with dropout). */
    double drop = m->dropout ? 1.0 : 0.0;
    /* FP8 with Transformer Engine: each linear layer keeps its input for the
     * weight gradient as the FP8 (column-wise) copy it already made, 1 byte
     * instead of e (transformer_engine/pytorch/module/linear.py, _Linear:
     * saved_inputmat = the FP8 inputmat); the norms and the attention core
     * keep theirs in bf16, so the attention output is kept twice (bf16 by
     * the attention, FP8 by the projection). torchao's Float8Linear
     * (torchtitan) saves the high-precision input (matmul_with_hp_or_float8_
     * args: save_for_backward(input_hp, ...)), so its inputs stay e. */
    /* MXFP8 and NVFP4 likewise keep only the column-wise quantized copy
     * (linear.py: update_usage(rowwise_usage=False, columnwise_usage=True)),
     * cs_precision_bytes: 1 + 1/32 and 1/2 + 1/16 bytes with the block
     * scales; torchao's MX linear (torchtitan; prototype/mx_formats/
     * mx_linear.py, mx_mm.forward: save_for_backward(input_hp, ...)) saves
     * the bf16 input too. */
    bool f8 = cs_precision_quantized(w->precision) && w->stack != CS_STACK_TORCHTITAN;
    double lin = f8 ? cs_precision_bytes(w->precision) : e; /* bytes per saved linear input */
    /* Megatron-Core's recompute_modules (selective): the norms' outputs
     * (the QKV and MLP inputs), the MLP's inner tensors, MLA's up-projected
     * queries, keys and values are rebuilt in the backward, not kept. */
    unsigned mods = w->recompute == CS_RECOMPUTE_SELECTIVE ? w->recompute_modules : 0u;
    double parts = (attn_part ? 1.0 : 0.0) + (mlp_part ? 1.0 : 0.0);
    double rep = parts * (e + ((mods & CS_RC_MOD_LAYERNORM) ? 0.0 : lin) + drop) * n;
    /* split by TP: Q, K and V (K and V scaled by kv/a), the projection
     * input, and the MLP activation tensors: gelu input and output (2 f),
     * swiglu up, gate and product (3 f). Per token: queries a d_qk, keys
     * and values kv (d_qk + d_v), the projection input a d_v (h, 2 h kv/a
     * and h for d = h/a: Korthikanti's 2 + 2 kv/a of s b h). MLA with its
     * up-projections recomputed keeps the latents instead: q_lora +
     * kv_lora + rope per token. */
    /* bytes per f-wide element: gelu input (e) and output (the second
     * linear's input); swiglu's two inputs (2 e) and product */
    /* DeepSeek-V3's storage (fp8_act_storage): the SwiGLU inputs at the
     * quantized width */
    bool lps = f8 && w->fp8_act_storage;
    double mfb = (m->activation == CS_ACT_SWIGLU ? 2.0 * (lps ? lin : e) : e) + lin;
    if (mods & CS_RC_MOD_MLP)
        mfb = 0.0;
    double dqk = cs_model_qk_head_dim(m), dv = cs_model_v_head_dim(m), kv_all = kv_frac * a;
    double tok = sq * b;
    double qkv = (a * dqk + kv_all * (dqk + dv)) * tok;
    if (m->attention == CS_ATTN_MLA && (mods & CS_RC_MOD_MLA_UP_PROJ))
        qkv = t * tok * ((double)m->mla.q_lora_rank + m->mla.kv_lora_rank + m->mla.qk_rope_dim);
    /* the attention output: bf16 for the attention's backward plus the
     * projection's quantized copy, or (fp8_act_storage) one 12-bit E5M6
     * tensor for both */
    double attn_out = lps ? CS_MEMORY_E5M6_BYTES : e + (f8 ? lin : 0.0);
    double shard = (attn_part ? e * qkv + attn_out * a * dv * tok : 0.0) + (mlp_part ? mfb * tok * f : 0.0);
    /* softmax output (e), its dropout mask (1, with dropout) and output
     * (e): a s^2 b. */
    double s2 = store_s2 && attn_part ? (2.0 * e + drop) * a * sq * s * b : 0.0;
    return rep / (sp ? t : 1.0) + shard / t + s2 / t;
}

static double layer_acts(const struct cs_workload *w, bool store_s2)
{
    return layer_acts_parts(w, store_s2, true, true);
}

/* A Mamba-2 block's stored activations for one micro-batch on one GPU
 * (Megatron-Core's MambaMixer on its memory-efficient path, mamba_ssm's
 * mamba_split_conv1d_scan_combined, which keeps in_proj's output and
 * reruns the convolution in the backward): the norm's input and in_proj's
 * (at the quantized width under FP8, as a linear layer's), in_proj's
 * output [z, x, B, C, dt], the scan's output before the gated norm, and
 * out_proj's input. */
static double mamba_acts(const struct cs_workload *w)
{
    const struct cs_model_shape *m = &w->model;
    const struct cs_mamba_shape *mb = &m->mamba;
    double e = cs_workload_act_bytes(w->precision);
    bool f8 = cs_precision_quantized(w->precision) && w->stack != CS_STACK_TORCHTITAN;
    double lin = f8 ? cs_precision_bytes(w->precision) : e;
    double t = w->par.tp, tok = (double)m->seq_len / w->par.cp * w->micro_batch;
    bool sp = w->par.sp && w->par.tp > 1;
    unsigned mods = w->recompute == CS_RECOMPUTE_SELECTIVE ? w->recompute_modules : 0u;
    double H = mb->heads / t, din = H * mb->head_dim, gn = (double)mb->groups / t * mb->state;
    double rep = (e + ((mods & CS_RC_MOD_LAYERNORM) ? 0.0 : lin)) * tok * m->hidden;
    double shard = (e * (2.0 * din + 2.0 * gn + H) + e * din + lin * din) * tok;
    return rep / (sp ? t : 1.0) + shard;
}

/* A hybrid model's block's stored activations, by kind: recomputed (the
 * workload's recomputation applies) or not (the blocks a partial full
 * recomputation leaves out keep everything). The MoE slot is
 * moe_layer_acts'. */
static double slot_acts(const struct cs_workload *w, enum cs_block k, bool fused, bool recomputed)
{
    if (recomputed && w->recompute == CS_RECOMPUTE_FULL)
        return cs_memory_layer_activations(w, fused);   /* the block's input */
    bool s2 = w->recompute == CS_RECOMPUTE_NONE || w->recompute == CS_RECOMPUTE_FULL ? !fused : false;
    switch (k) {
    case CS_BLOCK_ATTN:
        return layer_acts_parts(w, s2, true, false);
    case CS_BLOCK_MLP:
        return layer_acts_parts(w, s2, false, true);
    case CS_BLOCK_MAMBA:
        return mamba_acts(w);
    case CS_BLOCK_LAYER:
    case CS_BLOCK_MOE:
    case CS_BLOCK_COUNT:
        break;
    }
    return layer_acts(w, s2);
}

/* torchtitan's per-op selective checkpointing (compute.c): the layer input,
 * the outputs of wq, wv, w1 and (swiglu) w2, and the attention kernel's
 * output, for one micro-batch on one GPU. */
static double layer_acts_op(const struct cs_workload *w)
{
    const struct cs_model_shape *m = &w->model;
    double e = cs_workload_act_bytes(w->precision);
    double t = w->par.tp, b = w->micro_batch, sq = (double)m->seq_len / w->par.cp;
    double h = m->hidden, f = m->ffn_hidden, hd = h / m->heads;
    bool sp = w->par.sp && w->par.tp > 1;
    double in = sq * b * h / (sp ? t : 1.0);
    double q = sq * b * h / t, v = sq * b * kv_per_gpu(w) * hd, up = sq * b * f / t;
    double o = sq * b * h / t;
    double down = m->activation == CS_ACT_SWIGLU ? sq * b * h : 0.0; /* w2 is the 7th mm */
    return e * (in + q + v + up + o + down);
}

double cs_memory_layer_activations(const struct cs_workload *w, bool fused_attention)
{
    switch (w->recompute) {
    case CS_RECOMPUTE_OP:
        return layer_acts_op(w);
    case CS_RECOMPUTE_FULL: {
        /* Only the layer input (Korthikanti et al. 2022, Section 4.2: 2 s b h,
         * divided by t with sequence parallelism). */
        double e = cs_workload_act_bytes(w->precision);
        bool sp = w->par.sp && w->par.tp > 1;
        return e * ((double)w->model.seq_len / w->par.cp) * w->micro_batch * w->model.hidden /
               (sp ? w->par.tp : 1.0);
    }
    case CS_RECOMPUTE_SELECTIVE:
        return layer_acts(w, false);
    case CS_RECOMPUTE_NONE:
        break;
    }
    return layer_acts(w, !fused_attention);
}

/* One MoE layer's stored activations (docs/moe.md, "Memory"): the
 * attention part and the shared experts as a dense layer of the shared
 * width, and per routed copy on this GPU (etp t_r top_k of them, times the
 * load of the most loaded rank) the expert input (h), the up/gate output
 * (2 f_e / etp for swiglu), the activation output (f_e / etp) and the
 * expert output kept for the combine's gradient (h), plus the router's fp32
 * scores (t_r x E); the GEMM inputs at the width their quantized copies
 * take. Full recomputation keeps the layer input only. */
static double moe_layer_acts(const struct cs_workload *w, bool fused, double load)
{
    if (w->recompute == CS_RECOMPUTE_FULL)
        return cs_memory_layer_activations(w, fused);
    const struct cs_moe_shape *mo = &w->model.moe;
    struct cs_workload v = *w;
    /* the shared experts' width (0 without: the attention part alone) */
    v.model.ffn_hidden = mo->shared_experts * mo->expert_ffn_hidden;
    v.model.moe.experts = 0;
    /* a hybrid model's E block has no attention: its norm and shared experts */
    double base = cs_model_is_hybrid(&w->model)
                      ? layer_acts_parts(&v, false, false, true)
                      : cs_memory_layer_activations(&v, fused);
    double e = cs_workload_act_bytes(w->precision);
    double etp = w->par.etp > 0 ? w->par.etp : 1;
    double t_r = (double)w->micro_batch * w->model.seq_len / w->par.cp / w->par.tp;
    double rows = etp * t_r * mo->top_k * (load >= 1.0 ? load : 1.0);
    /* latent MoE: the routed copies travel and enter the experts at the
     * latent width; fc2_latent_proj keeps its latent input */
    double fe = mo->expert_ffn_hidden / etp, h = mo->latent > 0 ? mo->latent : w->model.hidden;
    double up = w->model.activation == CS_ACT_SWIGLU ? 2.0 * fe : fe;
    /* the two expert GEMMs' inputs are kept as their quantized column-wise
     * copies under FP8 and the block-scaled formats (Transformer Engine's
     * GroupedLinear keeps the quantized column-wise inputmats for the weight
     * gradient, transformer_engine/pytorch/module/grouped_linear.py,
     * _GroupedLinear.forward, as its Linear does: layer_acts above) */
    bool f8 = cs_precision_quantized(w->precision) && w->stack != CS_STACK_TORCHTITAN;
    double lin = f8 ? cs_precision_bytes(w->precision) : e;
    /* recompute_modules moe_act: the activation's output (the second
     * GEMM's input) is rebuilt from the first GEMM's */
    bool act_rc = w->recompute == CS_RECOMPUTE_SELECTIVE && (w->recompute_modules & CS_RC_MOD_MOE_ACT);
    /* recompute_modules moe: the whole block rebuilt from its input (kept
     * with the attention part as the MLP input) */
    if (w->recompute == CS_RECOMPUTE_SELECTIVE && (w->recompute_modules & CS_RC_MOD_MOE))
        return base;
    /* fp8_act_storage: the SwiGLU inputs cached at the quantized width */
    double up_b = f8 && w->fp8_act_storage ? lin : e;
    /* The expert output, kept when the combine weighs it by the router's
     * probabilities (their gradient needs it). Megatron-Core applies the
     * probabilities inside the activation instead since 2025-04
     * (NVIDIA/Megatron-LM 2659630721, "Memory efficient token permutation":
     * activation_func_with_probs in experts.py), so its unpermute keeps
     * nothing; torchtitan's MoE scales the experts' outputs (score after
     * the experts, its default) and keeps them. */
    double out_b = w->stack == CS_STACK_MCORE_2024 ? 0.0 : e;
    /* a clamped GLU run unfused (cs_compute_moe_act_bytes): the clamps
     * keep the first GEMM's output for their gradient and the activation
     * keeps the clamped copy, so the GLU input is held twice (not when the
     * activation is recomputed: its checkpoint keeps the input alone) */
    double clamp_b = mo->glu_clamp > 0 && w->model.activation == CS_ACT_SWIGLU &&
                             !w->fused_grouped_mlp && !act_rc
                         ? e
                         : 0.0;
    double latent_in = mo->latent > 0 ? lin * t_r * mo->latent : 0.0;
    return base + rows * (lin * h + (up_b + clamp_b) * up + (act_rc ? 0.0 : lin * fe) + out_b * h) +
           4.0 * t_r * mo->experts + latent_in;
}

double cs_memory_layer_offload_bytes(const struct cs_workload *w, bool moe_layer)
{
    unsigned off = w->offload_modules;
    if (!off || w->recompute == CS_RECOMPUTE_FULL)
        return 0.0;
    const struct cs_model_shape *m = &w->model;
    unsigned rmods = w->recompute == CS_RECOMPUTE_SELECTIVE ? w->recompute_modules : 0u;
    double e = cs_workload_act_bytes(w->precision);
    bool f8 = cs_precision_quantized(w->precision) && w->stack != CS_STACK_TORCHTITAN;
    double lin = f8 ? cs_precision_bytes(w->precision) : e;
    double t = w->par.tp, b = w->micro_batch, sq = (double)m->seq_len / w->par.cp;
    bool sp = w->par.sp && w->par.tp > 1;
    double tok = sq * b, n_h = tok * m->hidden / (sp ? t : 1.0);
    double a = m->heads, dqk = cs_model_qk_head_dim(m), dv = cs_model_v_head_dim(m);
    double kv_all = kv_per_gpu(w) * t;
    double bytes = 0.0;
    /* the norms' inputs: the residual stream, e wide */
    if (off & CS_OFF_MOD_ATTN_NORM)
        bytes += e * n_h;
    if (off & CS_OFF_MOD_MLP_NORM)
        bytes += e * n_h;
    /* the QKV linear's input (the attention norm's output), unless rebuilt */
    if ((off & CS_OFF_MOD_QKV_LINEAR) && !(rmods & CS_RC_MOD_LAYERNORM))
        bytes += lin * n_h;
    /* the attention core's inputs: queries, keys and values */
    if ((off & CS_OFF_MOD_CORE_ATTN) &&
        !(m->attention == CS_ATTN_MLA && (rmods & CS_RC_MOD_MLA_UP_PROJ)))
        bytes += e * (a * dqk + kv_all * (dqk + dv)) * tok / t;
    /* the output projection's input (and its quantized copy) */
    if (off & CS_OFF_MOD_ATTN_PROJ)
        bytes += (e + (f8 ? lin : 0.0)) * a * dv * tok / t;
    if (moe_layer && cs_model_is_moe(m) && !(rmods & CS_RC_MOD_MOE)) {
        const struct cs_moe_shape *mo = &m->moe;
        double etp = w->par.etp > 0 ? w->par.etp : 1;
        double rows = etp * tok / t * mo->top_k;
        double fe = mo->expert_ffn_hidden / etp;
        double up = m->activation == CS_ACT_SWIGLU ? 2.0 * fe : fe;
        if (off & CS_OFF_MOD_EXPERT_FC1)   /* the routed copies, at their quantized width */
            bytes += rows * lin * m->hidden;
        if (off & CS_OFF_MOD_MOE_ACT)      /* the activation's input: the first GEMM's output */
            bytes += rows * e * up;
    }
    return bytes;
}

struct stage_mem {
    double params, weights, grads, optimizer, acts, comm, workspace, total, host;
};

static void stage_memory(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                         bool fused, int stage, struct stage_mem *out)
{
    const struct cs_model_shape *m = &w->model;
    int pp = w->par.pp;
    bool first = stage == 0;
    /* The stage's vp chunks, chunk c holding virtual stage c pp + stage,
     * split as the step splits them (cs_workload_vstage_layers): their
     * layers, the MoE layers among them, and the activations they hold at
     * the schedule's peak (cs_workload_inflight_chunks: 1F1B holds
     * min(pp - s, m) micro-batches, Narayanan et al. 2021, Section 2.2.1;
     * interleaved, Megatron's warm-up, whose average over the chunks is
     * Korthikanti et al. 2022's 1 + (pp - 1)/(pp vp) on the first stage).
     * held_l and held_m count layer-micro-batches (all, MoE); rc_sum the
     * layers a partial full recomputation redoes. */
    long per_replica = (long)w->micro_batch * w->par.dp;
    long micro = w->global_batch / per_replica;
    if (micro < 1)
        micro = 1;
    int vpn = w->par.vp > 1 ? w->par.vp : 1;
    int layers = 0, nm = 0, rc_sum = 0, mtp = 0;
    double held_l = 0.0, held_m = 0.0, held_mtp = 0.0;
    /* by slot (cs_model_layer_slot): layers and layer-micro-batches held */
    int nslot[CS_BLOCK_COUNT] = {0};
    double hslot[CS_BLOCK_COUNT] = {0};
    bool moe = cs_model_is_moe(m);
    /* an MTP module's transformer layer is of the decoder's last kind */
    bool mtp_moe = moe && cs_model_layer_is_moe(m, m->layers - 1);
    bool has_emb = false, has_loss = false;
    for (int c = 0; c < vpn; c++) {
        int lo = 0;
        int n = cs_workload_vstage_layers(w, c * pp + stage, &lo);
        bool ce = false, cl = false;
        int nmtp = 0;
        cs_workload_vstage_extras(w, c * pp + stage, &ce, &nmtp, &cl);
        has_emb |= ce;
        has_loss |= cl;
        int nmc = moe ? cs_model_moe_layers_in(m, lo, n) : 0;
        int cnt[CS_BLOCK_COUNT];
        cs_model_slots_in(m, lo, n, cnt);
        /* an MTP module's layer: the decoder's last kind; a hybrid model's
         * module also has an attention block (Nemotron 3 Super's
         * mtp_hybrid_override_pattern "*E") */
        cnt[cs_model_layer_slot(m, m->layers - 1)] += nmtp;
        if (cs_model_is_hybrid(m)) {
            cnt[CS_BLOCK_ATTN] += nmtp;
            n += nmtp;
        }
        n += nmtp;
        nmc += mtp_moe ? nmtp : 0;
        if (n <= 0)
            continue;
        double k = cs_workload_inflight_chunks(pp, vpn, stage, micro, c);
        for (int q = 0; q < CS_BLOCK_COUNT; q++) {
            nslot[q] += cnt[q];
            hslot[q] += k * cnt[q];
        }
        mtp += nmtp;
        held_mtp += k * nmtp;
        layers += n;
        nm += nmc;
        held_l += k * n;
        held_m += k * nmc;
        rc_sum += cs_workload_recomputed_layers(w, n);
    }
    double e = cs_workload_act_bytes(w->precision);
    double t = w->par.tp, b = w->micro_batch, sq = (double)m->seq_len / w->par.cp;
    bool sp = w->par.sp && w->par.tp > 1;
    double n_h = sq * b * m->hidden / (sp ? t : 1.0);   /* a b x s x h tensor as stored */
    bool last = stage == pp - 1;
    struct stage_mem r;
    memset(&r, 0, sizeof r);

    bool hybrid = cs_model_is_hybrid(m);
    double p_moe = moe ? cs_memory_layer_moe_params(w) : 0.0;
    double experts = moe ? nm * cs_memory_layer_expert_params(w) : 0.0;
    r.params = nm * p_moe;
    for (int q = 0; q < CS_BLOCK_COUNT; q++)
        if (q != CS_BLOCK_MOE && nslot[q] > 0)
            r.params += nslot[q] * (hybrid ? cs_memory_block_params(w, (enum cs_block)q) : cs_memory_layer_params(w));
    /* the stage holding MTP modules keeps its own embedding and output
     * layer where it has not got them (Megatron-Core's mtp_process) */
    bool emb_here = first || (mtp > 0 && !has_emb), out_here = last || (mtp > 0 && !has_loss);
    if (emb_here)
        r.params += cs_memory_embedding_params(w);
    if (out_here)
        r.params += cs_memory_logits_params(w);
    r.params += mtp * cs_memory_mtp_extra_params(w);
    if (m->mtp_shared && mtp > 1) {
        /* the passes share one module's weights (mtp_shared) */
        enum cs_block lq = cs_model_layer_slot(m, m->layers - 1);
        double layer = lq == CS_BLOCK_MOE ? p_moe
                       : hybrid           ? cs_memory_block_params(w, lq)
                                          : cs_memory_layer_params(w);
        if (hybrid)
            layer += cs_memory_block_params(w, CS_BLOCK_ATTN);
        r.params -= (mtp - 1) * (layer + cs_memory_mtp_extra_params(w));
        if (lq == CS_BLOCK_MOE)
            experts -= (mtp - 1) * cs_memory_layer_expert_params(w);
    }

    /* Model states, sharded over the data-parallel group (ZeRO stages
     * 1/2/3, Rajbhandari et al. 2020, Figure 1). */
    double d = cs_memory_shard_degree(w, gpu);
    enum cs_fsdp fs = w->par.fsdp;
    double sw = (fs == CS_FSDP_FULL || fs == CS_FSDP_HYBRID) ? d : 1.0;
    double sg = cs_memory_shards_grads(fs) ? d : 1.0;
    double so = fs == CS_FSDP_NONE ? 1.0 : d;
    /* The experts' states over the expert data-parallel group (Megatron-
     * Core's expert distributed optimizer, FSDP's expert mesh) */
    double de = cs_workload_expert_dp(w);
    if (fs == CS_FSDP_HYBRID && de > d)
        de = d;
    double swe = (fs == CS_FSDP_FULL || fs == CS_FSDP_HYBRID) ? de : 1.0;
    double sge = cs_memory_shards_grads(fs) ? de : 1.0;
    double soe = fs == CS_FSDP_NONE ? 1.0 : de;
    double dense = r.params - experts;
    /* the embedding and output layer stay 16-bit when the layers' weights
     * are stored quantized (Transformer Engine quantizes only its linear
     * layers) */
    double wq = cs_memory_weight_bytes_per_param(w) * weight_copies(w, gpu);
    double w16 = working_bytes(w);
    /* the layers' weights as all-gathered and held unsharded (FSDP) */
    double wg = cs_memory_gather_bytes_per_param(w) * weight_copies(w, gpu);
    double edge = 0.0;
    if (emb_here)
        edge += cs_memory_embedding_params(w);
    if (out_here)
        edge += cs_memory_logits_params(w);
    r.weights = wq * ((dense - edge) / sw + experts / swe) + w16 * edge / sw;
    r.grads = cs_memory_grad_bytes_per_param(w) * (dense / sg + experts / sge);
    r.optimizer = w->par.optimizer_offload
                      ? 0.0
                      : cs_memory_optimizer_bytes_per_param(w) * (dense / so + experts / soe);

    /* Activations: held_l layer-micro-batches (above); inflight is their
     * stage-sized equivalent. */
    double inflight = layers > 0 ? held_l / layers : 1.0;
    /* Full recomputation of only the first recompute_layers layers of each
     * of the GPU's vp virtual stages: those store their input, the others
     * everything (Megatron-LM --recompute-method block). */
    double per_layer = cs_memory_layer_activations(w, fused);
    double rc_layers = layers;
    if (w->recompute == CS_RECOMPUTE_FULL && w->recompute_layers > 0)
        rc_layers = rc_sum < layers ? rc_sum : layers;
    double stored = w->recompute == CS_RECOMPUTE_FULL ? layer_acts(w, !fused) : per_layer;
    r.acts = (rc_layers * per_layer + (layers - rc_layers) * stored) * inflight;
    /* the non-MoE layers by slot (a plain model's are all CS_BLOCK_LAYER,
     * whose figures are per_layer and stored above) */
    double share_rc = layers > 0 ? rc_layers / layers : 0.0;
    double dense_acts = 0.0, rebuilt = layer_acts(w, !fused);
    if (hybrid) {
        rebuilt = 0.0;
        for (int q = 0; q < CS_BLOCK_COUNT; q++) {
            if (q == CS_BLOCK_MOE || nslot[q] == 0)
                continue;
            double rc = slot_acts(w, (enum cs_block)q, fused, true);
            double st = slot_acts(w, (enum cs_block)q, fused, false);
            dense_acts += hslot[q] * (share_rc * rc + (1.0 - share_rc) * st);
            rebuilt = fmax(rebuilt, st);
        }
        r.acts = dense_acts;
    } else {
        dense_acts = (held_l - held_m) * (share_rc * per_layer + (1.0 - share_rc) * stored);
    }
    if (nm > 0) {
        /* the MoE layers' own (in proportion to the recomputed share) */
        double load = 1.0;   /* balanced; the step's sampled load is not known here */
        struct cs_workload nr = *w;
        nr.recompute = CS_RECOMPUTE_NONE;
        double m_rc = moe_layer_acts(w, fused, load);
        double m_st = w->recompute == CS_RECOMPUTE_FULL ? moe_layer_acts(&nr, fused, load) : m_rc;
        r.acts = dense_acts + held_m * (share_rc * m_rc + (1.0 - share_rc) * m_st);
        if (hybrid)
            rebuilt = fmax(rebuilt, m_st);
        /* dispatch and combine buffers: the routed copies sent and received */
        double t_r = (double)w->micro_batch * m->seq_len / w->par.cp / w->par.tp;
        r.comm += 2.0 * e * t_r * m->moe.top_k * (m->moe.latent > 0 ? m->moe.latent : m->hidden);
    }
    /* Offloaded layers (activation_offload_layers) wait in host memory; one
     * layer's worth stays on the GPU as the staging buffer being copied. */
    int off = w->offload_layers < layers ? w->offload_layers : layers;
    if (off > 0 && layers > 0) {
        double moved = r.acts * off / layers, staging = r.acts / layers / inflight;
        r.host = moved;
        r.acts += staging - moved;
    }
    /* Fine-grained offload (offload_modules): the named inputs of every
     * layer in flight wait in host memory; one layer's stay as the buffer
     * being copied. */
    if (w->offload_modules && w->recompute != CS_RECOMPUTE_FULL && layers > 0) {
        double od = cs_memory_layer_offload_bytes(w, false);
        double om = nm > 0 ? cs_memory_layer_offload_bytes(w, true) : 0.0;
        double moved = (held_l - held_m) * od + held_m * om;
        moved = fmin(moved, r.acts);
        r.host += moved;
        r.acts += (om > od ? om : od) - moved;
    }
    if (w->recompute == CS_RECOMPUTE_FULL || w->recompute == CS_RECOMPUTE_OP)
        r.acts += rebuilt;   /* one layer (block) rebuilt during its backward */
    if (first && m->dropout)   /* embedding dropout mask, 1 byte (Korthikanti Section 4.3) */
        r.acts += n_h * inflight;
    if (last)    /* final norm and output-layer inputs, and the loss over the logits */
        r.acts += 2.0 * e * n_h + cs_memory_loss_bytes_per_logit(w) * sq * b * m->vocab / t;
    if (held_mtp > 0)
        /* per MTP module in flight: the two norms' inputs, the 2h-wide
         * concatenation, the final norm's and output layer's inputs, and
         * its own loss over the logits */
        r.acts += held_mtp * (6.0 * e * n_h +
                              cs_memory_loss_bytes_per_logit(w) * sq * b * m->vocab / t);

    bool gathers = fs == CS_FSDP_FULL || fs == CS_FSDP_HYBRID;
    if (gathers && w->stack == CS_STACK_TORCHTITAN && pp > 1) {
        /* torchtitan's FSDP2 under pipeline parallelism (parallelize_llama.py
         * apply_fsdp@9dec370: reshard_after_forward=False with pp): the
         * stage's weights stay all-gathered for the whole step. Between
         * micro-batches the pipeline's backward sets requires_gradient_sync
         * False (torch.distributed.pipelining, stage.py
         * backward_maybe_with_nosync), so FSDP2 keeps each gradient whole,
         * upcast to the reduce dtype (fp32, torchtitan's
         * mixed_precision_reduce; _fsdp_param.py to_accumulated_grad_if_
         * needed) until the last micro-batch's reduce-scatter. Those
         * gradients exist from the first backward on, when one micro-batch
         * fewer is in flight unless more forwards follow (1F1B's steady
         * state). */
        r.comm += (r.params - edge) * wg + edge * w16;
        if (micro > 1) {
            double g = 4.0 * r.params;
            double after = micro > inflight ? r.acts : r.acts * (inflight - 1.0) / inflight;
            if (after + g > r.acts)
                r.grads += after + g - r.acts;
        }
    } else if (gathers) {
        /* FSDP gathers one layer ahead: two unsharded layers' weights and one
         * unsharded layer's gradients in flight (Zhao et al. 2023, Section 3.3). */
        r.comm += (nm > 0 ? p_moe : cs_memory_layer_params(w)) * (2.0 * wg + cs_memory_grad_bytes_per_param(w));
    }
    r.workspace = CS_MEMORY_WORKSPACE_BYTES;
    if (sp)   /* the all-gathered layer input of sequence parallelism */
        r.workspace += e * sq * b * m->hidden;
    r.total = r.weights + r.grads + r.optimizer + r.acts + r.comm + r.workspace;
    *out = r;
}

cs_status cs_memory_per_gpu_params(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                                   const struct cs_compute_params *p,
                                   struct cs_memory_breakdown *out)
{
    if (gpu == NULL || p == NULL || out == NULL || cs_workload_check(w) != CS_OK)
        return CS_EINVAL;
    if ((unsigned)w->precision >= CS_PREC_COUNT || (unsigned)w->par.fsdp > CS_FSDP_HYBRID)
        return CS_EINVAL;
    if (!(isfinite(gpu->hbm_bytes) && gpu->hbm_bytes > 0))
        return CS_EINVAL;
    struct stage_mem first, last, mid;
    stage_memory(w, gpu, p->fused_attention, 0, &first);
    bool use_last = false;
    int at = 0;
    if (w->par.pp > 1) {
        stage_memory(w, gpu, p->fused_attention, w->par.pp - 1, &last);
        use_last = last.total > first.total;
        at = use_last ? w->par.pp - 1 : 0;
    }
    const struct stage_mem *s = use_last ? &last : &first;
    if (cs_model_is_moe(&w->model) || w->par.layout.stages > 0)
        /* leading dense layers make the first stages light, and a stated
         * layout may load any stage: every stage */
        for (int k = 1; k < w->par.pp - 1; k++) {
            stage_memory(w, gpu, p->fused_attention, k, &mid);
            if (mid.total > s->total) {
                last = mid;
                s = &last;
                at = k;
            }
        }
    struct cs_memory_breakdown r;
    memset(&r, 0, sizeof r);
    r.weights_bytes = s->weights;
    r.grads_bytes = s->grads;
    r.optimizer_bytes = s->optimizer;
    r.activations_bytes = s->acts;
    r.comm_buffers_bytes = s->comm;
    r.workspace_bytes = s->workspace;
    r.total_bytes = s->total;
    r.capacity_bytes = gpu->hbm_bytes;
    double fixed = isfinite(p->mem_reserve_bytes) && p->mem_reserve_bytes >= 0
                       ? p->mem_reserve_bytes
                       : CS_MEMORY_RESERVE_FIXED_BYTES;
    double frag = isfinite(p->mem_fragmentation) && p->mem_fragmentation >= 0 &&
                          p->mem_fragmentation < 1
                      ? p->mem_fragmentation
                      : CS_MEMORY_RESERVE_FRACTION;
    r.reserve_bytes = fixed + frag * gpu->hbm_bytes;
    r.fits = r.total_bytes <= r.capacity_bytes - r.reserve_bytes;
    r.stage = at;
    r.params = s->params;
    r.host_bytes = s->host;
    *out = r;
    return CS_OK;
}

cs_status cs_memory_per_gpu(const struct cs_workload *w, const struct cs_gpu_spec *gpu,
                            struct cs_memory_breakdown *out)
{
    if (gpu == NULL)
        return CS_EINVAL;
    struct cs_compute_params p;
    cs_compute_params_default(gpu, &p);
    return cs_memory_per_gpu_params(w, gpu, &p, out);
}

int cs_memory_fewest_that_fit(struct cs_workload *w, const struct cs_gpu_spec *gpu,
                              const struct cs_compute_params *p, int *count, int hi)
{
    int keep = *count, lo = 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        *count = mid;
        struct cs_memory_breakdown mb;
        if (cs_memory_per_gpu_params(w, gpu, p, &mb) == CS_OK && mb.fits)
            hi = mid;
        else
            lo = mid + 1;
    }
    *count = keep;
    return lo;
}
