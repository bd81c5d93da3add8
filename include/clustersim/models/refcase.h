/* refcase.h: a published step-time measurement as the step model sees it
 * (models layer): a resolved scenario, the metric measured and the software
 * stack it ran on, and the functions that predict it (models/validate.c).
 * config/refs.h reads the tables into these. */
#ifndef CLUSTERSIM_MODELS_REFCASE_H
#define CLUSTERSIM_MODELS_REFCASE_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/step.h"

#include <stdbool.h>
#include <stddef.h>

enum cs_ref_metric {
    CS_REF_ITER_S,        /* seconds per iteration */
    CS_REF_TFLOPS_HW,     /* TFLOP/s per GPU, recomputation counted (Narayanan et al. 2021) */
    CS_REF_TFLOPS_MODEL,  /* TFLOP/s per GPU without recomputation (= MFU x peak) */
    CS_REF_TOKENS_PER_GPU, /* training tokens per second per GPU */
    CS_REF_PEAK_MEMORY_GIB, /* peak memory per GPU, GiB (the memory model's total) */
};

/* The software stack a measurement ran on: enum cs_stack (workload.h). */
const char *cs_ref_stack_name(enum cs_stack s);
bool cs_ref_stack_parse(const char *name, enum cs_stack *out);

struct cs_ref_case {
    char file[256];           /* the CSV it came from (base name) */
    int line;                 /* 1-based line of the row */
    char label[96];           /* e.g. "175B selective+SP" */
    struct cs_scenario scen;  /* resolved; owned, freed by cs_refs_free */
    enum cs_ref_metric metric;
    double measured;
    enum cs_stack stack;
    bool search_micro_batch;  /* micro-batch not stated: best of 1,2,4,8 that fits */
    bool search_recompute;    /* recompute not stated: cheapest that fits */
    /* Why the row cannot be predicted yet (the feature or catalog entry it
     * needs), "" when it can; such a row has no scenario (scen zeroed). */
    char not_expressible[160];
    /* Why the table's source marks the row as not representative (the
     * index's flagged_reason), "" when it does not: the row is predicted
     * and shown but kept out of the error figures. */
    char flagged[256];
    /* The row's network model (netmodel.h), built once by the reader (owned,
     * freed by cs_refs_free); NULL: cs_refs_predict builds one per call. */
    cs_netmodel *net;
    /* The scenario text the row was resolved from (owned; NULL for a row
     * not expressible): `validate-refs --scenario FILE:LINE` prints it. */
    char *text;
};


/* Step options for a case's stack (compute and collective parameters from
 * the GPU, overlap and fused attention from the stack). */
void cs_refs_options(const struct cs_ref_case *c, struct cs_step_options *o);

/* Predicts the case's metric: simulates the stated configuration, searching
 * the unstated micro-batch / recomputation as the case says. Returns CS_OK
 * with *predicted and the chosen configuration's result in *r (and the
 * chosen workload in *chosen, nullable); CS_ENOFIT when nothing fits;
 * CS_EINVAL for an invalid configuration (diagnostics in d). */
cs_status cs_refs_predict(const struct cs_ref_case *c, const struct cs_step_options *o,
                          cs_diags *d, double *predicted, struct cs_step_result *r,
                          struct cs_workload *chosen);

const char *cs_ref_metric_name(enum cs_ref_metric m);

#endif
