/* workload.c: named transformer presets, parameter counts and the per-layer
 * FLOP and memory-traffic counts that the compute, memory and step models
 * build on. Every formula and its source is written out in docs/models.md. */
#include "clustersim/models/workload.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One preset row. Sources are quoted into cs_model_shape.source. dropout:
 * the GPT rows as Megatron-LM trains them (hidden and attention dropout 0.1,
 * its defaults, as in Narayanan et al. 2021 and Korthikanti et al. 2022);
 * Llama 2 and 3 use none (their released configs: attention_dropout 0.0, no
 * hidden dropout); BLOOM 176B trained without (its Megatron-DeepSpeed run:
 * hidden and attention dropout 0.0, BigScience tr11-176B-ml). */
struct preset {
    const char *name;
    int layers, hidden, heads, kv_heads, ffn_hidden;
    enum cs_activation act;
    int vocab, seq_len;
    bool tied;
    bool dropout;
    const char *source;
};

/* What some presets add to their row: attention variants and experts. */
struct preset_ext {
    const char *name;
    int head_dim;
    enum cs_attention attention;
    struct cs_mla_shape mla;
    int sliding_window, sliding_every;
    enum cs_rope_scaling rope_scaling;
    struct cs_moe_shape moe;
    int mtp_layers;
    bool mtp_shared;
    const char *hybrid;
    struct cs_mamba_shape mamba;
};

/* The MoE presets' shapes are their released config.json files (Hugging
 * Face model repositories; validation/step/MOE-MODELS.md lists each with
 * its published total and active parameter counts, which
 * tests/check_moe.c checks the counts below against). */
#define MOE(E, K, SH, F, FIRST, EVERY) \
    .moe = {.experts = (E), .top_k = (K), .shared_experts = (SH), .expert_ffn_hidden = (F), \
            .first_dense_layers = (FIRST), .moe_every = (EVERY), .load_cv = CS_MOE_DEFAULT_LOAD_CV}
/* with group-limited routing: G groups, a token's experts from its best GK
 * (DeepSeek-V3's, whose router is bias-balanced: CS_MOE_BIAS_BALANCED_LOAD_CV) */
#define MOE_G(E, K, SH, F, FIRST, EVERY, G, GK) \
    .moe = {.experts = (E), .top_k = (K), .shared_experts = (SH), .expert_ffn_hidden = (F), \
            .first_dense_layers = (FIRST), .moe_every = (EVERY), \
            .load_cv = CS_MOE_BIAS_BALANCED_LOAD_CV, .router_groups = (G), .router_group_topk = (GK)}
/* routers balanced by per-expert biases (CS_MOE_BIAS_BALANCED_LOAD_CV) */
#define MOE_BIAS(E, K, SH, F, FIRST, EVERY) \
    .moe = {.experts = (E), .top_k = (K), .shared_experts = (SH), .expert_ffn_hidden = (F), \
            .first_dense_layers = (FIRST), .moe_every = (EVERY), \
            .load_cv = CS_MOE_BIAS_BALANCED_LOAD_CV}
#define DSV3_MLA \
    .attention = CS_ATTN_MLA, \
    .mla = {.q_lora_rank = 1536, .kv_lora_rank = 512, .qk_nope_dim = 128, .qk_rope_dim = 64, \
            .v_dim = 128}

#define SC21 \
    "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using " \
    "Megatron-LM, SC21, Table 1 (shapes as in shared/reference/throughput/" \
    "megatron-sc21-a100-weak-scaling.csv; seq 2048, vocab 51200, ffn 4h)"
#define LLAMA2 "Touvron et al., Llama 2: Open Foundation and Fine-Tuned Chat Models, arXiv 2307.09288, " \
    "Table 1 and the released config.json (vocab 32000, seq 4096, untied)"
#define LLAMA3 "Llama Team, The Llama 3 Herd of Models, arXiv 2407.21783, Table 3 " \
    "(vocab 128256, seq 8192, GQA 8 kv heads, SwiGLU, untied)"

