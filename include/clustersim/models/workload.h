/* workload.h: transformer workloads and their parallelization, as plain data.
 * The per-layer FLOP, byte and memory formulas live in models/workload.c and
 * are documented with their sources in docs/models.md. */
#ifndef CLUSTERSIM_WORKLOAD_H
#define CLUSTERSIM_WORKLOAD_H

#include "clustersim/models/hw.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>

/* The MLP's activation, and with it the architecture family's conventions
 * (docs/models.md, "Parameter count"): gelu follows GPT (linear biases,
 * LayerNorm with weight and bias, learned positions, dropout), swiglu Llama
 * (no biases, RMSNorm, rotary positions), squared-relu Nemotron (relu(x)^2
 * between two matrices, no linear biases, LayerNorm with weight and bias,
 * rotary positions, no dropout: NeMo nemotron.py NemotronConfig). */
enum cs_activation { CS_ACT_GELU, CS_ACT_SWIGLU, CS_ACT_RELU2 };
/* none; selective: Megatron's (the attention core only); full: each layer
 * from its input (recompute_layers: only some); op: torchtitan's per-op
 * selective checkpointing (the outputs of every other matmul and of the
 * attention kernel are kept, the rest recomputed). */
enum cs_recompute { CS_RECOMPUTE_NONE, CS_RECOMPUTE_SELECTIVE, CS_RECOMPUTE_FULL, CS_RECOMPUTE_OP };

/* Megatron-Core's selective recompute_modules (transformer_config.py,
 * recompute_modules: core_attn, layernorm, mlp, moe_act, mla_up_proj, moe): what
 * the backward rebuilds from kept inputs instead of storing (memory.c,
 * compute.c; docs/models.md). The names in enum bit order:
 * cs_recompute_module_names. */
enum {
    CS_RC_MOD_CORE_ATTN = 1u << 0,
    CS_RC_MOD_LAYERNORM = 1u << 1,
    CS_RC_MOD_MLP = 1u << 2,
    CS_RC_MOD_MOE_ACT = 1u << 3,
    CS_RC_MOD_MLA_UP_PROJ = 1u << 4,
    CS_RC_MOD_MOE = 1u << 5,   /* the whole MoE block, dispatch and combine included */
};
extern const char *const cs_recompute_module_names[];   /* bit order, NULL-terminated */

/* Megatron-Core's fine-grained activation offloading (transformer_config.py,
 * fine_grained_activation_offloading with offload_modules: "the submodules
 * to offload its input"): the saved input of each named module goes to host
 * memory during the forward and comes back for the backward (memory.c,
 * step.c; docs/moe.md). Names in bit order: cs_offload_module_names. */
enum {
    CS_OFF_MOD_ATTN_NORM = 1u << 0,
    CS_OFF_MOD_QKV_LINEAR = 1u << 1,
    CS_OFF_MOD_CORE_ATTN = 1u << 2,
    CS_OFF_MOD_ATTN_PROJ = 1u << 3,
    CS_OFF_MOD_MLP_NORM = 1u << 4,
    CS_OFF_MOD_EXPERT_FC1 = 1u << 5,
    CS_OFF_MOD_MOE_ACT = 1u << 6,
};
extern const char *const cs_offload_module_names[];

/* Modules whose linear layers may run at another precision than the layer
 * around them (workload.module_precision): Megatron-Core's quant_recipe
 * (megatron/core/quantization), matched on module names as
 * Megatron-Bridge's perf_recipes/nemotronh/te_quant.cfg does (*.linear_qkv,
 * *.linear_proj, *mlp.fc[12]_latent_proj, mtp.*, *mixer.out_proj).
 * attn_qkv: the attention's input projections (MLA's down and up ones
 * too); attn_proj: its output projection; mlp: a dense MLP's two (three)
 * GEMMs; experts: the routed experts' grouped GEMMs; shared_experts: an MoE
 * layer's shared experts; moe_latent_proj: a latent MoE's projections to
 * and from the latent width; mamba_in_proj, mamba_out_proj: a Mamba-2
 * mixer's projections; mtp: every multi-token-prediction module, whole.
 * docs/models.md 2.3. Names in enum order: cs_quant_module_names. */
enum cs_qmodule {
    CS_QMOD_ATTN_QKV,
    CS_QMOD_ATTN_PROJ,
    CS_QMOD_MLP,
    CS_QMOD_EXPERTS,
    CS_QMOD_SHARED_EXPERTS,
    CS_QMOD_MOE_LATENT_PROJ,
    CS_QMOD_MAMBA_IN_PROJ,
    CS_QMOD_MAMBA_OUT_PROJ,
    CS_QMOD_MTP,
    CS_QMOD_COUNT
};
extern const char *const cs_quant_module_names[];   /* enum order, NULL-terminated */
enum cs_fsdp { CS_FSDP_NONE, CS_FSDP_ZERO1, CS_FSDP_ZERO2, CS_FSDP_FULL, CS_FSDP_HYBRID };

/* Attention of a layer: standard multi-head (grouped-query with kv_heads <
 * heads, Ainslie et al. 2023), or DeepSeek's multi-head latent attention
 * (MLA, DeepSeek-AI, DeepSeek-V2 arXiv 2405.04434, Section 2.1): queries
 * and keys/values go through low-rank latents; each head's query and key
 * have a position-free part (nope) and a rotary part (rope, the key's one
 * shared by the heads), values their own width. */
enum cs_attention { CS_ATTN_STANDARD, CS_ATTN_MLA };
/* How the rotary embedding's frequencies are scaled (Hugging Face
 * config.json rope_scaling): none (plain RoPE) or yarn (Peng et al. 2023,
 * arXiv 2309.00071; gpt-oss trains with it, factor 32). Megatron-Core runs
 * YaRN positions of standard attention as position_embedding_type yarn,
 * for which Megatron-LM (training/arguments.py) and Megatron-Bridge
 * (utils/fusions.py validate_rope_fusion_compatibility) turn
 * apply_rope_fusion off: the eager RoPE (cs_workload_rope_unfused). */
enum cs_rope_scaling { CS_ROPE_SCALING_NONE, CS_ROPE_SCALING_YARN, CS_ROPE_SCALING_COUNT };
struct cs_mla_shape {
    int q_lora_rank;      /* query latent (0: queries projected directly from h) */
    int kv_lora_rank;     /* key/value latent */
    int qk_nope_dim, qk_rope_dim, v_dim;   /* per head */
};

