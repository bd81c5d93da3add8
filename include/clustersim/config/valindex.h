/* valindex.h: validation/INDEX.yaml, the list of published tables clustersim
 * is compared against, each with its kind and its role: `fit` (global
 * parameters may be fitted on it) or `holdout` (never used to fit). See
 * validation/README.md. Config layer. */
#ifndef CLUSTERSIM_VALINDEX_H
#define CLUSTERSIM_VALINDEX_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

#include <stddef.h>

enum cs_val_role { CS_VAL_FIT, CS_VAL_HOLDOUT };

struct cs_val_table {
    char *file;    /* relative to the index's directory, e.g. "step/x.csv" */
    char *kind;    /* step | collective | failures | trace-summary | memory | ... */
    enum cs_val_role role;
    char *source;  /* one line naming the source */
    int line;      /* where the entry is written in the index */
    /* Optional, for comparing a measurement file with the models (NULL when
     * not given): the scenario (relative to the index's directory) whose
     * cluster the measurement ran on; the collective algorithm NCCL was
     * forced to (ring, tree, nvls, ...) and the operation when the log
     * cannot tell; or why the file cannot be expressed yet (the feature or
     * catalog entry it needs). */
    char *scenario;
    char *algo;
    char *op;
    char *not_expressible;
    /* The NCCL environment the run used where its log does not print it
     * but a source states it (e.g. "NCCL_ALGO=Ring,Tree NCCL_PROTO=Simple"),
     * NULL when not given; validate-refs --collectives restricts the
     * model's choice to it. */
    char *nccl_env;
    /* For step tables in the common schema (validation/step/SOURCES.md),
     * facts of the source that its rows do not repeat, NULL when not given:
     * the software stack the runs used (megatron-2021, mcore, torchtitan,
     * composer; refcase.h) and the scale-out link of the nodes (a catalog
     * link name such as ib-ndr or roce-200g). */
    char *stack;
    char *link;
    /* The scale-out NICs of each node where they are fewer (or more) than
     * its GPUs, as a decimal integer 1-64 (NULL: one per GPU). */
    char *nics_per_node;
    /* "true" or "false": whether the table's models train with dropout, as
     * their configurations state (NULL: the model's default). */
    char *dropout;
    /* How the table counts the FLOPs of its TFLOP/s column where it gives
     * no tokens/s: "megatron" (Megatron-LM's num_floating_point_operations:
     * full attention, logits, no recomputation); NULL: not stated. */
    char *flops;
    /* MoE tables: how the runs routed ("balanced": forced even, as the
     * Megatron-Bridge pages state; "learned"); NULL: the model's default. */
    char *moe_routing;
    /* "bf16": the runs reduced gradients in bf16 (Megatron-Bridge's
     * performance recipes: grad_reduce_in_fp32 false); "fp32"; NULL: the
     * stack's default (fp32). */
    char *grad_reduce;
    /* Boolean workload keys the table's runs set, space-separated, from a
     * fixed list (refs.c: fp8_act_storage, optimizer_moments_bf16,
     * fp8_param_gather, fp4_param_gather), each written "true" into every
     * row's scenario (the two param_gather flags only into the rows of
     * their precisions); NULL: none. */
    char *workload_flags;
    /* The loss kernel the table's runs used (workload.cross_entropy: fused,
     * eager, compiled, te, te-fp32), unless a row's own cross_entropy
     * column states one; NULL: the stack's. */
    char *cross_entropy;
    /* Rows the table's own source marks as not representative (a footnote
     * naming a known performance regression, say): their line numbers in
     * the file, space-separated, and the source's words for why (required
     * with the lines). Such rows are predicted and shown, and kept out of
     * every error figure. NULL: none. */
    char *flagged_lines;
    char *flagged_reason;
};

struct cs_valindex {
    char *path;    /* the index file */
    char *dir;     /* its directory, to resolve `file` */
    struct cs_val_table *tables;
    size_t n;
};

/* Loads an index. Every entry needs file, kind and role (fit | holdout);
 * unknown keys, a duplicated file and a listed file that does not exist are
 * errors with file:line:col. CS_OK, CS_EIO (unreadable) or CS_ECONFIG; *out
 * untouched on failure, else freed with cs_valindex_fini. */
cs_status cs_valindex_load(const char *path, cs_diags *d, struct cs_valindex *out);
/* The same for the data directory's index, cs_data_path("validation/INDEX.yaml"). */
cs_status cs_valindex_load_data(cs_diags *d, struct cs_valindex *out);
void cs_valindex_fini(struct cs_valindex *ix);

/* The entry whose file has the base name `base` (a path's last component),
 * or NULL. */
const struct cs_val_table *cs_valindex_find(const struct cs_valindex *ix, const char *base);

const char *cs_val_role_name(enum cs_val_role r);

#endif
