/* scenario.c: scenario YAML -> a validated, resolved struct cs_scenario
 * (config layer; see config.h for the keys and their defaults). Each
 * mapping of the file is described by a parameter table (schema.h) and
 * checked by the one generic validator; this file adds what tables cannot
 * say: catalog references with their `*_overrides:`, model presets, the
 * sequences (storage tiers, failure components) and the cross-field checks.
 * Values resolve file over catalog over default, and every leaf is recorded
 * in a provenance list. */
#include "clustersim/models/cluster.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/facility.h"
#include "clustersim/models/step.h"
#include "clustersim/config/config.h"

#include "clustersim/base/suggest.h"
#include "clustersim/base/units.h"
#include "clustersim/models/workload.h"
#include "clustersim/config/fileio.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/base/numparse.h"
#include "cfg_cost.h"
#include "cfg_calib.h"
#include "cfg_run.h"
#include "cfg_scheduler.h"
#include "cfg_net.h"
#include "override.h"
#include "schema.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Limits checked before anything is sized from them. */
#define CS_CFG_MAX_NODES 131072
#define CS_CFG_MAX_GPUS_PER_NODE 72
#define CS_CFG_MAX_GPUS 1048576L

/* ------------------------------------------------------------------------ */
/* Provenance.                                                               */

void cs_provenance_init(struct cs_provenance *p) { memset(p, 0, sizeof *p); }

void cs_provenance_fini(struct cs_provenance *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->items[i].path);
        free(p->items[i].value);
        free(p->items[i].origin);
    }
    free(p->items);
    memset(p, 0, sizeof *p);
}

const struct cs_prov_entry *cs_provenance_find(const struct cs_provenance *p, const char *path)
{
    for (size_t i = 0; p && i < p->n; i++)
        if (!strcmp(p->items[i].path, path))
            return &p->items[i];
    return NULL;
}

/* A binder's list with this capacity records nothing: the caller passed
 * prov == NULL (sweeps do, for every point), so the linear search and the
 * copies below would be wasted. Provenance never feeds a scenario value. */
#define CS__PROV_OFF SIZE_MAX

/* Sets (replacing) the entry for path. All strings are copied. */
static void prov_set(struct cs_provenance *p, const char *path, const char *value,
                     const char *origin)
{
    if (p->cap == CS__PROV_OFF)
        return;
    for (size_t i = 0; i < p->n; i++) {
        if (!strcmp(p->items[i].path, path)) {
            free(p->items[i].value);
            free(p->items[i].origin);
            p->items[i].value = cs_xstrdup(value);
            p->items[i].origin = cs_xstrdup(origin);
            return;
        }
    }
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->items = cs_xrealloc(p->items, p->cap, sizeof *p->items);
    }
    struct cs_prov_entry *e = &p->items[p->n++];
    e->path = cs_xstrdup(path);
    e->value = cs_xstrdup(value);
    e->origin = cs_xstrdup(origin);
}

/* ------------------------------------------------------------------------ */
/* The binder.                                                               */

struct cs_bind {
    const cs_catalog *cat;
    cs_diags *d;
    struct cs_provenance prov; /* moved to the caller on success */
    struct cs_scenario *s;
    bool no_step_rules;        /* a plan's candidate: the search applies them (plan.h) */
};

static void prov_node(struct cs_bind *b, const char *path, const struct cs_ynode *v)
{
    if (b->prov.cap == CS__PROV_OFF)
        return;
    char origin[1024];
    if (v->line > 0) /* line 0: a --set on the command line, named by its file */
        snprintf(origin, sizeof origin, "%s:%d:%d", v->file, v->line, v->col);
    else
        snprintf(origin, sizeof origin, "%s", v->file);
    prov_set(&b->prov, path, cs_ynode_is_null(v) ? "null" : v->scalar, origin);
}

static void prov_field(struct cs_bind *b, const char *path, const struct cs_field *f,
                       const void *base, const char *origin)
{
    if (b->prov.cap == CS__PROV_OFF)
        return;
    char *val = cs_cfg__format(f, base);
    prov_set(&b->prov, path, val, origin);
    free(val);
}

/* The node for `key` of map, else `fallback` (for error locations). */
static const struct cs_ynode *node_or(const struct cs_ynode *map, const char *key,
                                      const struct cs_ynode *fallback)
{
    const struct cs_ynode *v = cs_ynode_map_get(map, key);
    return v ? v : fallback;
}

/* A mapping section: returns map, or NULL (absent, null, or an error). */
static const struct cs_ynode *section(struct cs_bind *b, const struct cs_ynode *v,
                                      const char *path)
{
    if (!v || cs_ynode_is_null(v))
        return NULL;
    if (v->kind != CS_YNODE_MAP) {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(b->d, v, "%s: expected a mapping, got %s", path, shown);
        return NULL;
    }
    return v;
}

/* Binds the non-custom fields of table t from `map` (NULL = absent) into
 * base. Missing keys: with unset_origin, keep the value and record that
 * origin; else the table default ("default"), nothing for CS_F_DERIVED
 * (the caller derives it), an error for CS_F_REQUIRED, the unset value
 * otherwise. Unknown keys are errors. `where` locates errors about missing
 * keys. */
static void walk(struct cs_bind *b, const struct cs_field *t, size_t n,
                 const struct cs_ynode *map, const struct cs_ynode *where, const char *path,
                 void *base, const char *unset_origin)
{
    for (size_t i = 0; i < n; i++) {
        const struct cs_field *f = &t[i];
        if (f->type == CS_FT_CUSTOM)
            continue;
        const struct cs_ynode *v = cs_ynode_map_get(map, f->key);
        char *p = cs_cfg__path(path, f->key);
        if (f->type == CS_FT_SUB) {
            const struct cs_ynode *sub = section(b, v, p);
            walk(b, f->sub, f->nsub, sub, v ? v : where, p, (char *)base + f->offset,
                 unset_origin);
        } else if (v) {
            if (cs_cfg__set(f, v, p, base, b->d))
                prov_node(b, p, v);
        } else if (unset_origin) {
            prov_field(b, p, f, base, unset_origin);
        } else if (f->flags & CS_F_DERIVED) {
            /* the section's code fills it */
        } else if (f->def) {
            bool ok = cs_cfg__set_text(f, f->def, base);
            assert(ok && "a table default must parse");
            (void)ok;
            prov_set(&b->prov, p, f->def, "default");
        } else if (f->flags & CS_F_REQUIRED) {
            cs_cfg__error(b->d, where, "%s: missing required key \"%s\" (%s)",
                          path && *path ? path : "top level", f->key, f->doc);
        } else {
            cs_cfg__unset(f, base);
            prov_set(&b->prov, p, "null", "default");
        }
        free(p);
    }
    for (size_t i = 0; map && i < map->n; i++)
        if (!cs_cfg__find(t, n, map->pairs[i].key->scalar))
            cs_cfg__unknown_key(b->d, map->pairs[i].key, path, t, n, NULL);
}

/* ------------------------------------------------------------------------ */
/* Tables. Offsets are into the struct named in each table's comment.       */

#define F_(k, ty, T, m, ...) { .key = k, .type = ty, .offset = offsetof(T, m), __VA_ARGS__ }
#define F_CUSTOM(k, d) { .key = k, .type = CS_FT_CUSTOM, .doc = d }
#define MSIZE(T, m) sizeof(((T *)0)->m)

static const char *const fused_attention_names[] = {"auto", "on", "off", NULL};
static const char *const torch_compile_names[] = {"auto", "on", "off", NULL};
static const char *const norm_kernel_names[] = {"auto", "fused", "eager", NULL};
static const char *const fp8_recipe_names[] = {"tensor", "blockwise", NULL};
static const char *const storage_network_names[] = {"compute", "separate", NULL};
static const char *const scope_names[] = {"gpu", "node", "switch", "job", "rack", "leaf", "spine", "storage", NULL};
static const char *const spare_place_names[] = {"separate", "spread", NULL};
static const char *const storage_outage_names[] = {"stall", "continue", NULL};
static const char *const maint_kind_names[] = {"scheduled", "drained", "restart-required", NULL};
static const char *const dist_names[] = {"exponential", "weibull", NULL};
static const char *const ckpt_mode_names[] = {"sync", "async", NULL};

/* struct cs_scenario */
static const struct cs_field top_fields[] = {
    F_CUSTOM("schema_version", "must be 1"),
    F_("name", CS_FT_STR, struct cs_scenario, name, .size = MSIZE(struct cs_scenario, name),
       .flags = CS_F_DERIVED, .doc = "free text; default: the file name"),
    F_("seed", CS_FT_U64, struct cs_scenario, seed, .def = "1", .doc = "random seed"),
    F_CUSTOM("cluster", "the hardware"),
    F_CUSTOM("workload", "the training job"),
    F_CUSTOM("failures", "failure model"),
    F_CUSTOM("checkpoint", "checkpointing"),
    F_CUSTOM("run", "run-level simulation"),
    F_CUSTOM("cost", "TCO inputs"),
    F_CUSTOM("claim", "a published claim to test"),
    F_CUSTOM("data", "input data pipeline (config/cfg_run.c)"),
    F_CUSTOM("scheduler", "trace replay settings (config/cfg_scheduler.c)"),
    F_CUSTOM("calibration", "fitted parameters (config/cfg_calib.c)"),
    F_CUSTOM("neighbours", "other jobs sharing the fabric (config/cfg_net.c)"),
    F_CUSTOM("uncertainty", "Monte Carlo over the model's parameters (--uncertainty)"),
    F_CUSTOM("facility", "racks, power and cooling (docs/run.md)"),
};

/* struct cs_cluster_cfg */
static const struct cs_field cluster_fields[] = {
    F_CUSTOM("gpu", "catalog GPU name"),
    F_CUSTOM("gpu_overrides", "GPU catalog fields"),
    F_("nodes", CS_FT_INT, struct cs_cluster_cfg, nodes, .min = 1, .max = CS_CFG_MAX_NODES,
       .def = "1", .doc = "number of nodes"),
    F_("gpus_per_node", CS_FT_INT, struct cs_cluster_cfg, gpus_per_node, .min = 1,
       .max = CS_CFG_MAX_GPUS_PER_NODE, .def = "8", .doc = "GPUs per node"),
    F_CUSTOM("intra_node", "catalog intra-node interconnect"),
    F_CUSTOM("intra_overrides", "intra-node catalog fields"),
    F_("cpu_cores_per_node", CS_FT_NUM, struct cs_cluster_cfg, cpu_cores_per_node, .min = 1,
       .max = 100000, .def = "112", .doc = "host CPU cores (DGX H100: 2x 56)"),
    F_("host_memory", CS_FT_QTY, struct cs_cluster_cfg, host_memory_bytes,
       .unit = CS_UNIT_BYTES, .min = 0, .max = 1e15, .flags = CS_F_MINEXCL, .def = "2TiB",
       .doc = "host memory per node (DGX H100: 2 TB)"),
    F_CUSTOM("fabric", "scale-out network"),
    F_CUSTOM("storage", "storage tiers"),
    F_("storage_network", CS_FT_ENUM, struct cs_cluster_cfg, storage_network, .names = storage_network_names,
       .def = "compute", .doc = "remote storage traffic on the compute fabric (compute) or a network of its own (separate)"),
};

/* struct cs_fabric_cfg */
static const struct cs_field fabric_fields[] = {
    F_("topology", CS_FT_ENUM, struct cs_fabric_cfg, topology, .names = cs_topology_names,
       .def = "fat-tree", .doc = "network topology"),
    F_CUSTOM("link", "catalog link name"),
    F_CUSTOM("link_overrides", "link catalog fields"),
    F_("nics_per_node", CS_FT_INT, struct cs_fabric_cfg, nics_per_node, .min = 0, .max = 64,
       .flags = CS_F_DERIVED, .doc = "scale-out NICs per node; default gpus_per_node"),
    F_("oversubscription", CS_FT_NUM, struct cs_fabric_cfg, oversubscription, .min = 1,
       .max = 64, .def = "1", .doc = "leaf downlink:uplink ratio"),
    F_("in_network_reduction", CS_FT_BOOL, struct cs_fabric_cfg, in_network_reduction,
       .def = "false", .doc = "SHARP-style reduction in the switches"),
    F_("tiers", CS_FT_INT, struct cs_fabric_cfg, tiers, .min = 0, .max = 3,
       .doc = "fat-tree tiers; 0 = smallest that fits"),
    F_("placement", CS_FT_ENUM, struct cs_fabric_cfg, placement, .names = cs_placement_names,
       .def = "packed", .doc = "job nodes: packed (leaf by leaf) or scattered (random)"),
    F_("qps_per_connection", CS_FT_INT, struct cs_fabric_cfg, qps_per_connection, .min = 1, .max = 64,
       .def = "1",
       .doc = "NCCL_IB_QPS_PER_CONNECTION: queue pairs per connection, each hashed on its own under ECMP "
              "(Llama 3: 16)"),
    F_("routing", CS_FT_ENUM, struct cs_fabric_cfg, routing, .names = cs_routing_names, .def = "auto",
       .doc = "path choice: auto (static on InfiniBand, ecmp on Ethernet/RoCE), static (d-mod-k), ecmp "
              "(hash per flow), adaptive (spread over every uplink)"),
    /* Topology descriptors' numbers (docs/fabric.md section 2; checked
     * against the built shape by bind_fabric). */
    F_("agg_oversubscription", CS_FT_NUM, struct cs_fabric_cfg, agg_oversubscription, .min = 1, .max = 64,
       .def = "1", .doc = "3-tier fat tree: aggregation downlink:uplink ratio"),
    F_("leaves", CS_FT_INT, struct cs_fabric_cfg, leaves, .min = 1, .max = 1000000,
       .doc = "spine-leaf: leaf switches; default ceil(nodes / whole nodes per leaf at the stated oversubscription)"),
    F_("uplinks_per_leaf", CS_FT_INT, struct cs_fabric_cfg, uplinks_per_leaf, .min = 1, .max = 100000,
       .doc = "spine-leaf: cables from a leaf to the spines; default ceil(leaf NIC ports / oversubscription)"),
    F_("spines", CS_FT_INT, struct cs_fabric_cfg, spines, .min = 1, .max = 100000,
       .doc = "spine-leaf: spine switches; default the fewest that divide the uplinks and take every cable"),
    F_("domain_gpus", CS_FT_INT, struct cs_fabric_cfg, domain_gpus, .min = 2, .max = 100000,
       .doc = "nvl-domain: GPUs of one NVLink domain (NVL72: 72); default the GPU's scaleup_domain"),
    F_("dragonfly_routers_per_group", CS_FT_INT, struct cs_fabric_cfg, df_routers_per_group, .min = 1,
       .max = 100000, .doc = "dragonfly a; default 2h"),
    F_("dragonfly_terminals_per_router", CS_FT_INT, struct cs_fabric_cfg, df_terminals_per_router, .min = 1,
       .max = 100000, .doc = "dragonfly p (NIC ports per router); default h"),
    F_("dragonfly_global_links_per_router", CS_FT_INT, struct cs_fabric_cfg, df_global_per_router, .min = 1,
       .max = 100000, .doc = "dragonfly h; default floor((radix + 1) / 4)"),
    F_("dragonfly_valiant", CS_FT_BOOL, struct cs_fabric_cfg, df_valiant, .def = "false",
       .doc = "dragonfly: Valiant routing through a random group instead of minimal"),
};

/* The fabric keys that belong to some topology descriptors (a bit per
 * enum cs_topology_builder). */
#define TB(x) (1u << CS_TOPO_BUILD_##x)
static const struct {
    const char *key;
    unsigned builders;
} fabric_kind_keys[] = {
    {"agg_oversubscription", TB(FAT_TREE) | TB(RAIL_OPTIMIZED) | TB(NVL_DOMAIN)},
    {"leaves", TB(SPINE_LEAF)},
    {"uplinks_per_leaf", TB(SPINE_LEAF)},
    {"spines", TB(SPINE_LEAF)},
    {"domain_gpus", TB(NVL_DOMAIN)},
    {"dragonfly_routers_per_group", TB(DRAGONFLY)},
    {"dragonfly_terminals_per_router", TB(DRAGONFLY)},
    {"dragonfly_global_links_per_router", TB(DRAGONFLY)},
    {"dragonfly_valiant", TB(DRAGONFLY)},
};
#undef TB

/* struct cs_mla_shape */
static const struct cs_field mla_fields[] = {
    F_("q_lora_rank", CS_FT_INT, struct cs_mla_shape, q_lora_rank, .min = 0, .max = 1048576,
       .def = "0", .doc = "query latent rank (0: queries projected from the hidden state)"),
    F_("kv_lora_rank", CS_FT_INT, struct cs_mla_shape, kv_lora_rank, .min = 1, .max = 1048576,
       .def = "512", .doc = "key/value latent rank"),
    F_("qk_nope_head_dim", CS_FT_INT, struct cs_mla_shape, qk_nope_dim, .min = 0, .max = 65536,
       .def = "128", .doc = "per-head query/key width without rotary positions"),
    F_("qk_rope_head_dim", CS_FT_INT, struct cs_mla_shape, qk_rope_dim, .min = 0, .max = 65536,
       .def = "64", .doc = "per-head rotary query/key width (the key's shared by the heads)"),
    F_("v_head_dim", CS_FT_INT, struct cs_mla_shape, v_dim, .min = 1, .max = 65536, .def = "128",
       .doc = "per-head value width"),
};

/* struct cs_moe_shape */
static const struct cs_field moe_fields[] = {
    F_("experts", CS_FT_INT, struct cs_moe_shape, experts, .min = 0, .max = 65536, .def = "0",
       .doc = "routed experts per MoE layer (0: a dense model)"),
    F_("top_k", CS_FT_INT, struct cs_moe_shape, top_k, .min = 0, .max = 65536, .def = "0",
       .doc = "experts each token is sent to"),
    F_("shared_experts", CS_FT_INT, struct cs_moe_shape, shared_experts, .min = 0, .max = 1024,
       .def = "0", .doc = "always-active experts of expert_ffn_hidden each"),
    F_("expert_ffn_hidden", CS_FT_INT, struct cs_moe_shape, expert_ffn_hidden, .min = 0,
       .max = 16777216, .def = "0", .doc = "one expert's FFN width"),
    F_("first_dense_layers", CS_FT_INT, struct cs_moe_shape, first_dense_layers, .min = 0,
       .max = 100000, .def = "0", .doc = "leading layers with a dense FFN of ffn_hidden"),
    F_("moe_every", CS_FT_INT, struct cs_moe_shape, moe_every, .min = 1, .max = 100000,
       .def = "1", .doc = "after those, every n-th layer is MoE (Llama 4 Maverick: 2)"),
    F_CUSTOM("capacity_factor", "tokens an expert takes at most over the mean (>= 1), or none "
                                "(dropless)"),
    F_("routing", CS_FT_ENUM, struct cs_moe_shape, routing, .names = cs_moe_routing_names,
       .def = "learned", .doc = "learned (spread load_cv plus batch noise) or balanced (forced even)"),
    F_("load_cv", CS_FT_QTY, struct cs_moe_shape, load_cv, .unit = CS_UNIT_RATIO, .min = 0,
       .max = 10, .def = "0.3",
       .doc = "learned routing: coefficient of variation of per-expert token shares (0.3: an "
              "auxiliary-loss router, Wang et al. 2024; 0.017 their loss-free one, the default of "
              "the presets whose routers are balanced by expert biases: deepseek-v3, kimi-k2, "
              "nemotron-3-*)"),
    F_("a2a_overlap", CS_FT_QTY, struct cs_moe_shape, a2a_overlap, .unit = CS_UNIT_RATIO,
       .min = 0, .max = 1, .def = "0",
       .doc = "share of dispatch/combine hidden behind compute (EP communication overlap, "
              "DualPipe)"),
    F_("router_groups", CS_FT_INT, struct cs_moe_shape, router_groups, .min = 0, .max = 65536,
       .def = "0",
       .doc = "group-limited routing: groups the experts fall into (DeepSeek-V3: 8; 0: unlimited)"),
    F_("router_group_topk", CS_FT_INT, struct cs_moe_shape, router_group_topk, .min = 0,
       .max = 65536, .def = "0",
       .doc = "group-limited routing: groups a token's experts come from (DeepSeek-V3: 4)"),
    F_("glu_clamp", CS_FT_NUM, struct cs_moe_shape, glu_clamp, .min = 0, .max = 1e6, .def = "0",
       .doc = "the experts' GLU inputs clamped to this limit before the activation (gpt-oss: 7; "
              "Megatron-Core activation_func_clamp_value); 0: none"),
    F_("expert_bias", CS_FT_BOOL, struct cs_moe_shape, expert_bias, .def = "false",
       .doc = "biases on the experts' linear layers (gpt-oss); fc2's is added expert by expert "
              "unless fused_grouped_mlp"),
    F_("latent", CS_FT_INT, struct cs_moe_shape, latent, .min = 0, .max = 1048576, .def = "0",
       .doc = "latent MoE: the width tokens are projected to before dispatch and the routed experts "
              "work at (Nemotron 3 Super: 1024; Megatron-Core moe_latent_size); 0: none"),
    F_("dispatcher", CS_FT_ENUM, struct cs_moe_shape, dispatcher, .names = cs_moe_dispatcher_names,
       .flags = CS_F_DERIVED,
       .doc = "alltoall (every routed copy over the network) or hierarchical (DeepEP/HybridEP: once "
              "per node); default: the stack's (mcore: hierarchical), else alltoall"),
};