/* Routing of a mixture-of-experts layer (docs/moe.md, "Load imbalance"):
 * learned (a trained router: per-expert token shares spread with
 * coefficient of variation load_cv, plus the multinomial noise of a finite
 * batch) or balanced (every expert gets the same tokens: the
 * force-balanced benchmark mode of Megatron-Core, moe_router_force_load_balancing). */
enum cs_moe_routing { CS_MOE_ROUTING_LEARNED, CS_MOE_ROUTING_BALANCED };

/* Token dispatch across nodes (docs/moe.md, "Dispatch"): alltoall (NCCL's
 * all-to-all: every routed copy crosses the network to its expert's rank)
 * or hierarchical (DeepEP / Megatron-Core's HybridEP flex dispatcher: a
 * token crosses the network once per destination node, on its rail, and
 * is copied to that node's experts over NVLink; DeepSeek-V3 report,
 * Section 3.2.2). */
enum cs_moe_dispatcher { CS_MOE_DISPATCH_ALLTOALL, CS_MOE_DISPATCH_HIERARCHICAL };

/* Of the copies an all-to-all sends across nodes, the share a hierarchical
 * dispatcher sends: a token with top_k experts spread uniformly over n
 * nodes reaches n (1 - (1 - 1/n)^k) distinct nodes against k copies,
 * (n - 1)/n of each crossing: n (1 - (1 - 1/n)^k) / k of the bytes (1 for
 * n <= 1 or k <= 1). */
double cs_moe_dispatch_dedup(int nodes, int top_k);

/* Nodes of an EP group spread over `nodes` nodes that one token can reach
 * under group-limited routing: groups of ep/router_groups ranks each, the
 * token in router_group_topk of them; `nodes` when routing is not
 * limited (or the groups do not tile the nodes). */
struct cs_moe_shape;
int cs_moe_reachable_nodes(const struct cs_moe_shape *m, int nodes);

/* Learned routing's default spread of per-expert token shares: 0.3, from
 * Wang et al. 2024 (Auxiliary-Loss-Free Load Balancing Strategy for
 * Mixture-of-Experts, arXiv 2408.15664, Table 1): routers balanced by an
 * auxiliary loss end with MaxVio_global (max expert load over the mean,
 * less 1) of 0.52-0.72 over 64 experts, i.e. a standard deviation of
 * 0.72 / 2.4 = 0.3 of the mean (2.4: the expected maximum of 64 standard
 * normals). Their auxiliary-loss-free router reaches 0.04 (load_cv 0.017).
 * docs/moe.md. */
#define CS_MOE_DEFAULT_LOAD_CV 0.3
/* The same for a router balanced by per-expert biases instead of a loss
 * (DeepSeek-V3's auxiliary-loss-free strategy, report Section 2.1.2;
 * Megatron-Core's moe_router_enable_expert_bias): Wang et al.'s loss-free
 * router ends at MaxVio_global 0.04, 0.04 / 2.4 = 0.017. The presets of
 * models trained that way take it (deepseek-v3, kimi-k2: config.json
 * topk_method noaux_tc; the nemotron-3 family: Megatron-Bridge's
 * nemotron_h_bridge.py moe_router_enable_expert_bias). */
#define CS_MOE_BIAS_BALANCED_LOAD_CV 0.017

/* Mixture of experts (workload.model.moe). experts 0: a dense model. */
struct cs_moe_shape {
    int experts;              /* routed experts per MoE layer */
    int top_k;                /* experts per token */
    int shared_experts;       /* always-active experts, each expert_ffn_hidden wide */
    int expert_ffn_hidden;    /* one expert's FFN width (moe_intermediate_size) */
    int first_dense_layers;   /* leading layers with a dense FFN (ffn_hidden wide) */
    int moe_every;            /* after those, every n-th layer is MoE, the others dense
                                 (Llama 4 Maverick: 2); 1: every one */
    double capacity_factor;   /* tokens an expert takes at most, over the mean; 0: dropless */
    enum cs_moe_routing routing;
    double load_cv;           /* learned routing: spread of per-expert shares */
    double a2a_overlap;       /* share of dispatch/combine hidden behind compute */
    enum cs_moe_dispatcher dispatcher;
    /* Group-limited routing (DeepSeek-V3's node-limited routing; Megatron-
     * Core's moe_router_num_groups / moe_router_group_topk): the experts
     * fall into router_groups groups and a token's top-k come from its best
     * router_group_topk groups. 0: unlimited. */
    int router_groups, router_group_topk;
    /* The experts' GLU inputs clamped before the activation (gpt-oss: 7,
     * Megatron-Core's activation_func_clamp_value); 0: none. Unfused, the
     * clamp runs as separate kernels (docs/moe.md, "Compute"). */
    double glu_clamp;
    /* Biases on the experts' linear layers (gpt-oss; Megatron-Core
     * add_bias_linear): fc1's in the GEMM's epilogue, fc2's, scaled by the
     * routing probability, added expert by expert after it unless the MLP
     * is fused (workload.fused_grouped_mlp). */
    bool expert_bias;
    /* Latent MoE (Nemotron 3 Super; Megatron-Core moe_latent_size): the
     * tokens are projected from the hidden size down to this width before
     * dispatch (fc1_latent_proj), the routed experts work at it (fc1: latent
     * -> expert_ffn_hidden, fc2 back), and the combined output is projected
     * up again (fc2_latent_proj); the router and the shared experts see the
     * full hidden state. 0: none. */
    int latent;
};

/* Hybrid models (Megatron-Core's MambaModel and its hybrid_override_pattern:
 * Nemotron-H, Nemotron 3): each layer is one block, a pre-norm and one mixer
 * with its residual add, of the kind its pattern letter names. A plain
 * transformer's layer (attention and MLP) is CS_BLOCK_LAYER. */
enum cs_block {
    CS_BLOCK_LAYER,   /* a transformer layer: attention and MLP (or MoE) */
    CS_BLOCK_ATTN,    /* '*': self-attention */
    CS_BLOCK_MLP,     /* '-': a dense MLP of ffn_hidden */
    CS_BLOCK_MOE,     /* 'E': a mixture-of-experts MLP */
    CS_BLOCK_MAMBA,   /* 'M': a Mamba-2 mixer */
    CS_BLOCK_COUNT
};
#define CS_HYBRID_MAX 256