static const struct preset presets[] = {
    {"gpt-1.7b", 24, 2304, 24, 24, 4 * 2304, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-3.6b", 30, 3072, 32, 32, 4 * 3072, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-7.5b", 36, 4096, 32, 32, 4 * 4096, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-18b", 40, 6144, 48, 48, 4 * 6144, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-39b", 48, 8192, 64, 64, 4 * 8192, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-76b", 60, 10240, 80, 80, 4 * 10240, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-145b", 80, 12288, 96, 96, 4 * 12288, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-310b", 96, 16384, 128, 128, 4 * 16384, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-530b", 105, 20480, 128, 128, 4 * 20480, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt-1t", 128, 25600, 160, 160, 4 * 25600, CS_ACT_GELU, 51200, 2048, true, true, SC21},
    {"gpt3-175b", 96, 12288, 96, 96, 4 * 12288, CS_ACT_GELU, 51200, 2048, true, true,
     "Brown et al., Language Models are Few-Shot Learners, arXiv 2005.14165, Table 2.1 "
     "(96 layers, d_model 12288, 96 heads, context 2048); vocab 50257 padded to 51200 as "
     "Megatron-LM does (Narayanan et al. SC21)"},
    {"llama2-7b", 32, 4096, 32, 32, 11008, CS_ACT_SWIGLU, 32000, 4096, false, false, LLAMA2},
    {"llama2-13b", 40, 5120, 40, 40, 13824, CS_ACT_SWIGLU, 32000, 4096, false, false, LLAMA2},
    {"llama2-70b", 80, 8192, 64, 8, 28672, CS_ACT_SWIGLU, 32000, 4096, false, false, LLAMA2},
    {"llama3.1-8b", 32, 4096, 32, 8, 14336, CS_ACT_SWIGLU, 128256, 8192, false, false, LLAMA3},
    {"llama3.1-70b", 80, 8192, 64, 8, 28672, CS_ACT_SWIGLU, 128256, 8192, false, false, LLAMA3},
    {"llama3.1-405b", 126, 16384, 128, 8, 53248, CS_ACT_SWIGLU, 128256, 8192, false, false, LLAMA3},
    {"bloom-176b", 70, 14336, 112, 112, 4 * 14336, CS_ACT_GELU, 250880, 2048, true, false,
     "BigScience, BLOOM: A 176B-Parameter Open-Access Multilingual Language Model, "
     "arXiv 2211.05100, Table 3 (70 layers, hidden 14336, 112 heads, vocab 250880, seq 2048, "
     "tied embeddings, ALiBi)"},
    {"mt-nlg-530b", 105, 20480, 128, 128, 4 * 20480, CS_ACT_GELU, 51200, 2048, true, true,
     "Smith et al., Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B, "
     "arXiv 2201.11990, Section 3.1 (105 layers, hidden 20480, 128 heads, seq 2048)"},
    {"nemotron-4-340b", 96, 18432, 96, 8, 73728, CS_ACT_RELU2, 256000, 4096, false, false,
     "Nemotron-4 340B Technical Report, arXiv 2406.11704, Section 2.1 (96 layers, hidden "
     "18432, 96 heads / 8 kv, seq 4096, vocab 256000, squared-ReLU MLP, no biases, untied; "
     "9.4B embedding and 331.6B other parameters), and NVIDIA/NeMo nemotron.py "
     "Nemotron4Config340B (ffn 73728, LayerNorm, rotary, no dropout)"},
    {"nemotron-h-56b", 118, 8192, 64, 8, 32768, CS_ACT_RELU2, 131072, 8192, false, false,
     "NVIDIA, Nemotron-H (arXiv 2504.03624): 56B base, 54 Mamba-2, 54 MLP and 10 attention "
     "layers; shapes from NVIDIA/NeMo@7a8f1cc7 nemo/collections/llm/gpt/model/ssm.py "
     "NemotronHConfig56B (pattern M-M-M-M*-..., hidden 8192, ffn 32768 squared-ReLU, 64 heads / "
     "8 kv of 128, Mamba-2 state 256, head_dim 64, 8 groups, vocab 131072, RMSNorm, no position "
     "embedding, untied) and Megatron-Core's MambaMixer defaults (expand 2: 256 heads, conv 4, "
     "chunk 128)"},
    {"nemotron-3-nano", 52, 2688, 32, 2, 1856, CS_ACT_RELU2, 131072, 8192, false, false,
     "NVIDIA Nemotron 3 Nano 30B-A3B (nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 config.json as "
     "NVIDIA-NeMo/Megatron-Bridge@067f987df tests/unit_tests/models/nemotronh/"
     "test_nemotron_h_bridge.py holds it, and its Nemotron3NanoProvider test): 52 layers of "
     "pattern MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME (23 Mamba-2, 23 MoE, 6 "
     "attention), hidden 2688, 32 heads / 2 kv of 128, Mamba-2 64 heads of 64, state 128, 8 "
     "groups, conv 4, chunk 128; 128 experts top-6 of 1856 plus a shared expert of 3712 (two "
     "of 1856 here), squared-ReLU, no biases, RMSNorm, no position embedding, vocab 131072, "
     "untied; 31.6B total, 3.6B active with the embeddings"},
    {"nemotron-3.5-lightning", 52, 2688, 32, 2, 1856, CS_ACT_RELU2, 131072, 8192, false, false,
     "NVIDIA Nemotron 3.5 Lightning 30B-A3B: Nemotron 3 Nano's architecture (NVIDIA-NeMo/"
     "Megatron-Bridge@067f987df examples/models/nemotron/nemotron_3/lightning/README.md: 'the "
     "same architecture as Nemotron 3 Nano, but its checkpoint was trained natively with "
     "multi-token prediction'), with one MTP module (pattern '*E': an attention and a MoE layer) "
     "run twice with shared weights, as its performance recipes run it (src/megatron/bridge/"
     "perf_recipes/nemotronh/gb200/nemotronh.py at 4ab94dfad: mtp_num_layers 2, "
     "mtp_hybrid_override_pattern '*E', mtp_use_repeated_layer); 32.91B counted (the model "
     "verification card, examples/model_verification_cards/nemotron-3.5-lightning/card.yaml: "
     "32,913,266,240 parameters with the MTP layers)"},
    {"nemotron-3-super", 88, 4096, 32, 2, 2688, CS_ACT_RELU2, 131072, 8192, false, false,
     "NVIDIA Nemotron 3 Super 120B-A12B: NVIDIA/Megatron-LM@d98e8a64dd examples/post_training/"
     "modelopt/conf/nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16.sh (88 layers of pattern "
     "MEMEMEM*EMEMEMEM*...: 40 Mamba-2, 40 latent MoE, 8 attention; hidden 4096, 32 heads / 2 kv "
     "of 128, Mamba-2 128 heads of 64, state 128, 8 groups; 512 experts top-22 of 2688 at latent "
     "1024, shared expert 5376 (two of 2688 here), squared-ReLU, RMSNorm, no position embedding, "
     "vocab 131072, untied); one MTP module run twice with shared weights, as its Megatron-Bridge "
     "training recipes run it (recipes/nemotronh/h100/nemotron_3_super.py: mtp_num_layers 2, "
     "mtp_use_repeated_layer); 120.7B counted (published 120B), 12.8B active with the embeddings"},
    {"nemotron-3-ultra", 108, 8192, 64, 2, 5120, CS_ACT_RELU2, 131072, 8192, false, false,
     "NVIDIA Nemotron 3 Ultra 550B-A55B: NVIDIA/Megatron-LM@d98e8a64dd examples/post_training/"
     "modelopt/conf/nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.sh (108 layers: 48 Mamba-2, 48 "
     "latent MoE, 12 attention; hidden 8192, 64 heads / 2 kv of 128, Mamba-2 256 heads of 64, "
     "state 128 (Megatron-Core's default; not set there), 8 groups; 512 experts top-22 of 5120 at "
     "latent 2048, shared expert 10240, squared-ReLU, RMSNorm, vocab 131072, untied); no MTP "
     "stated; 549.3B counted (published 550B), 56.1B active with the embeddings"},
    {"mixtral-8x7b", 32, 4096, 32, 8, 14336, CS_ACT_SWIGLU, 32000, 4096, false, false,
     "Jiang et al., Mixtral of Experts, arXiv 2401.04088, Table 1, and mistralai/"
     "Mixtral-8x7B-v0.1 config.json (8 experts top-2, expert ffn 14336; 46.7B total, "
     "12.9B active; trained seq not stated, 4096 here)"},
    {"mixtral-8x22b", 56, 6144, 48, 8, 16384, CS_ACT_SWIGLU, 32768, 4096, false, false,
     "mistralai/Mixtral-8x22B-v0.1 config.json (56 layers, hidden 6144, 48 heads / 8 kv, "
     "8 experts top-2, expert ffn 16384, vocab 32768); Mistral AI, 'Cheaper, Better, "
     "Faster, Stronger' (2024-04-17): 141B total, 39B active"},
    {"deepseek-v3", 61, 7168, 128, 128, 18432, CS_ACT_SWIGLU, 129280, 4096, false, false,
     "DeepSeek-AI, DeepSeek-V3 Technical Report, arXiv 2412.19437, Sections 2 and 4.2, and "
     "deepseek-ai/DeepSeek-V3 config.json (61 layers, hidden 7168, MLA 128 heads q_lora "
     "1536 kv_lora 512 nope 128 rope 64 v 128, first 3 layers dense (ffn 18432), 256 routed "
     "experts top-8 + 1 shared, expert ffn 2048, vocab 129280, seq 4096; 671B total, 37B "
     "active, without the multi-token-prediction module: depth D = 1, Section 2.2, "
     "num_nextn_predict_layers 1, 14B more)"},
    {"kimi-k2", 61, 7168, 64, 64, 18432, CS_ACT_SWIGLU, 163840, 4096, false, false,
     "Kimi Team, Kimi K2: Open Agentic Intelligence, arXiv 2507.20534, Table 2, and "
     "moonshotai/Kimi-K2-Base config.json (DeepSeek-V3's layout with 64 MLA heads, 384 "
     "experts top-8 + 1 shared, first layer dense, vocab 163840; 1.04T total, 32.6B active)"},
    {"qwen3-30b-a3b", 48, 2048, 32, 4, 6144, CS_ACT_SWIGLU, 151936, 4096, false, false,
     "Qwen Team, Qwen3 Technical Report, arXiv 2505.09388, Table 2, and Qwen/Qwen3-30B-A3B "
     "config.json (48 layers, hidden 2048, 32 heads / 4 kv of head_dim 128, 128 experts "
     "top-8, expert ffn 768, no shared experts, vocab 151936; 30.5B total, 3.3B active)"},
    {"qwen3-235b-a22b", 94, 4096, 64, 4, 12288, CS_ACT_SWIGLU, 151936, 4096, false, false,
     "Qwen Team, Qwen3 Technical Report, arXiv 2505.09388, Table 2, and Qwen/Qwen3-235B-A22B "
     "config.json (94 layers, hidden 4096, 64 heads / 4 kv of head_dim 128, 128 experts "
     "top-8, expert ffn 1536, vocab 151936; 235B total, 22B active)"},
    {"llama4-scout", 48, 5120, 40, 8, 16384, CS_ACT_SWIGLU, 202048, 8192, false, false,
     "meta-llama/Llama-4-Scout-17B-16E config.json (48 layers, hidden 5120, 40 heads / 8 kv "
     "of head_dim 128, 16 experts top-1 + 1 shared, expert ffn 8192, every layer MoE, vocab "
     "202048); Meta, 'The Llama 4 herd' (2025-04-05): 109B total, 17B active. Chunked "
     "attention and NoPE layers are modelled as full attention"},
    {"llama4-maverick", 48, 5120, 40, 8, 16384, CS_ACT_SWIGLU, 202048, 8192, false, false,
     "meta-llama/Llama-4-Maverick-17B-128E config.json (48 layers, hidden 5120, 40 heads / 8 "
     "kv of head_dim 128, interleave_moe_layer_step 2: every other layer MoE with 128 "
     "experts top-1 + 1 shared of ffn 8192, the others dense of ffn 16384, vocab 202048); "
     "Meta, 'The Llama 4 herd' (2025-04-05): 400B total, 17B active"},
    {"gpt-oss-120b", 36, 2880, 64, 8, 2880, CS_ACT_SWIGLU, 201088, 4096, false, false,
     "OpenAI, gpt-oss-120b & gpt-oss-20b Model Card, arXiv 2508.10925, Table 1, and "
     "openai/gpt-oss-120b config.json (36 layers, hidden 2880, 64 heads / 8 kv of head_dim "
     "64, 128-token sliding window on every other layer, 128 experts top-4, expert ffn "
     "2880, vocab 201088, swiglu_limit 7.0, rope_scaling yarn of factor 32; 116.8B total, 5.1B active; the experts' clamp and biases "
     "are costed, the attention sinks and the other biases left out)"},
};

/* Nemotron 3 Nano's layers, which Nemotron 3.5 Lightning shares */
#define NEMOTRON3_NANO_BLOCKS                                                                   \
    .head_dim = 128, MOE_BIAS(128, 6, 2, 1856, 0, 1),                                          \
    .hybrid = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",                         \
    .mamba = {.heads = 64, .head_dim = 64, .state = 128, .groups = 8, .conv = 4, .chunk = 128}

static const struct preset_ext preset_exts[] = {
    /* n_group 8, topk_group 4 (config.json): a token's experts lie in at
     * most 4 of the 8 groups, on at most 4 nodes (the report's node-limited
     * routing, Section 2.1.2, M = 4) */
    {.name = "deepseek-v3", DSV3_MLA, MOE_G(256, 8, 1, 2048, 3, 1, 8, 4), .mtp_layers = 1},
    {.name = "kimi-k2", DSV3_MLA, MOE_BIAS(384, 8, 1, 2048, 1, 1)},
    {.name = "qwen3-30b-a3b", .head_dim = 128, MOE(128, 8, 0, 768, 0, 1)},
    {.name = "qwen3-235b-a22b", .head_dim = 128, MOE(128, 8, 0, 1536, 0, 1)},
    {.name = "llama4-scout", .head_dim = 128, MOE(16, 1, 1, 8192, 0, 1)},
    {.name = "llama4-maverick", .head_dim = 128, MOE(128, 1, 1, 8192, 0, 2)},
    /* gpt-oss: the clamped GLU (limit 7.0, openai/gpt-oss-120b config.json
     * swiglu_limit; Megatron-Core activation_func_clamp_value) and biases on
     * every linear layer, the experts' included (the model card, Section 2.1) */
    /* rope_scaling yarn: config.json rope_scaling {rope_type yarn, factor
     * 32, original_max_position_embeddings 4096}; Megatron-Bridge's
     * gpt_oss_bridge.py sets position_embedding_type yarn */
    {.name = "gpt-oss-120b", .head_dim = 64, .sliding_window = 128, .sliding_every = 2,
     .rope_scaling = CS_ROPE_SCALING_YARN,
     .moe = {.experts = 128, .top_k = 4, .shared_experts = 0, .expert_ffn_hidden = 2880,
             .first_dense_layers = 0, .moe_every = 1, .load_cv = CS_MOE_DEFAULT_LOAD_CV,
             .glu_clamp = 7.0, .expert_bias = true}},
    {.name = "nemotron-h-56b",
     .hybrid = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-"
               "M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-",
     .mamba = {.heads = 256, .head_dim = 64, .state = 256, .groups = 8, .conv = 4, .chunk = 128}},
    {.name = "nemotron-3-nano", NEMOTRON3_NANO_BLOCKS},
    {.name = "nemotron-3.5-lightning", NEMOTRON3_NANO_BLOCKS, .mtp_layers = 2, .mtp_shared = true},
    {.name = "nemotron-3-super", .head_dim = 128,
     .moe = {.experts = 512, .top_k = 22, .shared_experts = 2, .expert_ffn_hidden = 2688,
             .first_dense_layers = 0, .moe_every = 1, .load_cv = CS_MOE_BIAS_BALANCED_LOAD_CV, .latent = 1024},
     .hybrid = "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME",
     .mamba = {.heads = 128, .head_dim = 64, .state = 128, .groups = 8, .conv = 4, .chunk = 128},
     .mtp_layers = 2, .mtp_shared = true},
    {.name = "nemotron-3-ultra", .head_dim = 128,
     .moe = {.experts = 512, .top_k = 22, .shared_experts = 2, .expert_ffn_hidden = 5120,
             .first_dense_layers = 0, .moe_every = 1, .load_cv = CS_MOE_BIAS_BALANCED_LOAD_CV, .latent = 2048},
     .hybrid = "MEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM*EMEMEM*"
               "EMEMEMEM*EMEMEMEME",
     .mamba = {.heads = 256, .head_dim = 64, .state = 128, .groups = 8, .conv = 4, .chunk = 128}},
    {.name = "mixtral-8x7b", MOE(8, 2, 0, 14336, 0, 1)},
    {.name = "mixtral-8x22b", MOE(8, 2, 0, 16384, 0, 1)},
};

#define NPRESETS (sizeof presets / sizeof presets[0])

static const char *const preset_names[] = {
    "gpt-1.7b", "gpt-3.6b", "gpt-7.5b", "gpt-18b", "gpt-39b", "gpt-76b", "gpt-145b",
    "gpt-310b", "gpt-530b", "gpt-1t", "gpt3-175b", "llama2-7b", "llama2-13b",
    "llama2-70b", "llama3.1-8b", "llama3.1-70b", "llama3.1-405b", "bloom-176b",
    "mt-nlg-530b", "nemotron-4-340b", "nemotron-h-56b", "mixtral-8x7b", "mixtral-8x22b", "deepseek-v3", "kimi-k2", "qwen3-30b-a3b",
    "qwen3-235b-a22b", "llama4-scout", "llama4-maverick", "gpt-oss-120b", "nemotron-3-nano", "nemotron-3.5-lightning", "nemotron-3-super", "nemotron-3-ultra", NULL,
};

_Static_assert(sizeof preset_names / sizeof preset_names[0] == NPRESETS + 1,
               "preset_names must list every preset");

cs_status cs_workload_preset(const char *name, struct cs_model_shape *out)
{
    if (name == NULL || out == NULL)
        return CS_EINVAL;
    for (size_t i = 0; i < NPRESETS; i++) {
        const struct preset *p = &presets[i];
        if (strcmp(p->name, name) != 0)
            continue;
        struct cs_model_shape m;
        memset(&m, 0, sizeof m);
        snprintf(m.name, sizeof m.name, "%s", p->name);
        m.layers = p->layers;
        m.hidden = p->hidden;
        m.heads = p->heads;
        m.kv_heads = p->kv_heads;
        m.ffn_hidden = p->ffn_hidden;
        m.activation = p->act;
        m.vocab = p->vocab;
        m.seq_len = p->seq_len;
        m.tied_embeddings = p->tied;
        m.dropout = p->dropout;
        m.moe.load_cv = CS_MOE_DEFAULT_LOAD_CV;
        m.moe.moe_every = 1;
        for (size_t j = 0; j < sizeof preset_exts / sizeof preset_exts[0]; j++) {
            const struct preset_ext *x = &preset_exts[j];
            if (strcmp(x->name, p->name) != 0)
                continue;
            m.head_dim = x->head_dim;
            m.attention = x->attention;
            m.mla = x->mla;
            m.sliding_window = x->sliding_window;
            m.sliding_every = x->sliding_every;
            m.rope_scaling = x->rope_scaling;
            m.moe = x->moe;
            m.mtp_layers = x->mtp_layers;
            m.mtp_shared = x->mtp_shared;
            if (x->hybrid)
                snprintf(m.hybrid, sizeof m.hybrid, "%s", x->hybrid);
            m.mamba = x->mamba;
        }
        snprintf(m.source, sizeof m.source, "%s", p->source);
        *out = m;
        return CS_OK;
    }
    return CS_ENOTFOUND;
}

const char *const *cs_workload_preset_names(void)
{
    return preset_names;
}

bool cs_model_is_moe(const struct cs_model_shape *m)
{
    return m->moe.experts > 0 && m->moe.top_k > 0;
}

bool cs_model_is_hybrid(const struct cs_model_shape *m)
{
    return m->hybrid[0] != 0;
}

char cs_block_letter(enum cs_block b)
{
    switch (b) {
    case CS_BLOCK_ATTN:
        return '*';
    case CS_BLOCK_MLP:
        return '-';
    case CS_BLOCK_MOE:
        return 'E';
    case CS_BLOCK_MAMBA:
        return 'M';
    case CS_BLOCK_LAYER:
    case CS_BLOCK_COUNT:
        break;
    }
    return 0;
}

const char *cs_block_name(enum cs_block b)
{
    static const char *const names[CS_BLOCK_COUNT] = {"transformer layer", "attention", "MLP",
                                                      "mixture of experts", "Mamba-2"};
    return (unsigned)b < CS_BLOCK_COUNT ? names[b] : "?";
}

enum cs_block cs_model_block(const struct cs_model_shape *m, int i)
{
    if (!cs_model_is_hybrid(m) || i < 0 || i >= CS_HYBRID_MAX)
        return CS_BLOCK_LAYER;
    switch (m->hybrid[i]) {
    case '*':
        return CS_BLOCK_ATTN;
    case '-':
        return CS_BLOCK_MLP;
    case 'E':
        return CS_BLOCK_MOE;
    case 'M':
        return CS_BLOCK_MAMBA;
    default:
        return CS_BLOCK_LAYER;
    }
}

enum cs_block cs_model_layer_slot(const struct cs_model_shape *m, int i)
{
    if (cs_model_is_hybrid(m))
        return cs_model_block(m, i);
    return cs_model_layer_is_moe(m, i) ? CS_BLOCK_MOE : CS_BLOCK_LAYER;
}

/* MoE layers of a plain model among [first, first + n): layer i >= fd is
 * MoE when (i - fd + 1) is a multiple of every (cs_model_layer_is_moe),
 * counted in closed form (this runs per chunk and stage in the search's
 * inner loop) */
static int plain_moe_in(const struct cs_model_shape *m, int first, int n)
{
    if (!cs_model_is_moe(m) || n <= 0)
        return 0;
    long fd = m->moe.first_dense_layers, e = m->moe.moe_every > 1 ? m->moe.moe_every : 1;
    long lo = first > fd ? first : fd, hi = (long)first + n;
    if (lo >= hi)
        return 0;
    /* j = i - fd + 1 runs over [lo - fd + 1, hi - fd] */
    return (int)((hi - fd) / e - (lo - fd) / e);
}

enum cs_precision cs_workload_module_precision(const struct cs_workload *w, enum cs_qmodule mod,
                                               enum cs_precision layer)
{
    if ((unsigned)mod >= CS_QMOD_COUNT || !cs_precision_quantized(layer))
        return layer;
    unsigned v = w->module_precision[mod];
    return v > 0 && v <= CS_PREC_COUNT ? (enum cs_precision)(v - 1) : layer;
}

bool cs_workload_layer_bf16(const struct cs_workload *w, int i)
{
    if (!cs_precision_quantized(w->precision))
        return false;
    return i < w->bf16_layers_start || i >= w->model.layers - w->bf16_layers_end;
}

int cs_workload_bf16_slots_in(const struct cs_workload *w, int first, int n, int counts[CS_BLOCK_COUNT])
{
    for (int k = 0; k < CS_BLOCK_COUNT; k++)
        counts[k] = 0;
    int total = 0;
    if (!cs_precision_quantized(w->precision) || (w->bf16_layers_start <= 0 && w->bf16_layers_end <= 0))
        return 0;
    for (int i = first; i < first + n; i++)
        if (cs_workload_layer_bf16(w, i)) {
            counts[cs_model_layer_slot(&w->model, i)]++;
            total++;
        }
    return total;
}

void cs_model_slots_in(const struct cs_model_shape *m, int first, int n, int counts[CS_BLOCK_COUNT])
{
    for (int k = 0; k < CS_BLOCK_COUNT; k++)
        counts[k] = 0;
    if (!cs_model_is_hybrid(m)) {
        int moe = plain_moe_in(m, first, n);
        counts[CS_BLOCK_MOE] = moe;
        counts[CS_BLOCK_LAYER] = (n > 0 ? n : 0) - moe;
        return;
    }
    for (int i = first; i < first + n; i++)
        counts[cs_model_block(m, i)]++;
}

bool cs_model_layer_is_moe(const struct cs_model_shape *m, int i)
{
    if (!cs_model_is_moe(m))
        return false;
    if (cs_model_is_hybrid(m))
        return cs_model_block(m, i) == CS_BLOCK_MOE;
    if (i < m->moe.first_dense_layers)
        return false;
    int every = m->moe.moe_every > 1 ? m->moe.moe_every : 1;
    /* Llama 4's interleave_moe_layer_step: layer i is MoE when
     * (i + 1) % step == 0 (transformers' Llama4TextConfig moe_layers). */
    return (i - m->moe.first_dense_layers + 1) % every == 0;
}

int cs_model_moe_layers_in(const struct cs_model_shape *m, int first, int n)
{
    if (!cs_model_is_moe(m))
        return 0;
    if (!cs_model_is_hybrid(m))
        return plain_moe_in(m, first, n);
    int k = 0;
    for (int i = first; i < first + n; i++)
        k += cs_model_layer_is_moe(m, i);
    return k;
}

double cs_model_qk_head_dim(const struct cs_model_shape *m)
{
    if (m->attention == CS_ATTN_MLA)
        return (double)m->mla.qk_nope_dim + m->mla.qk_rope_dim;
    return m->head_dim > 0 ? (double)m->head_dim : (double)m->hidden / m->heads;
}

double cs_model_v_head_dim(const struct cs_model_shape *m)
{
    if (m->attention == CS_ATTN_MLA)
        return (double)m->mla.v_dim;
    return cs_model_qk_head_dim(m);
}

/* Width of the fused QKV projection's output: a d query columns plus k d
 * for each of K and V (grouped-query attention, Ainslie et al. 2023; d =
 * head_dim, h / a unless decoupled). */
static double qkv_width(const struct cs_model_shape *m)
{
    double d = cs_model_qk_head_dim(m);
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    return (m->heads + 2.0 * kv) * d;
}

/* Columns of the first MLP GEMM: f for gelu, 2f for swiglu (up and gate,
 * Shazeer 2020). */
static double mlp_in_width_f(const struct cs_model_shape *m, double f)
{
    return m->activation == CS_ACT_SWIGLU ? 2.0 * f : f;
}
static double mlp_in_width(const struct cs_model_shape *m)
{
    return mlp_in_width_f(m, m->ffn_hidden);
}

/* Weights of the attention block (projections only, norms apart). MLA
 * (DeepSeek-V2, Section 2.1.2; the HF DeepseekV3Attention modules): q_a
 * (h x q_lora) with its norm, q_b (q_lora x a (nope + rope)), or q_proj
 * (h x a (nope + rope)) without a query latent; kv_a (h x (kv_lora + rope))
 * with its norm, kv_b (kv_lora x a (nope + v)); o (a v x h). */
static double attn_weights(const struct cs_model_shape *m)
{
    double h = m->hidden, a = m->heads;
    if (m->attention == CS_ATTN_MLA) {
        const struct cs_mla_shape *l = &m->mla;
        double qk = (double)l->qk_nope_dim + l->qk_rope_dim;
        double q = l->q_lora_rank > 0 ? h * l->q_lora_rank + l->q_lora_rank + l->q_lora_rank * a * qk
                                      : h * a * qk;
        double kv = h * (l->kv_lora_rank + l->qk_rope_dim) + l->kv_lora_rank +
                    (double)l->kv_lora_rank * a * (l->qk_nope_dim + l->v_dim);
        return q + kv + a * l->v_dim * h;
    }
    return h * qkv_width(m) + a * cs_model_v_head_dim(m) * h;
}

/* One FFN of width f (dense MLP or one expert): up (and gate) and down. */
static double ffn_weights(const struct cs_model_shape *m, double f)
{
    return m->hidden * mlp_in_width_f(m, f) + f * m->hidden;
}

/* The FFN weights of layer i: dense, or router + routed + shared experts;
 * `routed` counts the routed experts included (all, or top_k for the
 * active count). */
static double layer_ffn_weights(const struct cs_model_shape *m, int i, bool active)
{
    if (!cs_model_layer_is_moe(m, i))
        return ffn_weights(m, m->ffn_hidden);
    const struct cs_moe_shape *e = &m->moe;
    double routed = active ? e->top_k : e->experts;
    if (e->latent > 0) {
        /* latent MoE: routed experts at the latent width, the two latent
         * projections, shared experts at the hidden width */
        double f = e->expert_ffn_hidden, lat = e->latent;
        double expert = lat * mlp_in_width_f(m, f) + f * lat;
        return (double)m->hidden * e->experts + routed * expert + 2.0 * m->hidden * lat +
               e->shared_experts * ffn_weights(m, f);
    }
    return (double)m->hidden * e->experts + (routed + e->shared_experts) *
                                                 ffn_weights(m, e->expert_ffn_hidden);
}

double cs_model_mamba_params(const struct cs_model_shape *m)
{
    const struct cs_mamba_shape *b = &m->mamba;
    double d = (double)b->heads * b->head_dim, gn = (double)b->groups * b->state, H = b->heads;
    double h = m->hidden;
    return h * (2.0 * d + 2.0 * gn + H) + (d + 2.0 * gn) * (b->conv + 1.0) + 3.0 * H + d + d * h;
}

double cs_model_mamba_flops_per_token(const struct cs_model_shape *m)
{
    const struct cs_mamba_shape *b = &m->mamba;
    double d = (double)b->heads * b->head_dim, gn = (double)b->groups * b->state, H = b->heads;
    double h = m->hidden, Q = b->chunk, N = b->state, P = b->head_dim;
    double proj = 2.0 * h * (2.0 * d + 2.0 * gn + H) + 2.0 * d * h;
    double conv = 2.0 * (d + 2.0 * gn) * b->conv;
    double ssd = 2.0 * Q * gn + 2.0 * H * P * (2.0 * N + Q);
    return proj + conv + ssd;
}

/* Weights of hybrid block i with its pre-norm (RMSNorm: Nemotron-H and
 * Nemotron 3 use it, h). */
static double block_weights(const struct cs_model_shape *m, int i, bool active)
{
    double h = m->hidden;
    switch (cs_model_block(m, i)) {
    case CS_BLOCK_ATTN:
        return attn_weights(m) + h;
    case CS_BLOCK_MLP:
        return ffn_weights(m, m->ffn_hidden) + h;
    case CS_BLOCK_MOE:
        return layer_ffn_weights(m, i, active) + h;
    case CS_BLOCK_MAMBA:
        return cs_model_mamba_params(m) + h;
    case CS_BLOCK_LAYER:
    case CS_BLOCK_COUNT:
        break;
    }
    return 0.0;
}

/* Architecture family conventions (docs/models.md, "Parameter count"): gelu
 * models follow GPT (linear biases, LayerNorm with weight and bias, learned
 * positional embeddings); swiglu models follow Llama (no biases, RMSNorm with a
 * weight only, rotary positions without parameters); squared-relu models
 * follow Nemotron (no biases, LayerNorm with weight and bias, rotary). */
static double params_counted(const struct cs_model_shape *m, bool active)
{
    double h = m->hidden, v = m->vocab, s = m->seq_len;
    bool gpt = m->activation == CS_ACT_GELU;
    double norm = cs_activation_norm_bias(m->activation) ? 2.0 * h : h;
    if (cs_model_is_hybrid(m)) {
        /* one block per layer; RMSNorm throughout (final norm h) */
        double t = h + v * h * (m->tied_embeddings ? 1.0 : 2.0);
        for (int i = 0; i < m->layers; i++)
            t += block_weights(m, i, active);
        return t;
    }
    double total = norm;   /* final norm */
    double attn = attn_weights(m) + 2.0 * norm;   /* + pre-attention and pre-MLP norms */
    if (gpt)   /* biases of the four linear layers (GPT models are dense) */
        attn += qkv_width(m) + h + mlp_in_width(m) + h;
    if (!cs_model_is_moe(m))
        total += m->layers * (attn + ffn_weights(m, m->ffn_hidden));
    else
        for (int i = 0; i < m->layers; i++)
            total += attn + layer_ffn_weights(m, i, active);
    total += v * h * (m->tied_embeddings ? 1.0 : 2.0);
    if (gpt)
        total += s * h;              /* learned positional embeddings */
    return total;
}

double cs_workload_params(const struct cs_model_shape *m)
{
    return params_counted(m, false);
}

double cs_workload_params_active(const struct cs_model_shape *m)
{
    return params_counted(m, true);
}

double cs_workload_mtp_params(const struct cs_model_shape *m)
{
    if (m->mtp_layers <= 0)
        return 0.0;
    double h = m->hidden;
    bool gpt = m->activation == CS_ACT_GELU;
    double norm = cs_activation_norm_bias(m->activation) ? 2.0 * h : h;
    double attn = attn_weights(m) + 2.0 * norm;
    if (gpt)
        attn += qkv_width(m) + h + mlp_in_width(m) + h;
    /* the layer (of the decoder's last kind), eh_proj, the norms of the
     * hidden state and of the embedding, and the module's final norm */
    double one = attn + layer_ffn_weights(m, m->layers - 1, false) + 2.0 * h * h + 3.0 * norm;
    return (m->mtp_shared ? 1 : m->mtp_layers) * one;
}

double cs_moe_dispatch_dedup(int nodes, int top_k)
{
    if (nodes <= 1 || top_k <= 1)
        return 1.0;
    double n = nodes;
    return n * (1.0 - pow(1.0 - 1.0 / n, top_k)) / top_k;
}

int cs_moe_reachable_nodes(const struct cs_moe_shape *m, int nodes)
{
    int g = m->router_groups, k = m->router_group_topk;
    if (nodes <= 1 || g <= 1 || k < 1 || k >= g)
        return nodes;
    long reach;
    if (g >= nodes && g % nodes == 0)
        reach = k;                          /* a node holds g / nodes whole groups */
    else if (nodes % g == 0)
        reach = (long)k * (nodes / g);      /* a group spans nodes / g nodes */
    else
        return nodes;
    return reach < nodes ? (int)reach : nodes;
}

int cs_workload_expert_dp(const struct cs_workload *w)
{
    long n = (long)w->par.tp * (w->par.cp > 0 ? w->par.cp : 1) * w->par.dp;
    long e = (long)(w->par.ep > 0 ? w->par.ep : 1) * (w->par.etp > 0 ? w->par.etp : 1);
    long d = e > 0 ? n / e : 0;
    return d >= 1 ? (int)d : 1;
}

/* Keys a query of a layer attends to in the convention: the whole
 * sequence, or the window on a sliding-window layer. */
static double keys_attended(const struct cs_model_shape *m, int i)
{
    double s = m->seq_len;
    bool win = m->sliding_window > 0 && m->sliding_every > 0 && i % m->sliding_every == 0;
    return win && m->sliding_window < s ? (double)m->sliding_window : s;
}

/* Forward FLOPs of layer i for one sequence. */
static void layer_flops_i(const struct cs_model_shape *m, int i, struct cs_layer_flops *out)
{
    double h = m->hidden, s = m->seq_len, a = m->heads;
    double dqk = cs_model_qk_head_dim(m), dv = cs_model_v_head_dim(m);
    double keys = keys_attended(m, i);
    struct cs_layer_flops r;
    memset(&r, 0, sizeof r);
    enum cs_block blk = cs_model_block(m, i);
    bool attn = blk == CS_BLOCK_LAYER || blk == CS_BLOCK_ATTN;
    bool ffn = blk == CS_BLOCK_LAYER || blk == CS_BLOCK_MLP || blk == CS_BLOCK_MOE;
    if (attn) {
        r.qkv = 2.0 * s * (attn_weights(m) - a * dv * h);   /* every projection but the output */
        r.scores = 2.0 * s * keys * a * dqk;
        r.attn_over_v = 2.0 * s * keys * a * dv;
        r.proj = 2.0 * s * a * dv * h;
    }
    if (blk == CS_BLOCK_MAMBA)
        r.mamba = s * cs_model_mamba_flops_per_token(m);
    if (ffn && cs_model_layer_is_moe(m, i)) {
        const struct cs_moe_shape *e = &m->moe;
        double n = (double)e->top_k + e->shared_experts, f = e->expert_ffn_hidden;
        r.router = 2.0 * s * h * e->experts;
        if (e->latent > 0) {
            double lat = e->latent;
            r.mlp_up = 2.0 * s * mlp_in_width_f(m, f) * (e->top_k * lat + e->shared_experts * h);
            r.mlp_down = 2.0 * s * f * (e->top_k * lat + e->shared_experts * h);
            r.latent_proj = 2.0 * 2.0 * s * h * lat;
        } else {
            r.mlp_up = n * 2.0 * s * h * mlp_in_width_f(m, f);
            r.mlp_down = n * 2.0 * s * h * f;
        }
    } else if (ffn) {
        r.mlp_up = 2.0 * s * h * mlp_in_width(m);
        r.mlp_down = 2.0 * s * h * m->ffn_hidden;
    }
    r.total = r.qkv + r.scores + r.attn_over_v + r.proj + r.router + r.mlp_up + r.mlp_down + r.mamba +
              r.latent_proj;
    *out = r;
}

void cs_workload_layer_flops(const struct cs_model_shape *m, struct cs_layer_flops *out)
{
    /* the first layer (dense in every MoE model with first_dense_layers) */
    layer_flops_i(m, 0, out);
}

double cs_workload_logits_flops(const struct cs_model_shape *m)
{
    return 2.0 * m->seq_len * (double)m->hidden * m->vocab;
}

double cs_workload_act_bytes(enum cs_precision p)
{
    return (p == CS_PREC_FP32 || p == CS_PREC_TF32) ? 4.0 : 2.0;
}

void cs_workload_layer_bytes(const struct cs_model_shape *m, double e, struct cs_layer_bytes *out)
{
    double h = m->hidden, f = m->ffn_hidden, s = m->seq_len, a = m->heads;
    double sh = s * h, sf = s * f;
    struct cs_layer_bytes r;
    r.layernorm = 2.0 * (2.0 * e * sh);
    r.activation = cs_activation_mem_passes(m->activation) * e * sf;
    r.dropout_add = 2.0 * ((3.0 * e + 1.0) * sh);
    r.softmax = 2.0 * e * a * s * s + (2.0 * e + 1.0) * a * s * s;
    r.total = r.layernorm + r.activation + r.dropout_add + r.softmax;
    *out = r;
}

/* Fraction of the TP collectives Megatron-Core with Transformer Engine hides
 * behind GEMMs ("TP communication overlap", the userbuffers all-gather /
 * reduce-scatter pipelined with the linear layers). One global parameter
 * for the 2024 stack, fitted on the Megatron-Core H100 table; docs/step.md. */
#define CS_MCORE_TP_OVERLAP 0.8

bool cs_graph_scope_per_module(enum cs_graph_scope s)
{
    return s == CS_GRAPH_SCOPE_ATTN || s == CS_GRAPH_SCOPE_MAMBA || s == CS_GRAPH_SCOPE_ATTN_MAMBA ||
           s == CS_GRAPH_SCOPE_MOE_ROUTER;
}

bool cs_graph_scope_has_attn(enum cs_graph_scope s)
{
    return s == CS_GRAPH_SCOPE_ATTN || s == CS_GRAPH_SCOPE_ATTN_MAMBA;
}

bool cs_graph_scope_has_router(enum cs_graph_scope s)
{
    return cs_graph_scope_has_attn(s) || s == CS_GRAPH_SCOPE_MOE_ROUTER;
}

bool cs_graph_scope_has_mamba(enum cs_graph_scope s)
{
    return s == CS_GRAPH_SCOPE_MAMBA || s == CS_GRAPH_SCOPE_ATTN_MAMBA;
}

bool cs_stack_preset(enum cs_stack s, struct cs_stack_preset *out)
{
    struct cs_stack_preset p = {0.0, true, true, CS_MOE_DISPATCH_ALLTOALL};
    switch (s) {
    case CS_STACK_MEGATRON_2021:
    case CS_STACK_MEGATRON_DEEPSPEED:
        /* DeepSpeed's pipeline engine reduces the gradients after the
         * last micro-batch (its ReduceGrads instruction, runtime/pipe/
         * engine.py _exec_reduce_grads), as Megatron-LM 2021 did */
        p.dp_overlap = false;
        p.fused_attention = false;
        break;
    case CS_STACK_MCORE_2024:
        p.tp_comm_overlap = CS_MCORE_TP_OVERLAP;
        /* Megatron-Bridge's MoE performance recipes dispatch with the flex
         * dispatcher (DeepEP or HybridEP backends: src/megatron/bridge/
         * perf_recipes/{qwen,deepseek}/ at 067f987df) */
        p.moe_dispatcher = CS_MOE_DISPATCH_HIERARCHICAL;
        break;
    case CS_STACK_TORCHTITAN:
    case CS_STACK_COMPOSER:
        break;
    case CS_STACK_CUSTOM:
    case CS_STACK_COUNT:
    default:
        return false;
    }
    *out = p;
    return true;
}

enum cs_cross_entropy cs_workload_cross_entropy(const struct cs_workload *w)
{
    if (w->cross_entropy > CS_CE_AUTO && w->cross_entropy < CS_CE_COUNT)
        return w->cross_entropy;
    /* torchtitan's loss_fn is F.cross_entropy on logits.float(), compiled
     * only with training.compile since 2025-04 (components/loss.py); the
     * other stacks run a fused or in-place kernel */
    return w->stack == CS_STACK_TORCHTITAN ? CS_CE_EAGER : CS_CE_FUSED;
}

bool cs_workload_quantized_params(const struct cs_workload *w)
{
    if (w->precision == CS_PREC_FP8 || w->precision == CS_PREC_MXFP8)
        return w->fp8_param_gather;
    return w->precision == CS_PREC_NVFP4 && w->fp4_param_gather;
}

enum cs_fsdp_prefetch cs_workload_fsdp_prefetch(const struct cs_workload *w)
{
    enum cs_fsdp_prefetch p = w->par.fsdp_backward_prefetch;
    if (p > CS_FSDP_PREFETCH_AUTO && p < CS_FSDP_PREFETCH_COUNT)
        return p;
    /* Composer's FSDPConfig.backward_prefetch defaults to BACKWARD_POST
     * (composer/utils/parallelism.py); PyTorch FSDP1's own default, FSDP2
     * and Megatron-FSDP prefetch before the layer's backward */
    return w->stack == CS_STACK_COMPOSER ? CS_FSDP_PREFETCH_POST : CS_FSDP_PREFETCH_PRE;
}

bool cs_workload_torch_eager(const struct cs_workload *w)
{
    return w->stack == CS_STACK_TORCHTITAN && w->torch_compile == 2;
}

bool cs_workload_eager_norm(const struct cs_workload *w)
{
    return cs_workload_torch_eager(w) && w->norm_kernel == 2;
}

bool cs_workload_rope_unfused(const struct cs_workload *w)
{
    if (w->model.activation == CS_ACT_GELU)   /* learned positions (workload.h) */
        return false;
    if (w->stack != CS_STACK_MCORE_2024 && w->stack != CS_STACK_CUSTOM)
        return false;
    if (w->rope_fusion == 1)
        return false;
    if (w->rope_fusion == 2)
        return true;
    /* auto: Megatron-LM's arguments.py turns apply_rope_fusion off for every
     * position_embedding_type but rope and mrope, Megatron-Bridge's
     * validate_rope_fusion_compatibility likewise; YaRN on standard
     * attention is position_embedding_type yarn (MLA keeps type rope with
     * rope_type yarn, and its fused MLA RoPE) */
    return w->stack == CS_STACK_MCORE_2024 && w->model.rope_scaling == CS_ROPE_SCALING_YARN &&
           w->model.attention == CS_ATTN_STANDARD;
}

enum cs_attn_kernel cs_workload_attention_kernel(const struct cs_workload *w)
{
    if (w->attention_kernel > CS_ATTN_KERNEL_AUTO && w->attention_kernel < CS_ATTN_KERNEL_COUNT)
        return w->attention_kernel;
    switch (w->stack) {
    case CS_STACK_MCORE_2024:
        return CS_ATTN_KERNEL_CUDNN;
    case CS_STACK_TORCHTITAN:
        return CS_ATTN_KERNEL_FLASH2;
    case CS_STACK_COMPOSER:
        /* llm-foundry's MPT runs attn_impl 'triton' by default, its Triton
         * FlashAttention on pre-MLIR Triton (setup.py: triton-pre-mlir,
         * branch triton_pre_mlir_sm90) */
        return CS_ATTN_KERNEL_TRITON;
    default:
        return CS_ATTN_KERNEL_AUTO;   /* not stated: the fitted efficiency as it is */
    }
}

/* Expansion of a layout text (Megatron-Core's parse_str_to_list): commas
 * dropped, each "(group)*n" written out n times, then each "x*n". The
 * expanded text goes to out (at most outlen - 1 characters). */
#define CS__LAYOUT_EXPANDED_MAX 65536
#define CS__LAYOUT_REPEAT_MAX 100000

static bool layout_count(const char *s, size_t *i, long *n, char *err, size_t errlen, size_t at)
{
    size_t j = *i;
    long v = 0;
    if (s[j] < '0' || s[j] > '9') {
        snprintf(err, errlen, "position %zu: expected a repeat count after '*'", at + 1);
        return false;
    }
    while (s[j] >= '0' && s[j] <= '9') {
        v = v * 10 + (s[j] - '0');
        if (v > CS__LAYOUT_REPEAT_MAX) {
            snprintf(err, errlen, "position %zu: repeat count above %d", at + 1,
                     CS__LAYOUT_REPEAT_MAX);
            return false;
        }
        j++;
    }
    *i = j;
    *n = v;
    return true;
}

static bool layout_put(char *out, size_t outlen, size_t *k, const char *src, size_t len, long times,
                       char *err, size_t errlen)
{
    for (long r = 0; r < times; r++) {
        if (*k + len >= outlen) {
            snprintf(err, errlen, "longer than %zu symbols once its repeats are written out",
                     outlen - 1);
            return false;
        }
        memcpy(out + *k, src, len);
        *k += len;
    }
    return true;
}

static bool layout_expand(const char *text, char *out, size_t outlen, char *err, size_t errlen)
{
    /* pass 1: groups; the text's own positions are reported (1-based) */
    size_t n = strlen(text), k = 0;
    char *g = malloc(outlen);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < n && ok;) {
        char c = text[i];
        if (c == ',' || c == ' ') {
            i++;
        } else if (c == '(') {
            size_t j = i + 1, len = 0;
            char grp[CS_LAYOUT_TEXT_MAX];
            while (j < n && text[j] != ')') {
                if (text[j] == '(') {
                    snprintf(err, errlen,
                             "position %zu: nested groups are not supported (Megatron-Core expands "
                             "one level of parentheses)",
                             j + 1);
                    ok = false;
                    break;
                }
                if (text[j] != ',' && text[j] != ' ' && len + 1 < sizeof grp)
                    grp[len++] = text[j];
                j++;
            }
            if (!ok)
                break;
            if (j >= n) {
                snprintf(err, errlen, "position %zu: '(' is never closed", i + 1);
                ok = false;
                break;
            }
            if (len == 0) {
                snprintf(err, errlen, "position %zu: an empty group", i + 1);
                ok = false;
                break;
            }
            if (text[j + 1] != '*') {
                snprintf(err, errlen, "position %zu: a group must be followed by '*n'", j + 2);
                ok = false;
                break;
            }
            size_t at = j + 2;
            long times;
            i = at;
            if (!layout_count(text, &i, &times, err, errlen, at) ||
                !layout_put(g, outlen, &k, grp, len, times, err, errlen)) {
                ok = false;
                break;
            }
        } else if (c == ')') {
            snprintf(err, errlen, "position %zu: ')' without '('", i + 1);
            ok = false;
        } else {
            ok = layout_put(g, outlen, &k, &c, 1, 1, err, errlen);
            i++;
        }
    }
    g[k] = 0;
    /* pass 2: single symbols "x*n" */
    size_t m = 0;
    for (size_t i = 0; ok && g[i];) {
        if (g[i + 1] == '*') {
            size_t at = i + 2, j = at;
            long times;
            if (g[i] == '|' || g[i] == '*') {
                snprintf(err, errlen, "'%c*' repeats no layer symbol", g[i]);
                ok = false;
                break;
            }
            if (!layout_count(g, &j, &times, err, errlen, at) ||
                !layout_put(out, outlen, &m, g + i, 1, times, err, errlen)) {
                ok = false;
                break;
            }
            i = j;
        } else if (g[i] == '*') {
            snprintf(err, errlen, "'*' follows no symbol");
            ok = false;
        } else {
            ok = layout_put(out, outlen, &m, g + i, 1, 1, err, errlen);
            i++;
        }
    }
    if (ok)
        out[m] = 0;
    free(g);
    return ok;
}

