/* tco.h: the analyses of `clustersim tco` beyond the pipeline's TCO (app
 * layer, app/tco.c): break-even utilizations, the sensitivity table, the
 * Monte Carlo over cost.ranges and the cost claim, into the report's
 * struct (report/cost_report.h), which the report layer only formats. */
#ifndef CLUSTERSIM_APP_TCO_H
#define CLUSTERSIM_APP_TCO_H

#include "clustersim/app/pipeline.h"
#include "clustersim/base/diag.h"
#include "clustersim/report/cost_report.h"

/* Fills *r (zeroed first) from `res`, an evaluation of s with the cost
 * stage done (res->has_cost): the TCO, break-even, sensitivity at relative
 * step `sens_step`, `mc_samples` Monte Carlo samples over cost.ranges (none
 * when mc_samples < 1 or cost.ranges is empty; the caller warns about the
 * latter), and cost.claim's verdict when the scenario has one (its
 * diagnostics in d; r->has_claim false when it cannot be evaluated). r
 * borrows s and res->cost_in: both must outlive it. */
void cs_app_tco_analyze(const struct cs_scenario *s, const struct cs_app_result *res,
                        double sens_step, int mc_samples, cs_diags *d, struct cs_tco_report *r);

#endif
