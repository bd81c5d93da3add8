/* names.c: the strings of the models' enums (one place, so text, JSON and
 * config all spell them the same way). */
#include "clustersim/models/hw.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/workload.h"

#include <math.h>
#include <string.h>

double cs_precision_bytes(enum cs_precision p)
{
    switch (p) {
    case CS_PREC_FP32: return 4.0;
    case CS_PREC_TF32: return 4.0;
    case CS_PREC_BF16: return 2.0;
    case CS_PREC_FP16: return 2.0;
    case CS_PREC_FP8: return 1.0;
    /* 1-byte E4M3 elements and one 1-byte E8M0 scale per 32 (OCP MX
     * specification v1.0; TE docs, low_precision_training/mxfp8). */
    case CS_PREC_MXFP8: return 1.0 + 1.0 / 32.0;
    /* 4-bit E2M1 elements and one 1-byte E4M3 scale per 16; the per-tensor
     * FP32 scale is negligible (TE docs, low_precision_training/nvfp4). */
    case CS_PREC_NVFP4: return 0.5 + 1.0 / 16.0;
    case CS_PREC_COUNT: break;
    }
    return 2.0;
}

bool cs_precision_quantized(enum cs_precision p)
{
    return p == CS_PREC_FP8 || p == CS_PREC_MXFP8 || p == CS_PREC_NVFP4;
}

bool cs_precision_block_scaled(enum cs_precision p)
{
    return p == CS_PREC_MXFP8 || p == CS_PREC_NVFP4;
}

bool cs_gpu_block_scaled(const struct cs_gpu_spec *gpu)
{
    return gpu != NULL && isfinite(gpu->peak_flops[CS_PREC_MXFP8]) &&
           gpu->peak_flops[CS_PREC_MXFP8] > 0;
}

double cs_gpu_nvlink_nccl_ratio(const struct cs_gpu_spec *gpu)
{
    static const double hopper = 20.6 / 25.0; /* SM90_NVLINK_BW over NVLink 4's 25 GB/s a link */
    if (gpu == NULL || strcmp(gpu->vendor, "nvidia") != 0)
        return 1.0;
    if (cs_gpu_block_scaled(gpu))
        return (40.1 / 50.0) / hopper; /* SM100_NVLINK_BW over NVLink 5's 50 GB/s */
    if (!(isfinite(gpu->peak_flops[CS_PREC_FP8]) && gpu->peak_flops[CS_PREC_FP8] > 0))
        return (20.0 / 25.0) / hopper; /* SM80 (and SM70) over NVLink 3's (2's) 25 GB/s */
    return 1.0;
}

/* The names of the models' enums, in enum order and NULL-terminated: the
 * one table that the name functions below, the scenario loader's field
 * tables (config/) and the writers (report/) all read. */
const char *const cs_precision_names[] = {"fp32", "tf32", "bf16", "fp16", "fp8", "mxfp8", "nvfp4",
                                           NULL};
_Static_assert(sizeof cs_precision_names / sizeof cs_precision_names[0] == CS_PREC_COUNT + 1,
               "one name per precision");
const char *const cs_attention_names[] = {"standard", "mla", NULL};
const char *const cs_rope_scaling_names[] = {"none", "yarn", NULL};
_Static_assert(sizeof cs_rope_scaling_names / sizeof cs_rope_scaling_names[0] ==
                   CS_ROPE_SCALING_COUNT + 1,
               "one name per RoPE scaling");
const char *const cs_recompute_module_names[] = {"core_attn", "layernorm", "mlp", "moe_act",
                                                 "mla_up_proj", "moe", NULL};
const char *const cs_offload_module_names[] = {"attn_norm", "qkv_linear", "core_attn", "attn_proj",
                                               "mlp_norm", "expert_fc1", "moe_act", NULL};
const char *const cs_quant_module_names[] = {"attn_qkv", "attn_proj", "mlp", "experts",
                                              "shared_experts", "moe_latent_proj", "mamba_in_proj",
                                              "mamba_out_proj", "mtp", NULL};
_Static_assert(sizeof cs_quant_module_names / sizeof cs_quant_module_names[0] == CS_QMOD_COUNT + 1,
               "one name per module");