bool cs_pipeline_layout_parse(const char *text, struct cs_pipeline_layout *out, char *err,
                              size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!text || !text[0]) {
        snprintf(err, errlen, "empty layout");
        return false;
    }
    char *x = malloc(CS__LAYOUT_EXPANDED_MAX);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = layout_expand(text, x, CS__LAYOUT_EXPANDED_MAX, err, errlen);
    int k = 0;
    bool seen_m = false, seen_l = false, seen_sym = false;
    for (size_t i = 0; ok && x[i]; i++) {
        /* Megatron-Core: the flattened layout starts with the embedding
         * and ends with the loss */
        if (x[i] != '|') {
            if (seen_l) {
                snprintf(err, errlen, "'%c' after the loss (L), which must be the last layer", x[i]);
                ok = false;
                break;
            }
            if (!seen_sym && x[i] != 'E') {
                snprintf(err, errlen, "the first layer must be the embedding (E), got '%c'", x[i]);
                ok = false;
                break;
            }
            seen_sym = true;
            seen_l = x[i] == 'L';
        }
        if (x[i] == 't' && seen_m) {
            snprintf(err, errlen, "a decoder layer (t) after an MTP layer (m): Megatron-Core places "
                                  "MTP after the whole decoder");
            ok = false;
            break;
        }
        seen_m |= x[i] == 'm';
        switch (x[i]) {
        case '|':
            if (++k >= CS_LAYOUT_MAX_STAGES) {
                snprintf(err, errlen, "more than %d virtual stages", CS_LAYOUT_MAX_STAGES);
                ok = false;
            }
            break;
        case 't':
            if (out->decoders[k] == CS_LAYOUT_MAX_PER_STAGE) {
                snprintf(err, errlen, "more than %d decoder layers in one stage",
                         CS_LAYOUT_MAX_PER_STAGE);
                ok = false;
            } else {
                out->decoders[k]++;
            }
            break;
        case 'm':
            if ((out->extras[k] & CS_LAYOUT_MTP_MASK) == CS_LAYOUT_MTP_MASK) {
                snprintf(err, errlen, "more than %u MTP layers in one stage", CS_LAYOUT_MTP_MASK);
                ok = false;
            } else {
                out->extras[k]++;
            }
            break;
        case 'E':
        case 'L': {
            unsigned bit = x[i] == 'E' ? CS_LAYOUT_EMB : CS_LAYOUT_LOSS;
            if (out->extras[k] & bit) {
                snprintf(err, errlen, "the %s (%c) appears more than once",
                         x[i] == 'E' ? "embedding" : "loss", x[i]);
                ok = false;
            }
            out->extras[k] |= bit;
            break;
        }
        default:
            snprintf(err, errlen,
                     "unknown symbol '%c' (expected E embedding, t decoder layer, m MTP layer, L "
                     "loss, '|' between stages, '*n' repeats, '(...)*n' groups)",
                     x[i]);
            ok = false;
        }
    }
    free(x);
    if (!ok) {
        memset(out, 0, sizeof *out);
        return false;
    }
    out->stages = k + 1;
    return true;
}

