/* results_json.h: the JSON objects of the commands that take a scenario or
 * a plan (app layer, app/results_json.c): `clustersim run`, `search`,
 * `collective`, `tco` and `plan --format json` print them, and the
 * library's request entry point (api/api.c, include/clustersim/api/api.h)
 * returns the same objects, so the command line and the Python API share
 * one builder. Each returns a new cJSON tree the caller deletes. */
#ifndef CLUSTERSIM_APP_RESULTS_JSON_H
#define CLUSTERSIM_APP_RESULTS_JSON_H

#include "clustersim/app/collective_exp.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/plan.h"
#include "clustersim/app/search.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/config/catalog.h"
#include "clustersim/models/scenario.h"
#include "clustersim/report/cost_report.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* The recomputation as tables and the plan's JSON show it: "full:N" (N
 * layers per stage recomputed), "off:N" (N layers' activations offloaded),
 * else the policy's name. Returns buf. */
const char *cs_app_recompute_label(const struct cs_workload *w, char *buf, size_t len);

/* `run`: res an evaluation of s (cs_app_evaluate; CS_OK or CS_ENOFIT),
 * unc the --uncertainty Monte Carlo or NULL; path as the report names the
 * scenario's file. */
cJSON *cs_app_run_json(const struct cs_scenario *s, const char *path, const struct cs_app_result *res,
                       const struct cs_app_uncertainty *unc);

/* `search`: sr from cs_app_search of s; cat the catalog s was loaded with
 * (its validation index gives the validated range). */
cJSON *cs_app_search_json(const struct cs_scenario *s, const cs_catalog *cat, const struct cs_app_search *sr);

/* `collective`: res from cs_app_coll_run of s with request q. */
cJSON *cs_app_coll_json(const struct cs_scenario *s, const char *path, const struct cs_app_coll_req *q,
                        const struct cs_app_coll_labels *lab, const struct cs_app_coll *res);

/* `tco`: r from cs_app_tco_analyze of s; cu the --uncertainty Monte Carlo
 * over the prices (NULL: none) with base the evaluation's cost result. */
cJSON *cs_app_tco_json(const struct cs_scenario *s, const char *path, const struct cs_tco_report *r,
                       const struct cs_app_cost_unc *cu, const struct cs_cost_result *base);

/* `plan`: r from cs_app_plan (or its merge); all: list every candidate. */
cJSON *cs_app_plan_json(const struct cs_app_plan *r, bool all);

#endif
