/* cost_report.h: the TCO report (report layer, report/cost_report.c): text
 * tables, JSON (the DESIGN.md `tco.*` contract), CSV and gnuplot data and
 * scripts. Writers take a caller's FILE* or directory; nothing here runs
 * programs or prints on its own. */
#ifndef CLUSTERSIM_COST_REPORT_H
#define CLUSTERSIM_COST_REPORT_H

#include "clustersim/cost.h"
#include "clustersim/scenario.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* Everything one `clustersim tco` computes; all pointers borrowed. */
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
    bool has_step;
    double step_time_s, tokens_per_s, goodput, run_hours;
};

/* Fills r from inputs (evaluate, break-even, sensitivity at `step`). */
void cs_out_tco_compute(struct cs_tco_report *r, const struct cs_scenario *s,
                        const struct cs_cost_inputs *in, double step);

/* {"tco": {...}} members added to root. */
void cs_out_tco_json(cJSON *root, const struct cs_tco_report *r);
void cs_out_tco_text(FILE *out, const struct cs_tco_report *r);
/* One row per option: name, total and category columns, per-hour figures. */
void cs_out_tco_csv(FILE *out, const struct cs_tco_report *r);

/* Writes tco_bars.dat, tco_util.dat, tco_util_marks.dat and tco_tornado.dat
 * into dir (which must exist). Returns false and sets errno-style text in
 * err on a write error. */
bool cs_out_tco_plot_data(const char *dir, const struct cs_tco_report *r, char *err, size_t errlen);

#endif