bool cs_pipeline_layout_check(const struct cs_workload *w, char *err, size_t errlen)
{
    const struct cs_pipeline_layout *y = &w->par.layout;
    int pp = w->par.pp > 0 ? w->par.pp : 1, vp = w->par.vp > 0 ? w->par.vp : 1;
    if (y->stages <= 0)
        return true;
    if (y->stages != pp * vp) {
        snprintf(err, errlen, "%d virtual stages, but pp x vp = %d x %d = %d", y->stages, pp, vp,
                 pp * vp);
        return false;
    }
    long t = 0, m = 0;
    int emb = 0, loss = 0, mtp_at = -1, last_t = -1;
    for (int k = 0; k < y->stages; k++) {
        t += y->decoders[k];
        if (y->decoders[k])
            last_t = k;
        int mk = y->extras[k] & CS_LAYOUT_MTP_MASK;
        if (mk) {
            if (mtp_at >= 0 && mtp_at != k) {
                snprintf(err, errlen, "MTP layers in stages %d and %d (all must be in one)", mtp_at,
                         k);
                return false;
            }
            mtp_at = k;
            m += mk;
        }
        emb += (y->extras[k] & CS_LAYOUT_EMB) != 0;
        loss += (y->extras[k] & CS_LAYOUT_LOSS) != 0;
    }
    if (emb != 1 || loss != 1) {
        snprintf(err, errlen, "the embedding (E) and the loss (L) must each appear once");
        return false;
    }
    if (t != w->model.layers) {
        snprintf(err, errlen, "%ld decoder layers (t), but the model has %d", t, w->model.layers);
        return false;
    }
    if (m != w->model.mtp_layers) {
        snprintf(err, errlen, "%ld MTP layers (m), but workload.model.mtp_layers is %d", m,
                 w->model.mtp_layers);
        return false;
    }
    if (mtp_at >= 0) {
        if (last_t > mtp_at) {
            snprintf(err, errlen, "decoder layers (t) after the MTP layers (Megatron-Core places "
                                  "MTP after the whole decoder)");
            return false;
        }
        if (mtp_at / pp != vp - 1) {
            snprintf(err, errlen, "the MTP layers must be in the last virtual stage (chunk %d) of "
                                  "their pipeline rank, as Megatron-Core requires; they are in chunk %d",
                     vp - 1, mtp_at / pp);
            return false;
        }
    }
    return true;
}

