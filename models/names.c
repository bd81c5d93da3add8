/* names.c: the strings of the models' enums (one place, so text, JSON and
 * config all spell them the same way). */
#include "clustersim/models/hw.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/workload.h"

double cs_precision_bytes(enum cs_precision p)
{
    switch (p) {
    case CS_PREC_FP32: return 4.0;
    case CS_PREC_TF32: return 4.0;
    case CS_PREC_BF16: return 2.0;
    case CS_PREC_FP16: return 2.0;
    case CS_PREC_FP8: return 1.0;
    case CS_PREC_COUNT: break;
    }
    return 2.0;
}

const char *cs_precision_name(enum cs_precision p)
{
    static const char *const names[] = {"fp32", "tf32", "bf16", "fp16", "fp8"};
    return (unsigned)p < CS_PREC_COUNT ? names[p] : "?";
}

const char *cs_topology_name(enum cs_topology t)
{
    switch (t) {
    case CS_TOPO_SINGLE_SWITCH: return "single-switch";
    case CS_TOPO_FAT_TREE: return "fat-tree";
    case CS_TOPO_SPINE_LEAF: return "spine-leaf";
    case CS_TOPO_RAIL_OPTIMIZED: return "rail-optimized";
    }
    return "?";
}

const char *cs_activation_name(enum cs_activation a)
{
    return a == CS_ACT_SWIGLU ? "swiglu" : "gelu";
}

const char *cs_recompute_name(enum cs_recompute r)
{
    switch (r) {
    case CS_RECOMPUTE_NONE: return "none";
    case CS_RECOMPUTE_SELECTIVE: return "selective";
    case CS_RECOMPUTE_FULL: return "full";
    }
    return "?";
}

const char *cs_fsdp_name(enum cs_fsdp f)
{
    switch (f) {
    case CS_FSDP_NONE: return "none";
    case CS_FSDP_ZERO1: return "zero1";
    case CS_FSDP_ZERO2: return "zero2";
    case CS_FSDP_FULL: return "full";
    case CS_FSDP_HYBRID: return "hybrid";
    }
    return "?";
}