/* struct cs_mamba_shape */
static const struct cs_field mamba_fields[] = {
    F_("heads", CS_FT_INT, struct cs_mamba_shape, heads, .min = 0, .max = 65536, .def = "0",
       .doc = "SSM heads (Megatron-Core mamba_num_heads; Nemotron 3 Nano: 64)"),
    F_("head_dim", CS_FT_INT, struct cs_mamba_shape, head_dim, .min = 1, .max = 65536, .def = "64",
       .doc = "per-head width (mamba_head_dim); the inner width is heads x head_dim"),
    F_("state", CS_FT_INT, struct cs_mamba_shape, state, .min = 1, .max = 65536, .def = "128",
       .doc = "state size N (mamba_state_dim)"),
    F_("groups", CS_FT_INT, struct cs_mamba_shape, groups, .min = 1, .max = 65536, .def = "8",
       .doc = "B and C groups (mamba_num_groups); divides heads"),
    F_("conv", CS_FT_INT, struct cs_mamba_shape, conv, .min = 1, .max = 1024, .def = "4",
       .doc = "causal convolution width (d_conv)"),
    F_("chunk", CS_FT_INT, struct cs_mamba_shape, chunk, .min = 1, .max = 65536, .def = "128",
       .doc = "chunk length of the state-space scan (SSD chunk_size)"),
};

/* struct cs_model_shape */
static const struct cs_field model_fields[] = {
    F_CUSTOM("preset", "a model preset name"),
    F_("name", CS_FT_STR, struct cs_model_shape, name, .size = MSIZE(struct cs_model_shape, name),
       .def = "custom", .doc = "model name"),
    F_("layers", CS_FT_INT, struct cs_model_shape, layers, .min = 1, .max = 10000,
       .flags = CS_F_DERIVED, .doc = "transformer layers (required; a hybrid_pattern gives its length)"),
    F_("hidden", CS_FT_INT, struct cs_model_shape, hidden, .min = 1, .max = 1048576,
       .flags = CS_F_REQUIRED, .doc = "hidden size"),
    F_("heads", CS_FT_INT, struct cs_model_shape, heads, .min = 1, .max = 65536,
       .flags = CS_F_REQUIRED, .doc = "attention heads"),
    F_("kv_heads", CS_FT_INT, struct cs_model_shape, kv_heads, .min = 1, .max = 65536,
       .flags = CS_F_DERIVED, .doc = "key/value heads; default heads"),
    F_("ffn_hidden", CS_FT_INT, struct cs_model_shape, ffn_hidden, .min = 1, .max = 16777216,
       .flags = CS_F_DERIVED, .doc = "MLP hidden size; default 4*hidden"),
    F_("activation", CS_FT_ENUM, struct cs_model_shape, activation, .names = cs_activation_names,
       .def = "gelu", .doc = "MLP activation"),
    F_("vocab", CS_FT_INT, struct cs_model_shape, vocab, .min = 1, .max = 16777216,
       .def = "51200", .doc = "vocabulary size"),
    F_("seq_len", CS_FT_INT, struct cs_model_shape, seq_len, .min = 1, .max = 10000000,
       .def = "2048", .doc = "sequence length"),
    F_("dropout", CS_FT_BOOL, struct cs_model_shape, dropout, .flags = CS_F_DERIVED,
       .doc = "trained with dropout (its masks are stored); presets say; default: true for gelu (GPT-style), "
              "false for swiglu"),
    F_("tied_embeddings", CS_FT_BOOL, struct cs_model_shape, tied_embeddings, .def = "false",
       .doc = "input embedding shared with the output layer"),
    F_("head_dim", CS_FT_INT, struct cs_model_shape, head_dim, .min = 0, .max = 65536,
       .def = "0", .doc = "per-head query/key/value width; 0 = hidden/heads"),
    F_("attention", CS_FT_ENUM, struct cs_model_shape, attention, .names = cs_attention_names,
       .def = "standard", .doc = "standard (multi-head / grouped-query) or mla (latent, DeepSeek-V2/V3)"),
    F_("mla", CS_FT_SUB, struct cs_model_shape, mla, .sub = mla_fields, .nsub = NELEM(mla_fields),
       .doc = "multi-head latent attention widths (with attention: mla)"),
    F_("sliding_window", CS_FT_INT, struct cs_model_shape, sliding_window, .min = 0,
       .max = 100000000, .def = "0", .doc = "tokens a sliding-window layer attends to; 0 = none"),
    F_("sliding_every", CS_FT_INT, struct cs_model_shape, sliding_every, .min = 0, .max = 100000,
       .def = "0", .doc = "every n-th layer (from the first) uses the window (gpt-oss: 2)"),
    F_("rope_scaling", CS_FT_ENUM, struct cs_model_shape, rope_scaling, .names = cs_rope_scaling_names,
       .def = "none",
       .doc = "the rotary embedding's frequency scaling: none or yarn (gpt-oss; Megatron-Core runs "
              "YaRN on standard attention with unfused RoPE, workload.rope_fusion)"),
    F_("moe", CS_FT_SUB, struct cs_model_shape, moe, .sub = moe_fields, .nsub = NELEM(moe_fields),
       .doc = "mixture of experts (experts, top_k, ...); absent: a dense model"),
    F_("mtp_shared", CS_FT_BOOL, struct cs_model_shape, mtp_shared, .def = "false",
       .doc = "the mtp_layers passes share one module's weights (Megatron-Core "
              "mtp_use_repeated_layer): compute per pass, parameters once"),
    F_("hybrid_pattern", CS_FT_STR, struct cs_model_shape, hybrid,
       .size = MSIZE(struct cs_model_shape, hybrid), .def = "",
       .doc = "hybrid layer pattern, one letter per layer: M Mamba-2, * attention, - MLP, E mixture "
              "of experts (Megatron-Core hybrid_override_pattern; Nemotron-H, Nemotron 3); empty: "
              "every layer a transformer layer"),
    F_("mamba", CS_FT_SUB, struct cs_model_shape, mamba, .sub = mamba_fields, .nsub = NELEM(mamba_fields),
       .doc = "the Mamba-2 mixer of the pattern's M layers (heads, head_dim, state, groups, conv, chunk)"),
    F_("mtp_layers", CS_FT_INT, struct cs_model_shape, mtp_layers, .min = 0, .max = 63, .def = "0",
       .doc = "multi-token-prediction depth (DeepSeek-V3: 1; Megatron-Core mtp_num_layers): each "
              "module a projection, one transformer layer and the output layer and loss again, on "
              "the last pipeline stage unless pipeline_layout places it"),
};

/* struct cs_parallel */
static const struct cs_field par_fields[] = {
    F_("tp", CS_FT_INT, struct cs_parallel, tp, .min = 1, .max = CS_CFG_MAX_GPUS, .def = "1",
       .doc = "tensor parallel"),
    F_("pp", CS_FT_INT, struct cs_parallel, pp, .min = 1, .max = CS_CFG_MAX_GPUS, .def = "1",
       .doc = "pipeline parallel"),
    F_("dp", CS_FT_INT, struct cs_parallel, dp, .min = 1, .max = CS_CFG_MAX_GPUS,
       .flags = CS_F_DERIVED, .doc = "data parallel; default GPUs/(tp*pp*cp)"),
    F_("cp", CS_FT_INT, struct cs_parallel, cp, .min = 1, .max = CS_CFG_MAX_GPUS, .def = "1",
       .doc = "context parallel"),
    F_("vp", CS_FT_INT, struct cs_parallel, vp, .min = 1, .max = 1024, .def = "1",
       .doc = "virtual pipeline stages per GPU"),
    F_("sp", CS_FT_BOOL, struct cs_parallel, sp, .def = "false", .doc = "sequence parallel"),
    F_("fsdp", CS_FT_ENUM, struct cs_parallel, fsdp, .names = cs_fsdp_names, .def = "none",
       .doc = "sharding strategy"),
    F_("fsdp_shard_group", CS_FT_INT, struct cs_parallel, fsdp_shard_group, .min = 0,
       .max = CS_CFG_MAX_GPUS, .def = "0", .doc = "hybrid shard group; 0 = one node"),
    F_("fsdp_backward_prefetch", CS_FT_ENUM, struct cs_parallel, fsdp_backward_prefetch,
       .names = cs_fsdp_prefetch_names, .def = "auto",
       .doc = "when FSDP gathers the next layer in the backward: pre (as the layer's backward "
              "starts: FSDP1 BACKWARD_PRE, FSDP2, Megatron-FSDP) or post (after it, before its "
              "reduce-scatter: BACKWARD_POST); auto: post under stack composer, else pre"),
    F_("optimizer_offload", CS_FT_BOOL, struct cs_parallel, optimizer_offload, .def = "false",
       .doc = "optimizer state and step on the CPU"),
    F_("tp_across_nodes", CS_FT_BOOL, struct cs_parallel, tp_across_nodes, .def = "false",
       .doc = "allow tensor parallelism beyond one node"),
    F_("account_for_embedding_in_pipeline_split", CS_FT_BOOL, struct cs_parallel,
       account_for_embedding, .def = "false",
       .doc = "Megatron-Core: the embedding counts as one layer of the pipeline split "
              "(layers + 1 + loss must divide evenly into pp*vp)"),
    F_("account_for_loss_in_pipeline_split", CS_FT_BOOL, struct cs_parallel, account_for_loss,
       .def = "false", .doc = "Megatron-Core: the output layer and loss count as one layer of the "
                              "pipeline split"),
    F_("pipeline_layout", CS_FT_STR, struct cs_parallel, layout_text,
       .size = MSIZE(struct cs_parallel, layout_text), .def = "",
       .doc = "Megatron-Core's pipeline_model_parallel_layout: virtual stages split by '|', E "
              "embedding, t decoder layer, m MTP layer, L loss, 'x*n' and '(...)*n' repeats (e.g. "
              "\"Et*4|(t*4|)*14tmL\"); empty: the default split; sets vp = stages / pp when vp is "
              "not given"),
    F_("ep", CS_FT_INT, struct cs_parallel, ep, .min = 1, .max = CS_CFG_MAX_GPUS, .def = "1",
       .doc = "expert parallel (MoE): ranks the experts are split over"),
    F_("etp", CS_FT_INT, struct cs_parallel, etp, .min = 1, .max = CS_CFG_MAX_GPUS, .def = "1",
       .doc = "expert tensor parallel (MoE): ranks each expert's FFN is split over"),
};

/* struct cs_workload */
static const struct cs_field workload_fields[] = {
    F_CUSTOM("model", "model shape or preset"),
    F_("global_batch", CS_FT_LONG, struct cs_workload, global_batch, .min = 1, .max = 1e9,
       .flags = CS_F_REQUIRED, .doc = "sequences per optimizer step"),
    F_("micro_batch", CS_FT_INT, struct cs_workload, micro_batch, .min = 1, .max = 1000000,
       .def = "1", .doc = "sequences per micro-batch"),
    F_("parallelism", CS_FT_SUB, struct cs_workload, par, .sub = par_fields,
       .nsub = NELEM(par_fields), .doc = "parallel degrees"),
    F_("recompute", CS_FT_ENUM, struct cs_workload, recompute, .names = cs_recompute_names,
       .def = "none", .doc = "activation recomputation"),
    F_("activation_offload_layers", CS_FT_INT, struct cs_workload, offload_layers, .min = 0,
       .max = 100000, .def = "0",
       .doc = "layers per GPU whose activations wait in host memory (Megatron cpu_offloading_num_layers)"),
    F_CUSTOM("offload_modules",
             "Megatron-Core's fine-grained activation offloading: the modules whose saved inputs "
             "wait in host memory (attn_norm, qkv_linear, core_attn, attn_proj, mlp_norm, "
             "expert_fc1, moe_act)"),
    F_CUSTOM("recompute_modules",
             "with recompute: selective, the modules rebuilt (Megatron-Core's recompute_modules: "
             "core_attn, layernorm, mlp, moe_act, mla_up_proj, moe); default core_attn"),
    F_("recompute_layers", CS_FT_INT, struct cs_workload, recompute_layers, .min = 0,
       .max = 100000, .def = "0",
       .doc = "with recompute: full, layers of each (virtual) pipeline stage recomputed "
              "(Megatron --recompute-num-layers, block method); 0 = all"),
    F_("precision", CS_FT_ENUM, struct cs_workload, precision, .names = cs_precision_names,
       .def = "bf16", .doc = "training precision"),
    F_("fp8_recipe", CS_FT_ENUM, struct cs_workload, fp8_recipe, .names = fp8_recipe_names,
       .def = "tensor",
       .doc = "precision fp8: per-tensor scaling (tensor: Transformer Engine's delayed or "
              "current scaling) or blockwise (TE's Float8BlockScaling, DeepSeek-V3's 1x128 / "
              "128x128 tiles: on Hopper the FP8 linear layers take 1.128x as long, TE's GEMM "
              "profiling guide; on Blackwell as tensor, TE running it as MXFP8)"),
    F_("tokens", CS_FT_QTY, struct cs_workload, tokens, .unit = CS_UNIT_COUNT, .min = 0,
       .max = 1e18, .flags = CS_F_MINEXCL | CS_F_NULLABLE, .doc = "tokens to train"),
    F_("tp_comm_overlap", CS_FT_QTY, struct cs_workload, tp_comm_overlap, .unit = CS_UNIT_RATIO,
       .min = 0, .max = 1,
       .doc = "share of each TP all-gather/reduce-scatter overlapped with its GEMM, at most (tp-1)/tp of the GEMM (Megatron-Core + TE: 0.8)"),
    F_("dp_overlap", CS_FT_BOOL, struct cs_workload, dp_overlap, .def = "true",
       .doc = "overlap the DP gradient reduction with backward (buckets)"),
    F_("dp_bucket", CS_FT_QTY, struct cs_workload, dp_bucket_bytes, .unit = CS_UNIT_BYTES,
       .min = 1, .max = 1e12, .def = "160MB", .doc = "gradient bucket size"),
    F_("fused_attention", CS_FT_ENUM, struct cs_workload, fused_attention,
       .names = fused_attention_names, .def = "auto",
       .doc = "FlashAttention-style attention core: auto (by GPU), on, off"),
    F_("rope_fusion", CS_FT_ENUM, struct cs_workload, rope_fusion, .names = fused_attention_names,
       .def = "auto",
       .doc = "Megatron-Core's RoPE kernel (apply_rope_fusion): on (Transformer Engine's fused "
              "kernel), off (six PyTorch ops per tensor each way: 10 B more per rotated element "
              "forward, 11 B backward); auto: off for rope_scaling yarn on standard attention "
              "under stack mcore (as Megatron-LM and Megatron-Bridge turn it off), else on; "
              "stacks mcore and custom, models with rotary positions"),
    F_("torch_compile", CS_FT_ENUM, struct cs_workload, torch_compile,
       .names = torch_compile_names, .def = "auto",
       .doc = "stack torchtitan: the blocks under torch.compile (on; auto = on) or eager "
              "PyTorch (off: RoPE through fp32 complex numbers, SiLU and the gate product as "
              "two kernels, the forward issued op by op from Python)"),
    F_("norm_kernel", CS_FT_ENUM, struct cs_workload, norm_kernel, .names = norm_kernel_names,
       .def = "auto",
       .doc = "the norms: fused (one kernel each way; auto) or eager (PyTorch ops with an fp32 "
              "upcast, torchtitan's norm_type rmsnorm; needs stack torchtitan and "
              "torch_compile off)"),
    F_("cuda_graphs", CS_FT_BOOL, struct cs_workload, cuda_graphs, .def = "false",
       .doc = "layers replayed as CUDA graphs (Transformer Engine make_graphed_callables): "
              "the host issues one graph launch per layer part instead of every kernel"),
    F_("cuda_graph_scope", CS_FT_ENUM, struct cs_workload, cuda_graph_scope,
       .names = cs_graph_scope_names, .def = "layer",
       .doc = "what the CUDA graphs hold: layer (each layer's attention and MLP parts, "
              "Megatron-Core's per-layer graphs), attn (Transformer Engine's scopes attn, "
              "moe_router and moe_preprocess: the MLP, or the MoE block after its router, runs "
              "eagerly; stacks mcore and custom), moe_router (the scopes moe_router and "
              "moe_preprocess alone: an MoE layer's router and dispatch preprocessing, the rest "
              "eager), iteration (the whole forward and backward, Megatron-Core's full_iteration: "
              "no per-layer host time), mamba, attn+mamba (hybrids); needs cuda_graphs"),
    F_("stack", CS_FT_ENUM, struct cs_workload, stack, .names = cs_stack_names,
       .def = "custom",
       .doc = "software stack preset (megatron-2021, mcore, torchtitan, composer, "
              "megatron-deepspeed): sets "
              "tp_comm_overlap, dp_overlap and fused_attention where not given"),
    F_("attention_kernel", CS_FT_ENUM, struct cs_workload, attention_kernel,
       .names = cs_attn_kernel_names, .def = "auto",
       .doc = "fused attention's kernel: cudnn (Transformer Engine on Hopper and later), flash2 "
              "(PyTorch SDPA's default, FlashAttention-2: the GPU's flash2_over_cudnn, 0.62 on "
              "Hopper); auto: cudnn under stack mcore, flash2 under torchtitan and composer, "
              "else the fitted efficiency as it is"),
    F_("cross_entropy", CS_FT_ENUM, struct cs_workload, cross_entropy,
       .names = cs_cross_entropy_names, .def = "auto",
       .doc = "the loss kernel over the logits: fused (Megatron-Core's in-place vocab-parallel "
              "cross entropy, 4 B per logit), eager (PyTorch F.cross_entropy on fp32 logits, "
              "12 B; 16 B with loss parallelism), compiled (torch.compile'd loss, 4 B), te "
              "(Transformer Engine's Triton kernel to TE 2.17, the gradient over the bf16 logits: "
              "2 B), te-fp32 (TE 2.18 on: an fp32 gradient beside them, 6 B); auto: eager under "
              "stack torchtitan, else fused"),
    F_("memory_reserve", CS_FT_QTY, struct cs_workload, memory_reserve_bytes,
       .unit = CS_UNIT_BYTES, .min = 0, .max = 1e13, .def = "1.5GiB",
       .doc = "device memory the framework cannot use besides fragmentation (CUDA context, "
              "NCCL buffers; CS_MEMORY_RESERVE_FIXED_BYTES)"),
    F_("memory_fragmentation", CS_FT_QTY, struct cs_workload, memory_fragmentation,
       .unit = CS_UNIT_RATIO, .min = 0, .max = 0.9, .def = "5%",
       .doc = "share of HBM lost to caching-allocator fragmentation (CS_MEMORY_RESERVE_FRACTION)"),
    F_("host_python_scale", CS_FT_QTY, struct cs_workload, host_python_scale,
       .unit = CS_UNIT_RATIO, .min = 0, .max = 1000, .def = "8", .flags = CS_F_MINEXCL,
       .doc = "the training loop's Python host time over isolated-call measurements: multiplies "
              "every Python-issued host cost (fitted on Megatron-LM's CI, DGX H100; docs/models.md)"),
    F_("grad_reduce_bf16", CS_FT_BOOL, struct cs_workload, grad_reduce_bf16, .def = "false",
       .doc = "gradients reduced in bf16 instead of fp32: fsdp none/zero1 (Megatron's "
              "grad_reduce_in_fp32 false, as Megatron-Bridge's performance recipes; also accumulated "
              "in bf16) and PyTorch FSDP under stack torchtitan or composer (reduce_dtype bf16, "
              "Composer's PURE); docs/step.md \"FSDP\""),
    F_("optimizer_moments_bf16", CS_FT_BOOL, struct cs_workload, optimizer_moments_bf16,
       .def = "false",
       .doc = "Adam's moments in bf16, fp32 master weights kept (DeepSeek-V3 report 3.3.3; "
              "Megatron-Core --exp-avg-dtype/--exp-avg-sq-dtype bf16): 8 instead of 12 bytes per "
              "parameter"),
    F_("fp8_param_gather", CS_FT_BOOL, struct cs_workload, fp8_param_gather, .def = "false",
       .doc = "precision fp8/mxfp8: the weights stored and all-gathered in FP8, the fp32 master "
              "in the optimizer (Megatron-Core --fp8-param-gather; Megatron-Bridge's fp8 presets); "
              "false: 16-bit weights and parameter all-gathers"),
    F_("fp8_attention", CS_FT_BOOL, struct cs_workload, fp8_attention, .def = "false",
       .doc = "precision fp8/mxfp8/nvfp4: the attention core in FP8 (Transformer Engine's "
              "fp8_dot_product_attention); false: bf16 attention"),
    F_("fused_grouped_mlp", CS_FT_BOOL, struct cs_workload, fused_grouped_mlp, .def = "false",
       .doc = "MoE, mxfp8 on Blackwell, etp 1: the experts' MLP fused (Megatron-Core "
              "use_transformer_engine_op_fuser with TE's CuTe DSL grouped GEMM + GLU kernels, "
              "NVTE_CUTEDSL_FUSED_GROUPED_MLP=1); false: separate activation, clamp and bias kernels"),
    F_("bf16_layers_at_start", CS_FT_INT, struct cs_workload, bf16_layers_start, .min = 0,
       .max = 100000, .def = "0",
       .doc = "precision fp8/mxfp8/nvfp4: the model's first layers kept in BF16 (Megatron-Core "
              "first_last_layers_bf16 with num_layers_at_start_in_bf16)"),
    F_("bf16_layers_at_end", CS_FT_INT, struct cs_workload, bf16_layers_end, .min = 0,
       .max = 100000, .def = "0",
       .doc = "precision fp8/mxfp8/nvfp4: the model's last layers kept in BF16 (Megatron-Core "
              "num_layers_at_end_in_bf16; Megatron-Bridge's Nemotron 3 Super NVFP4 recipe: 14)"),
    F_CUSTOM("module_precision",
             "precision fp8/mxfp8/nvfp4: a map from module (attn_qkv, attn_proj, mlp, experts, "
             "shared_experts, moe_latent_proj, mamba_in_proj, mamba_out_proj, mtp) to the "
             "precision its linear layers run at inside quantized layers (Megatron-Core's "
             "quant_recipe; Megatron-Bridge's te_quant.cfg)"),
    F_("fp4_param_gather", CS_FT_BOOL, struct cs_workload, fp4_param_gather, .def = "false",
       .doc = "precision nvfp4: the weights stored and all-gathered in NVFP4 (Megatron-Core "
              "--fp4-param-gather); false: 16-bit weights and parameter all-gathers"),
    F_("fp8_act_storage", CS_FT_BOOL, struct cs_workload, fp8_act_storage, .def = "false",
       .doc = "quantized precisions: DeepSeek-V3's low-precision activation storage (SwiGLU inputs "
              "at the quantized width, the attention output once in 12-bit E5M6; report 3.3.2)"),
    F_("gpus", CS_FT_LONG, struct cs_workload, gpus, .min = 0, .max = CS_CFG_MAX_GPUS, .def = "0",
       .doc = "GPUs the job uses (whole nodes); 0 = every GPU of the cluster"),
};