/* A Mamba-2 mixer (Dao and Gu 2024, arXiv 2405.21060; Megatron-Core
 * megatron/core/ssm/mamba_mixer.py): in_proj h -> [z, x, B, C, dt] of 2 d +
 * 2 G N + H (d = heads x head_dim), a causal depthwise convolution of width
 * conv over [x, B, C], the chunked state-space scan (SSD) in chunks of
 * `chunk` tokens, a gated RMSNorm and out_proj d -> h. */
struct cs_mamba_shape {
    int heads;       /* SSM heads (mamba_num_heads); 0: no Mamba blocks */
    int head_dim;    /* per-head width (mamba_head_dim) */
    int state;       /* state size N (mamba_state_dim, ssm_state_size) */
    int groups;      /* B and C groups G (mamba_num_groups, n_groups) */
    int conv;        /* causal convolution width (d_conv) */
    int chunk;       /* SSD chunk length (chunk_size) */
};

/* A decoder-only transformer's shape (dense, or mixture of experts). */
struct cs_model_shape {
    char name[CS_NAME_MAX];   /* preset name or "custom" */
    int layers;
    int hidden;
    int heads;
    int kv_heads;             /* == heads without grouped-query attention */
    int ffn_hidden;
    enum cs_activation activation;
    int vocab;
    int seq_len;
    bool tied_embeddings;     /* input embedding shared with the output layer */
    /* Trained with dropout (its masks are kept for the backward: one byte per
     * element, Korthikanti et al. 2022, Section 4.1). GPT-style Megatron
     * models use 0.1; Llama, Mistral and MPT none. */
    bool dropout;
    /* Per-head width of queries, keys and values; 0: hidden / heads (Qwen3
     * and gpt-oss decouple it: heads x head_dim != hidden). */
    int head_dim;
    enum cs_attention attention;
    struct cs_mla_shape mla;
    /* Sliding-window attention: every sliding_every-th layer (gpt-oss:
     * every other, Llama-style alternation) attends to the last
     * sliding_window tokens only; 0: none. */
    int sliding_window, sliding_every;
    enum cs_rope_scaling rope_scaling;
    struct cs_moe_shape moe;
    /* Multi-token prediction (DeepSeek-V3 report, arXiv 2412.19437, Section
     * 2.2; Megatron-Core's mtp_num_layers): depth D of sequential MTP
     * modules, each an RMSNorm of the hidden state and of the next token's
     * embedding, a projection of their concatenation (2h -> h), one
     * transformer layer of the decoder's last kind, and the shared output
     * layer and loss once more. They run after the decoder, on the virtual
     * stage that holds them (the last by default; cs_workload_vstage_extras).
     * 0: none. Not in the published parameter and active counts. */
    int mtp_layers;
    /* The MTP modules share one set of weights, the module run mtp_layers
     * times (Megatron-Core's mtp_use_repeated_layer: Nemotron 3 Super's
     * training recipes run its one module twice): compute per pass,
     * parameters once. */
    bool mtp_shared;
    /* Hybrid layer pattern, one letter per layer (M Mamba-2, * attention,
     * - MLP, E MoE); "": every layer a transformer layer. */
    char hybrid[CS_HYBRID_MAX];
    struct cs_mamba_shape mamba;
    char source[CS_SOURCE_MAX];
};

/* True when the model has routed experts. */
bool cs_model_is_moe(const struct cs_model_shape *m);
/* True when the model has a hybrid layer pattern. */
bool cs_model_is_hybrid(const struct cs_model_shape *m);
/* Layer i's block: its pattern letter's kind, CS_BLOCK_LAYER without one. */
enum cs_block cs_model_block(const struct cs_model_shape *m, int i);
/* The block kind whose costs layer i takes in the step and memory models:
 * CS_BLOCK_MOE for a mixture-of-experts layer (hybrid 'E', or a
 * transformer layer with routed experts), else cs_model_block. */
enum cs_block cs_model_layer_slot(const struct cs_model_shape *m, int i);
struct cs_workload;
/* The precision module `mod` of a layer running at `layer` uses: the
 * workload's module_precision where it names one and the layer is
 * quantized, else `layer`. */
enum cs_precision cs_workload_module_precision(const struct cs_workload *w, enum cs_qmodule mod,
                                               enum cs_precision layer);
/* True when layer i (0-based, global) runs in BF16 though the workload's
 * precision is quantized (bf16_layers_start / bf16_layers_end). */
bool cs_workload_layer_bf16(const struct cs_workload *w, int i);
/* Of layers [first, first + n), those running in BF16 (cs_workload_layer_bf16),
 * counted by slot into counts[CS_BLOCK_COUNT]; returns their number. */
int cs_workload_bf16_slots_in(const struct cs_workload *w, int first, int n, int counts[CS_BLOCK_COUNT]);
/* Layers [first, first + n) counted by slot into counts[CS_BLOCK_COUNT]. */
void cs_model_slots_in(const struct cs_model_shape *m, int first, int n, int counts[CS_BLOCK_COUNT]);
/* The pattern letter of a block kind ('*', '-', 'E', 'M'; 0 for a layer). */
char cs_block_letter(enum cs_block b);
const char *cs_block_name(enum cs_block b);
/* True when layer i (0-based) is a mixture-of-experts layer. */
bool cs_model_layer_is_moe(const struct cs_model_shape *m, int i);
/* MoE layers among layers [first, first + n). */
int cs_model_moe_layers_in(const struct cs_model_shape *m, int first, int n);
/* Per-head query/key width and value width (MLA: nope + rope, v_dim;
 * standard: head_dim or hidden / heads for both). */
double cs_model_qk_head_dim(const struct cs_model_shape *m);
double cs_model_v_head_dim(const struct cs_model_shape *m);

/* When FSDP issues the next layer's parameter all-gather in the backward
 * (`workload.parallelism.fsdp_backward_prefetch`; step.c, docs/step.md
 * "FSDP"):
 *   auto  post under stack composer, pre otherwise;
 *   pre   as the layer's backward starts (PyTorch FSDP1 BACKWARD_PRE; FSDP2's
 *         default backward prefetch; Megatron-FSDP), so it overlaps that
 *         layer's compute;
 *   post  after the layer's gradients are computed, ahead of their
 *         reduce-scatter (FSDP1 BACKWARD_POST, MosaicML Composer's default
 *         FSDPConfig.backward_prefetch), so the next layer waits for it. */