void cs_workload_layout_fit(struct cs_workload *w)
{
    int pp = w->par.pp > 0 ? w->par.pp : 1, vp = w->par.vp > 0 ? w->par.vp : 1;
    if (w->par.layout.stages > 0 && w->par.layout.stages != pp * vp) {
        w->par.layout.stages = 0;
        w->par.layout_text[0] = 0;
    }
}

void cs_workload_vstage_extras(const struct cs_workload *w, int k, bool *emb, int *mtp, bool *loss)
{
    int pp = w->par.pp > 0 ? w->par.pp : 1, vp = w->par.vp > 0 ? w->par.vp : 1;
    int nvirt = pp * vp;
    const struct cs_pipeline_layout *y = &w->par.layout;
    bool e, l;
    int m;
    if (y->stages == nvirt && k >= 0 && k < nvirt) {
        e = (y->extras[k] & CS_LAYOUT_EMB) != 0;
        l = (y->extras[k] & CS_LAYOUT_LOSS) != 0;
        m = y->extras[k] & CS_LAYOUT_MTP_MASK;
    } else {
        e = k == 0;
        l = k == nvirt - 1;
        m = l ? w->model.mtp_layers : 0;
    }
    if (emb)
        *emb = e;
    if (loss)
        *loss = l;
    if (mtp)
        *mtp = m;
}

