/* run_level.h: writers of the run-level results (report/run_level.c): the
 * `run` JSON object of the contract (run.time_to_train_s, run.goodput,
 * run.interruptions as {mean, p05, p95}, run.replicas, ...) and a text
 * section for people; the data pipeline's figures likewise. */
#ifndef CLUSTERSIM_REPORT_RUN_H
#define CLUSTERSIM_REPORT_RUN_H

#include "clustersim/models/datapipe.h"
#include "clustersim/models/run.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* Adds "run": {...} to root (keys in docs/run.md). r->enabled false: adds
 * nothing. Borrowed arguments. */
void cs_out_run_level_json(cJSON *root, const struct cs_run_result *r);

/* The run-level section as aligned text. r->enabled false: one line saying
 * why nothing was simulated. */
void cs_out_run_level_text(FILE *out, const struct cs_run_result *r);

/* Adds "data": {...} (the data pipeline) to root; nothing when disabled. */
void cs_out_data_json(cJSON *root, const struct cs_data_result *dr);
/* The data pipeline as text; nothing when disabled. */
void cs_out_data_text(FILE *out, const struct cs_data_result *dr);

#endif