const char *const cs_moe_routing_names[] = {"learned", "balanced", NULL};
const char *const cs_moe_dispatcher_names[] = {"alltoall", "hierarchical", NULL};
#define CS__TOPO_NAME(id, name, tiers, rail, builder) name,
const char *const cs_topology_names[] = {CS_TOPOLOGY_KINDS(CS__TOPO_NAME) NULL};
#undef CS__TOPO_NAME
#define CS__TOPO_KIND(id, name, tiers, rail, builder) {name, tiers, rail, CS_TOPO_BUILD_##builder},
static const struct cs_topology_kind cs__topology_kinds[] = {CS_TOPOLOGY_KINDS(CS__TOPO_KIND)};
#undef CS__TOPO_KIND

const struct cs_topology_kind *cs_topology_kind_of(enum cs_topology t)
{
    return (unsigned)t < CS_TOPO_COUNT ? &cs__topology_kinds[t] : NULL;
}
const char *const cs_placement_names[] = {"packed", "scattered", NULL};
const char *const cs_routing_names[] = {"auto", "static", "ecmp", "adaptive", NULL};
const char *const cs_nb_traffic_names[] = {"all_reduce", "all_gather", "reduce_scatter", NULL};
const char *const cs_activation_names[] = {"gelu", "swiglu", "squared-relu", NULL};
const char *const cs_recompute_names[] = {"none", "selective", "full", "op", NULL};
const char *const cs_stack_names[] = {"custom", "megatron-2021", "mcore", "torchtitan",
                                     "composer", "megatron-deepspeed", NULL};
const char *const cs_cross_entropy_names[] = {"auto", "fused", "eager", "compiled", "te", "te-fp32", NULL};
const char *const cs_attn_kernel_names[] = {"auto", "cudnn", "flash2", "triton", NULL};
const char *const cs_graph_scope_names[] = {"layer", "attn", "iteration", "mamba", "attn+mamba",
                                             "moe_router", NULL};
_Static_assert(sizeof cs_graph_scope_names / sizeof cs_graph_scope_names[0] == CS_GRAPH_SCOPE_COUNT + 1,
               "one name per graph scope");
const char *const cs_fsdp_names[] = {"none", "zero1", "zero2", "full", "hybrid", NULL};
const char *const cs_fsdp_prefetch_names[] = {"auto", "pre", "post", NULL};
const char *const cs_scn_compare_names[] = {"none", "placement", "mig", NULL};

/* names[i] for i in range, "?" otherwise. */
static const char *cs__name(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : "?";
}
#define CS__NAME(tab, i) cs__name(tab, (int)(sizeof tab / sizeof tab[0]) - 1, (int)(i))

const char *cs_precision_name(enum cs_precision p)
{
    return CS__NAME(cs_precision_names, p);
}

const char *const cs_price_basis_names[] = {"none", "list", "street", "estimate", "derived",
                                            NULL};

const char *cs_price_basis_name(enum cs_price_basis b)
{
    return CS__NAME(cs_price_basis_names, b);
}

const char *cs_topology_name(enum cs_topology t)
{
    return CS__NAME(cs_topology_names, t);
}

const char *cs_activation_name(enum cs_activation a)
{
    return CS__NAME(cs_activation_names, a);
}

double cs_activation_mem_passes(enum cs_activation a)
{
    return a == CS_ACT_SWIGLU ? 3.0 : a == CS_ACT_RELU2 ? 4.0 : 2.0;
}

int cs_activation_kernels(enum cs_activation a)
{
    return a == CS_ACT_RELU2 ? 2 : 1;
}

bool cs_activation_norm_bias(enum cs_activation a)
{
    return a != CS_ACT_SWIGLU;
}

int cs_layer_param_tensors(const struct cs_model_shape *m)
{
    int n = 4;
    if (m->activation == CS_ACT_GELU)
        n += 4;
    return n + 2 * (cs_activation_norm_bias(m->activation) ? 2 : 1);
}

const char *cs_recompute_name(enum cs_recompute r)
{
    return CS__NAME(cs_recompute_names, r);
}

const char *cs_fsdp_name(enum cs_fsdp f)
{
    return CS__NAME(cs_fsdp_names, f);
}