int cs_workload_vstage_layers(const struct cs_workload *w, int k, int *first)
{
    int pp = w->par.pp > 0 ? w->par.pp : 1, vp = w->par.vp > 0 ? w->par.vp : 1;
    int layers = w->model.layers, nvirt = pp * vp;
    const struct cs_pipeline_layout *y = &w->par.layout;
    if (y->stages == nvirt) {
        if (k < 0)
            k = 0;
        if (k >= nvirt)
            k = nvirt - 1;
        int before = 0;
        for (int j = 0; j < k; j++)
            before += y->decoders[j];
        if (first)
            *first = before;
        return y->decoders[k];
    }
    int e = w->par.account_for_embedding ? 1 : 0, l = w->par.account_for_loss ? 1 : 0;
    if (k < 0)
        k = 0;
    if (k >= nvirt)
        k = nvirt - 1;
    if ((e || l) && (layers + e + l) % nvirt == 0) {
        int per = (layers + e + l) / nvirt;
        int n = per - (k == 0 ? e : 0) - (k == nvirt - 1 ? l : 0);
        if (first)
            *first = k == 0 ? 0 : k * per - e;
        return n > 0 ? n : 0;
    }
    /* Without a layout, the MTP modules (on the last virtual stage) take
     * a layer's place each in the split, as the published layouts balance
     * them (Megatron-Bridge's DeepSeek-V3 recipes: the last stage holds one
     * decoder layer beside MTP and the loss); where that stage would hold
     * fewer slots than modules, they come on top instead. */
    int mtp = w->model.mtp_layers > 0 && !(e || l) ? w->model.mtp_layers : 0;
    for (int pass = 0; pass < 2; pass++) {
        int total = layers + mtp;
        int ceil_l = (total + nvirt - 1) / nvirt;
        int deficit = ceil_l * nvirt - total;   /* < nvirt */
        /* taken in the order last, first, second to last, second, ...: the
         * first floor(d/2) and the last ceil(d/2) virtual stages hold one less */
        int lo = deficit / 2, hi = nvirt - (deficit - deficit / 2);
        int last_n = ceil_l - (nvirt - 1 < lo) - (nvirt - 1 >= hi);
        if (mtp > 0 && last_n < mtp) {
            mtp = 0;   /* the modules do not fit the last stage's slots */
            continue;
        }
        if (first)
            *first = k * ceil_l - (k < lo ? k : lo) - (k > hi ? k - hi : 0);
        return ceil_l - (k < lo) - (k >= hi) - (k == nvirt - 1 ? mtp : 0);
    }
    return 0; /* not reached: the second pass has mtp 0 */
}