/* struct cs_fail_component */
static const struct cs_field component_fields[] = {
    F_("name", CS_FT_STR, struct cs_fail_component, name,
       .size = MSIZE(struct cs_fail_component, name), .flags = CS_F_REQUIRED,
       .doc = "component class"),
    F_("scope", CS_FT_ENUM, struct cs_fail_component, scope, .names = scope_names, .def = "gpu",
       .doc = "unit the MTBF applies to (leaf, spine: the fabric's switches; storage: the checkpoint tier)"),
    F_("mtbf", CS_FT_QTY, struct cs_fail_component, mtbf_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e12, .flags = CS_F_REQUIRED | CS_F_MINEXCL, .doc = "mean time between failures"),
    F_("distribution", CS_FT_ENUM, struct cs_fail_component, dist, .names = dist_names,
       .def = "exponential", .doc = "time-to-failure distribution"),
    F_("shape", CS_FT_NUM, struct cs_fail_component, shape, .min = 0, .max = 100,
       .flags = CS_F_MINEXCL, .def = "1", .doc = "Weibull shape"),
    F_("replace", CS_FT_BOOL, struct cs_fail_component, replace, .def = "true",
       .doc = "the unit's node leaves until repaired (rack, leaf: all their nodes; spine: the fabric runs "
              "degraded until repaired; ignored for job/switch/storage scope)"),
    F_("preemption", CS_FT_BOOL, struct cs_fail_component, preemption, .def = "false",
       .doc = "spot reclaim, reported apart from failures"),
    F_("repair", CS_FT_QTY, struct cs_fail_component, repair_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 3.2e8, .flags = CS_F_NULLABLE, .doc = "time out of service; default failures.repair"),
};

/* struct cs_failures_cfg */
static const struct cs_field failures_fields[] = {
    F_CUSTOM("components", "failure classes"),
    F_("detection", CS_FT_QTY, struct cs_failures_cfg, detection_s, .unit = CS_UNIT_TIME,
       .min = 0, .max = 3.2e7, .def = "5min", .doc = "time to detect a failure"),
    F_("restart", CS_FT_QTY, struct cs_failures_cfg, restart_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 3.2e7, .def = "15min", .doc = "time to restart after detection"),
    F_("spares", CS_FT_INT, struct cs_failures_cfg, spares, .min = -1, .max = 1000000,
       .def = "-1", .doc = "hot-spare nodes; -1 = unlimited (instant swap)"),
    F_("repair", CS_FT_QTY, struct cs_failures_cfg, repair_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 3.2e8, .def = "24h", .doc = "time a replaced node is out of service"),
    F_("elastic", CS_FT_BOOL, struct cs_failures_cfg, elastic, .def = "false",
       .doc = "resume on fewer nodes when no spare is left"),
    F_("spares_placement", CS_FT_ENUM, struct cs_failures_cfg, spares_placement, .names = spare_place_names,
       .def = "separate",
       .doc = "separate: spares in racks and under leaves of their own; spread: over the job's racks and "
              "leaves, so a rack or leaf event takes its spares out too"),
    F_("spares_per_rack", CS_FT_INT, struct cs_failures_cfg, spares_per_rack, .min = 0, .max = 10000,
       .def = "0", .doc = "hot spares in each of the job's racks (spares = this x racks, spread); 0 = use spares"),
    F_("storage_outage", CS_FT_ENUM, struct cs_failures_cfg, storage_outage, .names = storage_outage_names,
       .def = "stall",
       .doc = "during a checkpoint-tier outage: stall (block at the next checkpoint until the tier is back) "
              "or continue (skip the checkpoints due)"),
    F_CUSTOM("maintenance", "planned maintenance {interval, duration, drain}"),
    F_CUSTOM("stragglers", "slow GPUs {mtbf, slowdown, detect}"),
};
static const struct cs_field maint_fields[] = {
    F_("interval", CS_FT_QTY, struct cs_failures_cfg, maint_interval_s, .unit = CS_UNIT_TIME,
       .min = 0, .max = 3.2e9, .flags = CS_F_MINEXCL | CS_F_NULLABLE,
       .doc = "time between planned stops (Llama 3: 47 in 54 days, every 27.6 h)"),
    F_("duration", CS_FT_QTY, struct cs_failures_cfg, maint_duration_s, .unit = CS_UNIT_TIME,
       .min = 0, .max = 3.2e8, .def = "1h", .doc = "time the job is stopped"),
    F_("drain", CS_FT_BOOL, struct cs_failures_cfg, maint_drain, .def = "true",
       .doc = "old form of kind: true = scheduled, false = restart-required"),
    F_("kind", CS_FT_ENUM, struct cs_failures_cfg, maint_kind, .names = maint_kind_names,
       .def = "scheduled",
       .doc = "scheduled (the job stops after a checkpoint), drained (nodes drained, swapped at the next "
              "checkpoint) or restart-required (stops at once, rolls back)"),
    F_("nodes", CS_FT_INT, struct cs_failures_cfg, maint_nodes, .min = 1, .max = 1000000, .def = "1",
       .doc = "drained: nodes taken out per window"),
};
static const struct cs_field strag_fields[] = {
    F_("mtbf", CS_FT_QTY, struct cs_failures_cfg, strag_mtbf_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e15, .flags = CS_F_MINEXCL | CS_F_NULLABLE, .doc = "per GPU: mean time until it turns slow"),
    F_("slowdown", CS_FT_QTY, struct cs_failures_cfg, strag_slowdown, .unit = CS_UNIT_RATIO,
       .min = 0, .max = 100, .def = "0.3", .doc = "extra step time while a GPU is slow"),
    F_("detect", CS_FT_QTY, struct cs_failures_cfg, strag_detect_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 3.2e8, .def = "2h", .doc = "time to find and remove a slow GPU"),
};

/* struct cs_checkpoint_cfg */
static const struct cs_field checkpoint_fields[] = {
    F_CUSTOM("interval", "a duration or optimal"),
    F_("mode", CS_FT_ENUM, struct cs_checkpoint_cfg, mode, .names = ckpt_mode_names,
       .def = "sync", .doc = "sync or async"),
    F_("tier", CS_FT_STR, struct cs_checkpoint_cfg, tier,
       .size = MSIZE(struct cs_checkpoint_cfg, tier), .def = "nvme",
       .doc = "storage tier name or kind"),
    F_("size", CS_FT_QTY, struct cs_checkpoint_cfg, size_bytes, .unit = CS_UNIT_BYTES, .min = 0,
       .max = 1e18, .flags = CS_F_MINEXCL | CS_F_NULLABLE,
       .doc = "checkpoint size; default from the model state"),
    F_("upload", CS_FT_STR, struct cs_checkpoint_cfg, upload,
       .size = MSIZE(struct cs_checkpoint_cfg, upload), .def = "",
       .doc = "storage tier of a background copy; empty = none"),
    F_("snapshot_bw", CS_FT_QTY, struct cs_checkpoint_cfg, snapshot_bw_bytes_per_s,
       .unit = CS_UNIT_BANDWIDTH, .min = 0, .max = 1e15, .flags = CS_F_MINEXCL | CS_F_NULLABLE,
       .doc = "async GPU-to-host copy per GPU; default the GPU's PCIe"),
    F_("keep", CS_FT_INT, struct cs_checkpoint_cfg, keep, .min = 1, .max = 100000, .def = "10",
       .doc = "checkpoints retained (storage capacity); torchtitan keep_latest_k default 10"),
};

static const struct cs_field interval_field =
    F_("interval", CS_FT_QTY, struct cs_checkpoint_cfg, interval_s, .unit = CS_UNIT_TIME,
       .min = 0, .max = 3.2e9, .flags = CS_F_MINEXCL, .doc = "checkpoint interval");

/* struct cs_run_cfg */
static const struct cs_field run_fields[] = {
    F_("duration", CS_FT_QTY, struct cs_run_cfg, duration_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 3.2e9, .flags = CS_F_MINEXCL | CS_F_NULLABLE, .doc = "simulated span"),
    F_("replicas", CS_FT_INT, struct cs_run_cfg, replicas, .min = 1, .max = 100000, .def = "1",
       .doc = "Monte Carlo replicas"),
};

/* struct cs_claim_cfg */
static const char *const claim_metric_names[] = {"mfu", "tokens_per_s", "step_time_s",
                                                 "exposed_comm_fraction",
                                                 "gpu_busy_fraction", "data_stall_fraction",
                                                 "goodput", "checkpoint_overhead_s",
                                                 "checkpoint_blocking_s", "node_power_w",
                                                 "kw_per_rack", "cooling_ok",
                                                 "time_to_throttle_s", NULL};
static const struct cs_field claim_fields[] = {
    F_("text", CS_FT_STR, struct cs_claim_cfg, text, .size = MSIZE(struct cs_claim_cfg, text),
       .flags = CS_F_REQUIRED, .doc = "the claim, quoted"),
    F_("source", CS_FT_STR, struct cs_claim_cfg, source,
       .size = MSIZE(struct cs_claim_cfg, source), .def = "", .doc = "where it was claimed"),
    F_("metric", CS_FT_ENUM, struct cs_claim_cfg, metric, .names = claim_metric_names,
       .def = "mfu", .doc = "the figure the claim states"),
    F_("value", CS_FT_NUM, struct cs_claim_cfg, value, .min = 0, .max = 1e18,
       .flags = CS_F_NULLABLE, .doc = "claimed value for this scenario"),
    F_("ratio", CS_FT_NUM, struct cs_claim_cfg, ratio, .min = 0, .max = 1e9,
       .flags = CS_F_MINEXCL | CS_F_NULLABLE,
       .doc = "claimed metric ratio to the first scenario of a compare"),
    F_("at_least", CS_FT_NUM, struct cs_claim_cfg, at_least, .min = 0, .max = 1e18,
       .flags = CS_F_NULLABLE, .doc = "the claim: the figure is at least this"),
    F_("at_most", CS_FT_NUM, struct cs_claim_cfg, at_most, .min = 0, .max = 1e18,
       .flags = CS_F_NULLABLE, .doc = "the claim: the figure is at most this"),
    F_("ratio_at_least", CS_FT_NUM, struct cs_claim_cfg, ratio_at_least, .min = 0, .max = 1e9,
       .flags = CS_F_NULLABLE, .doc = "the claim: the ratio to the first scenario is at least this"),
    F_("ratio_at_most", CS_FT_NUM, struct cs_claim_cfg, ratio_at_most, .min = 0, .max = 1e9,
       .flags = CS_F_NULLABLE, .doc = "the claim: the ratio to the first scenario is at most this"),
    F_("tolerance", CS_FT_NUM, struct cs_claim_cfg, tolerance, .min = 0, .max = 10,
       .def = "0.15", .doc = "relative tolerance of the verdict"),
};

/* struct cs_facility_cfg (docs/run.md, "Facility") */
static const char *const cooling_kind_names[] = {"air", "rear-door", "liquid", NULL};
static const struct cs_field facility_fields[] = {
    F_("cooling", CS_FT_ENUM, struct cs_facility_cfg, cooling, .names = cooling_kind_names,
       .flags = CS_F_DERIVED, .doc = "air | rear-door | liquid; default cost.cooling, else air"),
    F_("rack_power", CS_FT_QTY, struct cs_facility_cfg, rack_power_w, .unit = CS_UNIT_POWER,
       .min = 0, .max = 1e7, .flags = CS_F_NULLABLE | CS_F_MINEXCL,
       .doc = "heat one rack sheds; default by cooling (20 / 55 / 130 kW)"),
    F_("rack_units", CS_FT_INT, struct cs_facility_cfg, rack_units, .min = 1, .max = 60,
       .def = "42", .doc = "usable U per rack"),
    F_("node_units", CS_FT_INT, struct cs_facility_cfg, node_units, .min = 0, .max = 60,
       .def = "0", .doc = "U per node; 0 = 8U for 8 GPUs, 4U for 4, 2U below"),
    F_("node_power", CS_FT_QTY, struct cs_facility_cfg, node_power_w, .unit = CS_UNIT_POWER,
       .min = 0, .max = 1e6, .flags = CS_F_NULLABLE | CS_F_MINEXCL,
       .doc = "nameplate per node; default GPUs x TDP x cost.server_power_multiplier"),
    F_("racks", CS_FT_INT, struct cs_facility_cfg, racks, .min = 0, .max = 10000000, .def = "0",
       .doc = "racks available; 0 = as many as the nodes need"),
    F_("floor_m2_per_rack", CS_FT_NUM, struct cs_facility_cfg, floor_m2_per_rack, .min = 0.5,
       .max = 100, .def = "2.8", .doc = "floor per rack with its aisles, m^2"),
    F_("ups_efficiency", CS_FT_QTY, struct cs_facility_cfg, ups_efficiency, .unit = CS_UNIT_RATIO,
       .min = 0.5, .max = 1, .def = "0.96", .doc = "double-conversion UPS efficiency"),
    F_("distribution_loss", CS_FT_QTY, struct cs_facility_cfg, distribution_loss,
       .unit = CS_UNIT_RATIO, .min = 0, .max = 0.5, .def = "0.02",
       .doc = "PDU and transformer losses, share of IT power"),
    F_("inlet_temp", CS_FT_NUM, struct cs_facility_cfg, inlet_temp_c, .min = -20, .max = 60,
       .def = "25", .doc = "server inlet (supply air) temperature, C; thermal transient"),
    F_("throttle_inlet_temp", CS_FT_NUM, struct cs_facility_cfg, throttle_inlet_c, .min = -20,
       .max = 80, .def = "30", .doc = "inlet temperature at which the GPUs throttle, C (DGX H100: 30)"),
    F_("node_mass", CS_FT_NUM, struct cs_facility_cfg, node_mass_kg, .min = 0, .max = 10000,
       .flags = CS_F_NULLABLE | CS_F_MINEXCL,
       .doc = "kg per node, thermal mass; default 130.45 kg per 8 GPUs (DGX H100)"),
};

/* struct cs_cost_cfg; the keys derived from the catalog site entry have the
 * site table's names, those from the cloud offer the cloud table's. */
