/* cost_report.h: the TCO report (report layer, report/cost_report.c): text
 * tables, JSON (the DESIGN.md `tco.*` contract), CSV and gnuplot data and
 * scripts. Writers take a caller's FILE* or directory; nothing here runs
 * programs or prints on its own. */
#ifndef CLUSTERSIM_COST_REPORT_H
#define CLUSTERSIM_COST_REPORT_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/scenario.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* Everything one `clustersim tco` computes (filled by cs_app_tco_analyze,
 * app/tco.c); all pointers borrowed. */
struct cs_tco_report {
    const struct cs_scenario *s;
    const struct cs_cost_inputs *in;
    struct cs_cost_result res;
    int n_be;
    struct cs_cost_break_even be[8];
    double sens_step;
    int n_sens;
    struct cs_cost_sens_row sens[CS_CIN_COUNT];
    bool has_mc;
    struct cs_cost_mc mc;
    bool has_claim;
    struct cs_cost_claim_result claim;
    bool has_step;                    /* run.has_step */
    struct cs_cost_run run;           /* time per training run (cs_cost_run_from) */
};

/* {"tco": {...}} members added to root. */
void cs_out_tco_json(cJSON *root, const struct cs_tco_report *r);
void cs_out_tco_text(FILE *out, const struct cs_tco_report *r);
/* One row per option: name, total and category columns, per-hour figures. */
void cs_out_tco_csv(FILE *out, const struct cs_tco_report *r);

/* One scenario of `clustersim tco --table A.yaml B.yaml ...`: the same
 * workload on several clusters, relative throughput from the step (and
 * run) model beside costs per hour, per year, per run, and the scenario's
 * cost.reference figures. */
struct cs_tco_table_row {
    const struct cs_scenario *s;      /* borrowed */
    const char *file;                 /* borrowed */
    struct cs_cost_inputs in;
    struct cs_cost_result res;
    struct cs_cost_run run;
    /* Filled by cs_out_tco_table_fill; NAN where not applicable. */
    double effective_tokens_per_s;    /* tokens / time to train (goodput included) */
    double rel_throughput;            /* over the first row's */
    double ref_rel_throughput;        /* reference.throughput over the first row's */
    double on_demand_usd_per_h;       /* GPUs x on-demand price */
    double reserved_usd_per_year;     /* GPUs x 8760 h x reserved-1y price */
    double owned_usd;                 /* on-prem total over cost.years */
    double usd_per_h_per_throughput;  /* on_demand_usd_per_h / rel_throughput */
    double ref_usd_per_h_per_throughput;
    bool has_verdict;                 /* both throughputs known, not the baseline row */
    enum cs_cost_verdict verdict;     /* rel_throughput within reference.tolerance */
};

/* Computes the derived columns of rows[0..n) (row 0 is the baseline). */
void cs_out_tco_table_fill(struct cs_tco_table_row *rows, int n);
/* A dollar figure as the TCO reports print it: "$1.23B", "$1.23M", "$456K"
 * (from $10K), "$789"; "-" for NAN. Returns buf. */
const char *cs_out_money(double v, char *buf, size_t n);
void cs_out_tco_table_text(FILE *out, const struct cs_tco_table_row *rows, int n);
/* {"tco_table": {"rows": [...]}} added to root. */
void cs_out_tco_table_json(cJSON *root, const struct cs_tco_table_row *rows, int n);
void cs_out_tco_table_csv(FILE *out, const struct cs_tco_table_row *rows, int n);

/* Writes tco_meta.gp (values the templates load), tco_bars.dat, tco_util.dat,
 * tco_util_marks.dat and tco_tornado.dat
 * into dir (which must exist). Returns CS_OK, or CS_EIO with one error in d
 * (caller-owned) whose file is the one that cannot be written. */
cs_status cs_out_tco_plot_data(const char *dir, const struct cs_tco_report *r, cs_diags *d);

#endif
