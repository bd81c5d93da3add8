/* config.h: scenario files (YAML) -> a validated, resolved struct
 * cs_scenario (config layer). Values come from the file, else from the
 * catalog, else from the documented defaults below; every resolved leaf is
 * recorded with its origin so `clustersim validate` can show it.
 *
 * Diagnostics read `FILE:LINE:COL: error: KEY.PATH: expected WHAT, got
 * FOUND`. Unknown keys are errors with a did-you-mean; all errors (capped by
 * the diagnostics list) are collected before the load fails.
 *
 * Keys and defaults (schema_version 1; "catalog" = from the named entry):
 *   schema_version   required, must be 1
 *   name             default: the file name without directory and .yaml
 *   seed             default 1 (0 .. 2^64-1)
 *   cluster:
 *     gpu            catalog GPU name; default H100-SXM5-80GB
 *     gpu_overrides  any GPU catalog field (bf16, hbm, hbm_bw, tdp, price, ...)
 *     nodes          1 .. 131072; default 1
 *     gpus_per_node  1 .. 72; default 8 (nodes x gpus_per_node <= 1048576)
 *     intra_node     catalog intra entry (nvswitch | nvlink-p2p | pcie);
 *                    default: the GPU's intra_default. nvswitch needs a GPU
 *                    whose scale-up domain covers the node. Its `bw: null`
 *                    resolves to the GPU's scaleup_bw (nvswitch, nvlink-p2p)
 *                    or the x16 line rate of the GPU's PCIe generation.
 *     intra_overrides any intra catalog field
 *     cpu_cores_per_node  default 112; host_memory default 2TiB (DGX H100)
 *     fabric:
 *       topology     single-switch | fat-tree | spine-leaf | rail-optimized; default fat-tree
 *       link         catalog link name; default ib-ndr
 *       link_overrides  any link catalog field
 *       nics_per_node   0 .. 64 (at least 1 when nodes > 1); default gpus_per_node
 *       oversubscription 1 .. 64 (downlink:uplink); default 1
 *       in_network_reduction  default false
 *       tiers        0 (smallest that fits) .. 3; default 0
 *     storage        a sequence of at most 4 tiers, each a catalog storage
 *                    name or {name: NAME, <storage fields>}; default [nvme-gen4]
 *   workload:        optional (has_workload); when present:
 *     model:         `preset: NAME` (cs_workload_preset) and/or explicit keys;
 *                    explicit keys override the preset. Without a preset:
 *                    layers, hidden, heads required; kv_heads default heads;
 *                    ffn_hidden default 4*hidden; activation gelu | swiglu
 *                    (default gelu); vocab default 51200; seq_len default
 *                    2048; tied_embeddings default false.
 *     global_batch   required; sequences per optimizer step
 *     micro_batch    default 1
 *     parallelism:   tp, pp, cp default 1; dp default GPUs/(tp*pp*cp);
 *                    vp default 1; sp default false; fsdp none | zero1 |
 *                    zero2 | full | hybrid (default none); fsdp_shard_group
 *                    default 0; optimizer_offload default false
 *     recompute      none | selective | full; default none
 *     precision      fp32 | tf32 | bf16 | fp16 | fp8; default bf16
 *     tokens         a count ("300B", "2T"); default none (NAN)
 *     Checks: tp*pp*dp*cp == GPUs; heads % tp == 0; heads % kv_heads == 0;
 *     hidden % heads == 0; layers % (pp*vp) == 0; global_batch %
 *     (dp*micro_batch) == 0; seq_len % cp == 0.
 *   failures:        optional (enabled)
 *     components     sequence (<= 32) of {name (required), scope gpu | node |
 *                    switch | job (default gpu), mtbf (required duration),
 *                    distribution exponential | weibull (default
 *                    exponential), shape (default 1; only with weibull)}
 *     detection      default 5min; restart default 15min
 *   checkpoint:      optional (enabled)
 *     interval       a duration or "optimal" (Young/Daly); default optimal
 *     mode           sync | async; default sync
 *     tier           a storage tier name, or a kind (nvme | pfs | object)
 *                    meaning the first tier of that kind; default nvme
 *   run:             optional (enabled)
 *     duration       default none (NAN: train workload.tokens)
 *     replicas       1 .. 100000; default 1
 *   cost:            optional (enabled); values are filled even when absent
 *     site           catalog site entry; default us-average
 *     years          default 3; utilization default 0.7
 *     electricity, pue, colocation, construction_per_mw, depreciation_years,
 *     support_per_year, server_power_utilization, server_power_multiplier,
 *     network_cost_fraction: default from the site entry
 *     gpu_price, server_price: default from the GPU entry
 *     cloud: {offer, on_demand, reserved_1y, reserved_3y, spot}: offer
 *                    default the catalog's first offer for the GPU; prices
 *                    default from the offer (NAN when it has none)
 *
 * Provenance origins: "FILE:LINE:COL" for file values, "catalog NAME
 * (SOURCE; DATE)" for catalog values, "preset NAME" for model presets,
 * "default" or "default (RULE)" for defaults. */