enum cs_fsdp_prefetch {
    CS_FSDP_PREFETCH_AUTO,
    CS_FSDP_PREFETCH_PRE,
    CS_FSDP_PREFETCH_POST,
    CS_FSDP_PREFETCH_COUNT
};
extern const char *const cs_fsdp_prefetch_names[];   /* enum order, NULL-terminated */

/* A pipeline layout as Megatron-Core's --pipeline-model-parallel-layout
 * states it (megatron/core/transformer/pipeline_parallel_layer_layout.py):
 * virtual stages separated by '|', in Megatron's order (stage k is chunk
 * k / pp of pipeline rank k % pp); in each, E the embedding, t a decoder
 * layer, m a multi-token-prediction layer, L the output layer and loss;
 * "X*n" repeats one symbol, "(...)*n" a group, commas are cosmetic.
 * Example: DeepSeek-V3 on 16 virtual stages, "Et*4|(t*4|)*14tmL". */
#define CS_LAYOUT_TEXT_MAX 160
#define CS_LAYOUT_MAX_STAGES 256
#define CS_LAYOUT_MAX_PER_STAGE 255  /* decoder layers in one virtual stage */
#define CS_LAYOUT_MTP_MASK 0x3fu      /* extras[k]: MTP layers of the stage (at most 63) */
#define CS_LAYOUT_EMB 0x40u           /* extras[k]: the stage holds the embedding */
#define CS_LAYOUT_LOSS 0x80u          /* extras[k]: the stage holds the output layer and loss */
struct cs_pipeline_layout {
    int stages;                                    /* 0: no layout */
    unsigned char decoders[CS_LAYOUT_MAX_STAGES];  /* t per virtual stage */
    unsigned char extras[CS_LAYOUT_MAX_STAGES];    /* m count | CS_LAYOUT_EMB | CS_LAYOUT_LOSS */
};

/* Parses `text` into `out` (Megatron-Core's grammar, above; nested groups
 * are refused, as Megatron's one-level expansion cannot read them). On an
 * error returns false with a message naming the position in `err`. Checks
 * only the text; cs_pipeline_layout_check checks it against a workload. */
bool cs_pipeline_layout_parse(const char *text, struct cs_pipeline_layout *out, char *err,
                              size_t errlen);

struct cs_parallel {
    int tp, pp, dp, cp;       /* tensor, pipeline, data, context parallel degrees */
    int vp;                   /* virtual pipeline stages per GPU (interleaved 1F1B); 1 = plain */
    bool sp;                  /* Megatron sequence parallelism (with tp) */
    enum cs_fsdp fsdp;
    int fsdp_shard_group;     /* hybrid shard: GPUs per shard group; 0 = one node */
    enum cs_fsdp_prefetch fsdp_backward_prefetch;   /* auto: by stack (above) */
    bool optimizer_offload;   /* optimizer state and step on the CPU */
    bool tp_across_nodes;     /* allow tp > GPUs per node (tensor parallelism over the NICs) */
    /* Expert parallelism (Megatron-Core's MoE parallel folding, Liu et al.
     * 2025, arXiv 2504.14960): the experts of each MoE layer are split over
     * ep ranks, each expert's FFN over etp ranks; the expert layers' data
     * parallel degree is tp cp dp / (ep etp). 1: none. */
    int ep, etp;
    /* Megatron-Core's account_for_embedding_in_pipeline_split and
     * account_for_loss_in_pipeline_split: the embedding, and the output
     * layer with the loss, each count as one layer of the pipeline split
     * (cs_workload_vstage_layers). */
    bool account_for_embedding, account_for_loss;
    /* Megatron-Core's pipeline_model_parallel_layout (empty: the default
     * split above): the text as given and what each virtual stage holds. */
    char layout_text[CS_LAYOUT_TEXT_MAX];
    struct cs_pipeline_layout layout;
};

/* Software stacks as named presets (`workload.stack`): each fixes how the
 * step overlaps and fuses (docs/step.md, "Software stacks"). */
enum cs_stack {
    CS_STACK_CUSTOM,         /* the workload's own keys, nothing preset */
    CS_STACK_MEGATRON_2021,  /* Megatron-LM 2021-22: no comm overlap, unfused attention */
    CS_STACK_MCORE_2024,     /* Megatron-Core 2024+ with Transformer Engine: DP and TP
                                communication overlap, fused attention, distributed optimizer */
    CS_STACK_TORCHTITAN,     /* PyTorch FSDP2 (torchtitan 2024-25): prefetched all-gathers and
                                reduce-scatters overlap compute, SDPA flash attention, plain
                                (not asynchronous) tensor parallelism */
    CS_STACK_COMPOSER,       /* PyTorch FSDP1 under MosaicML Composer (llm-foundry 2023):
                                backward prefetch overlaps compute, Triton flash attention */
    CS_STACK_MEGATRON_DEEPSPEED, /* Megatron-DeepSpeed (2021-23): Megatron-LM 2021's model code
                                under DeepSpeed's pipeline engine and BF16 optimizer, which
                                accumulates each micro-batch's bf16 gradients into fp32 copies */
    CS_STACK_COUNT
};

/* How the loss's cross entropy runs over the logits (`workload.cross_entropy`),
 * which sets the memory the last pipeline stage holds at its peak
 * (memory.c, docs/models.md "Memory", the loss):
 *   auto      by stack: eager under torchtitan, fused otherwise;
 *   fused     Megatron-Core's vocab-parallel cross entropy: the fp32 copy of
 *             the logits turned into the softmax and then the gradient in
 *             place (tensor_parallel/cross_entropy.py), 4 bytes per logit;
 *   eager     PyTorch's F.cross_entropy on logits.float() (torchtitan's
 *             loss_fn, train.py@9dec370): the fp32 log-softmax output, its
 *             incoming gradient and the gradient it makes live together in
 *             the backward, 12 bytes per logit (16 under loss parallelism);
 *   compiled  the same loss under torch.compile (torchtitan since
 *             2025-04, components/loss.py, with training.compile): one
 *             fused kernel each way, the bf16 logits saved and their bf16
 *             gradient, 4 bytes per logit;
 *   te        Transformer Engine's Triton parallel_cross_entropy up to TE
 *             2.17 (Megatron-Core cross_entropy_fusion_impl 'te', set by
 *             Megatron-Bridge's performance scripts since 2025-08): the
 *             gradient written into the logits in place in the forward,
 *             nothing else kept: e bytes per logit;
 *   te-fp32   the same kernel from TE 2.18 (TransformerEngine 01bbe3eea,
 *             2026-07): the gradient kept in a new fp32 tensor beside the
 *             logits, e + 4 bytes per logit at the loss. */