int cs_workload_inflight_chunks(int pp, int vp, int stage, long micro, int chunk)
{
    if (pp < 1)
        pp = 1;
    if (vp < 1)
        vp = 1;
    if (micro < 1)
        micro = 1;
    long n;
    if (vp == 1) {
        n = pp - stage < micro ? pp - stage : micro;
    } else {
        n = (long)(pp - stage - 1) * 2 + (long)(vp - 1) * pp + 1;
        if (n > micro * vp)
            n = micro * vp;
    }
    if (n < 1)
        n = 1;
    if (chunk < 0)
        return (int)n;
    if (chunk >= vp)
        return 0;
    /* forwards k = 0 .. n - 1 run chunk (k mod P) div pp, P = pp vp: each
     * full cycle of P gives every chunk pp; the rest fills chunks in order */
    long cycle = (long)pp * vp, rest = n % cycle - (long)chunk * pp;
    long in_rest = rest < 0 ? 0 : rest > pp ? pp : rest;
    return (int)(n / cycle * pp + in_rest);
}

int cs_workload_recomputed_layers(const struct cs_workload *w, int layers_in_stage)
{
    if (w->recompute != CS_RECOMPUTE_FULL || layers_in_stage <= 0)
        return 0;
    if (w->recompute_layers <= 0 || w->recompute_layers >= layers_in_stage)
        return layers_in_stage;
    return w->recompute_layers;
}

