/* workload.c: named transformer presets, parameter counts and the per-layer
 * FLOP and memory-traffic counts that the compute, memory and step models
 * build on. Every formula and its source is written out in docs/models.md. */
#include "clustersim/models/workload.h"

#include <stddef.h>
#include <stdio.h>
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
};

#define NPRESETS (sizeof presets / sizeof presets[0])

static const char *const preset_names[] = {
    "gpt-1.7b", "gpt-3.6b", "gpt-7.5b", "gpt-18b", "gpt-39b", "gpt-76b", "gpt-145b",
    "gpt-310b", "gpt-530b", "gpt-1t", "gpt3-175b", "llama2-7b", "llama2-13b",
    "llama2-70b", "llama3.1-8b", "llama3.1-70b", "llama3.1-405b", "bloom-176b",
    "mt-nlg-530b", NULL,
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

/* Width of the fused QKV projection's output: h query columns plus k/a of
 * that for each of K and V (grouped-query attention, Ainslie et al. 2023). */
static double qkv_width(const struct cs_model_shape *m)
{
    double h = m->hidden;
    int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
    return h + 2.0 * h * kv / m->heads;
}

/* Columns of the first MLP GEMM: f for gelu, 2f for swiglu (up and gate,
 * Shazeer 2020). */
static double mlp_in_width(const struct cs_model_shape *m)
{
    return m->activation == CS_ACT_SWIGLU ? 2.0 * m->ffn_hidden : (double)m->ffn_hidden;
}

/* Architecture family conventions (docs/models.md, "Parameter count"): gelu
 * models follow GPT (linear biases, LayerNorm with weight and bias, learned
 * positional embeddings); swiglu models follow Llama (no biases, RMSNorm with a
 * weight only, rotary positions without parameters). */
double cs_workload_params(const struct cs_model_shape *m)
{
    double h = m->hidden, f = m->ffn_hidden, v = m->vocab, s = m->seq_len;
    bool gpt = m->activation == CS_ACT_GELU;
    double qkv = qkv_width(m), up = mlp_in_width(m);
    double layer = h * qkv + h * h + h * up + f * h;
    double norm = gpt ? 2.0 * h : h;
    if (gpt)
        layer += qkv + h + up + h;   /* biases of the four linear layers */
    layer += 2.0 * norm;             /* pre-attention and pre-MLP norms */
    double total = m->layers * layer + norm;   /* + final norm */
    total += v * h * (m->tied_embeddings ? 1.0 : 2.0);
    if (gpt)
        total += s * h;              /* learned positional embeddings */
    return total;
}

void cs_workload_layer_flops(const struct cs_model_shape *m, struct cs_layer_flops *out)
{
    double h = m->hidden, f = m->ffn_hidden, s = m->seq_len;
    struct cs_layer_flops r;
    r.qkv = 2.0 * s * h * qkv_width(m);
    r.scores = 2.0 * s * s * h;
    r.attn_over_v = 2.0 * s * s * h;
    r.proj = 2.0 * s * h * h;
    r.mlp_up = 2.0 * s * h * mlp_in_width(m);
    r.mlp_down = 2.0 * s * h * f;
    r.total = r.qkv + r.scores + r.attn_over_v + r.proj + r.mlp_up + r.mlp_down;
    *out = r;
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
    r.activation = m->activation == CS_ACT_SWIGLU ? 3.0 * e * sf : 2.0 * e * sf;
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

bool cs_stack_preset(enum cs_stack s, struct cs_stack_preset *out)
{
    struct cs_stack_preset p = {0.0, true, true};
    switch (s) {
    case CS_STACK_MEGATRON_2021:
        p.dp_overlap = false;
        p.fused_attention = false;
        break;
    case CS_STACK_MCORE_2024:
        p.tp_comm_overlap = CS_MCORE_TP_OVERLAP;
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
    struct cs_layer_flops lf;
    cs_workload_layer_flops(m, &lf);
    /* forward + backward (2x): 3x the forward of each layer */
    double per_layer = 3.0 * lf.total;
    if (rc == CS_RECOMPUTE_FULL)
        per_layer += lf.total;
    else if (rc == CS_RECOMPUTE_SELECTIVE)
        per_layer += lf.scores + lf.attn_over_v;
    else if (rc == CS_RECOMPUTE_OP) {
        /* wk, wo and w3 (swiglu: half of mlp_up) or w2 (gelu) again */
        double h = m->hidden, a = m->heads, k = m->kv_heads > 0 ? m->kv_heads : a;
        double wk = 2.0 * m->seq_len * h * (h * k / a);
        per_layer += wk + lf.proj + (m->activation == CS_ACT_SWIGLU ? 0.5 * lf.mlp_up : lf.mlp_down);
    }
    /* The logits are never recomputed (Narayanan et al. 2021, Appendix). */
    double per_seq = m->layers * per_layer + 3.0 * cs_workload_logits_flops(m);
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
    if (m->hidden % m->heads != 0 || m->heads % kv != 0)
        return CS_EINVAL;
    if (p->tp < 1 || p->pp < 1 || p->dp < 1 || p->cp < 1 || p->vp < 0)
        return CS_EINVAL;
    if (m->heads % p->tp != 0 || m->seq_len % p->cp != 0)
        return CS_EINVAL;
    if (w->micro_batch < 1 || w->global_batch < 1)
        return CS_EINVAL;
    return CS_OK;
}
