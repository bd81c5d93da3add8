/* workload.h: transformer workloads and their parallelization, as plain data.
 * The per-layer FLOP, byte and memory formulas live in models/workload.c and
 * are documented with their sources in docs/models.md. */
#ifndef CLUSTERSIM_WORKLOAD_H
#define CLUSTERSIM_WORKLOAD_H

#include "clustersim/hw.h"
#include "clustersim/status.h"

#include <stdbool.h>

enum cs_activation { CS_ACT_GELU, CS_ACT_SWIGLU };
enum cs_recompute { CS_RECOMPUTE_NONE, CS_RECOMPUTE_SELECTIVE, CS_RECOMPUTE_FULL };
enum cs_fsdp { CS_FSDP_NONE, CS_FSDP_ZERO1, CS_FSDP_ZERO2, CS_FSDP_FULL, CS_FSDP_HYBRID };

/* A dense decoder-only transformer's shape. */
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
    char source[CS_SOURCE_MAX];
};

struct cs_parallel {
    int tp, pp, dp, cp;       /* tensor, pipeline, data, context parallel degrees */
    int vp;                   /* virtual pipeline stages per GPU (interleaved 1F1B); 1 = plain */
    bool sp;                  /* Megatron sequence parallelism (with tp) */
    enum cs_fsdp fsdp;
    int fsdp_shard_group;     /* hybrid shard: GPUs per shard group; 0 = one node */
    bool optimizer_offload;   /* optimizer state and step on the CPU */
};

struct cs_workload {
    struct cs_model_shape model;
    long global_batch;        /* sequences per optimizer step */
    int micro_batch;          /* sequences per micro-batch per pipeline */
    struct cs_parallel par;
    enum cs_recompute recompute;
    enum cs_precision precision;
    double tokens;            /* tokens to train; NAN when not given */
};

/* Looks up a named model preset (e.g. "llama3.1-70b"). Returns CS_ENOTFOUND
 * if unknown; `out` is untouched then. */
cs_status cs_workload_preset(const char *name, struct cs_model_shape *out);
/* The preset names, NULL-terminated, for listings and did-you-mean. */
const char *const *cs_workload_preset_names(void);

/* Total parameter count of the model (embeddings included). */
double cs_workload_params(const struct cs_model_shape *m);

const char *cs_activation_name(enum cs_activation a);
const char *cs_recompute_name(enum cs_recompute r);
const char *cs_fsdp_name(enum cs_fsdp f);

#endif