#ifndef CLUSTERSIM_CONFIG_H
#define CLUSTERSIM_CONFIG_H

#include "clustersim/config/catalog.h"
#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"

#include <stddef.h>

#define CS_CFG_SCHEMA_VERSION 1

/* Where one resolved value came from, for `clustersim validate`. All three
 * strings are owned by the provenance list. */
struct cs_prov_entry {
    char *path;   /* e.g. "cluster.fabric.link.bw" */
    char *value;  /* as text with its unit, e.g. "200Gbps" */
    char *origin; /* "scenarios/x.yaml:12:5" | "catalog ib-hdr (SOURCE; DATE)" | "default" */
};

struct cs_provenance {
    struct cs_prov_entry *items;
    size_t n, cap;
};

void cs_provenance_init(struct cs_provenance *p);
/* Frees every entry; accepts a zeroed or already-finalized list. */
void cs_provenance_fini(struct cs_provenance *p);
/* The entry for `path`, or NULL. Linear in the list's size. Borrowed. */
const struct cs_prov_entry *cs_provenance_find(const struct cs_provenance *p, const char *path);

/* Every key of a scenario's `cost:` section with its unit, default and
 * meaning (config/cfg_cost.c; `clustersim help tco` prints it, README and
 * docs/cost.md carry it). `def` says where the value comes from when the
 * scenario does not set it. The table ends with a NULL key. */
struct cs_cfg_key_doc {
    const char *key;    /* "cost.cloud.on_demand" */
    const char *unit;   /* "$/GPU-h", "fraction", "" */
    const char *def;    /* "cheapest fitting catalog offer", "3", ... */
    const char *doc;
};
extern const struct cs_cfg_key_doc cs_cfg_cost_key_docs[];
/* Calls fn for every key path the loader accepts under `cost:` (from its
 * parsing tables, so a test can check the table above covers them). */
void cs_cfg_cost_accepted_keys(void (*fn)(void *ctx, const char *key), void *ctx);

/* Loads, validates and resolves the scenario at `path` (file over catalog
 * over defaults). `cat` is borrowed and only read. Collects all errors
 * (capped by d) before failing. Returns CS_OK and fills *out (the caller
 * finalizes it with cs_scenario_fini); CS_EIO when `path` cannot be read;
 * CS_ECONFIG with diagnostics for invalid content. On failure *out and
 * *prov are untouched. `prov` may be NULL; otherwise it must be
 * initialized, and entries are appended to it. */
cs_status cs_cfg_load_scenario(const char *path, const cs_catalog *cat, cs_diags *d,
                               struct cs_scenario *out, struct cs_provenance *prov);

/* Same from memory: `name` is the file name in diagnostics and the base of
 * relative includes; `buf` holds `len` bytes. Both borrowed. */
cs_status cs_cfg_load_scenario_buffer(const char *name, const char *buf, size_t len,
                                      const cs_catalog *cat, cs_diags *d,
                                      struct cs_scenario *out, struct cs_provenance *prov);

/* Frees what a loaded scenario owns; accepts a zeroed scenario. */
void cs_scenario_fini(struct cs_scenario *s);

/* Confinement of file references (`include:`, a sweep's `base:`, a
 * neighbour's `scenario:`; config/yamltree.c, cs_ypath_check). By default a
 * reference must name a .yaml or .yml file (.gz allowed) that, after
 * symbolic links, lies inside the directory of the file the load started
 * from (the one named on the command line; the current directory for
 * standard input) or inside clustersim's data directory. This adds one more
 * directory (`--allow-include DIR`), for the rest of the process; call it
 * before any load starts (it is not meant to race with loads). CS_EIO when
 * `dir` is not a directory that exists (the reason in why[whylen]),
 * CS_EFULL past 16 directories. */
cs_status cs_cfg_allow_include_dir(const char *dir, char *why, size_t whylen);
/* Forgets the directories added (for tests). */
void cs_cfg_allow_include_reset(void);

#endif
