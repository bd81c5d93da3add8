/* validate.h: the orchestration of `clustersim validate-refs` (app layer,
 * app/validate.c): the validation index (validation/INDEX.yaml: each
 * table's role, fit or holdout), the published step-time tables, each row
 * predicted by the step model (cs_refs_predict), the error per row, per
 * file (MAPE, worst) and per role. docs/validation.md. */
#ifndef CLUSTERSIM_APP_VALIDATE_H
#define CLUSTERSIM_APP_VALIDATE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/refs.h"
#include "clustersim/config/valindex.h"

#include <stdbool.h>
#include <stddef.h>

/* The tolerance `validate-refs --check` enforces: per file MAPE <= 10%,
 * every row within 25%. */
#define CS_APP_VAL_MAPE_MAX 0.10
#define CS_APP_VAL_ROW_MAX 0.25

struct cs_app_val_row {
    const struct cs_ref_case *c;  /* borrowed from the result's cases */
    cs_status st;                 /* of the prediction */
    double pred, err;             /* predicted; pred / measured - 1; NAN unless st is CS_OK */
    int micro_batch;              /* of the workload chosen */
    enum cs_recompute recompute;
    int recompute_layers;         /* with full: layers per virtual stage recomputed, 0 = all */
    int offload_layers;           /* layers per GPU whose activations went to host memory */
    double host_issue_s;          /* the predicted step's host dispatch time (step.h); NAN */
    double measured_step_s;       /* the step the row measured: its iteration time, or the
                                     predicted step scaled by predicted / measured throughput;
                                     NAN for peak memory or without a prediction */
    cs_diags diags;               /* owned: what predicting it reported (no file: c->file) */
};

struct cs_app_val_file {
    char *path;                   /* owned */
    const char *base;             /* its file name (into path) */
    const struct cs_val_table *vt; /* its index entry (into the result's index); NULL */
    const char *role;             /* "fit", "holdout" or "unlisted" */
    size_t first_row, nrows;      /* its rows in the result's rows[] */
    int cnt;                      /* rows predicted */
    int not_expressible;          /* rows the models cannot express yet (their reasons: rows[]) */
    int flagged;                  /* rows predicted but not scored: their source flags them */
    double sum, worst, mape;      /* of |error|; mape NAN without rows */
};

/* Rows compared, sum of |error| and worst |error| of one role. */
struct cs_app_val_agg {
    int rows, files, not_expressible, flagged;
    double sum, worst;
};

struct cs_app_validate {
    struct cs_valindex ix;        /* owned (zeroed without an index) */
    bool have_ix;
    struct cs_ref_case *cases;    /* owned */
    size_t ncases;
    struct cs_app_val_file *files; /* owned */
    int nfiles;
    struct cs_app_val_row *rows;  /* owned, file by file */
    size_t nrows;
    /* [0] fit, [1] holdout dense, [2] holdout mixture of experts, [3]
     * holdout small-work runs (kind step-small: CI-scale jobs whose per-step
     * overheads dominate, apart from the published benchmarks), [4] holdout
     * measured peak memory (kind step-memory: the memory model's total
     * against the published peak per GPU), [5] fit small-work (the
     * step-small tables that fitted host_python_scale) */
    struct cs_app_val_agg agg[6];
    bool ok;                      /* every row predicted and the tolerance met */
};

/* Loads the index (from the data directory) and the tables `paths[0..n)`
 * (n == 0: every `step` table of the index), against catalog cat
 * (borrowed), then predicts every row. Loading diagnostics go to d; each
 * row's to its own list. Without files the index is required; with files
 * a missing index only leaves the roles "unlisted" (its diagnostics are
 * dropped). *out is zeroed first; release it with cs_app_validate_fini
 * whatever the status. Returns CS_OK, or the index's or a table's loading
 * error (nothing predicted). */
cs_status cs_app_validate(const cs_catalog *cat, const char *const *paths, int n, cs_diags *d,
                          struct cs_app_validate *out);

void cs_app_validate_fini(struct cs_app_validate *r);

/* Precision pairs: rows of one table that ran the same configuration (GPU,
 * nodes, model shape, sequence, batch, micro-batch, parallel degrees,
 * recomputation, CUDA graphs and metric) once in bf16 and once at a
 * quantized precision. Their speedup (quantized over bf16 throughput, or
 * bf16 over quantized iteration time) as measured and as predicted isolates
 * what the model says a precision buys from the rest of its error. Groups:
 * fp8 (per tensor), fp8 block-wise, mxfp8, nvfp4; rows predicted and not
 * flagged, peak-memory rows left out. */
enum { CS_APP_PAIR_FP8, CS_APP_PAIR_FP8_BLOCK, CS_APP_PAIR_MXFP8, CS_APP_PAIR_NVFP4, CS_APP_PAIR_COUNT };
extern const char *const cs_app_pair_names[CS_APP_PAIR_COUNT];
struct cs_app_val_pairs {
    int n;                      /* pairs */
    double measured, model;     /* mean speedup, measured and predicted */
    double ratio;               /* mean of model / measured speedup */
    double mape;                /* mean |model / measured speedup - 1| */
};
/* Fills out[CS_APP_PAIR_COUNT] from the rows of v (n 0 and NAN means for a
 * group without pairs). */