enum cs_cross_entropy {
    CS_CE_AUTO,
    CS_CE_FUSED,
    CS_CE_EAGER,
    CS_CE_COMPILED,
    CS_CE_TE,
    CS_CE_TE_FP32,
    CS_CE_COUNT
};
extern const char *const cs_cross_entropy_names[];   /* enum order, NULL-terminated */

/* The fused attention kernel family (`workload.attention_kernel`):
 *   auto    by stack: cudnn under mcore (Transformer Engine's
 *           DotProductAttention prefers cuDNN's FusedAttention over
 *           FlashAttention on sm90 and later, TE 32db392, 2023-12), flash2
 *           under torchtitan and composer (PyTorch SDPA's default priority
 *           puts FlashAttention-2 first, pytorch/pytorch#138907; MPT's
 *           Triton kernel is its kin); other stacks state none: the fitted
 *           efficiency as it is;
 *   cudnn   cuDNN's fused attention (the kernel the fitted efficiency ran);
 *   flash2  FlashAttention-2: slower on GPUs whose catalog entry gives
 *           flash2_over_cudnn (Hopper: 0.62, compute.c). */
/* What captured CUDA graphs hold (workload.cuda_graph_scope). */
enum cs_graph_scope {
    CS_GRAPH_SCOPE_LAYER,
    CS_GRAPH_SCOPE_ATTN,
    CS_GRAPH_SCOPE_ITERATION,
    CS_GRAPH_SCOPE_MAMBA,       /* a hybrid model's Mamba-2 mixers only (TE scope mamba) */
    CS_GRAPH_SCOPE_ATTN_MAMBA,  /* attn, mamba, moe_router and moe_preprocess */
    CS_GRAPH_SCOPE_MOE_ROUTER,  /* an MoE layer's moe_router and moe_preprocess only */
    CS_GRAPH_SCOPE_COUNT
};
extern const char *const cs_graph_scope_names[];   /* enum order, NULL-terminated */
/* Transformer Engine's per-module scopes (attn, mamba, attn+mamba,
 * moe_router): only some blocks captured, the embedding and output layer
 * eager; false for layer and iteration, which capture every layer. */
bool cs_graph_scope_per_module(enum cs_graph_scope s);
/* The scopes that capture Mamba-2 mixers by name (mamba, attn+mamba). */
bool cs_graph_scope_has_mamba(enum cs_graph_scope s);
/* The per-module scopes that capture the attention block (attn,
 * attn+mamba), and those that capture an MoE layer's router and dispatch
 * preprocessing (attn, attn+mamba, moe_router). */
bool cs_graph_scope_has_attn(enum cs_graph_scope s);
bool cs_graph_scope_has_router(enum cs_graph_scope s);

enum cs_attn_kernel {
    CS_ATTN_KERNEL_AUTO,
    CS_ATTN_KERNEL_CUDNN,
    CS_ATTN_KERNEL_FLASH2,
    CS_ATTN_KERNEL_TRITON,   /* MPT's attn_impl 'triton' on pre-MLIR Triton (llm-foundry 2023) */
    CS_ATTN_KERNEL_COUNT
};
extern const char *const cs_attn_kernel_names[];   /* enum order, NULL-terminated */

/* What a stack fixes: the share of TP communication hidden behind GEMMs,
 * DP/FSDP overlap with backward, and the fused attention core. */
struct cs_stack_preset {
    double tp_comm_overlap;
    bool dp_overlap;
    bool fused_attention;
    enum cs_moe_dispatcher moe_dispatcher;
};

/* The preset of `s`; false for CS_STACK_CUSTOM (nothing preset) or out of
 * range. */
bool cs_stack_preset(enum cs_stack s, struct cs_stack_preset *out);

