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

/* One catalog cloud offer of the cluster's GPU, priced for this cluster
 * (cs_app_tco_offers, app/tco.c): its four prices, whether it fits the
 * cluster (cs_cost_offer_fits) and why not, which of the scenario's cloud
 * prices it set, and the four cloud options' totals at its prices. */
#define CS_TCO_MAX_OFFERS 32
struct cs_tco_offer_row {
    char name[CS_NAME_MAX], provider[32], instance[CS_NAME_MAX], region[32];
    int gpus;                        /* per instance */
    double price[4];                 /* enum cs_cloud_price, USD per GPU-hour; NAN = not offered */
    double scaleout_bw_bytes_per_s;  /* NAN = not stated */
    bool fits;
    char why[160];                   /* why it does not fit; "" when it does */
    unsigned used_mask;              /* bit p: set the scenario's price p */
    double total_usd[4];             /* cloud option totals at its prices; NAN = not offered */
    char source[CS_SOURCE_MAX], date[48];
};

/* One input the TCO used and where it came from (the scenario's own value,
 * the catalog with its source, or a default with its source). */
#define CS_TCO_MAX_ASSUMPTIONS 64
struct cs_tco_assumption {
    char key[64];
    char value[64];
    char origin[600];
    bool defaulted;                  /* not set by the scenario (catalog or default) */
};

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
    /* Filled by cs_app_tco_offers / cs_app_tco_assumptions (0 = none). */
    int n_offers;
    struct cs_tco_offer_row offers[CS_TCO_MAX_OFFERS];
    int n_assumptions;
    struct cs_tco_assumption assumptions[CS_TCO_MAX_ASSUMPTIONS];
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
