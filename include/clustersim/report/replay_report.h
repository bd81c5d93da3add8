/* replay_report.h: the trace-replay report (report/replay_report.c): text
 * for people, JSON with the contract's `replay.*` keys, one CSV row, and the
 * data files of the gnuplot figures (templates plots/replay_*.gp). */
#ifndef CLUSTERSIM_REPLAY_REPORT_H
#define CLUSTERSIM_REPLAY_REPORT_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/scheduler.h"
#include "clustersim/models/jobs.h"

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
 * partition GPUs) and DIR/replay_jct.dat (JCT in hours, CDF). Returns CS_OK,
 * or CS_EIO with one error in d (caller-owned) whose file is the one that
 * cannot be opened (DIR itself for a write error). */
cs_status cs_out_replay_plot_data(const char *dir, const struct cs_sched_config *c,
                                  const struct cs_sched_result *r, cs_diags *d);

/* The verdict on a scenario's `scheduler.claim` (docs/replay.md, "Claims"):
 * compare none judges the partition shares of r against their quotas
 * (each within claim_tolerance); placement judges the mean JCT of the
 * workload jobs, packed against scattered (packed shorter by more than the
 * tolerance, relative); mig judges the busy share of allocated GPU time
 * (busy / allocated GPU-hours) with MIG against without (higher by more
 * than the tolerance, relative), printing the cluster's busy utilization
 * and queueing beside it. For placement and
 * mig, (c, r) and (c2, r2) are the two replays, in either order; c2/r2 are
 * NULL for compare none. All borrowed. */
struct cs_replay_verdict {
    bool holds;
    char line[512];   /* the figures that answer the claim and the verdict, one line */
};
void cs_out_replay_verdict(const struct cs_scn_scheduler *claim, const struct cs_sched_config *c,
                           const struct cs_sched_result *r, const struct cs_sched_config *c2,
                           const struct cs_sched_result *r2, struct cs_replay_verdict *v);
/* The claim block of the text report: the claim, the figures (shares over
 * `windows` windows of the timeline and queueing per partition, or the two
 * replays side by side) and the verdict. */
void cs_out_replay_claim_text(FILE *out, const struct cs_scn_scheduler *claim, const struct cs_sched_config *c,
                              const struct cs_sched_result *r, const struct cs_sched_config *c2,
                              const struct cs_sched_result *r2, int windows);
/* The same as a JSON object: id, text, compare, holds, verdict, figures. */
cJSON *cs_out_replay_claim_json(const struct cs_scn_scheduler *claim, const struct cs_sched_config *c,
                                const struct cs_sched_result *r, const struct cs_sched_config *c2,
                                const struct cs_sched_result *r2);

#endif
