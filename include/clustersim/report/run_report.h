/* run_report.h: results out, for people (aligned text) and scripts (JSON via
 * cJSON, CSV). The JSON key names are the contract of DESIGN.md: SI units in
 * the key name, stable across versions. Writers take a caller's FILE*. */
#ifndef CLUSTERSIM_REPORT_H
#define CLUSTERSIM_REPORT_H

#include "clustersim/models/scenario.h"
#include "clustersim/models/step.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* Resolved-cluster facts that the run report shows. */
struct cs_cluster_summary {
    long gpus;
    double peak_flops_per_gpu;       /* at the workload precision (bf16 without workload) */
    double peak_flops_total;
    double hbm_bytes_total;
    double gpu_power_w;              /* GPUs at TDP */
    long nics;                       /* scale-out ports on the nodes */
    double node_injection_bytes_per_s;  /* nics x line rate, per direction */
    double bisection_bytes_per_s;    /* per direction, after oversubscription */
    double intra_bw_bytes_per_s_per_gpu; /* scale-up line rate per GPU, per direction */
};
void cs_out_cluster_summary(const struct cs_scenario *s, struct cs_cluster_summary *out);

/* JSON objects (caller frees with cJSON_Delete). */
cJSON *cs_out_cluster_json(const struct cs_scenario *s);
cJSON *cs_out_workload_json(const struct cs_workload *w);
/* step/throughput/memory keys added to `root`. `r` NULL: no workload. */
void cs_out_step_json(cJSON *root, const struct cs_step_result *r);

/* Text sections. */
void cs_out_cluster_text(FILE *out, const struct cs_scenario *s);
/* The facility (s->facility.res, models/facility.h): racks, kW per rack,
 * power and the cooling verdict; cs_out_cluster_text prints it, and the
 * JSON adds {"facility": {...}} to root (run and tco). Nothing when the
 * cluster has no nodes. */
void cs_out_facility_text(FILE *out, const struct cs_scenario *s);
void cs_out_facility_json(cJSON *root, const struct cs_scenario *s);
void cs_out_workload_text(FILE *out, const struct cs_workload *w);
void cs_out_step_text(FILE *out, const struct cs_scenario *s, const struct cs_step_result *r);

/* One CSV header line and one row for a run (same columns, same order). */
void cs_out_run_csv(FILE *out, const struct cs_scenario *s, const struct cs_step_result *r,
                    int header);

/* Verdict on a scenario's `claim:` (report/claim.c). */
struct cs_claim_verdict {
    bool is_ratio;        /* the claim is a ratio to a baseline scenario */
    bool is_bound;        /* the claim is a bound (at_least / at_most), not a figure */
    double claimed;       /* NAN: not evaluated (no baseline for a ratio claim);
                           * for a bound: the lower bound, else the upper one */
    double low, high;     /* a bound claim's bounds (NAN: none) */
    double simulated;
    double error;         /* simulated / claimed - 1 (NAN for bounds) */
    const char *verdict;  /* "supported", "not supported", "direction holds, ...", ... */
};
struct cs_run_result; /* models/run.h */
/* The claim's metric from a step result (NAN when nothing was simulated, and
 * for the run-level metrics, which need the run). */
double cs_claim_metric_value(const struct cs_claim_cfg *c, const struct cs_step_result *r);
/* The same with the run level: goodput and checkpoint_overhead_s are the
 * means over the replicas of `run` (NAN when it was not simulated or no
 * replica completed); the others as cs_claim_metric_value. */
/* The figure of claim c for scenario s: the facility's metrics (node
 * power, kW per rack, the cooling verdict) from s->facility.res, the
 * others as cs_claim_metric_value_run. */
double cs_claim_metric_value_scn(const struct cs_claim_cfg *c, const struct cs_scenario *s,
                                 const struct cs_step_result *r, const struct cs_run_result *run);
double cs_claim_metric_value_run(const struct cs_claim_cfg *c, const struct cs_step_result *r,
                                 const struct cs_run_result *run);
/* The metric's name as the reports print it ("MFU", "goodput", ...). */
const char *cs_claim_metric_label(const struct cs_claim_cfg *c);
/* Judges the simulated metric (and, for ratio claims, the baseline's). A
 * figure within the relative tolerance is "supported"; outside it, a ratio
 * on the claimed side of 1 is "direction holds, magnitude does not", another
 * ratio "contradicted" and a value "not supported". A bound is "supported"
 * inside it, else "contradicted" (ratio) or "not supported" (value). */
struct cs_claim_verdict cs_claim_judge(const struct cs_claim_cfg *c, double simulated,
                                       double baseline);
void cs_out_claim_text(FILE *out, const struct cs_claim_cfg *c, const struct cs_claim_verdict *v);
void cs_out_claim_json(cJSON *root, const struct cs_claim_cfg *c, const struct cs_claim_verdict *v);

/* Writes `root` as pretty JSON plus a newline; returns false on error. */
bool cs_out_json_write(FILE *out, const cJSON *root);

#endif
