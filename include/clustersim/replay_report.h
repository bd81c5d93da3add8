/* replay_report.h: the trace-replay report (report/replay_report.c): text
 * for people, JSON with the contract's `replay.*` keys, one CSV row, and the
 * data files of the gnuplot figures (templates plots/replay_*.gp). */
#ifndef CLUSTERSIM_REPLAY_REPORT_H
#define CLUSTERSIM_REPLAY_REPORT_H

#include "clustersim/scheduler.h"
#include "clustersim/trace.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* The `replay` object: jobs, makespan_s, utilization, queue_s and jct_s
 * ({mean, p50, p95}), plus trace counts, GPU-hours, fragmentation,
 * partitions. Caller frees with cJSON_Delete. All arguments borrowed. */
cJSON *cs_out_replay_json(const struct cs_sched_config *c, const struct cs_trace *t,
                          const struct cs_sched_result *r);
void cs_out_replay_text(FILE *out, const struct cs_sched_config *c, const struct cs_trace *t,
                        const struct cs_sched_result *r);
/* header != 0: the header line first. */
void cs_out_replay_csv(FILE *out, const struct cs_sched_config *c, const struct cs_trace *t,
                       const struct cs_sched_result *r, int header);
/* Writes DIR/replay_util.dat (time, allocated and busy fraction, per
 * partition GPUs) and DIR/replay_jct.dat (JCT in hours, CDF). Returns false
 * with a message in err on a write error. */
bool cs_out_replay_plot_data(const char *dir, const struct cs_sched_config *c,
                             const struct cs_sched_result *r, char *err, size_t errlen);

#endif