static const struct cs_field cloud_cost_fields[] = {
    F_CUSTOM("offer", "catalog cloud offer"),
    F_CUSTOM("egress", "egress per month (cfg_cost.c)"),
    F_CUSTOM("egress_price", "per TB (cfg_cost.c)"),
    F_CUSTOM("storage", "cloud storage held (cfg_cost.c)"),
    F_CUSTOM("storage_price", "per TB-month (cfg_cost.c)"),
    F_CUSTOM("spot_interruptions", "per hour (cfg_cost.c)"),
    F_CUSTOM("spot_lost", "lost time per interruption (cfg_cost.c)"),
    F_("on_demand", CS_FT_QTY, struct cs_cost_cfg, cloud_on_demand_usd_per_gpu_h,
       .unit = CS_UNIT_USD_PER_GPU_HOUR, .min = 0, .max = 1e4,
       .flags = CS_F_DERIVED | CS_F_NULLABLE | CS_F_MINEXCL, .doc = "per GPU-hour"),
    F_("reserved_1y", CS_FT_QTY, struct cs_cost_cfg, cloud_reserved_1y_usd_per_gpu_h,
       .unit = CS_UNIT_USD_PER_GPU_HOUR, .min = 0, .max = 1e4,
       .flags = CS_F_DERIVED | CS_F_NULLABLE | CS_F_MINEXCL, .doc = "per GPU-hour"),
    F_("reserved_3y", CS_FT_QTY, struct cs_cost_cfg, cloud_reserved_3y_usd_per_gpu_h,
       .unit = CS_UNIT_USD_PER_GPU_HOUR, .min = 0, .max = 1e4,
       .flags = CS_F_DERIVED | CS_F_NULLABLE | CS_F_MINEXCL, .doc = "per GPU-hour"),
    F_("spot", CS_FT_QTY, struct cs_cost_cfg, cloud_spot_usd_per_gpu_h,
       .unit = CS_UNIT_USD_PER_GPU_HOUR, .min = 0, .max = 1e4,
       .flags = CS_F_DERIVED | CS_F_NULLABLE | CS_F_MINEXCL, .doc = "per GPU-hour"),
};

#define SITE_DERIVED (CS_F_DERIVED | CS_F_NULLABLE)
static const struct cs_field cost_fields[] = {
    F_CUSTOM("site", "catalog site entry"),
    F_("years", CS_FT_NUM, struct cs_cost_cfg, years, .min = 0, .max = 30, .flags = CS_F_MINEXCL,
       .def = "3", .doc = "TCO horizon"),
    F_("utilization", CS_FT_QTY, struct cs_cost_cfg, utilization, .unit = CS_UNIT_RATIO,
       .min = 0, .max = 1, .flags = CS_F_MINEXCL, .def = "0.7",
       .doc = "average busy fraction of the owned fleet"),
    F_("electricity", CS_FT_QTY, struct cs_cost_cfg, electricity_usd_per_kwh,
       .unit = CS_UNIT_USD_PER_KWH, .min = 0, .max = 10, .flags = SITE_DERIVED,
       .doc = "energy price"),
    F_("pue", CS_FT_NUM, struct cs_cost_cfg, pue, .min = 1, .max = 5, .flags = SITE_DERIVED,
       .doc = "power usage effectiveness"),
    F_("colocation", CS_FT_QTY, struct cs_cost_cfg, colocation_usd_per_kw_month,
       .unit = CS_UNIT_USD_PER_KW_MONTH, .min = 0, .max = 1e5, .flags = SITE_DERIVED,
       .doc = "colocation price"),
    F_("construction_per_mw", CS_FT_QTY, struct cs_cost_cfg, construction_usd_per_mw,
       .unit = CS_UNIT_MONEY, .min = 0, .max = 1e10, .flags = SITE_DERIVED,
       .doc = "build-out per MW of critical load"),
    F_("depreciation_years", CS_FT_NUM, struct cs_cost_cfg, depreciation_years, .min = 0,
       .max = 50, .flags = SITE_DERIVED | CS_F_MINEXCL, .doc = "hardware life"),
    F_("support_per_year", CS_FT_QTY, struct cs_cost_cfg, support_fraction_per_year,
       .unit = CS_UNIT_RATIO, .min = 0, .max = 1, .flags = SITE_DERIVED,
       .doc = "support, fraction of hardware price per year"),
    F_("server_power_utilization", CS_FT_QTY, struct cs_cost_cfg, server_power_utilization,
       .unit = CS_UNIT_RATIO, .min = 0, .max = 1, .flags = SITE_DERIVED | CS_F_MINEXCL,
       .doc = "average draw over nameplate"),
    F_("server_power_multiplier", CS_FT_NUM, struct cs_cost_cfg, server_power_multiplier,
       .min = 1, .max = 10, .flags = SITE_DERIVED, .doc = "server watts per GPU watt"),
    F_("network_cost_fraction", CS_FT_QTY, struct cs_cost_cfg, network_cost_fraction,
       .unit = CS_UNIT_RATIO, .min = 0, .max = 0.99, .flags = SITE_DERIVED,
       .doc = "interconnect share of cluster cost"),
    F_("gpu_price", CS_FT_QTY, struct cs_cost_cfg, gpu_price_usd, .unit = CS_UNIT_MONEY,
       .min = 0, .max = 1e9, .flags = CS_F_DERIVED | CS_F_NULLABLE | CS_F_MINEXCL,
       .doc = "per GPU; default the catalog GPU price"),
    F_("server_price", CS_FT_QTY, struct cs_cost_cfg, server_price_usd, .unit = CS_UNIT_MONEY,
       .min = 0, .max = 1e10, .flags = CS_F_DERIVED | CS_F_NULLABLE | CS_F_MINEXCL,
       .doc = "per server; default the catalog server price"),
    { .key = "cloud", .type = CS_FT_SUB, .offset = 0, .sub = cloud_cost_fields,
      .nsub = NELEM(cloud_cost_fields), .doc = "cloud prices" },
    /* Parsed by config/cfg_cost.c (cs_cfg__cost_ext). */
    F_CUSTOM("staff_per_year", "staff cost"), F_CUSTOM("servers_per_admin", "servers per FTE"),
    F_CUSTOM("staff_per_admin", "cost of one FTE"), F_CUSTOM("cooling", "air | liquid | rear-door"), F_CUSTOM("rear_door_per_rack", "capex per rack"),
    F_CUSTOM("liquid_cooling_per_kw", "capex per kW"), F_CUSTOM("cost_of_capital", "per year"),
    F_CUSTOM("facility_life_years", "build-out life"), F_CUSTOM("idle_power_fraction", "idle draw"),
    F_CUSTOM("hybrid", "owned baseline + cloud burst"), F_CUSTOM("sensitivity", "relative step"),
    F_CUSTOM("monte_carlo", "samples"), F_CUSTOM("ranges", "low/high inputs"),
    F_CUSTOM("claim", "a seed claim to evaluate"),
    F_CUSTOM("reference", "published figures to compare (tco --table)"),
};

/* ------------------------------------------------------------------------ */
/* Catalog references.                                                       */

static const void *catalog_spec(const cs_catalog *c, enum cs_catalog_kind k, const char *name)
{
    switch (k) {
    case CS_CATALOG_GPU: return cs_catalog_gpu(c, name);
    case CS_CATALOG_LINK: return cs_catalog_link(c, name);
    case CS_CATALOG_INTRA: return cs_catalog_intra(c, name);
    case CS_CATALOG_STORAGE: return cs_catalog_storage(c, name);
    case CS_CATALOG_SITE: return cs_catalog_site(c, name);
    case CS_CATALOG_CLOUD: return cs_catalog_cloud(c, name);
    case CS_CATALOG_SWITCH:
    case CS_CATALOG_NIC:
    case CS_CATALOG_OPTIC:
    case CS_CATALOG_CABLE: return cs_catalog_nethw(c, k, name);
    case CS_CATALOG_KIND_COUNT: break;
    }
    return NULL;
}

/* "catalog NAME (SOURCE; DATE)" for field `key` of entry `name`. */
static char *catalog_origin(const cs_catalog *c, enum cs_catalog_kind k, const char *name,
                            const char *key)
{
    const struct cs_catalog_field *cf = key ? cs_catalog_field(c, k, name, key) : NULL;
    if (cf)
        return cs_xasprintf("catalog %s (%s%s%s%s)", name, cf->source, *cf->date ? "; " : "",
                            cf->date, cf->estimate ? "; estimate" : "");
    return cs_xasprintf("catalog %s (not given)", name);
}

/* Reports an unknown catalog name with a did-you-mean. */
static void unknown_name(struct cs_bind *b, enum cs_catalog_kind k, const struct cs_ynode *at,
                         const char *path, const char *name)
{
    size_t n;
    const char **names = cs_catalog_names(b->cat, k, &n);
    char sug[512];
    bool have = names && cs_suggest_phrase(name, names, n, sug, sizeof sug);
    char shown[128];
    snprintf(shown, sizeof shown, "%.60s", name);
    if (have)
        cs_cfg__error(b->d, at, "%s: unknown %s \"%s\" (%s)", path, cs_catalog__kind_label(k), shown,
                      sug);
    else if (names && n <= 12) {
        char list[512];
        size_t o = 0;
        for (size_t i = 0; i < n && o < sizeof list; i++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "", names[i]);
        cs_cfg__error(b->d, at, "%s: unknown %s \"%s\" (known: %s)", path, cs_catalog__kind_label(k), shown,
                      list);
    } else
        cs_cfg__error(b->d, at, "%s: unknown %s \"%s\"", path, cs_catalog__kind_label(k), shown);
    free(names);
}

/* A string scalar or an error (NULL). */
static const char *want_name(struct cs_bind *b, const struct cs_ynode *v, const char *path)
{
    char shown[128];
    cs_cfg__show(v, shown, sizeof shown);
    if (v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v) || strlen(v->scalar) != v->len) {
        cs_cfg__error(b->d, v, "%s: expected a name, got %s", path, shown);
        return NULL;
    }
    if (v->len > 256) {
        cs_cfg__error(b->d, v, "%s: expected a name of at most 256 characters, got %zu characters",
                      path, v->len);
        return NULL;
    }
    return v->scalar;
}

/* Applies a `*_overrides:` mapping (or the fields of a storage item,
 * skipping `skip`) onto dst with the catalog kind's table. Diagnostics use
 * diag_path; provenance uses prov_path.KEY. */
static void apply_overrides(struct cs_bind *b, enum cs_catalog_kind k, const struct cs_ynode *ov,
                            const char *diag_path, const char *prov_path, void *dst,
                            const char *skip)
{
    size_t nt;
    const struct cs_field *t = cs_catalog__table(k, &nt);
    const char *const extra[] = {skip, NULL};
    for (size_t i = 0; i < ov->n; i++) {
        const struct cs_ynode *key = ov->pairs[i].key, *val = ov->pairs[i].value;
        if (skip && !strcmp(key->scalar, skip))
            continue;
        const struct cs_field *f = cs_cfg__find(t, nt, key->scalar);
        if (!f) {
            cs_cfg__unknown_key(b->d, key, diag_path, t, nt, skip ? extra : NULL);
            continue;
        }
        char *dp = cs_cfg__path(diag_path, key->scalar);
        if (cs_cfg__set(f, val, dp, dst, b->d)) {
            char *pp = cs_cfg__path(prov_path, key->scalar);
            prov_node(b, pp, val);
            free(pp);
        }
        free(dp);
    }
}

/* Resolves catalog entry `name` of kind k into dst (size bytes) and records
 * provenance for every field under prov_path. Returns false (dst untouched)
 * when the name is unknown. `at` locates the error. */
static bool resolve_ref(struct cs_bind *b, enum cs_catalog_kind k, const char *name,
                        const struct cs_ynode *at, const char *diag_path, const char *prov_path,
                        void *dst, size_t size)
{
    const void *spec = catalog_spec(b->cat, k, name);
    if (!spec) {
        unknown_name(b, k, at, diag_path, name);
        return false;
    }
    memcpy(dst, spec, size);
    size_t nt;
    const struct cs_field *t = cs_catalog__table(k, &nt);
    for (size_t i = 0; i < nt; i++) {
        char *p = cs_cfg__path(prov_path, t[i].key);
        char *origin = catalog_origin(b->cat, k, name, t[i].key);
        const struct cs_catalog_field *cf = cs_catalog_field(b->cat, k, name, t[i].key);
        if (cf)
            prov_set(&b->prov, p, cf->value, origin);
        else
            prov_field(b, p, &t[i], dst, origin);
        free(origin);
        free(p);
    }
    return true;
}