double cs_workload_recompute_share(const struct cs_workload *w)
{
    if (w->recompute != CS_RECOMPUTE_FULL || w->model.layers <= 0)
        return 0.0;
    if (w->recompute_layers <= 0)
        return 1.0;
    int nvirt = (w->par.pp > 0 ? w->par.pp : 1) * (w->par.vp > 0 ? w->par.vp : 1);
    int per = (w->model.layers + nvirt - 1) / nvirt;
    int k = cs_workload_recomputed_layers(w, per);
    double share = (double)k / per;
    return share > 1.0 ? 1.0 : share;
}

double cs_workload_flops_per_iter(const struct cs_model_shape *m, double global_batch,
                                  enum cs_recompute rc)
{
    double layers = 0.0;
    struct cs_layer_flops lf;
    bool hyb = cs_model_is_hybrid(m);
    for (int i = 0; i < m->layers; i++) {
        /* layers of one kind repeat: recount only where the kind changes */
        if (i == 0 || cs_model_layer_is_moe(m, i) != cs_model_layer_is_moe(m, i - 1) ||
            (hyb && cs_model_block(m, i) != cs_model_block(m, i - 1)) ||
            keys_attended(m, i) != keys_attended(m, i - 1))
            layer_flops_i(m, i, &lf);
        /* forward + backward (2x): 3x the forward of each layer */
        double per_layer = 3.0 * lf.total;
        if (rc == CS_RECOMPUTE_FULL)
            per_layer += lf.total;
        else if (rc == CS_RECOMPUTE_SELECTIVE)
            per_layer += lf.scores + lf.attn_over_v;
        else if (rc == CS_RECOMPUTE_OP) {
            /* wk, wo and w3 (swiglu: half of mlp_up) or w2 (gelu) again */
            double a = m->heads, k = m->kv_heads > 0 ? m->kv_heads : a;
            double wk = 2.0 * m->seq_len * m->hidden * (k * cs_model_qk_head_dim(m));
            per_layer += wk + lf.proj +
                         (m->activation == CS_ACT_SWIGLU ? 0.5 * lf.mlp_up : lf.mlp_down);
        }
        layers += per_layer;
    }
    /* The logits are never recomputed (Narayanan et al. 2021, Appendix). */
    double per_seq = layers + 3.0 * cs_workload_logits_flops(m);
    return global_batch * per_seq;
}

cs_status cs_workload_check(const struct cs_workload *w)
{
    if (w == NULL)
        return CS_EINVAL;
    const struct cs_model_shape *m = &w->model;
    const struct cs_parallel *p = &w->par;
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    if (m->layers < 1 || m->hidden < 1 || m->heads < 1 || m->kv_heads < 0 ||
        m->ffn_hidden < 1 || m->vocab < 1 || m->seq_len < 1)
        return CS_EINVAL;
    if ((m->head_dim <= 0 && m->attention == CS_ATTN_STANDARD && m->hidden % m->heads != 0) ||
        m->heads % kv != 0 || m->head_dim < 0)
        return CS_EINVAL;
    if (m->attention == CS_ATTN_MLA &&
        (m->mla.kv_lora_rank < 1 || m->mla.q_lora_rank < 0 || m->mla.qk_nope_dim < 0 ||
         m->mla.qk_rope_dim < 0 || m->mla.qk_nope_dim + m->mla.qk_rope_dim < 1 || m->mla.v_dim < 1))
        return CS_EINVAL;
    if (m->moe.experts < 0 || m->moe.top_k < 0 || m->moe.shared_experts < 0 ||
        m->moe.first_dense_layers < 0 || m->moe.moe_every < 0 || m->sliding_window < 0 ||
        m->sliding_every < 0)
        return CS_EINVAL;
    if (cs_model_is_moe(m) &&
        (m->moe.top_k > m->moe.experts || m->moe.expert_ffn_hidden < 1 || m->moe.latent < 0 ||
         !(m->moe.capacity_factor == 0 || m->moe.capacity_factor >= 1.0) ||
         !(m->moe.load_cv >= 0) || !(m->moe.a2a_overlap >= 0 && m->moe.a2a_overlap <= 1)))
        return CS_EINVAL;
    /* group-limited routing: groups that split the experts evenly, a token
     * in at most all of them, enough experts in its groups for its top-k */
    if (m->moe.router_groups < 0 || m->moe.router_group_topk < 0 ||
        (m->moe.router_groups > 0 &&
         (!cs_model_is_moe(m) || m->moe.experts % m->moe.router_groups != 0 ||
          m->moe.router_group_topk < 1 || m->moe.router_group_topk > m->moe.router_groups ||
          (long)m->moe.router_group_topk * (m->moe.experts / m->moe.router_groups) < m->moe.top_k)) ||
        (m->moe.router_groups == 0 && m->moe.router_group_topk > 0))
        return CS_EINVAL;
    {
        int ep = p->ep > 0 ? p->ep : 1, etp = p->etp > 0 ? p->etp : 1;
        long n = (long)p->tp * p->cp * p->dp;
        if (ep > 1 || etp > 1) {
            if (!cs_model_is_moe(m) || m->moe.experts % ep != 0 || n % ((long)ep * etp) != 0 ||
                m->moe.expert_ffn_hidden % etp != 0)
                return CS_EINVAL;
        }
    }
    if (p->tp < 1 || p->pp < 1 || p->dp < 1 || p->cp < 1 || p->vp < 0)
        return CS_EINVAL;
    if (m->heads % p->tp != 0 || m->seq_len % p->cp != 0)
        return CS_EINVAL;
    if (w->micro_batch < 1 || w->global_batch < 1)
        return CS_EINVAL;
    return CS_OK;
}