struct cs_workload {
    struct cs_model_shape model;
    long global_batch;        /* sequences per optimizer step */
    int micro_batch;          /* sequences per micro-batch per pipeline */
    struct cs_parallel par;
    enum cs_recompute recompute;
    /* With full recomputation: the layers of each (virtual) pipeline stage
     * whose activations are recomputed, the first ones of the stage, the
     * others stored whole (Megatron-LM's --recompute-method block
     * --recompute-num-layers N); 0 = every layer. */
    int recompute_layers;
    /* With recompute: selective, Megatron-Core's recompute_modules (a set
     * of CS_RC_MOD_* bits): 0 = its default, the attention core only. */
    unsigned recompute_modules;
    /* Megatron-Core's offload_modules (CS_OFF_MOD_* bits); 0: none. */
    unsigned offload_modules;
    /* Layers per GPU whose activations go to host memory during the forward
     * and come back for the backward (Megatron-Core / Transformer Engine's
     * cpu_offloading_num_layers); 0: none. */
    int offload_layers;
    enum cs_precision precision;
    /* Precision fp8: how the FP8 tensors are scaled. 0 per tensor
     * (Transformer Engine's delayed or current scaling, what the FP8 model
     * stands for), 1 block-wise (TE's Float8BlockScaling, DeepSeek-V3's 1x128
     * activation and 128x128 weight tiles): on GPUs without block-scaled
     * tensor cores (Hopper), the FP8 linear layers' GEMMs and
     * casts take CS_FP8_BLOCKWISE_FACTOR times as long
     * (cs_compute_params.fp8_linear_factor; docs/models.md 2.3). */
    int fp8_recipe;
    double tokens;            /* tokens to train; NAN when not given */
    /* How the software stack runs the step (cs_step_options_from_scenario). */
    double tp_comm_overlap;   /* share of TP collectives hidden behind GEMMs (TE userbuffers); 0 */
    bool dp_overlap;          /* bucketed DP reduction overlapped with backward; true */
    double dp_bucket_bytes;   /* gradient bucket; 160 MB (Megatron's 40M fp32 gradients) */
    int fused_attention;      /* 0 auto (the GPU decides), 1 on, 2 off */
    /* Megatron-Core's RoPE kernel (apply_rope_fusion): 0 auto (fused, except
     * YaRN positions of standard attention under stack mcore, where
     * Megatron turns the fusion off), 1 fused (Transformer Engine's
     * fused_apply_rotary_pos_emb, one kernel each way per tensor, folded
     * into the attention's fitted efficiency), 2 unfused (rope_utils.py
     * _apply_rotary_pos_emb_bshd: six PyTorch ops per tensor;
     * cs_compute_rope_unfused). Stacks mcore and custom. */
    int rope_fusion;
    /* torch.compile of the transformer blocks (stack torchtitan only): 0
     * auto (on: torchtitan's benchmark tables since mid-2024 run it), 1
     * on, 2 off (eager PyTorch: RoPE through fp32 complex numbers, the
     * gated activation as two kernels, the forward issued op by op from
     * Python; cs_workload_torch_eager). */
    int torch_compile;
    /* The RMSNorm / LayerNorm kernels: 0 auto (fused), 1 fused (one kernel
     * each way: Transformer Engine's, Apex's, Inductor's or torchtitan's
     * Triton FusedRMSNorm), 2 eager (PyTorch ops with an fp32 upcast,
     * torchtitan's norm_type rmsnorm without compile; needs torch_compile
     * off). */
    int norm_kernel;
    /* The layers run as captured CUDA graphs (Transformer Engine's
     * make_graphed_callables, Megatron-Core's --cuda-graph-impl): the host
     * issues a graph launch per layer part instead of every kernel
     * (cs_compute_host_layer); false by default. */
    bool cuda_graphs;
    /* What the graphs capture (cs_compute_host_layer): each layer's parts
     * (layer, the default), the attention block and an MoE layer's router
     * and dispatch preprocessing only (attn: Transformer Engine's scopes
     * attn, moe_router, moe_preprocess; the rest of the layer eager), or
     * the whole iteration (Megatron-Core's full_iteration); for hybrid
     * models also mamba (the Mamba-2 mixers only) and attn+mamba (both
     * block kinds, and the MoE router and preprocessing). */
    enum cs_graph_scope cuda_graph_scope;
    enum cs_stack stack;      /* the preset the three keys above came from (custom: none) */
    enum cs_cross_entropy cross_entropy;   /* the loss kernel (above); auto: the stack's */
    enum cs_attn_kernel attention_kernel;  /* fused attention's kernel family; auto: the stack's */
    /* Memory the framework cannot use (memory.h): fixed bytes and a fraction
     * of HBM; NAN = the defaults (1.5 GiB, 5%). */
    double memory_reserve_bytes;
    double memory_fragmentation;
    double host_python_scale;   /* Python host time factor (compute.h); 0 or NaN: the default */
    /* Gradients accumulated and reduced in the working 16-bit precision
     * (true: Megatron-Bridge's performance recipes set grad_reduce_in_fp32
     * false, src/megatron/bridge/perf_recipes/_common.py,
     * _benchmark_common) instead of Megatron's fp32 main_grad buffers
     * (false, the default). Only fsdp none/zero1 keep fp32 gradients at
     * all (memory.h). */
    bool grad_reduce_bf16;
    /* Adam's first and second moments kept in bf16 instead of fp32, the
     * fp32 master weights kept: DeepSeek-V3's low-precision optimizer
     * states (arXiv 2412.19437, Section 3.3.3) and Megatron-Core's
     * precision-aware optimizer (--use-precision-aware-optimizer
     * --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16). 12 -> 8 bytes per
     * parameter in mixed precision (memory.c). */
    bool optimizer_moments_bf16;
    /* DeepSeek-V3's low-precision activation storage (the technical report,
     * arXiv 2412.19437, Section 3.3.2, "Low-Precision Storage and
     * Communication"), under a quantized precision: the SwiGLU inputs of
     * the FFN and experts are cached at the quantized width (their output
     * recomputed, as recompute_modules moe_act / mlp), and the attention
     * output is kept once, in E5M6 (12 bits), for both the attention's
     * backward and the output projection's weight gradient, instead of
     * bf16 beside the projection's FP8 copy. */
    bool fp8_act_storage;
    /* The weights themselves kept and all-gathered in the training's
     * quantized format, the fp32 master copy in the optimizer
     * (Megatron-Core --fp8-param-gather for fp8 and mxfp8, --fp4-param-
     * gather for nvfp4; Megatron-Bridge's fp8 and mxfp8 precision presets
     * set the first, its nvfp4 preset the second since 2026-04). Each
     * applies only under its precisions (cs_workload_quantized_params);
     * otherwise the weights are 16-bit and the parameter all-gathers move
     * 16-bit values. */
    bool fp8_param_gather, fp4_param_gather;
    /* The attention core runs in FP8 (Transformer Engine's
     * fp8_dot_product_attention, Megatron-Core --fp8-dot-product-attention)
     * under the quantized precisions; false: bf16, as TE's recipes default.
     * docs/models.md 2.3 (cs_compute_attn_fp8_factor). */
    bool fp8_attention;
    /* The experts' MLP as one fused operation (Megatron-Core's
     * use_transformer_engine_op_fuser with Transformer Engine's CuTe DSL
     * grouped GEMM + GLU kernels, NVTE_CUTEDSL_FUSED_GROUPED_MLP=1: the
     * activation, its clamp, the probability scaling, fc2's bias and the
     * quantization in the GEMMs' epilogues; MXFP8 on Blackwell, no expert
     * tensor parallelism). false: separate kernels. docs/moe.md. */
    bool fused_grouped_mlp;
    /* Layers kept in BF16 under a quantized precision: the first
     * bf16_layers_start and the last bf16_layers_end of the model
     * (Megatron-Core's first_last_layers_bf16 with num_layers_at_start_in_bf16
     * and num_layers_at_end_in_bf16, fp8_utils.py / fp4_utils.py: such a
     * layer runs outside the FP8/FP4 autocast, by its global index). */
    int bf16_layers_start, bf16_layers_end;
    /* Per module (enum cs_qmodule), the precision its linear layers run at
     * inside a quantized layer: 0 follows the layer, else a cs_precision
     * + 1 (workload.module_precision; cs_workload_module_precision). */
    unsigned char module_precision[CS_QMOD_COUNT];
    /* GPUs the job uses (`workload.gpus`): whole nodes of the cluster, the
     * rest left to neighbour jobs; 0 means every GPU of the cluster. */
    long gpus;
};

