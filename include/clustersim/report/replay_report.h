/* replay_report.h: the trace-replay report (report/replay_report.c): text
 * for people, JSON with the contract's `replay.*` keys, one CSV row, and the
 * data files of the gnuplot figures (templates plots/replay_*.gp). */
#ifndef CLUSTERSIM_REPLAY_REPORT_H
#define CLUSTERSIM_REPLAY_REPORT_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/scheduler.h"
#include "clustersim/models/jobs.h"
#include "clustersim/models/replay_stats.h"

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

/* What an operator reads beyond the totals (models/replay_stats.h; st
 * borrowed). cs_out_replay_stats_json adds to the `replay` object o:
 * by_size[] (every size class), by_user[] (every user, most GPU-hours
 * first), by_partition[] with by_partition_source ("scheduler" or
 * "trace"), each entry {name, jobs, completed, rejected, gpu_hours, share,
 * queue_s and jct_s {mean, p50, p95}} (null where no job completed);
 * demand {gpu_hours, span_s, window_s, gpus, offered_load, capacity_gpus,
 * largest_job_gpus, jobs_larger_than_cluster}; warnings[] {id, message}. */
void cs_out_replay_stats_json(cJSON *o, const struct cs_replay_stats *st);
/* The tables by size class, by user (the first st->users.n - n_others and
 * the rest as one "others" row) and by partition, times in the unit each
 * value's size calls for, then the warnings. */
void cs_out_replay_breakdown_text(FILE *out, const struct cs_replay_stats *st);
/* Writes DIR/replay_timeline.dat (time_h, capacity, allocated, busy,
 * allocated + waiting, trace demand: GPUs) and DIR/replay_size_cdf.dat
 * (one block per non-empty size class: cdf, queueing s, JCT s, each
 * sorted), for plots/replay_timeline.gp and plots/replay_size_cdf.gp. r
 * must have been run with keep_times. Errors as cs_out_replay_plot_data. */
cs_status cs_out_replay_stats_plot_data(const char *dir, const struct cs_sched_result *r, const struct cs_trace *t,
                                        const struct cs_replay_stats *st, cs_diags *d);
/* s seconds for people (base/units.h cs_units_format: "2.065 h"), "-" when
 * not finite. */
void cs_out_human_duration(double s, char *buf, size_t n);

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