/* Binds `key:` (a catalog name, default def_name) and `ovkey:` of map. */
static bool bind_ref(struct cs_bind *b, enum cs_catalog_kind k, const struct cs_ynode *map,
                     const struct cs_ynode *where, const char *parent, const char *key,
                     const char *ovkey, const char *def_name, const char *def_origin, void *dst,
                     size_t size)
{
    const struct cs_ynode *v = cs_ynode_map_get(map, key);
    char *path = cs_cfg__path(parent, key);
    const char *name = def_name;
    bool ok = false;
    if (v)
        name = want_name(b, v, path);
    if (name) {
        ok = resolve_ref(b, k, name, v ? v : where, path, path, dst, size);
        if (ok && v)
            prov_node(b, path, v);
        else if (ok)
            prov_set(&b->prov, path, name, def_origin);
    }
    const struct cs_ynode *ov = ovkey ? cs_ynode_map_get(map, ovkey) : NULL;
    if (ov && !cs_ynode_is_null(ov)) {
        char *ovpath = cs_cfg__path(parent, ovkey);
        if (ov->kind != CS_YNODE_MAP)
            cs_cfg__error(b->d, ov, "%s: expected a mapping of %s fields, got %s", ovpath,
                          cs_catalog__kind_label(k), cs_ynode_describe(ov));
        else
            apply_overrides(b, k, ov, ovpath, path, dst, NULL);
        free(ovpath);
    }
    free(path);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Sections.                                                                 */

static void bind_intra(struct cs_bind *b, const struct cs_ynode *cl, const struct cs_ynode *where)
{
    struct cs_cluster_cfg *c = &b->s->cluster;
    const char *def = c->gpu.intra_default[0] ? c->gpu.intra_default : "pcie";
    if (!bind_ref(b, CS_CATALOG_INTRA, cl, where, "cluster", "intra_node", "intra_overrides", def,
                  "default (the GPU's intra_default)", &c->intra, sizeof c->intra))
        return;
    const struct cs_ynode *at = node_or(cl, "intra_node", where);
    const char *gpu = c->gpu.name;
    if (c->intra.kind == CS_INTRA_NVSWITCH || c->intra.kind == CS_INTRA_NVLINK_P2P) {
        if (c->gpu.scaleup_domain_gpus <= 0 || isnan(c->gpu.scaleup_bw_bytes_per_s)) {
            cs_cfg__error(b->d, at,
                          "cluster.intra_node: %s needs NVLink or xGMI, but %s has none "
                          "(use pcie)",
                          c->intra.name, gpu);
            return;
        }
        if (c->intra.kind == CS_INTRA_NVLINK_P2P && c->gpu.scaleup_domain_gpus < c->gpus_per_node &&
            !(cs_pcie_x16_bytes_per_s(c->gpu.pcie_gen) > 0)) {
            cs_cfg__error(b->d, at,
                          "cluster.intra_node: nvlink-p2p joins %d GPUs of %s; the other hops of a %d-GPU "
                          "node cross PCIe, and the GPU has no PCIe generation in the catalog (set "
                          "cluster.gpu_overrides.pcie_gen)",
                          c->gpu.scaleup_domain_gpus, gpu, c->gpus_per_node);
        }
        if (c->intra.kind == CS_INTRA_NVSWITCH && c->gpu.scaleup_domain_gpus < c->gpus_per_node) {
            cs_cfg__error(b->d, node_or(cl, "gpus_per_node", at),
                          "cluster.gpus_per_node: %d GPUs per node exceed the %d-GPU NVLink "
                          "domain of %s (nvswitch)",
                          c->gpus_per_node, c->gpu.scaleup_domain_gpus, gpu);
        }
    }
    if (isnan(c->intra.bw_bytes_per_s)) {
        char buf[64];
        if (c->intra.kind == CS_INTRA_PCIE) {
            c->intra.bw_bytes_per_s = cs_pcie_x16_bytes_per_s(c->gpu.pcie_gen);
            if (isnan(c->intra.bw_bytes_per_s)) {
                cs_cfg__error(b->d, at,
                              "cluster.intra_node: pcie needs the GPU's PCIe generation, and %s "
                              "has none (set cluster.intra_overrides.bw)",
                              gpu);
                return;
            }
            char *origin = cs_xasprintf("derived (PCIe Gen%d x16 line rate, PCI-SIG)",
                                        c->gpu.pcie_gen);
            prov_set(&b->prov, "cluster.intra_node.bw",
                     cs_units_format(c->intra.bw_bytes_per_s, CS_UNIT_BANDWIDTH, buf, sizeof buf),
                     origin);
            free(origin);
        } else {
            c->intra.bw_bytes_per_s = c->gpu.scaleup_bw_bytes_per_s;
            const struct cs_prov_entry *pe = cs_provenance_find(&b->prov, "cluster.gpu.scaleup_bw");
            char *origin = cs_xasprintf("derived (cluster.gpu.scaleup_bw: %s)",
                                        pe ? pe->origin : "?");
            prov_set(&b->prov, "cluster.intra_node.bw",
                     cs_units_format(c->intra.bw_bytes_per_s, CS_UNIT_BANDWIDTH, buf, sizeof buf),
                     origin);
            free(origin);
        }
    }
    /* The catalog's nvswitch efficiency is an H100 figure (0.818 of the
     * link); NCCL rates NVLink per generation (cs_gpu_nvlink_nccl_ratio), so
     * an A100 or Blackwell node takes it at that ratio, unless the scenario
     * states its own (intra_overrides.efficiency). */
    const struct cs_ynode *iov = node_or(cl, "intra_overrides", NULL);
    if (c->intra.kind == CS_INTRA_NVSWITCH && strcmp(c->intra.name, "nvswitch") == 0 &&
        !(iov && cs_ynode_map_get(iov, "efficiency"))) {
        double r = cs_gpu_nvlink_nccl_ratio(&c->gpu);
        if (r != 1.0 && c->intra.efficiency > 0) {
            char buf[32];
            char *origin = cs_xasprintf("derived (catalog nvswitch %.3g, an H100 measurement, x %.4f: NCCL's "
                                        "NVLink rate per link of %s's generation over Hopper's, "
                                        "src/graph/topo.h)",
                                        c->intra.efficiency, r, c->gpu.name);
            c->intra.efficiency *= r;
            snprintf(buf, sizeof buf, "%.4g", c->intra.efficiency);
            prov_set(&b->prov, "cluster.intra_node.efficiency", buf, origin);
            free(origin);
        }
    }
    if (c->intra.nvls && !c->gpu.nvls) {
        c->intra.nvls = false;
        prov_set(&b->prov, "cluster.intra_node.nvls", "false",
                 "derived (the GPU's NVSwitch generation has no NVLS)");
    }
}

/* The hardware rows the link names (after link_overrides, which may rename
 * them), copied into link.hw[] for the cost model. */
static void bind_link_hardware(struct cs_bind *b, const struct cs_ynode *fm,
                               const struct cs_ynode *where)
{
    struct cs_link_spec *l = &b->s->cluster.fabric.link;
    const struct {
        const char *key;
        enum cs_catalog_kind kind;
        const char *name;
        enum cs_nethw_slot slot;
    } rows[] = {
        {"switch_model", CS_CATALOG_SWITCH, l->switch_model, CS_NETHW_SWITCH},
        {"nic_model", CS_CATALOG_NIC, l->nic_model, CS_NETHW_NIC},
        {"optic_model", CS_CATALOG_OPTIC, l->optic_model, CS_NETHW_OPTIC},
        {"cable_model", CS_CATALOG_CABLE, l->cable_model, CS_NETHW_CABLE},
        {"dac_model", CS_CATALOG_CABLE, l->dac_model, CS_NETHW_DAC},
    };
    const struct cs_ynode *ov = cs_ynode_map_get(fm, "link_overrides");
    for (size_t i = 0; i < NELEM(rows); i++) {
        struct cs_nethw_spec *h = &l->hw[rows[i].slot];
        memset(h, 0, sizeof *h);
        h->port_bw_bytes_per_s = h->reach_m = h->price_usd = h->power_w = NAN;
        if (!rows[i].name[0])
            continue;
        const struct cs_ynode *at = ov && ov->kind == CS_YNODE_MAP
                                        ? cs_ynode_map_get(ov, rows[i].key)
                                        : NULL;
        char *dpath = cs_cfg__path("cluster.fabric.link", rows[i].key);
        char *ppath = cs_cfg__path("cluster.fabric.link.hw", rows[i].key);
        if (!resolve_ref(b, rows[i].kind, rows[i].name, at ? at : where, dpath, ppath, h,
                         sizeof *h))
            memset(h->name, 0, sizeof h->name);
        else if (rows[i].slot == CS_NETHW_DAC && strcmp(h->kind, "dac") != 0)
            cs_cfg__error(b->d, at ? at : where,
                          "cluster.fabric.link.dac_model: expected a copper cable (kind dac), got "
                          "%s (kind %s)",
                          h->name, h->kind);
        free(dpath);
        free(ppath);
    }
}

/* A descriptor's keys apply to its kind only; and a kind whose shape comes
 * from given numbers (or that needs them) is built once here, so numbers
 * that cannot be wired are an error at their key, not a later failure. */
static void bind_fabric_shape(struct cs_bind *b, const struct cs_ynode *fm, const struct cs_ynode *fwhere)
{
    struct cs_cluster_cfg *c = &b->s->cluster;
    const struct cs_topology_kind *kind = cs_topology_kind_of(c->fabric.topology);
    if (!kind)
        return;
    bool given = false;
    for (size_t i = 0; i < NELEM(fabric_kind_keys); i++) {
        const struct cs_ynode *v = cs_ynode_map_get(fm, fabric_kind_keys[i].key);
        if (!v)
            continue;
        given = true;
        if (!(fabric_kind_keys[i].builders & (1u << kind->builder))) {
            char kinds[160] = "";
            for (int t = 0; t < CS_TOPO_COUNT; t++) {
                const struct cs_topology_kind *k = cs_topology_kind_of((enum cs_topology)t);
                if (fabric_kind_keys[i].builders & (1u << k->builder)) {
                    size_t len = strlen(kinds);
                    snprintf(kinds + len, sizeof kinds - len, "%s%s", len ? ", " : "", k->name);
                }
            }
            cs_cfg__error(b->d, v, "cluster.fabric.%s: applies to topology %s only, the topology is %s",
                          fabric_kind_keys[i].key, kinds, kind->name);
        }
    }
    if (b->d && cs_diags_errors(b->d) > 0)
        return;
    bool needs = kind->builder == CS_TOPO_BUILD_NVL_DOMAIN || kind->builder == CS_TOPO_BUILD_DRAGONFLY;
    if (!given && !needs)
        return;
    struct cs_fabric_geom g;
    char why[256];
    cs_status rc = cs_fabric_geometry_why(c, &g, why, sizeof why);
    if (rc == CS_OK || !why[0])
        return;
    /* why starts with the key at fault ("spines: ..."). */
    char key[64];
    size_t n = strcspn(why, ":");
    const struct cs_ynode *at = NULL;
    if (n < sizeof key) {
        memcpy(key, why, n);
        key[n] = '\0';
        at = cs_ynode_map_get(fm, key);
    }
    if (!at)
        at = cs_ynode_map_get(fm, "topology");
    cs_cfg__error(b->d, at ? at : fwhere, "cluster.fabric.%s", why);
}

static void bind_fabric(struct cs_bind *b, const struct cs_ynode *cl, const struct cs_ynode *where)
{
    struct cs_cluster_cfg *c = &b->s->cluster;
    const struct cs_ynode *fv = cs_ynode_map_get(cl, "fabric");
    const struct cs_ynode *fm = section(b, fv, "cluster.fabric");
    const struct cs_ynode *fwhere = fv ? fv : where;
    walk(b, fabric_fields, NELEM(fabric_fields), fm, fwhere, "cluster.fabric", &c->fabric, NULL);
    bind_ref(b, CS_CATALOG_LINK, fm, fwhere, "cluster.fabric", "link", "link_overrides", "ib-ndr",
             "default", &c->fabric.link, sizeof c->fabric.link);
    bind_link_hardware(b, fm, fwhere);
    if (!cs_ynode_map_get(fm, "nics_per_node")) {
        c->fabric.nics_per_node = c->gpus_per_node;
        char buf[32];
        snprintf(buf, sizeof buf, "%d", c->gpus_per_node);
        prov_set(&b->prov, "cluster.fabric.nics_per_node", buf, "default (= gpus_per_node)");
    }
    /* Nodes talk to each other only through their scale-out NICs: with none,
     * every inter-node collective is impossible (it used to come out free). */
    const struct cs_ynode *nn = cs_ynode_map_get(fm, "nics_per_node");
    if (c->nodes > 1 && c->fabric.nics_per_node < 1 && nn)
        cs_cfg__error(b->d, nn,
                      "cluster.fabric.nics_per_node: expected at least 1 NIC per node to connect "
                      "%d nodes, got %d",
                      c->nodes, c->fabric.nics_per_node);
    bind_fabric_shape(b, fm, fwhere);
}

static void bind_storage_item(struct cs_bind *b, const struct cs_ynode *it, const char *path,
                              struct cs_storage_spec *dst)
{
    const struct cs_ynode *name_node = it;
    if (it->kind == CS_YNODE_MAP) {
        name_node = cs_ynode_map_get(it, "name");
        if (!name_node) {
            cs_cfg__error(b->d, it, "%s: missing required key \"name\" (a catalog storage tier)",
                          path);
            return;
        }
    }
    char *np = it->kind == CS_YNODE_MAP ? cs_cfg__path(path, "name") : cs_xstrdup(path);
    const char *name = want_name(b, name_node, np);
    if (name && resolve_ref(b, CS_CATALOG_STORAGE, name, name_node, np, path, dst, sizeof *dst))
        prov_node(b, np, name_node);
    if (it->kind == CS_YNODE_MAP)
        apply_overrides(b, CS_CATALOG_STORAGE, it, path, path, dst, "name");
    free(np);
}

static void bind_storage(struct cs_bind *b, const struct cs_ynode *cl)
{
    struct cs_storage_cfg *st = &b->s->cluster.storage;
    const struct cs_ynode *v = cs_ynode_map_get(cl, "storage");
    if (!v || cs_ynode_is_null(v)) {
        st->n_tiers = 1;
        if (resolve_ref(b, CS_CATALOG_STORAGE, "nvme-gen4", cl, "cluster.storage",
                        "cluster.storage[0]", &st->tiers[0], sizeof st->tiers[0]))
            prov_set(&b->prov, "cluster.storage[0].name", "nvme-gen4", "default");
        else
            st->n_tiers = 0;
        return;
    }
    if (v->kind != CS_YNODE_SEQ) {
        cs_cfg__error(b->d, v,
                      "cluster.storage: expected a sequence of storage tiers (catalog names or "
                      "{name: ..., overrides}), got %s",
                      cs_ynode_describe(v));
        return;
    }
    if (v->n > CS_MAX_STORAGE_TIERS) {
        cs_cfg__error(b->d, v, "cluster.storage: expected at most %d tiers, got %zu",
                      CS_MAX_STORAGE_TIERS, v->n);
        return;
    }
    st->n_tiers = (int)v->n;
    for (size_t i = 0; i < v->n; i++) {
        char path[64];
        snprintf(path, sizeof path, "cluster.storage[%zu]", i);
        bind_storage_item(b, v->items[i], path, &st->tiers[i]);
    }
}

static void bind_cluster(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_cluster_cfg *c = &b->s->cluster;
    const struct cs_ynode *cv = cs_ynode_map_get(root, "cluster");
    const struct cs_ynode *cl = section(b, cv, "cluster");
    const struct cs_ynode *where = cv ? cv : root;
    walk(b, cluster_fields, NELEM(cluster_fields), cl, where, "cluster", c, NULL);
    long gpus = (long)c->nodes * (long)c->gpus_per_node;
    if (gpus > CS_CFG_MAX_GPUS) {
        cs_cfg__error(b->d, node_or(cl, "nodes", where),
                      "cluster: nodes x gpus_per_node = %d x %d = %ld GPUs, more than %ld",
                      c->nodes, c->gpus_per_node, gpus, CS_CFG_MAX_GPUS);
    }
    bool gpu_ok = bind_ref(b, CS_CATALOG_GPU, cl, where, "cluster", "gpu", "gpu_overrides",
                           "H100-SXM5-80GB", "default", &c->gpu, sizeof c->gpu);
    if (gpu_ok && isfinite(c->gpu.power_limit_w) && c->gpu.power_limit_w > 0 && isfinite(c->gpu.tdp_w) &&
        c->gpu.tdp_w > 0 && c->gpu.power_limit_w < CS_CLOCK_LAW_MIN_CAP * c->gpu.tdp_w)
        cs_diag_add(b->d, CS_SEV_WARNING, where->file, where->line, where->col,
                    "cluster.gpu: a %.0f W power limit is %.2f of the %.0f W TDP; below %.2f the "
                    "clock law (cube root of the cap) is optimistic: compute-bound throughput was "
                    "measured 20.6 points below it on average (validation/hardware/"
                    "power-cap-throughput.csv, docs/run.md): read the step time as a lower bound",
                    c->gpu.power_limit_w, c->gpu.power_limit_w / c->gpu.tdp_w, c->gpu.tdp_w,
                    CS_CLOCK_LAW_MIN_CAP);
    if (gpu_ok)
        bind_intra(b, cl, where);
    else /* still check the intra keys for typos and unknown names */
        bind_ref(b, CS_CATALOG_INTRA, cl, where, "cluster", "intra_node", "intra_overrides",
                 "nvswitch", "default", &c->intra, sizeof c->intra);
    bind_fabric(b, cl, where);
    bind_storage(b, cl);
}

/* A list of module names (names: NULL-terminated, in bit order) into the
 * bit set *out; false (diagnostic given) for anything else. */
static bool bind_module_list(struct cs_bind *b, const struct cs_ynode *v, const char *path,
                             const char *const *names, unsigned *out)
{
    char expected[256] = "";
    for (int j = 0; names[j]; j++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s%s",
                 j ? ", " : "", names[j]);
    if (v->kind != CS_YNODE_SEQ) {
        cs_cfg__error(b->d, v, "%s: expected a list of module names (%s)", path, expected);
        return false;
    }
    unsigned mods = 0;
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *it = v->items[i];
        int k = -1;
        for (int j = 0; it->kind == CS_YNODE_SCALAR && names[j]; j++)
            if (strcmp(it->scalar, names[j]) == 0)
                k = j;
        if (k < 0) {
            char shown[128];
            cs_cfg__show(it, shown, sizeof shown);
            cs_cfg__error(b->d, it, "%s[%zu]: unknown module %s (expected one of %s)", path, i, shown,
                          expected);
            return false;
        }
        mods |= 1u << k;
    }
    *out = mods;
    prov_node(b, path, v);
    return true;
}

/* workload.module_precision: {module: precision}, the modules from
 * cs_quant_module_names, the precisions from cs_precision_names. */
static bool bind_module_precision(struct cs_bind *b, const struct cs_ynode *v, struct cs_workload *w)
{
    const char *path = "workload.module_precision";
    char mods[256] = "", precs[128] = "";
    for (int j = 0; cs_quant_module_names[j]; j++)
        snprintf(mods + strlen(mods), sizeof mods - strlen(mods), "%s%s", j ? ", " : "",
                 cs_quant_module_names[j]);
    for (int j = 0; cs_precision_names[j]; j++)
        snprintf(precs + strlen(precs), sizeof precs - strlen(precs), "%s%s", j ? ", " : "",
                 cs_precision_names[j]);
    if (v->kind != CS_YNODE_MAP) {
        cs_cfg__error(b->d, v, "%s: expected a map from module (%s) to precision (%s)", path, mods,
                      precs);
        return false;
    }
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key, *val = v->pairs[i].value;
        int mi = -1, pi = -1;
        for (int j = 0; k->kind == CS_YNODE_SCALAR && cs_quant_module_names[j]; j++)
            if (strcmp(k->scalar, cs_quant_module_names[j]) == 0)
                mi = j;
        char shown[128];
        if (mi < 0) {
            cs_cfg__show(k, shown, sizeof shown);
            cs_cfg__error(b->d, k, "%s: unknown module %s (expected one of %s)", path, shown, mods);
            return false;
        }
        for (int j = 0; val->kind == CS_YNODE_SCALAR && cs_precision_names[j]; j++)
            if (strcmp(val->scalar, cs_precision_names[j]) == 0)
                pi = j;
        if (pi < 0) {
            cs_cfg__show(val, shown, sizeof shown);
            cs_cfg__error(b->d, val, "%s.%s: unknown precision %s (expected one of %s)", path,
                          cs_quant_module_names[mi], shown, precs);
            return false;
        }
        w->module_precision[mi] = (unsigned char)(pi + 1);
    }
    prov_node(b, path, v);
    return true;
}

/* workload.model.moe.capacity_factor: none (dropless) or a number >= 1. */
static void bind_capacity(struct cs_bind *b, const struct cs_ynode *mm, struct cs_model_shape *m)
{
    const struct cs_ynode *moe = cs_ynode_map_get(mm, "moe");
    const struct cs_ynode *v = moe && moe->kind == CS_YNODE_MAP ? cs_ynode_map_get(moe, "capacity_factor")
                                                                : NULL;
    if (!v)
        return;
    double x;
    if (v->kind == CS_YNODE_SCALAR && (strcmp(v->scalar, "none") == 0 || cs_ynode_is_null(v))) {
        m->moe.capacity_factor = 0.0;
    } else if (v->kind == CS_YNODE_SCALAR && cs_num_parse_double(v->scalar, &x) && isfinite(x) &&
               x >= 1.0 && x <= 1000.0) {
        m->moe.capacity_factor = x;
    } else {
        char shown[128];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(b->d, v,
                      "workload.model.moe.capacity_factor: expected none (dropless) or a number from "
                      "1 to 1000, got %s",
                      shown);
        return;
    }
    prov_node(b, "workload.model.moe.capacity_factor", v);
}

static void bind_model(struct cs_bind *b, const struct cs_ynode *wl, const struct cs_ynode *where)
{
    struct cs_model_shape *m = &b->s->workload.model;
    const struct cs_ynode *mv = cs_ynode_map_get(wl, "model");
    if (!mv) {
        cs_cfg__error(b->d, where,
                      "workload: missing required key \"model\" (a preset or layers, hidden, "
                      "heads, ...)");
        return;
    }
    const struct cs_ynode *mm = section(b, mv, "workload.model");
    if (!mm) {
        if (cs_ynode_is_null(mv))
            cs_cfg__error(b->d, mv, "workload.model: expected a mapping, got null");
        return;
    }
    const struct cs_ynode *pv = cs_ynode_map_get(mm, "preset");
    if (pv) {
        const char *name = want_name(b, pv, "workload.model.preset");
        if (!name)
            return;
        if (cs_workload_preset(name, m) != CS_OK) {
            const char *const *names = cs_workload_preset_names();
            size_t n = 0;
            while (names[n])
                n++;
            char sug[512];
            bool have = cs_suggest_phrase(name, names, n, sug, sizeof sug);
            char shown[128];
            cs_cfg__show(pv, shown, sizeof shown);
            if (have)
                cs_cfg__error(b->d, pv, "workload.model.preset: unknown model preset %s (%s)", shown,
                              sug);
            else
                cs_cfg__error(b->d, pv, "workload.model.preset: unknown model preset %s", shown);
            return;
        }
        prov_node(b, "workload.model.preset", pv);
        char *origin = cs_xasprintf("preset %s (%s)", name, m->source);
        walk(b, model_fields, NELEM(model_fields), mm, mv, "workload.model", m, origin);
        free(origin);
        bind_capacity(b, mm, m);
        return;
    }
    walk(b, model_fields, NELEM(model_fields), mm, mv, "workload.model", m, NULL);
    bind_capacity(b, mm, m);
    snprintf(m->source, sizeof m->source, "%s", "scenario file");
    char buf[32];
    if (!cs_ynode_map_get(mm, "layers")) {
        /* a hybrid model's pattern has a letter per layer */
        size_t n = strlen(m->hybrid);
        if (n > 0) {
            m->layers = (int)n;
            snprintf(buf, sizeof buf, "%d", m->layers);
            prov_set(&b->prov, "workload.model.layers", buf, "the hybrid_pattern's letters");
        } else {
            m->layers = 0;
            cs_cfg__error(b->d, mv, "workload.model: missing required key \"layers\" (transformer layers)");
        }
    }
    if (!cs_ynode_map_get(mm, "kv_heads")) {
        m->kv_heads = m->heads;
        snprintf(buf, sizeof buf, "%d", m->kv_heads);
        prov_set(&b->prov, "workload.model.kv_heads", buf, "default (= heads)");
    }
    if (!cs_ynode_map_get(mm, "dropout")) {
        m->dropout = m->activation == CS_ACT_GELU;
        prov_set(&b->prov, "workload.model.dropout", m->dropout ? "true" : "false",
                 "default (GPT-style gelu models train with dropout, swiglu ones without)");
    }
    if (!cs_ynode_map_get(mm, "ffn_hidden")) {
        long f = 4L * m->hidden;
        m->ffn_hidden = f > 16777216 ? 16777216 : (int)f;
        snprintf(buf, sizeof buf, "%d", m->ffn_hidden);
        prov_set(&b->prov, "workload.model.ffn_hidden", buf, "default (= 4 * hidden)");
    }
}

static void mark(struct cs_step_marks *mk, enum cs_step_key k, const struct cs_ynode *n)
{
    if (n) {
        mk->line[k] = n->line;
        mk->col[k] = n->col;
        if (!mk->file)
            mk->file = n->file;
    }
}

/* Cross-field checks of the workload against itself and the cluster: the
 * step model's one rule set (cs_step_rules), given where each key is, so
 * that a scenario the loader accepts is one `run` can simulate. */
