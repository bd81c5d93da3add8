/* tco.h: the analyses of `clustersim tco` beyond the pipeline's TCO (app
 * layer, app/tco.c): break-even utilizations, the sensitivity table, the
 * Monte Carlo over cost.ranges and the cost claim, into the report's
 * struct (report/cost_report.h), which the report layer only formats. */
#ifndef CLUSTERSIM_APP_TCO_H
#define CLUSTERSIM_APP_TCO_H

#include "clustersim/app/pipeline.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
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

/* Every catalog cloud offer of s's GPU, in catalog order, into r->offers:
 * prices, fit to the cluster, the prices it set in s (s->cost.cloud_offer_for)
 * and the four cloud options' totals at its prices, the other inputs as
 * r->in has them (docs/cost.md, "Cloud offers"). Needs r filled by
 * cs_app_tco_analyze. */
void cs_app_tco_offers(const cs_catalog *cat, const struct cs_scenario *s, struct cs_tco_report *r);

/* The cost inputs and where each came from, from the scenario's
 * provenance (the `cost.` entries, in the order the loader set them), into
 * r->assumptions. A value is `defaulted` when its origin is not the
 * scenario's own file. */
void cs_app_tco_assumptions(const struct cs_provenance *prov, const struct cs_scenario *s,
                            struct cs_tco_report *r);

/* Everything `clustersim tco` reports, in one call (the CLI and the API
 * both use it, so they cannot drift): cs_app_tco_analyze, then the cloud
 * offers (cat) and the inputs' provenance (prov, may be NULL). */
void cs_app_tco_report(const cs_catalog *cat, const struct cs_provenance *prov,
                       const struct cs_scenario *s, const struct cs_app_result *res,
                       double sens_step, int mc_samples, cs_diags *d, struct cs_tco_report *r);

#endif