void cs_app_validate_pairs(const struct cs_app_validate *v, struct cs_app_val_pairs *out);

/* A bound on the host model (docs/models.md 2.6): the host issues every
 * kernel of a step in turn, so no measured step can be shorter than the
 * host's dispatch time the model gives it. True for a row whose predicted
 * host_issue_s exceeds its measured_step_s, at the configuration the row
 * states (micro-batch stated; recompute stated, or the reader's choice no
 * recomputation, the least host time), predicted and not flagged. */
bool cs_app_validate_host_over(const struct cs_app_val_row *r);

/* Every step table of the index compared (as cs_app_validate with no
 * files), its diagnostics dropped: one comparison that the summaries below
 * (cs_app_vrange_of, cs_app_vmodel_of) can each read without comparing
 * again. Release *v with cs_app_validate_fini when CS_OK; on an error
 * nothing is held. */
cs_status cs_app_validate_all(const cs_catalog *cat, struct cs_app_validate *v);

/* The range the step model was validated over for one GPU (and stack):
 * what the index's step tables measured on it, and how far off the model
 * was there. `search` prints it beside its ranking. */
struct cs_app_vrange {
    char gpu[64];
    enum cs_stack stack;           /* CS_STACK_CUSTOM: any stack */
    int rows[2];                   /* rows compared: [0] fit, [1] holdout */
    double mape[2];                /* their mean |error|; NAN without rows */
    double bias[2];                /* their mean error (pred / measured - 1; > 0: predicted
                                      faster than the runs went); NAN without rows */
    double params_min, params_max; /* model parameters */
    long seq_min, seq_max, gpus_min, gpus_max;
    int tp_max, pp_max, cp_max;    /* the largest degrees measured */
    bool moe;                      /* the range of mixture-of-experts runs (else dense ones) */
    int ep_max;                    /* MoE: the largest ep measured */
};

/* Compares every step table of the index (as cs_app_validate with no
 * files) and summarizes the rows measured on `gpu` (a catalog name; "*":
 * every GPU) with
 * `stack` (CS_STACK_CUSTOM: any). CS_OK with out->rows[0] + rows[1] == 0
 * when none ran on it; the index's loading error otherwise (out zeroed). */
cs_status cs_app_validated_range(const cs_catalog *cat, const char *gpu, enum cs_stack stack,
                                 struct cs_app_vrange *out);
/* The same over the rows of one kind: mixture-of-experts runs when moe is
 * true, dense ones otherwise (cs_app_validated_range: dense). */
cs_status cs_app_validated_range_kind(const cs_catalog *cat, const char *gpu, enum cs_stack stack,
                                      bool moe, struct cs_app_vrange *out);
/* The same from a comparison already made (cs_app_validate_all). */
void cs_app_vrange_of(const struct cs_app_validate *v, const char *gpu, enum cs_stack stack, bool moe,
                      struct cs_app_vrange *out);

/* The published step times of one model architecture the step model was
 * compared with: the rows of every step table (fit and held out, the
 * small-work and memory tables left out, as for the range above) whose
 * model has the same shape as the workload's (layers, widths, heads, head
 * width, activation, attention kind, sliding window, experts, top-k, expert
 * width, shared experts, leading dense layers; not the vocabulary, which
 * tables pad differently, nor the sequence). Reported beside the GPU's
 * range so that a model family the step model is known to mispredict says
 * so: the signed mean tells which way. Nothing here changes a prediction. */
struct cs_app_vmodel {
    int rows[2];                   /* [0] fit, [1] holdout */
    double mape[2];                /* mean |error|; NAN without rows */
    double bias[2];                /* mean error (pred / measured - 1; > 0: predicted too fast) */
    double rms_log[2];             /* sqrt(mean ln(1 + error)^2): the spread a log-normal band needs */
    double err_min[2], err_max[2];
    int tables[2];                 /* tables the rows come from */
    char gpus[160];                /* the GPUs of the rows, comma-separated (truncated with "...") */
};

/* True when two model shapes are the same architecture in the sense above. */
bool cs_app_same_architecture(const struct cs_model_shape *a, const struct cs_model_shape *b);

/* Fills out with the rows of w's architecture (cs_app_vmodel). CS_OK with
 * no rows when none matched; the index's loading error otherwise (out
 * zeroed). */
cs_status cs_app_validated_model(const cs_catalog *cat, const struct cs_workload *w,
                                 struct cs_app_vmodel *out);
/* The same from a comparison already made (cs_app_validate_all). */
void cs_app_vmodel_of(const struct cs_app_validate *v, const struct cs_workload *w, struct cs_app_vmodel *out);

/* Whether a configuration lies inside the range: the model size, sequence
 * length, GPU count and parallel degrees measured (a dense model outside an
 * MoE range and the other way round). Writes what lies
 * outside, comma-separated, into why (empty when inside). */
bool cs_app_vrange_inside(const struct cs_app_vrange *v, const struct cs_workload *w, long gpus,
                          char *why, size_t len);

#endif