static void check_workload(struct cs_bind *b, const struct cs_ynode *wl)
{
    const struct cs_workload *w = &b->s->workload;
    const struct cs_model_shape *m = &w->model;
    const struct cs_parallel *p = &w->par;
    if (p->tp <= 0 || p->pp <= 0 || p->dp <= 0 || p->cp <= 0 || m->layers <= 0 || m->heads <= 0 ||
        b->s->cluster.nodes <= 0 || b->s->cluster.gpus_per_node <= 0)
        return; /* an earlier error (a refused cluster.gpus_per_node once divided by zero here) */
    const struct cs_ynode *pn = node_or(wl, "parallelism", wl);
    const struct cs_ynode *mn = node_or(wl, "model", wl);
    const struct cs_ynode *pm = cs_ynode_map_get(wl, "parallelism");
    const struct cs_ynode *mm = cs_ynode_map_get(wl, "model");
    struct cs_step_marks mk;
    memset(&mk, 0, sizeof mk);
    mark(&mk, CS_STEP_KEY_PARALLELISM, pn);
    mark(&mk, CS_STEP_KEY_TP, node_or(pm, "tp", pn));
    mark(&mk, CS_STEP_KEY_PP, node_or(pm, "pp", pn));
    mark(&mk, CS_STEP_KEY_VP, node_or(pm, "vp", pn));
    mark(&mk, CS_STEP_KEY_CP, node_or(pm, "cp", pn));
    mark(&mk, CS_STEP_KEY_FSDP, node_or(pm, "fsdp", pn));
    mark(&mk, CS_STEP_KEY_MODEL, mn);
    mark(&mk, CS_STEP_KEY_KV_HEADS, node_or(mm, "kv_heads", mn));
    mark(&mk, CS_STEP_KEY_HIDDEN, node_or(mm, "hidden", mn));
    mark(&mk, CS_STEP_KEY_GLOBAL_BATCH, node_or(wl, "global_batch", wl));
    mark(&mk, CS_STEP_KEY_GPUS, node_or(wl, "gpus", wl));
    if (w->par.layout.stages > 0) {
        const struct cs_ynode *ln = node_or(pm, "pipeline_layout", pn);
        char err[256];
        if (p->account_for_embedding || p->account_for_loss)
            cs_cfg__error(b->d, ln,
                          "workload.parallelism.pipeline_layout: cannot be combined with "
                          "account_for_embedding_in_pipeline_split or "
                          "account_for_loss_in_pipeline_split (the layout places the embedding and "
                          "the loss itself)");
        else if (!cs_pipeline_layout_check(w, err, sizeof err))
            cs_cfg__error(b->d, ln, "workload.parallelism.pipeline_layout \"%s\": %s",
                          p->layout_text, err);
    }
    if (w->stack == CS_STACK_MEGATRON_DEEPSPEED) {
        /* what DeepSpeed's pipeline engine and Megatron-DeepSpeed can run
         * (microsoft/DeepSpeed runtime/pipe/engine.py; search.c keeps to
         * the same) */
        if (p->pp > 1 && p->fsdp != CS_FSDP_NONE && p->fsdp != CS_FSDP_ZERO1)
            cs_cfg__error(b->d, node_or(pm, "fsdp", pn),
                          "workload.parallelism.fsdp: %s with pp %d under stack megatron-deepspeed: "
                          "DeepSpeed's pipeline engine refuses ZeRO-2 and ZeRO-3 (\"ZeRO-2 and ZeRO-3 "
                          "are incompatible with pipeline parallelism\"); expected none or zero1, "
                          "or pp 1",
                          cs_fsdp_names[p->fsdp], p->pp);
        if (p->vp > 1)
            cs_cfg__error(b->d, node_or(pm, "vp", pn),
                          "workload.parallelism.vp: %d under stack megatron-deepspeed: DeepSpeed's "
                          "pipeline engine has no interleaved schedule; expected 1",
                          p->vp);
        if (p->cp > 1)
            cs_cfg__error(b->d, node_or(pm, "cp", pn),
                          "workload.parallelism.cp: %d under stack megatron-deepspeed: "
                          "Megatron-DeepSpeed has no ring context parallelism (its "
                          "DeepSpeed-Ulysses sequence parallelism is not modelled); expected 1",
                          p->cp);
    }
    if (!b->no_step_rules)
        (void)cs_step_rules(&b->s->cluster, w, false, &mk, b->d);
    /* ZeRO-Offload moves gradients and weights over the GPU's host link;
     * without a PCIe generation (GB200's NVLink-C2C) its rate is unknown. */
    if (p->optimizer_offload && !(cs_pcie_x16_bytes_per_s(b->s->cluster.gpu.pcie_gen) > 0))
        cs_cfg__error(b->d, node_or(pm, "optimizer_offload", pn),
                      "workload.parallelism.optimizer_offload: the offload copies run over the GPU's "
                      "host link, and %s has no PCIe generation in the catalog (set "
                      "cluster.gpu_overrides.pcie_gen)",
                      b->s->cluster.gpu.name);
    /* A precision the GPU has no tensor-core peak for (null in the catalog:
     * fp8 before Hopper, mxfp8/nvfp4 before Blackwell) cannot run. */
    const struct cs_gpu_spec *g = &b->s->cluster.gpu;
    if ((unsigned)w->precision < CS_PREC_COUNT && g->name[0] &&
        !(g->peak_flops[w->precision] > 0))
        cs_cfg__error(b->d, node_or(wl, "precision", wl),
                      "workload.precision: %s has no %s peak in the catalog (%s); expected one of "
                      "the precisions its tensor cores run, or set cluster.gpu_overrides.%s",
                      g->name, cs_precision_name(w->precision),
                      cs_precision_block_scaled(w->precision)
                          ? "block-scaled MXFP8/NVFP4 tensor cores arrive with Blackwell"
                          : "not supported by this GPU",
                      cs_precision_name(w->precision));
    /* Megatron-Core quantizes the stored weights only under the matching
     * recipe: fp8_param_gather with fp8 or mxfp8, fp4_param_gather with
     * nvfp4 (cs_workload_quantized_params) */
    if (w->fp8_param_gather && w->precision != CS_PREC_FP8 && w->precision != CS_PREC_MXFP8)
        cs_cfg__error(b->d, node_or(wl, "fp8_param_gather", wl),
                      "workload.fp8_param_gather: the weights are stored in FP8 only under "
                      "precision fp8 or mxfp8 (this workload trains in %s); expected false or "
                      "one of those precisions",
                      cs_precision_name(w->precision));
    /* Layers and modules kept at another precision (Megatron-Core's
     * first_last_layers_bf16 and quant_recipe) exist only under a
     * quantized recipe, on modules the model has, at precisions the GPU
     * runs. */
    if ((w->bf16_layers_start > 0 || w->bf16_layers_end > 0) && !cs_precision_quantized(w->precision))
        cs_cfg__error(b->d, node_or(wl, w->bf16_layers_end > 0 ? "bf16_layers_at_end" : "bf16_layers_at_start", wl),
                      "workload.bf16_layers_at_%s: keeps layers in BF16 under a quantized recipe "
                      "(fp8, mxfp8 or nvfp4; this workload trains in %s); expected 0 or one of "
                      "those precisions",
                      w->bf16_layers_end > 0 ? "end" : "start", cs_precision_name(w->precision));
    else if (w->bf16_layers_start + w->bf16_layers_end > m->layers)
        cs_cfg__error(b->d, node_or(wl, "bf16_layers_at_end", wl),
                      "workload.bf16_layers_at_start + bf16_layers_at_end: %d + %d layers in BF16, "
                      "and the model has %d; expected at most %d in all",
                      w->bf16_layers_start, w->bf16_layers_end, m->layers, m->layers);
    else if ((w->bf16_layers_start > 0 || w->bf16_layers_end > 0) && !(g->peak_flops[CS_PREC_BF16] > 0))
        cs_cfg__error(b->d, node_or(wl, "bf16_layers_at_end", wl),
                      "workload.bf16_layers_at_end: %s has no bf16 peak in the catalog; expected "
                      "0, or a bf16 figure in cluster.gpu_overrides.bf16",
                      g->name);
    const struct cs_ynode *mpn = cs_ynode_map_get(wl, "module_precision");
    int blocks[CS_BLOCK_COUNT];
    cs_model_slots_in(m, 0, m->layers, blocks);
    bool mamba = blocks[CS_BLOCK_MAMBA] > 0;
    for (int q = 0; mpn && q < CS_QMOD_COUNT; q++) {
        if (w->module_precision[q] == 0)
            continue;
        enum cs_precision mq = (enum cs_precision)(w->module_precision[q] - 1);
        const struct cs_ynode *at = node_or(mpn, cs_quant_module_names[q], mpn);
        const char *lack = NULL;
        if ((q == CS_QMOD_EXPERTS || q == CS_QMOD_SHARED_EXPERTS || q == CS_QMOD_MOE_LATENT_PROJ) &&
            !cs_model_is_moe(m))
            lack = "routed experts";
        else if (q == CS_QMOD_SHARED_EXPERTS && m->moe.shared_experts <= 0)
            lack = "shared experts";
        else if (q == CS_QMOD_MOE_LATENT_PROJ && m->moe.latent <= 0)
            lack = "a latent MoE (model.moe.latent)";
        else if ((q == CS_QMOD_MAMBA_IN_PROJ || q == CS_QMOD_MAMBA_OUT_PROJ) && !mamba)
            lack = "Mamba-2 blocks";
        else if (q == CS_QMOD_MTP && m->mtp_layers <= 0)
            lack = "multi-token-prediction modules (model.mtp_layers)";
        if (!cs_precision_quantized(w->precision))
            cs_cfg__error(b->d, at,
                          "workload.module_precision.%s: sets a module's precision inside quantized "
                          "layers, and this workload trains in %s; expected precision fp8, mxfp8 "
                          "or nvfp4, or no module_precision",
                          cs_quant_module_names[q], cs_precision_name(w->precision));
        else if (lack)
            cs_cfg__error(b->d, at, "workload.module_precision.%s: the model has no %s; expected "
                                    "a module it has",
                          cs_quant_module_names[q], lack);
        else if (!(g->peak_flops[mq] > 0))
            cs_cfg__error(b->d, at,
                          "workload.module_precision.%s: %s has no %s peak in the catalog; "
                          "expected a precision its tensor cores run",
                          cs_quant_module_names[q], g->name, cs_precision_name(mq));
        else if (mq == CS_PREC_FP32 || mq == CS_PREC_TF32)
            cs_cfg__error(b->d, at,
                          "workload.module_precision.%s: %s; expected bf16, fp16, fp8, mxfp8 or nvfp4",
                          cs_quant_module_names[q], cs_precision_name(mq));
    }
    if (w->fp8_attention && !cs_precision_quantized(w->precision))
        cs_cfg__error(b->d, node_or(wl, "fp8_attention", wl),
                      "workload.fp8_attention: FP8 attention runs only under a quantized recipe "
                      "(fp8, mxfp8 or nvfp4; this workload trains in %s); expected false or one of "
                      "those precisions",
                      cs_precision_name(w->precision));
    if (w->cuda_graph_scope != CS_GRAPH_SCOPE_LAYER && !w->cuda_graphs)
        cs_cfg__error(b->d, node_or(wl, "cuda_graph_scope", wl),
                      "workload.cuda_graph_scope: %s says what the CUDA graphs hold, and "
                      "workload.cuda_graphs is false; expected cuda_graphs: true, or no scope",
                      cs_graph_scope_names[w->cuda_graph_scope]);
    else if (cs_graph_scope_per_module(w->cuda_graph_scope) && w->stack != CS_STACK_MCORE_2024 &&
             w->stack != CS_STACK_CUSTOM)
        cs_cfg__error(b->d, node_or(wl, "cuda_graph_scope", wl),
                      "workload.cuda_graph_scope: %s is Transformer Engine's scope in "
                      "Megatron-Core (stack mcore, or custom), not %s's; expected layer or iteration",
                      cs_graph_scope_names[w->cuda_graph_scope], cs_stack_names[w->stack]);
    else if (cs_graph_scope_has_mamba(w->cuda_graph_scope) && !cs_model_is_hybrid(&w->model))
        cs_cfg__error(b->d, node_or(wl, "cuda_graph_scope", wl),
                      "workload.cuda_graph_scope: %s captures Mamba-2 mixers, and this model has "
                      "none (no model.hybrid_pattern); expected layer, attn or iteration",
                      cs_graph_scope_names[w->cuda_graph_scope]);
    else if (w->cuda_graph_scope == CS_GRAPH_SCOPE_MOE_ROUTER && !cs_model_is_moe(&w->model))
        cs_cfg__error(b->d, node_or(wl, "cuda_graph_scope", wl),
                      "workload.cuda_graph_scope: moe_router captures an MoE layer's router and "
                      "dispatch preprocessing, and this model has no experts; expected layer, attn "
                      "or iteration");
    if (w->fused_grouped_mlp) {
        /* Megatron-Core TEGroupedMLP._is_fused_impl_supported (core_v0.18):
         * no expert tensor parallelism, no expert_fc1/moe_act offload; TE's
         * CuTe DSL kernel (ops/fused/forward_grouped_mlp.py, TE 2.16): MXFP8
         * on sm_100 and later */
        const char *why = NULL;
        if (!cs_model_is_moe(&w->model))
            why = "it fuses the experts' MLP, and this model has no experts";
        else if (w->precision != CS_PREC_MXFP8 || !cs_gpu_block_scaled(g))
            why = "Transformer Engine's fused grouped MLP kernel runs MXFP8 on Blackwell or later "
                  "only";
        else if (w->par.etp > 1)
            why = "Megatron-Core fuses the experts' MLP only without expert tensor parallelism "
                  "(etp 1)";
        else if (w->offload_modules)
            why = "Megatron-Core's fused expert MLP does not take offload_modules";
        if (why)
            cs_cfg__error(b->d, node_or(wl, "fused_grouped_mlp", wl),
                          "workload.fused_grouped_mlp: %s; expected false", why);
    }
    if (w->fp8_recipe == 1 && w->precision != CS_PREC_FP8)
        cs_cfg__error(b->d, node_or(wl, "fp8_recipe", wl),
                      "workload.fp8_recipe: blockwise scales FP8 tensors, and the precision is %s; "
                      "expected tensor, or precision: fp8",
                      cs_precision_names[w->precision]);
    if (w->torch_compile != 0 && w->stack != CS_STACK_TORCHTITAN)
        cs_cfg__error(b->d, node_or(wl, "torch_compile", wl),
                      "workload.torch_compile: %s applies to stack torchtitan (the other stacks' "
                      "kernels are set by the stack); expected auto",
                      torch_compile_names[w->torch_compile]);
    if (w->norm_kernel == 2 && !cs_workload_torch_eager(w))
        cs_cfg__error(b->d, node_or(wl, "norm_kernel", wl),
                      "workload.norm_kernel: eager norms are torchtitan's without torch.compile "
                      "(compiled blocks fuse them); expected fused or auto, or set stack: torchtitan "
                      "and torch_compile: off");
    if (w->rope_fusion != 0 && w->stack != CS_STACK_MCORE_2024 && w->stack != CS_STACK_CUSTOM)
        cs_cfg__error(b->d, node_or(wl, "rope_fusion", wl),
                      "workload.rope_fusion: %s sets Megatron-Core's apply_rope_fusion (stacks mcore "
                      "and custom), and the stack is %s; expected auto",
                      fused_attention_names[w->rope_fusion], cs_stack_names[w->stack]);
    else if (w->rope_fusion == 2 && w->model.activation == CS_ACT_GELU)
        cs_cfg__error(b->d, node_or(wl, "rope_fusion", wl),
                      "workload.rope_fusion: off costs the unfused rotary embedding, and this model "
                      "(activation gelu) has learned positions; expected auto or on");
    if (w->fp4_param_gather && w->precision != CS_PREC_NVFP4)
        cs_cfg__error(b->d, node_or(wl, "fp4_param_gather", wl),
                      "workload.fp4_param_gather: the weights are stored in FP4 only under "
                      "precision nvfp4 (this workload trains in %s); expected false or nvfp4",
                      cs_precision_name(w->precision));
}

static void bind_workload(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_workload *w = &b->s->workload;
    const struct cs_ynode *wv = cs_ynode_map_get(root, "workload");
    const struct cs_ynode *wl = section(b, wv, "workload");
    if (!wl)
        return;
    b->s->has_workload = true;
    size_t errors_before = cs_diags_errors(b->d);
    bind_model(b, wl, wv);
    walk(b, workload_fields, NELEM(workload_fields), wl, wv, "workload", w, NULL);
    const struct cs_ynode *pm = cs_ynode_map_get(wl, "parallelism");
    if (w->par.layout_text[0]) {
        /* Megatron-Core's pipeline layout: parsed here, checked against the
         * model and the degrees in check_workload; vp follows from it when
         * the file does not give one (Megatron derives it so) */
        const struct cs_ynode *ln = cs_ynode_map_get(pm, "pipeline_layout");
        char err[256];
        if (!cs_pipeline_layout_parse(w->par.layout_text, &w->par.layout, err, sizeof err)) {
            cs_cfg__error(b->d, ln ? ln : pm,
                          "workload.parallelism.pipeline_layout: %s (got \"%s\")", err,
                          w->par.layout_text);
            return;
        }
        if (!cs_ynode_map_get(pm, "vp") && w->par.pp > 0 && w->par.layout.stages % w->par.pp == 0) {
            w->par.vp = w->par.layout.stages / w->par.pp;
            char buf[32];
            snprintf(buf, sizeof buf, "%d", w->par.vp);
            prov_set(&b->prov, "workload.parallelism.vp", buf,
                     "default (= the pipeline_layout's stages / pp)");
        }
    }
    if (!cs_ynode_map_get(pm, "dp") && w->par.tp > 0 && w->par.pp > 0 && w->par.cp > 0) {
        long gpus = cs_job_gpus(&b->s->cluster, w);
        long per = (long)w->par.tp * w->par.pp * w->par.cp;
        if (gpus > 0 && gpus % per == 0) {
            w->par.dp = (int)(gpus / per);
            char buf[32];
            snprintf(buf, sizeof buf, "%d", w->par.dp);
            prov_set(&b->prov, "workload.parallelism.dp", buf, "default (= GPUs / (tp*pp*cp))");
        } else {
            cs_cfg__error(b->d, pm ? pm : wv,
                          "workload.parallelism: tp*pp*cp = %d*%d*%d = %ld does not divide the "
                          "%s %ld GPUs, so dp cannot be derived",
                          w->par.tp, w->par.pp, w->par.cp, per,
                          w->gpus > 0 ? "job's (workload.gpus)" : "cluster's", gpus);
            return;
        }
    }
    /* A stack preset fills the overlap and fusion keys the file leaves out
     * (models/workload.c, cs_stack_preset). */
    struct cs_stack_preset sp;
    if (cs_stack_preset(w->stack, &sp)) {
        char origin[64];
        snprintf(origin, sizeof origin, "stack %s", cs_stack_names[w->stack]);
        if (!cs_ynode_map_get(wl, "tp_comm_overlap")) {
            w->tp_comm_overlap = sp.tp_comm_overlap;
            char buf[32];
            snprintf(buf, sizeof buf, "%g", sp.tp_comm_overlap);
            prov_set(&b->prov, "workload.tp_comm_overlap", buf, origin);
        }
        if (!cs_ynode_map_get(wl, "dp_overlap")) {
            w->dp_overlap = sp.dp_overlap;
            prov_set(&b->prov, "workload.dp_overlap", sp.dp_overlap ? "true" : "false", origin);
        }
        if (!cs_ynode_map_get(wl, "fused_attention")) {
            w->fused_attention = sp.fused_attention ? 1 : 2;
            prov_set(&b->prov, "workload.fused_attention", sp.fused_attention ? "on" : "off",
                     origin);
        }
    }
    {
        /* workload.model.moe.dispatcher: the file's, else the stack's */
        const struct cs_ynode *mm = cs_ynode_map_get(wl, "model");
        const struct cs_ynode *mo = mm && mm->kind == CS_YNODE_MAP ? cs_ynode_map_get(mm, "moe") : NULL;
        if (!(mo && mo->kind == CS_YNODE_MAP && cs_ynode_map_get(mo, "dispatcher"))) {
            struct cs_stack_preset q;
            bool have = cs_stack_preset(w->stack, &q);
            w->model.moe.dispatcher = have ? q.moe_dispatcher : CS_MOE_DISPATCH_ALLTOALL;
            prov_set(&b->prov, "workload.model.moe.dispatcher",
                     cs_moe_dispatcher_names[w->model.moe.dispatcher],
                     have ? "stack preset" : "default");
        }
    }
    const struct cs_ynode *rl = cs_ynode_map_get(wl, "recompute_layers");
    if (rl && w->recompute_layers > 0 && w->recompute != CS_RECOMPUTE_FULL) {
        cs_cfg__error(b->d, rl,
                      "workload.recompute_layers: counts fully recomputed layers, so it needs "
                      "recompute: full (got recompute: %s)",
                      cs_recompute_name(w->recompute));
        return;
    }
    /* workload.recompute_modules and workload.offload_modules: lists of
     * Megatron-Core's module names */
    const struct cs_ynode *rm = cs_ynode_map_get(wl, "recompute_modules");
    if (rm && !cs_ynode_is_null(rm)) {
        if (!bind_module_list(b, rm, "workload.recompute_modules", cs_recompute_module_names,
                              &w->recompute_modules))
            return;
        if (w->recompute != CS_RECOMPUTE_SELECTIVE) {
            cs_cfg__error(b->d, rm,
                          "workload.recompute_modules: names what selective recomputation rebuilds, so "
                          "it needs recompute: selective (got recompute: %s)",
                          cs_recompute_name(w->recompute));
            return;
        }
    }
    const struct cs_ynode *om = cs_ynode_map_get(wl, "offload_modules");
    if (om && !cs_ynode_is_null(om)) {
        if (!bind_module_list(b, om, "workload.offload_modules", cs_offload_module_names,
                              &w->offload_modules))
            return;
        if (w->recompute == CS_RECOMPUTE_FULL) {
            cs_cfg__error(b->d, om,
                          "workload.offload_modules: full recomputation keeps only each layer's "
                          "input, so there is nothing to offload (recompute: full)");
            return;
        }
    }
    const struct cs_ynode *mp = cs_ynode_map_get(wl, "module_precision");
    if (mp && !cs_ynode_is_null(mp) && !bind_module_precision(b, mp, w))
        return;
    if (cs_diags_errors(b->d) == errors_before)
        check_workload(b, wl);
}