/* Looks up a named model preset (e.g. "llama3.1-70b"). Returns CS_ENOTFOUND
 * if unknown; `out` is untouched then. */
cs_status cs_workload_preset(const char *name, struct cs_model_shape *out);
/* The preset names, NULL-terminated, for listings and did-you-mean. */
const char *const *cs_workload_preset_names(void);

/* Checks the shape and parallelism that the FLOP, compute and memory models
 * rely on: positive sizes and degrees, hidden % heads == 0, heads % kv_heads
 * == 0 (kv_heads 0 means heads), heads % tp == 0, seq_len % cp == 0,
 * micro_batch >= 1, global_batch >= 1. vp 0 is read as 1. Returns CS_OK or
 * CS_EINVAL; it does not check the cluster (see step.h for that). */
cs_status cs_workload_check(const struct cs_workload *w);

/* Layers of a (virtual) pipeline stage of `layers_in_stage` layers that are
 * recomputed in full: all of them with recompute full and recompute_layers
 * 0, min(recompute_layers, layers_in_stage) with a count, none otherwise. */
int cs_workload_recomputed_layers(const struct cs_workload *w, int layers_in_stage);

/* The transformer layers of virtual stage k (0 <= k < pp x vp; chunk c of
 * pipeline stage s is k = c pp + s, Megatron's order) and the first of
 * them (0-based). By default ceil(L / (pp vp)) each, the layers that do not
 * exist taken alternately from the last and the first virtual stage, which
 * also carry the output layer and the embedding (Llama 3 405B's 126 layers
 * on 16 stages: 7, 8 x 14, 7). With account_for_embedding / _loss
 * (Megatron-Core, transformer_block.py get_num_layers_to_build): L + e + l
 * layers split evenly, the first virtual stage building e and the last l
 * fewer transformer layers, so a virtual stage may hold none (126 + 2 on
 * 16 x 8: the first chunk the embedding alone, the last the loss alone).
 * Multi-token-prediction modules (model.mtp_layers) take one slot each at
 * the end of the default split (not with account_for_*), unless the last
 * virtual stage has fewer slots than modules. A pipeline layout
 * (par.layout) replaces all of this with its own counts. The step and the
 * memory model use this one split. first may be NULL. */
int cs_workload_vstage_layers(const struct cs_workload *w, int k, int *first);

/* What virtual stage k holds besides its decoder layers: the embedding, the
 * output layer and loss, and multi-token-prediction layers. With a layout,
 * as it states; without, the embedding on the first, the loss and every
 * MTP layer on the last (Megatron-Core builds MTP on the post-process
 * stage). Any pointer may be NULL. */
void cs_workload_vstage_extras(const struct cs_workload *w, int k, bool *emb, int *mtp, bool *loss);

/* Checks a parsed layout against the workload's layers, MTP depth and
 * pipeline degrees as Megatron-Core's validate_layer_layout does (one E
 * first, one L last, as many t as layers and m as mtp_layers, MTP after
 * every decoder layer and in the last virtual stage of its pipeline rank,
 * pp x vp stages). Returns false with the reason in err. */
bool cs_pipeline_layout_check(const struct cs_workload *w, char *err, size_t errlen);

/* Drops the workload's layout where its stage count is not pp x vp (the
 * search and the planner change the degrees; a layout holds for one pair). */
void cs_workload_layout_fit(struct cs_workload *w);

/* Megatron-Core's interleaved 1F1B schedule (pipeline_parallel/schedules.py,
 * forward_backward_pipelining_with_interleaving): the forward chunks
 * pipeline stage s runs before its first backward, warm-up (pp - s - 1) 2 +
 * (vp - 1) pp plus the one that starts the steady state, at most m vp for m
 * micro-batches; vp = 1 is 1F1B's min(pp - s, m). The k-th forward runs
 * model chunk (k mod pp vp) div pp (get_model_chunk_id, micro-batch groups
 * of pp). Returns how many of the activations held at that peak belong to
 * model chunk `chunk` (0 <= chunk < vp), or all of them for chunk < 0. */
int cs_workload_inflight_chunks(int pp, int vp, int stage, long micro, int chunk);

/* Share of all the model's layers recomputed in full, with the layers split
 * over pp x vp virtual stages as Megatron splits them (ceil per stage). */
double cs_workload_recompute_share(const struct cs_workload *w);

/* The workload's cross entropy with auto resolved by its stack (eager
 * under torchtitan, fused otherwise). */
enum cs_cross_entropy cs_workload_cross_entropy(const struct cs_workload *w);
/* True when the weights are stored in the quantized precision
 * (fp8_param_gather under fp8 or mxfp8, fp4_param_gather under nvfp4). */
bool cs_workload_quantized_params(const struct cs_workload *w);
/* The attention kernel with auto resolved by stack: cudnn under mcore,
 * flash2 under torchtitan and composer, auto (not stated: the fitted
 * efficiency as it is, FlashAttention-2's head-width curve) otherwise. */
enum cs_fsdp_prefetch cs_workload_fsdp_prefetch(const struct cs_workload *w);
enum cs_attn_kernel cs_workload_attention_kernel(const struct cs_workload *w);
/* The stack runs its blocks as eager PyTorch (torchtitan with
 * torch_compile off), and its norms as eager PyTorch ops (norm_kernel
 * eager under that). */
bool cs_workload_torch_eager(const struct cs_workload *w);
bool cs_workload_eager_norm(const struct cs_workload *w);
/* Megatron-Core applies RoPE to q and k with its unfused PyTorch ops
 * (workload.rope_fusion off, or auto with YaRN positions of standard
 * attention under stack mcore); false for models without rotary positions
 * (gelu) and for the other stacks. */
bool cs_workload_rope_unfused(const struct cs_workload *w);

/* Total parameter count of the model (embeddings and every expert included). */
double cs_workload_params(const struct cs_model_shape *m);
/* Parameters one token passes through: the total less the routed experts it
 * is not sent to (top_k of experts per MoE layer); the total for dense
 * models. */
