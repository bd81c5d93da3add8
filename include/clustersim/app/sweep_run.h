/* sweep_run.h: running a sweep (app layer, app/sweep_run.c): each point of
 * a sweep file (config/sweep.h) evaluated through the step, data pipeline,
 * run and cost models into result rows (JSON lines and CSV), on N threads,
 * resumable, sharded, and shards merged. File format and fsync policy:
 * docs/sweep.md. */
#ifndef CLUSTERSIM_APP_SWEEP_RUN_H
#define CLUSTERSIM_APP_SWEEP_RUN_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/sweep.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Columns: point, key, status (ok | nofit | skipped), reason, the sweep's
 * variable columns (key paths), gpus, fits, step_time_s, tokens_per_s,
 * tokens_per_s_per_gpu, mfu, tflops_per_gpu, bytes_per_gpu, compute_s,
 * exposed_comm_s, bubble_s, data_stall_s; with CS_SWEEP_OUT_RUN
 * run.time_to_train_s, run.goodput, run.interruptions (means),
 * run.checkpoint_interval_s; with CS_SWEEP_OUT_TCO tco.<option>.total_usd
 * and tco.<option>.usd_per_utilized_gpu_hour for the seven options; with
 * CS_SWEEP_OUT_FACILITY (the sweep sets `facility`) facility.racks_placed,
 * facility.kw_per_rack, facility.cooling_ok, facility.gpu_power_cap_w,
 * facility.facility_power_w, facility.pue_ratio, facility.time_to_throttle_s. */
enum { CS_SWEEP_OUT_RUN = 1u, CS_SWEEP_OUT_TCO = 2u, CS_SWEEP_OUT_FACILITY = 4u };

struct cs_sweep_table {
    size_t ncols;
    char **cols;        /* owned */
    unsigned outputs;   /* CS_SWEEP_OUT_* */
    size_t nvars;       /* variable columns (cols[4 .. 4+nvars-1]) */
    size_t naxes;       /* of which the first naxes are axes, the rest derived */
    uint64_t points;
    uint64_t hash;
};

/* Columns of sw's results; outputs from cs_sweep_sets("run"/"cost"/...).
 * Free with cs_sweep_table_fini. */
void cs_sweep_table_init(struct cs_sweep_table *t, const cs_sweep *sw);
void cs_sweep_table_fini(struct cs_sweep_table *t);

/* Evaluates point i (build, step model, data pipeline, run-level Monte
 * Carlo on one thread, TCO as the table asks) and returns its row as one
 * JSON line (ending in "\n"; caller frees). Rejected points give a row with
 * status "skipped" and the reason. Thread-safe. */
char *cs_sweep_eval(const cs_sweep *sw, const struct cs_sweep_table *t, const cs_catalog *cat,
                    uint64_t i);

/* The CSV header line and a JSON row as a CSV line (RFC 4180 quoting),
 * each ending in "\n"; caller frees. NULL when `json_line` does not parse. */
char *cs_sweep_csv_header(const struct cs_sweep_table *t);
char *cs_sweep_json_to_csv(const struct cs_sweep_table *t, const char *json_line);

/* Running a sweep into a directory (DIR/results.jsonl, DIR/results.csv,
 * DIR/sweep.json). Rows are appended with one write() each as points
 * finish; on start, rows already in DIR (same sweep hash) are kept and
 * their points skipped; at the end both files are rewritten sorted by
 * point (temporary file, fsync, rename), so the output does not depend on
 * the thread count. */
struct cs_sweep_run_opts {
    int threads;        /* >= 1 */
    int shard_k, shard_n; /* run points with index % shard_n == shard_k - 1; 1/1 = all */
    /* Called under the writer lock after each point (done, total in this
     * run); may be NULL. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
};

struct cs_sweep_run_stats {
    uint64_t total;     /* points of this shard */
    uint64_t resumed;   /* already in DIR */
    uint64_t ran;
    uint64_t skipped;   /* rows with status skipped (this run and resumed) */
};

/* Returns CS_OK; CS_EINVAL (bad options), CS_EIO or CS_ECONFIG with one
 * error in d (caller-owned; a directory that holds another sweep's results,
 * a write error), whose file is the path at fault when the message is about
 * one file or directory. */
cs_status cs_sweep_run(const cs_sweep *sw, const cs_catalog *cat, const char *dir,
                       const struct cs_sweep_run_opts *o, struct cs_sweep_run_stats *stats,
                       cs_diags *d);

/* Joins shard directories into dir: every point 0 .. points-1 exactly once
 * over all shards, all shards of one sweep (same hash). Refuses (CS_ECONFIG
 * with one error in d, caller-owned, naming the point and directories)
 * otherwise; CS_EIO when dir cannot be written. */
cs_status cs_sweep_merge(const char *dir, const char *const *shards, size_t n, cs_diags *d);


#endif