static void bind_failures(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_failures_cfg *f = &b->s->failures;
    const struct cs_ynode *fv = cs_ynode_map_get(root, "failures");
    const struct cs_ynode *fm = section(b, fv, "failures");
    f->enabled = fm != NULL;
    walk(b, failures_fields, NELEM(failures_fields), fm, fv ? fv : root, "failures", f, NULL);
    f->maint_interval_s = f->strag_mtbf_s = NAN;
    f->maint_duration_s = 3600;
    f->maint_drain = true;
    f->maint_kind = CS_MAINT_SCHEDULED;
    f->maint_nodes = 1;
    f->strag_slowdown = 0.3;
    f->strag_detect_s = 7200;
    const struct cs_ynode *mv = cs_ynode_map_get(fm, "maintenance");
    const struct cs_ynode *mm = mv ? section(b, mv, "failures.maintenance") : NULL;
    if (mm) {
        walk(b, maint_fields, NELEM(maint_fields), mm, mm, "failures.maintenance", f, NULL);
        /* drain (the old key) maps onto kind: true = scheduled, false =
         * restart-required; both given must agree. */
        const struct cs_ynode *kn = cs_ynode_map_get(mm, "kind"), *dn = cs_ynode_map_get(mm, "drain");
        if (dn && !kn) {
            f->maint_kind = f->maint_drain ? CS_MAINT_SCHEDULED : CS_MAINT_RESTART;
            prov_set(&b->prov, "failures.maintenance.kind", maint_kind_names[f->maint_kind],
                     "failures.maintenance.drain (the old form of kind)");
        }
        else if (dn && kn && f->maint_drain != (f->maint_kind != CS_MAINT_RESTART))
            cs_cfg__error(b->d, dn,
                          "failures.maintenance.drain: %s contradicts kind: %s (drain is the old form of "
                          "kind: true = scheduled or drained, false = restart-required; give one)",
                          f->maint_drain ? "true" : "false", maint_kind_names[f->maint_kind]);
        f->maint_drain = f->maint_kind != CS_MAINT_RESTART;
        const struct cs_ynode *nn = cs_ynode_map_get(mm, "nodes");
        if (nn && f->maint_kind != CS_MAINT_DRAINED)
            cs_cfg__error(b->d, nn,
                          "failures.maintenance.nodes: only a drained maintenance takes nodes out (kind: "
                          "%s stops the whole job)",
                          maint_kind_names[f->maint_kind]);
    }
    if (fm) {
        const struct cs_ynode *spr = cs_ynode_map_get(fm, "spares_per_rack");
        const struct cs_ynode *sp = cs_ynode_map_get(fm, "spares");
        if (spr && sp && f->spares_per_rack > 0)
            cs_cfg__error(b->d, spr,
                          "failures.spares_per_rack: give spares (a count) or spares_per_rack (per rack of "
                          "the job, placed spread), not both");
        else if (spr && f->spares_per_rack > 0) {
            const struct cs_ynode *pl = cs_ynode_map_get(fm, "spares_placement");
            if (pl && f->spares_placement != CS_SPARES_SPREAD)
                cs_cfg__error(b->d, pl,
                              "failures.spares_placement: spares_per_rack puts the spares in the job's "
                              "racks (spread), got separate");
            f->spares_placement = CS_SPARES_SPREAD;
        } else if (f->spares_placement == CS_SPARES_SPREAD && f->spares < 0)
            cs_cfg__error(b->d, node_or(fm, "spares_placement", fm),
                          "failures.spares_placement: spread places a pool of spares, but spares is -1 "
                          "(unlimited, an instant swap): give failures.spares or spares_per_rack");
    }
    const struct cs_ynode *sv = cs_ynode_map_get(fm, "stragglers");
    const struct cs_ynode *sm = sv ? section(b, sv, "failures.stragglers") : NULL;
    if (sm)
        walk(b, strag_fields, NELEM(strag_fields), sm, sm, "failures.stragglers", f, NULL);
    const struct cs_ynode *cv = cs_ynode_map_get(fm, "components");
    if (!cv || cs_ynode_is_null(cv))
        return;
    if (cv->kind != CS_YNODE_SEQ) {
        cs_cfg__error(b->d, cv, "failures.components: expected a sequence, got %s",
                      cs_ynode_describe(cv));
        return;
    }
    if (cv->n > CS_MAX_FAIL_COMPONENTS) {
        cs_cfg__error(b->d, cv, "failures.components: expected at most %d components, got %zu",
                      CS_MAX_FAIL_COMPONENTS, cv->n);
        return;
    }
    f->n_components = (int)cv->n;
    for (size_t i = 0; i < cv->n; i++) {
        char path[64];
        snprintf(path, sizeof path, "failures.components[%zu]", i);
        const struct cs_ynode *it = cv->items[i];
        if (it->kind != CS_YNODE_MAP) {
            cs_cfg__error(b->d, it, "%s: expected a mapping {name, scope, mtbf, ...}, got %s",
                          path, cs_ynode_describe(it));
            continue;
        }
        struct cs_fail_component *c = &f->components[i];
        walk(b, component_fields, NELEM(component_fields), it, it, path, c, NULL);
        const struct cs_ynode *sh = cs_ynode_map_get(it, "shape");
        if (sh && c->dist == CS_DIST_EXPONENTIAL && c->shape != 1.0)
            cs_cfg__error(b->d, sh,
                          "%s.shape: only a weibull distribution has a shape (got %g with "
                          "exponential)",
                          path, c->shape);
    }
}

/* The storage tier named `want`, or the first of kind `want`. */
static const struct cs_storage_spec *find_tier(const struct cs_storage_cfg *st, const char *want)
{
    for (int i = 0; i < st->n_tiers; i++)
        if (!strcmp(st->tiers[i].name, want))
            return &st->tiers[i];
    static const char *const kinds[] = {"nvme", "pfs", "object"};
    for (int k = 0; k < 3; k++) {
        if (strcmp(want, kinds[k]) != 0)
            continue;
        for (int i = 0; i < st->n_tiers; i++)
            if ((int)st->tiers[i].kind == k)
                return &st->tiers[i];
    }
    return NULL;
}

static void bind_checkpoint(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_checkpoint_cfg *c = &b->s->checkpoint;
    const struct cs_ynode *cv = cs_ynode_map_get(root, "checkpoint");
    const struct cs_ynode *cm = section(b, cv, "checkpoint");
    c->enabled = cm != NULL;
    walk(b, checkpoint_fields, NELEM(checkpoint_fields), cm, cv ? cv : root, "checkpoint", c, NULL);
    const struct cs_ynode *iv = cs_ynode_map_get(cm, "interval");
    if (!iv || (iv->kind == CS_YNODE_SCALAR && !strcmp(iv->scalar, "optimal"))) {
        c->interval_optimal = true;
        c->interval_s = NAN;
        if (iv)
            prov_node(b, "checkpoint.interval", iv);
        else
            prov_set(&b->prov, "checkpoint.interval", "optimal", "default");
    } else if (cs_cfg__set(&interval_field, iv, "checkpoint.interval", c, b->d)) {
        c->interval_optimal = false;
        prov_node(b, "checkpoint.interval", iv);
    }
    const struct cs_storage_spec *tier = find_tier(&b->s->cluster.storage, c->tier);
    if (tier) {
        if (strcmp(tier->name, c->tier) != 0) {
            const struct cs_prov_entry *pe = cs_provenance_find(&b->prov, "checkpoint.tier");
            char *origin = cs_xasprintf("%s (first %s tier)", pe ? pe->origin : "default",
                                        c->tier);
            snprintf(c->tier, sizeof c->tier, "%s", tier->name);
            prov_set(&b->prov, "checkpoint.tier", c->tier, origin);
            free(origin);
        }
    } else if (c->enabled) {
        cs_cfg__error(b->d, node_or(cm, "tier", cv),
                      "checkpoint.tier: no storage tier or tier kind \"%s\" in cluster.storage "
                      "(expected a tier name, or nvme, pfs or object)",
                      c->tier);
    } else {
        c->tier[0] = '\0';
    }
}

static void bind_claim(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_claim_cfg *c = &b->s->claim;
    const struct cs_ynode *cv = cs_ynode_map_get(root, "claim");
    const struct cs_ynode *cm = section(b, cv, "claim");
    c->enabled = cm != NULL;
    c->value = c->ratio = c->at_least = c->at_most = c->ratio_at_least = c->ratio_at_most = NAN;
    if (!cm)
        return;
    walk(b, claim_fields, NELEM(claim_fields), cm, cv, "claim", c, NULL);
    if (!c->enabled)
        return;
    bool val = !isnan(c->value) || !isnan(c->at_least) || !isnan(c->at_most);
    bool rat = !isnan(c->ratio) || !isnan(c->ratio_at_least) || !isnan(c->ratio_at_most);
    if (!val && !rat)
        cs_cfg__error(b->d, cv, "claim: expected `value` or `ratio`, or a bound (`at_least`, `at_most`, "
                                "`ratio_at_least`, `ratio_at_most`): what the claim states");
    else if (val && rat)
        cs_cfg__error(b->d, cv, "claim: a value (`value`, `at_least`, `at_most`) and a ratio (`ratio`, "
                                "`ratio_at_least`, `ratio_at_most`) at once: state one");
    else if ((!isnan(c->value) && (!isnan(c->at_least) || !isnan(c->at_most))) ||
             (!isnan(c->ratio) && (!isnan(c->ratio_at_least) || !isnan(c->ratio_at_most))))
        cs_cfg__error(b->d, cv, "claim: a figure and a bound on it at once: state one");
}

static const struct cs_field unc_fields[] = {
    F_("samples", CS_FT_INT, struct cs_uncertainty_cfg, samples, .min = 1, .max = 1000000,
       .def = "200", .doc = "Monte Carlo samples (each: parameters drawn, one run replica)"),
    F_("step_error", CS_FT_NUM, struct cs_uncertainty_cfg, step_error, .min = 0, .max = 10,
       .flags = CS_F_NULLABLE, .doc = "the step time's mean relative error; default: the held-out "
                                      "validation error on this GPU (validate-refs)"),
    F_CUSTOM("mtbf", "[LOW, HIGH]: factor on every failure class's MTBF, log-uniform; default [0.5, 2]"),
    F_CUSTOM("restart", "[LOW, HIGH]: factor on detection + restart, uniform; default [0.5, 2]"),
};

/* [LOW, HIGH] with 0 < LOW <= HIGH. */
static void bind_factor_range(struct cs_bind *b, const struct cs_ynode *um, const char *key, double *lo,
                              double *hi)
{
    *lo = 0.5;
    *hi = 2.0;
    const struct cs_ynode *v = cs_ynode_map_get(um, key);
    if (!v)
        return;
    double x[2];
    bool ok = v->kind == CS_YNODE_SEQ && v->n == 2;
    for (size_t i = 0; ok && i < 2; i++)
        ok = v->items[i]->kind == CS_YNODE_SCALAR && cs_num_parse_double(v->items[i]->scalar, &x[i]) &&
             x[i] > 0 && x[i] < 1e6;
    if (!ok || x[0] > x[1]) {
        char shown[96];
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(b->d, v, "uncertainty.%s: expected [LOW, HIGH], two factors with 0 < LOW <= HIGH "
                      "(like [0.5, 2]), got %s", key, shown);
        return;
    }
    *lo = x[0];
    *hi = x[1];
}

static void bind_uncertainty(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_uncertainty_cfg *u = &b->s->uncertainty;
    const struct cs_ynode *uv = cs_ynode_map_get(root, "uncertainty");
    const struct cs_ynode *um = section(b, uv, "uncertainty");
    u->given = um != NULL;
    u->step_error = NAN;
    walk(b, unc_fields, NELEM(unc_fields), um, uv ? uv : root, "uncertainty", u, NULL);
    bind_factor_range(b, um, "mtbf", &u->mtbf_lo, &u->mtbf_hi);
    bind_factor_range(b, um, "restart", &u->restart_lo, &u->restart_hi);
}

static void bind_run(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_run_cfg *r = &b->s->run;
    const struct cs_ynode *rv = cs_ynode_map_get(root, "run");
    const struct cs_ynode *rm = section(b, rv, "run");
    r->enabled = rm != NULL;
    walk(b, run_fields, NELEM(run_fields), rm, rv ? rv : root, "run", r, NULL);
}

/* Fills the derived double `f` of base from catalog entry `name` of kind k
 * (field of the same key), recording the catalog origin. */
static void derive_double(struct cs_bind *b, const struct cs_field *f, void *base,
                          const char *path, enum cs_catalog_kind k, const char *name,
                          const void *spec)
{
    size_t nt;
    const struct cs_field *t = cs_catalog__table(k, &nt);
    const struct cs_field *src = cs_cfg__find(t, nt, f->key);
    assert(src && (src->type == CS_FT_QTY || src->type == CS_FT_NUM));
    double v = NAN;
    if (spec)
        memcpy(&v, (const char *)spec + src->offset, sizeof v);
    memcpy((char *)base + f->offset, &v, sizeof v);
    if (!spec) {
        prov_set(&b->prov, path, "null", "default (no catalog entry)");
        return;
    }
    char *origin = catalog_origin(b->cat, k, name, f->key);
    const struct cs_catalog_field *cf = cs_catalog_field(b->cat, k, name, f->key);
    if (cf)
        prov_set(&b->prov, path, cf->value, origin);
    else
        prov_field(b, path, f, base, origin);
    free(origin);
}

void cs_cfg_cost_accepted_keys(void (*fn)(void *ctx, const char *key), void *ctx)
{
    char k[96];
    for (size_t i = 0; i < NELEM(cost_fields); i++) {
        const struct cs_field *f = &cost_fields[i];
        if (f->type == CS_FT_SUB) {
            for (size_t j = 0; j < f->nsub; j++) {
                snprintf(k, sizeof k, "cost.%s.%s", f->key, f->sub[j].key);
                fn(ctx, k);
            }
            continue;
        }
        if (!strcmp(f->key, "hybrid"))
            continue; /* its keys come from cfg_cost.c below */
        snprintf(k, sizeof k, "cost.%s", f->key);
        fn(ctx, k);
    }
    cs_cfg__cost_ext_keys(fn, ctx);
}

/* Provenance of the cost keys config/cfg_cost.c resolves: the node that
 * set each, else the default with its source (docs/cost.md, "Defaults and
 * their sources"), so `validate` and the TCO's assumptions list them. */
static void prov_cost_ext(struct cs_bind *b, const struct cs_ynode *cm)
{
    if (b->prov.cap == CS__PROV_OFF)
        return;
    const struct cs_cost_ext *x = &b->s->cost.ext;
    char val[96];
    const struct cs_ynode *v;
    if ((v = cs_ynode_map_get(cm, "staff_per_year")))
        prov_node(b, "cost.staff_per_year", v);
    else {
        snprintf(val, sizeof val, "$%.0f", x->staff_usd_per_year);
        char *o = cs_xasprintf("default (%d servers / %g servers per FTE x $%.0f per FTE-year: one "
                               "systems FTE per 250 servers, Roskies & Zacharia, CTWatch Quarterly "
                               "2(2) 2006; BLS OEWS 15-1244 mean wage May 2019 $88,410 x 1.42 "
                               "benefits, BLS ECEC Sep 2024; estimate)",
                               b->s->cluster.nodes, x->servers_per_admin, x->staff_usd_per_admin_year);
        prov_set(&b->prov, "cost.staff_per_year", val, o);
        free(o);
    }
    if ((v = cs_ynode_map_get(cm, "cost_of_capital")))
        prov_node(b, "cost.cost_of_capital", v);
    else {
        snprintf(val, sizeof val, "%g", x->cost_of_capital);
        prov_set(&b->prov, "cost.cost_of_capital", val,
                 "default (an estimate of a US company's weighted average cost of capital; "
                 "Damodaran's industry WACC tables put technology industries at about 6-10%)");
    }
    const struct cs_ynode *hv = cs_ynode_map_get(cm, "hybrid");
    const struct cs_ynode *dv = hv && hv->kind == CS_YNODE_MAP ? cs_ynode_map_get(hv, "demand") : NULL;
    if (dv) {
        snprintf(val, sizeof val, "%d periods", x->n_demand);
        char o[512];
        snprintf(o, sizeof o, "%s:%d:%d", dv->file, dv->line, dv->col);
        prov_set(&b->prov, "cost.hybrid.demand", val, o);
    } else {
        prov_set(&b->prov, "cost.hybrid.demand", "bursts",
                 "default (no profile: the whole cluster busy cost.utilization of the time, idle "
                 "otherwise, so the cheapest hybrid is all owned or all burst; give a profile)");
    }
    const struct cs_ynode *clv = cs_ynode_map_get(cm, "cloud");
    const struct cs_ynode *si = clv && clv->kind == CS_YNODE_MAP ? cs_ynode_map_get(clv, "spot_interruptions") : NULL;
    if (si)
        prov_node(b, "cost.cloud.spot_interruptions", si);
    else
        prov_set(&b->prov, "cost.cloud.spot_interruptions", "0",
                 "default (no preemptions: spot priced as if never reclaimed; give the rate "
                 "per hour for your provider)");
    if ((v = cs_ynode_map_get(cm, "cooling")))
        prov_node(b, "cost.cooling", v);
    else
        prov_set(&b->prov, "cost.cooling", "air", "default");
}