double cs_workload_params_active(const struct cs_model_shape *m);
/* Parameters of the multi-token-prediction modules (mtp_layers of them),
 * not in the two counts above (as the published counts leave them out):
 * each one layer of the decoder's last kind, the projection eh_proj (2h x
 * h) and three norms; the embedding and output layer they share are not
 * counted again. 0 without MTP. */
double cs_workload_mtp_params(const struct cs_model_shape *m);
/* Expert-parallel degree of the expert layers' data parallelism:
 * tp cp dp / (ep etp) (>= 1 when the degrees are consistent). */
int cs_workload_expert_dp(const struct cs_workload *w);

/* Forward FLOPs of one transformer layer for ONE sequence of seq_len tokens,
 * whole layer (no parallelism), GEMM by GEMM, in the Narayanan et al. 2021
 * convention (a multiply-add is 2 FLOPs; attention counted over the full s x s
 * matrix, causal masking ignored). Backward is 2x each (data + weight
 * gradients). With h hidden, a heads, k kv heads, f ffn, s sequence: */
struct cs_layer_flops {
    double qkv;          /* 2 s h (h + 2 k h/a) */
    double scores;       /* Q K^T: 2 s^2 h */
    double attn_over_v;  /* P V: 2 s^2 h */
    double proj;         /* output projection: 2 s h^2 */
    double router;       /* MoE layers: 2 s h E (0 for dense layers) */
    double mlp_up;       /* 2 s h f (gelu) or 4 s h f (swiglu: up and gate); MoE:
                            (top_k + shared) experts of width expert_ffn_hidden */
    double mlp_down;     /* 2 s h f */
    double mamba;        /* Mamba-2 blocks: in_proj, convolution, SSD scan, out_proj */
    double latent_proj;  /* latent MoE layers: the two latent projections, 2 x 2 s h latent */
    double total;        /* sum of the above */
};
/* A Mamba-2 block's mixer parameters (in_proj, the convolution's weight
 * and bias, dt_bias, A_log, D, the gated norm's weight, out_proj; the
 * block's pre-norm apart). */
double cs_model_mamba_params(const struct cs_model_shape *m);
/* Forward FLOPs of one Mamba-2 mixer per token: the two projections, the
 * convolution and the chunked scan (SSD, Dao and Gu 2024, Section 6: per
 * chunk of Q tokens C B^T (Q x Q x N per group), its masked product with X
 * (Q x Q x P per head), the chunk states B^T X and their contribution C S
 * (N x P per token and head each): 2 Q N G + 2 H P (2 N + Q)). */
double cs_model_mamba_flops_per_token(const struct cs_model_shape *m);
/* The first layer's counts (a dense layer in MoE models with
 * first_dense_layers, else an MoE layer). Queries and keys head_dim wide
 * (MLA: nope + rope; values v_dim). */
void cs_workload_layer_flops(const struct cs_model_shape *m, struct cs_layer_flops *out);
/* Forward FLOPs of the output layer (logits) for one sequence: 2 s h V. */
double cs_workload_logits_flops(const struct cs_model_shape *m);

/* HBM bytes moved (read + written) by one layer's memory-bound operations in
 * the forward pass for one sequence, no parallelism, activations of
 * `act_bytes` bytes per element (see docs/models.md for each count). */
struct cs_layer_bytes {
    double layernorm;    /* 2 norms, each reads and writes s h */
    double activation;   /* gelu: read + write s f; swiglu: read 2 s f, write s f */
    double dropout_add;  /* 2 fused bias-dropout-add kernels (Megatron-LM): each
                            reads 2 s h, writes s h and a 1-byte mask of s h */
    double softmax;      /* unfused attention only: fused scale-mask-softmax reads
                            and writes a s^2; attention dropout reads and writes
                            a s^2 plus a 1-byte mask */
    double total;        /* sum, softmax included */
};
void cs_workload_layer_bytes(const struct cs_model_shape *m, double act_bytes,
                             struct cs_layer_bytes *out);

/* Bytes per element of activations at training precision p: 4 for fp32/tf32,
 * else 2 (fp8 training keeps activations outside the GEMMs in bf16). */
double cs_workload_act_bytes(enum cs_precision p);

/* Model FLOPs of one iteration of `global_batch` sequences in the Narayanan
 * et al. 2021 (SC21) convention: forward + backward (2x forward) of every GEMM
 * of every layer and of the logits, plus the forward of every layer again
 * under full recompute, or only the attention core (Q K^T and P V, Korthikanti
 * et al. 2022) under selective recompute. For GPT shapes (gelu, f = 4h,
 * k = a) this is exactly 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) with full
 * recompute and 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) without. */
double cs_workload_flops_per_iter(const struct cs_model_shape *m, double global_batch,
                                  enum cs_recompute rc);

const char *cs_activation_name(enum cs_activation a);
/* Bytes moved by the MLP's activation kernels forward, per element of the
 * f-wide intermediate and activation byte: gelu 2 (Megatron's fused
 * bias-GeLU reads and writes it), swiglu 3 (reads both halves, writes one),
 * squared-relu 4 (relu, then pow: two unfused kernels, each a read and a
 * write; megatron/core/activations.py squared_relu). */
double cs_activation_mem_passes(enum cs_activation a);
/* Elementwise kernels the activation launches each way (host cost). */
int cs_activation_kernels(enum cs_activation a);
/* Whether the family's norms carry a bias (LayerNorm: gelu, squared-relu). */
bool cs_activation_norm_bias(enum cs_activation a);
/* Parameter tensors of one dense Megatron-style layer: the fused QKV, the
 * projection, fc1 (gate and up fused under SwiGLU) and fc2, their biases in
 * the GPT family, and two norms (weight, and bias where the family has
 * one): 12 gelu, 6 swiglu, 8 squared-relu. */
int cs_layer_param_tensors(const struct cs_model_shape *m);
const char *cs_recompute_name(enum cs_recompute r);
const char *cs_fsdp_name(enum cs_fsdp f);
/* Name tables in enum order, NULL-terminated (models/names.c). */
extern const char *const cs_activation_names[];
extern const char *const cs_recompute_names[];
extern const char *const cs_fsdp_names[];
extern const char *const cs_stack_names[];   /* enum cs_stack order */
extern const char *const cs_attention_names[];
extern const char *const cs_rope_scaling_names[];
extern const char *const cs_moe_routing_names[];
extern const char *const cs_moe_dispatcher_names[];

#endif