static void bind_cost(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_cost_cfg *c = &b->s->cost;
    const struct cs_ynode *cv = cs_ynode_map_get(root, "cost");
    const struct cs_ynode *cm = section(b, cv, "cost");
    const struct cs_ynode *where = cv ? cv : root;
    c->enabled = cm != NULL;
    walk(b, cost_fields, NELEM(cost_fields), cm, where, "cost", c, NULL);

    /* Site defaults. */
    const struct cs_ynode *sv = cs_ynode_map_get(cm, "site");
    const char *site = "us-average";
    if (sv)
        site = want_name(b, sv, "cost.site");
    const struct cs_site_spec *ss = site ? cs_catalog_site(b->cat, site) : NULL;
    if (site && !ss)
        unknown_name(b, CS_CATALOG_SITE, sv ? sv : where, "cost.site", site);
    if (ss) {
        snprintf(c->site, sizeof c->site, "%s", ss->name);
        if (sv)
            prov_node(b, "cost.site", sv);
        else
            prov_set(&b->prov, "cost.site", ss->name, "default");
    }
    for (size_t i = 0; i < NELEM(cost_fields); i++) {
        const struct cs_field *f = &cost_fields[i];
        if (!(f->flags & CS_F_DERIVED) || cs_ynode_map_get(cm, f->key))
            continue;
        char *p = cs_cfg__path("cost", f->key);
        if (!strcmp(f->key, "gpu_price") || !strcmp(f->key, "server_price")) {
            double v = !strcmp(f->key, "gpu_price") ? b->s->cluster.gpu.price_usd
                                                    : b->s->cluster.gpu.server_price_usd;
            memcpy((char *)c + f->offset, &v, sizeof v);
            const char *gkey = !strcmp(f->key, "gpu_price") ? "cluster.gpu.price"
                                                            : "cluster.gpu.server_price";
            const struct cs_prov_entry *pe = cs_provenance_find(&b->prov, gkey);
            if (pe) {
                char *value = cs_xstrdup(pe->value), *origin = cs_xstrdup(pe->origin);
                prov_set(&b->prov, p, value, origin);
                free(value);
                free(origin);
            } else {
                prov_field(b, p, f, c, "default");
            }
        } else {
            derive_double(b, f, c, p, CS_CATALOG_SITE, site, ss);
        }
        free(p);
    }

    /* Cloud offer and prices (docs/cost.md, "Cloud offers"). */
    const struct cs_ynode *clv = cs_ynode_map_get(cm, "cloud");
    const struct cs_ynode *clm = clv && clv->kind == CS_YNODE_MAP ? clv : NULL;
    const struct cs_ynode *ov = cs_ynode_map_get(clm, "offer");
    const struct cs_cloud_offer *offer = NULL;
    const struct cs_cluster_cfg *cl = &b->s->cluster;
    if (ov) {
        const char *name = want_name(b, ov, "cost.cloud.offer");
        offer = name ? cs_catalog_cloud(b->cat, name) : NULL;
        if (name && !offer)
            unknown_name(b, CS_CATALOG_CLOUD, ov, "cost.cloud.offer", name);
        if (offer) {
            prov_node(b, "cost.cloud.offer", ov);
            char why[160];
            if (strcmp(offer->gpu, cl->gpu.name) != 0)
                cs_diag_add(b->d, CS_SEV_WARNING, ov->file, ov->line, ov->col,
                            "cost.cloud.offer: %s offers %s, but the cluster has %s", offer->name,
                            offer->gpu, cl->gpu.name);
            else if (cl->nodes > 0 && !cs_cost_offer_fits(offer, cl, why, sizeof why))
                cs_diag_add(b->d, CS_SEV_WARNING, ov->file, ov->line, ov->col,
                            "cost.cloud.offer: %s does not fit this cluster (%s); its prices are "
                            "used as named", offer->name, why);
        }
    }
    /* Count the GPU's offers and those that fit. */
    size_t n_off = cs_catalog_count(b->cat, CS_CATALOG_CLOUD);
    c->cloud_offers_total = c->cloud_offers_fitting = 0;
    for (size_t k = 0; k < n_off; k++) {
        struct cs_catalog_entry_info ei;
        const struct cs_cloud_offer *of =
            cs_catalog_entry(b->cat, CS_CATALOG_CLOUD, k, &ei) ? cs_catalog_cloud(b->cat, ei.name) : NULL;
        if (!of || strcmp(of->gpu, cl->gpu.name) != 0)
            continue;
        c->cloud_offers_total++;
        if (cs_cost_offer_fits(of, cl, NULL, 0))
            c->cloud_offers_fitting++;
    }
    static const size_t price_off[4] = {
        offsetof(struct cs_cloud_offer, on_demand_usd_per_gpu_h),
        offsetof(struct cs_cloud_offer, reserved_1y_usd_per_gpu_h),
        offsetof(struct cs_cloud_offer, reserved_3y_usd_per_gpu_h),
        offsetof(struct cs_cloud_offer, spot_usd_per_gpu_h)};
    int price_index = 0;
    for (size_t i = 0; i < NELEM(cloud_cost_fields); i++) {
        const struct cs_field *f = &cloud_cost_fields[i];
        if (!(f->flags & CS_F_DERIVED))
            continue;
        int pi = price_index++;
        assert(pi < 4);
        c->cloud_offer_for[pi][0] = 0;
        c->cloud_unfit_why[pi][0] = 0;
        if (cs_ynode_map_get(clm, f->key)) {
            c->cloud_offer_rule[pi] = CS_OFFER_SCENARIO;
            continue;
        }
        char *p = cs_cfg__path("cost.cloud", f->key);
        if (ov) { /* the named offer's price, or none */
            c->cloud_offer_rule[pi] = offer ? CS_OFFER_NAMED : CS_OFFER_NONE;
            derive_double(b, f, c, p, CS_CATALOG_CLOUD, offer ? offer->name : "", offer);
            if (offer)
                snprintf(c->cloud_offer_for[pi], CS_NAME_MAX, "%s", offer->name);
            free(p);
            continue;
        }
        /* The cheapest offer of the GPU that fits the cluster and states
         * this price; when none fits, the cheapest that states it (and a
         * warning); else no price. */
        const struct cs_cloud_offer *best = NULL, *best_unfit = NULL;
        for (size_t k = 0; k < n_off; k++) {
            struct cs_catalog_entry_info ei;
            const struct cs_cloud_offer *of =
                cs_catalog_entry(b->cat, CS_CATALOG_CLOUD, k, &ei) ? cs_catalog_cloud(b->cat, ei.name) : NULL;
            if (!of || strcmp(of->gpu, cl->gpu.name) != 0)
                continue;
            double v;
            memcpy(&v, (const char *)of + price_off[pi], sizeof v);
            if (!isfinite(v) || v <= 0)
                continue;
            const struct cs_cloud_offer **slot =
                cs_cost_offer_fits(of, cl, NULL, 0) ? &best : &best_unfit;
            double bv = NAN;
            if (*slot)
                memcpy(&bv, (const char *)*slot + price_off[pi], sizeof bv);
            if (!*slot || v < bv)
                *slot = of;
        }
        const struct cs_cloud_offer *use = best ? best : best_unfit;
        c->cloud_offer_rule[pi] = best ? CS_OFFER_CHEAPEST_FIT : best_unfit ? CS_OFFER_CHEAPEST_UNFIT
                                                                          : CS_OFFER_NONE;
        derive_double(b, f, c, p, CS_CATALOG_CLOUD, use ? use->name : "", use);
        if (use) {
            snprintf(c->cloud_offer_for[pi], CS_NAME_MAX, "%s", use->name);
            const struct cs_prov_entry *pe = cs_provenance_find(&b->prov, p);
            if (pe) {
                char *origin =
                    best ? cs_xasprintf("%s; the cheapest %s of the %d catalog offers for %s that fit "
                                        "the cluster",
                                        pe->origin, f->key, c->cloud_offers_fitting, cl->gpu.name)
                         : cs_xasprintf("%s; no catalog offer for %s that fits the cluster states a %s "
                                        "price: the cheapest offer that does not fit",
                                        pe->origin, cl->gpu.name, f->key);
                char *value = cs_xstrdup(pe->value);
                prov_set(&b->prov, p, value, origin);
                free(value);
                free(origin);
            }
            if (!best) /* the cost model warns (only commands that price say so) */
                cs_cost_offer_fits(use, cl, c->cloud_unfit_why[pi], sizeof c->cloud_unfit_why[pi]);
        }
        if (!offer && use && pi == CS_CLOUD_ON_DEMAND)
            offer = use;
        free(p);
    }
    if (!ov) {
        if (!offer)
            for (int pi = 0; pi < 4 && !offer; pi++)
                if (c->cloud_offer_for[pi][0])
                    offer = cs_catalog_cloud(b->cat, c->cloud_offer_for[pi]);
        prov_set(&b->prov, "cost.cloud.offer", offer ? offer->name : "",
                 offer ? "default (per price: the cheapest catalog offer for the GPU that fits the "
                         "cluster; this one sets the on-demand price)"
                       : "default (no catalog offer for the GPU)");
    }
    if (offer)
        snprintf(c->cloud_offer, sizeof c->cloud_offer, "%s", offer->name);
    cs_cfg__cost_ext(cm, where, b->s, b->d);
    prov_cost_ext(b, cm);
}

/* facility: after cost (it reads cost.cooling, server_power_multiplier
 * and pue). A rack over its cooling limit caps its GPUs' power, which the
 * step model turns into lower clocks (cs_gpu_clock_factor). */
static void bind_facility(struct cs_bind *b, const struct cs_ynode *root)
{
    struct cs_facility_cfg *f = &b->s->facility;
    const struct cs_ynode *fv = cs_ynode_map_get(root, "facility");
    const struct cs_ynode *fm = section(b, fv, "facility");
    f->given = fm != NULL;
    f->rack_power_w = f->node_power_w = NAN;
    walk(b, facility_fields, NELEM(facility_fields), fm, fv ? fv : root, "facility", f, NULL);
    if (!cs_ynode_map_get(fm, "cooling")) {
        const struct cs_cluster_cfg *cl = &b->s->cluster;
        bool rack_scale = cl->gpus_per_node > 0 && cl->gpu.scaleup_domain_gpus > cl->gpus_per_node;
        bool cost_cooling = cs_ynode_map_get(cs_ynode_map_get(root, "cost"), "cooling") != NULL;
        f->cooling = b->s->cost.ext.cooling == 1 ? CS_COOLING_LIQUID
                   : b->s->cost.ext.cooling == 2 ? CS_COOLING_REAR_DOOR
                   : rack_scale && !cost_cooling ? CS_COOLING_LIQUID : CS_COOLING_AIR;
        if (f->cooling == CS_COOLING_LIQUID && !cost_cooling)
            b->s->cost.ext.cooling = 1; /* a rack-scale system is liquid-cooled */
        prov_set(&b->prov, "facility.cooling", cs_cooling_name((enum cs_cooling)f->cooling),
                 cost_cooling ? "cost.cooling"
                 : rack_scale ? "default (a rack-scale NVLink system is liquid-cooled)" : "default");
    } else {
        /* The cost follows the facility's cooling. */
        b->s->cost.ext.cooling = f->cooling == CS_COOLING_LIQUID ? 1 : f->cooling == CS_COOLING_REAR_DOOR ? 2 : 0;
    }
    if (!(f->throttle_inlet_c > f->inlet_temp_c)) {
        cs_cfg__error(b->d, node_or(fm, "throttle_inlet_temp", fv ? fv : root),
                      "facility.throttle_inlet_temp: %g C is not above facility.inlet_temp %g C "
                      "(expected the inlet temperature at which the GPUs throttle, above the supply)",
                      f->throttle_inlet_c, f->inlet_temp_c);
        return;
    }
    /* PUE by cooling kind when cost.pue is not given (docs/cost.md). */
    if (!cs_ynode_map_get(cs_ynode_map_get(root, "cost"), "pue") && isfinite(b->s->cost.pue)) {
        double site = b->s->cost.pue;
        double p = cs_facility_default_pue((enum cs_cooling)f->cooling, site, f->ups_efficiency,
                                           f->distribution_loss);
        if (p != site) {
            b->s->cost.pue = p;
            char val[32], why[320];
            snprintf(val, sizeof val, "%.4g", p);
            snprintf(why, sizeof why,
                     "default (facility.cooling %s: 1 + UPS %.4g + distribution %.4g + cooling 0.04, "
                     "NREL ESIF liquid-cooled TTM PUE 1.04; the site %s's air figure is %.4g)",
                     cs_cooling_name((enum cs_cooling)f->cooling), 1 / f->ups_efficiency - 1,
                     f->distribution_loss, b->s->cost.site, site);
            prov_set(&b->prov, "cost.pue", val, why);
        }
    }
    if (b->s->cluster.nodes <= 0)
        return;
    cs_facility_evaluate(&b->s->cluster, f, b->s->cost.server_power_multiplier, b->s->cost.pue);
    const struct cs_facility_result *r = &f->res;
    b->s->failures.nodes_per_rack = r->nodes_per_rack > 0 ? r->nodes_per_rack : 1;
    if (f->racks > 0 && r->nodes_per_rack > r->nodes_per_rack_space && r->nodes_per_rack_space > 0) {
        cs_cfg__error(b->d, node_or(fm, "racks", fv ? fv : root),
                      "facility.racks: %d nodes do not fit in %d racks of %d U (%d nodes of %d U "
                      "per rack at most)",
                      b->s->cluster.nodes, f->racks, f->rack_units, r->nodes_per_rack_space,
                      f->node_units > 0 ? f->node_units : 8);
        return;
    }
    if (isfinite(r->gpu_power_cap_w)) {
        double tdp = b->s->cluster.gpu.tdp_w;
        const struct cs_ynode *at = fv ? fv : root;
        if (r->gpu_power_cap_w < 0.3 * tdp) {
            cs_cfg__error(b->d, at,
                          "facility: %d nodes per rack draw %.1f kW against a %.1f kW %s cooling "
                          "limit: the GPUs would be held at %.0f W, under 30%% of their %.0f W "
                          "TDP (add racks, or rear-door or liquid cooling)",
                          r->nodes_per_rack, r->kw_per_rack, r->rack_limit_w / 1000,
                          cs_cooling_name((enum cs_cooling)f->cooling), r->gpu_power_cap_w, tdp);
            return;
        }
        double old = b->s->cluster.gpu.power_limit_w;
        if (!(isfinite(old) && old > 0 && old <= r->gpu_power_cap_w)) {
            b->s->cluster.gpu.power_limit_w = r->gpu_power_cap_w;
            bool below = r->gpu_power_cap_w < CS_CLOCK_LAW_MIN_CAP * tdp;
            cs_diag_add(b->d, CS_SEV_WARNING, at->file, at->line, at->col,
                        "facility: %d nodes per rack draw %.1f kW against a %.1f kW %s cooling "
                        "limit: the GPUs throttle to %.0f W of %.0f W (clock x%.3f, step model)%s",
                        r->nodes_per_rack, r->kw_per_rack, r->rack_limit_w / 1000,
                        cs_cooling_name((enum cs_cooling)f->cooling), r->gpu_power_cap_w, tdp,
                        cbrt(r->gpu_power_cap_w / tdp),
                        below ? "; below 0.65 of TDP that clock is optimistic (measured throughput "
                                "20.6 points lower on average, validation/hardware/"
                                "power-cap-throughput.csv): read the step time as a lower bound"
                              : "");
            char val[32];
            snprintf(val, sizeof val, "%.0fW", r->gpu_power_cap_w);
            prov_set(&b->prov, "cluster.gpu.power_limit", val,
                     "facility (a rack over its cooling limit)");
        }
    }
}

/* schema_version and name. */
static void bind_top(struct cs_bind *b, const struct cs_ynode *root, const char *path)
{
    const struct cs_ynode *sv = cs_ynode_map_get(root, "schema_version");
    if (!sv) {
        cs_cfg__error(b->d, root,
                      "schema_version: missing required key (add `schema_version: %d` at the "
                      "top)",
                      CS_CFG_SCHEMA_VERSION);
    } else if (sv->kind != CS_YNODE_SCALAR || strcmp(sv->scalar, "1") != 0) {
        char shown[128];
        cs_cfg__show(sv, shown, sizeof shown);
        cs_cfg__error(b->d, sv, "schema_version: expected %d (the only version this clustersim "
                                "reads), got %s",
                      CS_CFG_SCHEMA_VERSION, shown);
    } else {
        b->s->schema_version = CS_CFG_SCHEMA_VERSION;
        prov_node(b, "schema_version", sv);
    }
    walk(b, top_fields, NELEM(top_fields), root, root, "", b->s, NULL);
    if (!cs_ynode_map_get(root, "name")) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        if (cs_path_is_stdin(path) || strcmp(path, "<stdin>") == 0)
            base = "stdin";
        size_t len = strlen(base);
        if (len > 5 && !strcmp(base + len - 5, ".yaml"))
            len -= 5;
        if (len >= sizeof b->s->name)
            len = sizeof b->s->name - 1;
        memcpy(b->s->name, base, len);
        b->s->name[len] = '\0';
        prov_set(&b->prov, "name", b->s->name, "default (the file name)");
    }
}

/* Tree-level entry point (declared in config/override.h): sweeps bind a
 * tree with overrides applied (config/override.c). */
cs_status cs_cfg__bind_root(const struct cs_ynode *root, const char *path, const cs_catalog *cat,
                            cs_diags *d, struct cs_scenario *out, struct cs_provenance *prov)
{
    return cs_cfg__bind_root_top(root, path, path, cat, d, out, prov);
}

static cs_status bind_root(const struct cs_ynode *root, const char *path, const char *top,
                           const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                           struct cs_provenance *prov, bool no_step_rules);

cs_status cs_cfg__bind_root_top(const struct cs_ynode *root, const char *path, const char *top,
                                const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                                struct cs_provenance *prov)
{
    return bind_root(root, path, top, cat, d, out, prov, false);
}

cs_status cs_cfg__bind_root_plan(const struct cs_ynode *root, const char *path, const cs_catalog *cat,
                                 cs_diags *d, struct cs_scenario *out)
{
    return bind_root(root, path, path, cat, d, out, NULL, true);
}

static cs_status bind_root(const struct cs_ynode *root, const char *path, const char *top,
                           const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                           struct cs_provenance *prov, bool no_step_rules)
{
    if (!root) {
        cs_diag_error(d, path, 1, 1,
                      "empty scenario: expected a mapping that starts with `schema_version: %d`",
                      CS_CFG_SCHEMA_VERSION);
        return CS_ECONFIG;
    }
    if (root->kind != CS_YNODE_MAP) {
        char shown[128];
        cs_cfg__show(root, shown, sizeof shown);
        cs_cfg__error(d, root, "expected a mapping at the top level, got %s", shown);
        return CS_ECONFIG;
    }
    size_t errors_before = cs_diags_errors(d);
    struct cs_scenario *s = cs_xcalloc(1, sizeof *s);
    struct cs_bind b = {.cat = cat, .d = d, .s = s, .no_step_rules = no_step_rules};
    cs_provenance_init(&b.prov);
    if (!prov)
        b.prov.cap = CS__PROV_OFF; /* record nothing; fini frees nothing */
    bind_top(&b, root, path);
    bind_cluster(&b, root);
    bind_workload(&b, root);
    bind_failures(&b, root);
    bind_checkpoint(&b, root);
    bind_run(&b, root);
    bind_uncertainty(&b, root);
    bind_claim(&b, root);
    bind_cost(&b, root);
    bind_facility(&b, root);
    cs_cfg__bind_run_extra(root, b.s, b.d); /* data:, tier checks (config/cfg_run.c) */
    cs_cfg__bind_scheduler(root, b.s, b.d); /* scheduler: (config/cfg_scheduler.c) */
    cs_cfg__bind_calibration(root, b.s, b.d); /* calibration: (config/cfg_calib.c) */
    cs_cfg__bind_neighbours(root, top, b.cat, b.s, b.d);  /* neighbours: (config/cfg_net.c) */
    if (cs_diags_errors(d) > errors_before) {
        cs_provenance_fini(&b.prov);
        free(s);
        return CS_ECONFIG;
    }
    s->file = cs_xstrdup(path);
    *out = *s;
    free(s);
    if (prov) {
        for (size_t i = 0; i < b.prov.n; i++) {
            if (prov->n == prov->cap) {
                prov->cap = prov->cap ? prov->cap * 2 : 64;
                prov->items = cs_xrealloc(prov->items, prov->cap, sizeof *prov->items);
            }
            prov->items[prov->n++] = b.prov.items[i];
        }
        free(b.prov.items);
    } else {
        cs_provenance_fini(&b.prov);
    }
    return CS_OK;
}

static cs_status bind_doc(cs_ydoc *doc, const char *path, const cs_catalog *cat, cs_diags *d,
                          struct cs_scenario *out, struct cs_provenance *prov)
{
    return cs_cfg__bind_root(cs_ydoc_root(doc), path, cat, d, out, prov);
}

cs_status cs_cfg_load_scenario(const char *path, const cs_catalog *cat, cs_diags *d,
                               struct cs_scenario *out, struct cs_provenance *prov)
{
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_file(path, d, &doc);
    if (st != CS_OK)
        return st;
    st = bind_doc(doc, path, cat, d, out, prov);
    cs_ydoc_destroy(doc);
    return st;
}

cs_status cs_cfg_load_scenario_buffer(const char *name, const char *buf, size_t len,
                                      const cs_catalog *cat, cs_diags *d,
                                      struct cs_scenario *out, struct cs_provenance *prov)
{
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_buffer(name, buf, len, d, &doc);
    if (st != CS_OK)
        return st;
    st = bind_doc(doc, name, cat, d, out, prov);
    cs_ydoc_destroy(doc);
    return st;
}

void cs_scenario_fini(struct cs_scenario *s)
{
    if (!s)
        return;
    free(s->file);
    memset(s, 0, sizeof *s);
}
