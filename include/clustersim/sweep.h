/* sweep.h: what-if sweeps over any key of a scenario (config layer,
 * config/override.c and config/sweep.c; point evaluation and result rows in
 * report/sweep_report.c). See docs/sweep.md.
 *
 * A sweep file names a base scenario and axes of key paths:
 *
 *   base: ../default.yaml           # relative to the sweep file
 *   mode: grid                      # grid (cartesian product) | zip (i-th of each)
 *   axes:
 *     cluster.nodes: {from: 1, to: 512, factor: 2}
 *     cluster.fabric.oversubscription: [1, 2, 3, 4]
 *   derive:                         # optional: values computed from others
 *     workload.parallelism.dp: "gpus / (tp * pp)"
 *   constraints:                    # optional: points where one is false are skipped
 *     - "gpus >= tp * pp"
 *
 * Points are numbered 0 .. n-1; in grid mode the first axis varies slowest.
 * A point's scenario is the base tree with each axis value (and then each
 * derived value) set at its key path before binding, so the binder's checks
 * and did-you-means apply, attributed to the sweep file's lines. Points are
 * pure functions of (sweep, index): any thread may build any point, in any
 * order, and gets the same scenario. */
#ifndef CLUSTERSIM_SWEEP_H
#define CLUSTERSIM_SWEEP_H

#include "clustersim/catalog.h"
#include "clustersim/config.h"
#include "clustersim/diag.h"
#include "clustersim/scenario.h"
#include "clustersim/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One override: set key path `path` ("cluster.nodes",
 * "workload.parallelism.tp", "failures.components.0.mtbf") to the YAML value
 * text `value` ("64", "[a, b]", "{tp: 8, pp: 2}"). `file`, `line`, `col`
 * say where the override was written, for diagnostics (file NULL:
 * "<override>"). All borrowed. */
struct cs_cfg_override {
    const char *path;
    const char *value;
    const char *file;
    int line, col;
};

/* True when s[0..len) is a key path as sweep axes and --set take them: 1 to
 * 255 bytes of letters, digits, '_', '-' and '.', no empty segment
 * ("cluster.nodes", "failures.components.0.mtbf"). */
bool cs_cfg_key_path_ok(const char *s, size_t len);

/* Loads the scenario at `path` with the n overrides applied, in order, to
 * its YAML tree before binding (missing mappings are created; a later
 * override of the same path wins). Errors: a path through a scalar, an
 * empty path segment, a path cs_cfg_key_path_ok refuses, a value that is
 * not YAML; unknown keys and bad values
 * are caught by the normal binder, at the override's file:line. Same
 * contract as cs_cfg_load_scenario otherwise. Thread-safe for distinct
 * outputs (cat is only read). */
cs_status cs_cfg_load_scenario_with(const char *path, const struct cs_cfg_override *ov, size_t n,
                                    const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                                    struct cs_provenance *prov);
/* The same for a scenario already in memory (cs_cfg_load_scenario_buffer's
 * `name`, `buf` and `len`). */
cs_status cs_cfg_load_scenario_buffer_with(const char *name, const char *buf, size_t len,
                                           const struct cs_cfg_override *ov, size_t n,
                                           const cs_catalog *cat, cs_diags *d,
                                           struct cs_scenario *out, struct cs_provenance *prov);

/* ---- sweep files ---- */

#define CS_SWEEP_MAX_AXES 32
#define CS_SWEEP_MAX_POINTS ((uint64_t)100000000) /* 10^8: refused above */
#define CS_SWEEP_MAX_VALUES 1000000               /* values of one axis */

enum cs_sweep_mode { CS_SWEEP_GRID, CS_SWEEP_ZIP };

typedef struct cs_sweep cs_sweep;

/* Loads a sweep file and its base scenario's tree (the base is not bound
 * here; each point is). Errors name file, line and key. On success the
 * caller frees *out with cs_sweep_destroy. `path` borrowed. */
cs_status cs_sweep_load(const char *path, cs_diags *d, cs_sweep **out);
void cs_sweep_destroy(cs_sweep *sw);

uint64_t cs_sweep_points(const cs_sweep *sw);
enum cs_sweep_mode cs_sweep_mode_of(const cs_sweep *sw);
const char *cs_sweep_base_path(const cs_sweep *sw); /* as resolved; borrowed */
const char *cs_sweep_file(const cs_sweep *sw);      /* the sweep file; borrowed */
/* A hash of the sweep's content (base tree text and axes), so outputs of
 * different sweeps are not mixed up on resume or merge. */
uint64_t cs_sweep_hash(const cs_sweep *sw);

/* Variable columns: axes first (file order), then derived keys. */
size_t cs_sweep_ncols(const cs_sweep *sw);
const char *cs_sweep_col(const cs_sweep *sw, size_t i); /* key path; borrowed */
bool cs_sweep_col_derived(const cs_sweep *sw, size_t i);

/* One point's identity and values. */
struct cs_sweep_point {
    uint64_t index;
    uint64_t key;              /* FNV-1a of "path=value\n" over its columns */
    char *values[CS_SWEEP_MAX_AXES * 2]; /* per column, flow-style text; owned */
    size_t nvalues;
    bool skipped;              /* a constraint or an expression rejected it */
    char reason[512];          /* why, when skipped */
};

/* Builds point i (0 <= i < cs_sweep_points): values, derived values,
 * constraints, then (unless skipped) the scenario. Returns CS_OK with
 * pt->skipped false and *out filled (caller finalizes it); CS_OK with
 * pt->skipped true and a reason when a constraint or a derivation rejects
 * it (*out untouched); CS_ECONFIG with diagnostics when the loader rejects
 * the point's scenario (reason filled with the first error too). Free pt
 * with cs_sweep_point_fini in every case. Thread-safe: the sweep and the
 * catalog are only read. */
cs_status cs_sweep_point_build(const cs_sweep *sw, uint64_t i, const cs_catalog *cat, cs_diags *d,
                               struct cs_sweep_point *pt, struct cs_scenario *out);
void cs_sweep_point_fini(struct cs_sweep_point *pt);

/* ---- arithmetic expressions (derive: and constraints:) ----
 * Numbers, identifiers (resolved by `lookup`), + - * / % ( ), unary - and
 * !, comparisons < <= > >= == != (1 or 0), && and ||. Nothing else: no
 * calls, no assignment. Nesting is limited to 64 levels. Returns false with
 * a message in err for a syntax error, an unknown name, a division by zero
 * or a non-finite result. */
typedef bool (*cs_sweep_lookup_fn)(void *ctx, const char *name, size_t len, double *out);
bool cs_sweep_expr_eval(const char *expr, cs_sweep_lookup_fn lookup, void *ctx, double *out,
                        char *err, size_t errlen);

/* True when the base scenario, an axis or a derived key sets `prefix` or a
 * key under it ("run", "cost", "workload.tokens"). */
bool cs_sweep_sets(const cs_sweep *sw, const char *prefix);

/* Checks the sweep against the scenario schema by building point 0: keys
 * the binder does not know (with its did-you-mean) and paths that cannot be
 * set (through a scalar, past a sequence) are errors of the sweep file, not
 * reasons to skip points. Returns CS_OK or CS_ECONFIG with those errors. */
cs_status cs_sweep_check(const cs_sweep *sw, const cs_catalog *cat, cs_diags *d);

/* The key of point i (cs_sweep_point.key) without building the point. */
uint64_t cs_sweep_point_key(const cs_sweep *sw, uint64_t i);

/* ---- results (report layer, report/sweep_report.c) ----
 * Columns: point, key, status (ok | nofit | skipped), reason, the sweep's
 * variable columns (key paths), gpus, fits, step_time_s, tokens_per_s,
 * tokens_per_s_per_gpu, mfu, tflops_per_gpu, bytes_per_gpu, compute_s,
 * exposed_comm_s, bubble_s, data_stall_s; with CS_SWEEP_OUT_RUN
 * run.time_to_train_s, run.goodput, run.interruptions (means),
 * run.checkpoint_interval_s; with CS_SWEEP_OUT_TCO tco.<option>.total_usd
 * and tco.<option>.usd_per_utilized_gpu_hour for the seven options. */
enum { CS_SWEEP_OUT_RUN = 1u, CS_SWEEP_OUT_TCO = 2u };

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

/* Returns CS_OK; CS_EIO or CS_ECONFIG with a message in err (a directory
 * that holds another sweep's results, a write error). */
cs_status cs_sweep_run(const cs_sweep *sw, const cs_catalog *cat, const char *dir,
                       const struct cs_sweep_run_opts *o, struct cs_sweep_run_stats *stats,
                       char *err, size_t errlen);

/* Joins shard directories into dir: every point 0 .. points-1 exactly once
 * over all shards, all shards of one sweep (same hash). Refuses (CS_ECONFIG
 * with a message naming the point and directories) otherwise. */
cs_status cs_sweep_merge(const char *dir, const char *const *shards, size_t n, char *err,
                         size_t errlen);


/* ---- results read back, and figures (report layer, report/sweep_plot.c) ----
 * A sweep directory's rows as strings, for `clustersim plot` and
 * `clustersim report sweep`. */
struct cs_sweep_results {
    size_t ncols;
    char **cols;        /* from sweep.json; owned */
    size_t nvars;       /* variable columns: cols[4 .. 4+nvars-1] */
    size_t naxes;       /* the first naxes of them are axes, the rest derived */
    size_t nrows;
    char **cells;       /* nrows x ncols, row-major; NULL where a row lacks the
                         * column; numbers as "%.17g"; owned */
};

/* Reads DIR/sweep.json and DIR/results.jsonl (rows in file order; a partial
 * last line is ignored). CS_EIO / CS_ECONFIG with a message naming the file
 * and line in err. Free *out with cs_sweep_results_fini. */
cs_status cs_sweep_results_load(const char *dir, struct cs_sweep_results *out, char *err,
                                size_t errlen);
void cs_sweep_results_fini(struct cs_sweep_results *r);
/* Column index of `name`, or (size_t)-1. */
size_t cs_sweep_results_col(const struct cs_sweep_results *r, const char *name);
/* Cell of row `row` in column `name`; NULL when absent. Borrowed. */
const char *cs_sweep_results_get(const struct cs_sweep_results *r, size_t row, const char *name);

/* The figures a sweep can have, chosen by its columns:
 *   SCALING   an axis cluster.nodes or cluster.gpus_per_node: tokens/s per
 *             GPU relative to the smallest point, against GPUs;
 *   TOPOLOGY  an axis cluster.fabric.topology or .oversubscription:
 *             tokens/s per GPU against oversubscription (or per topology);
 *   COST      tco.* columns: cost per utilized GPU-hour of the seven
 *             options against cost.utilization (or the first axis);
 *   GOODPUT   run.goodput and an axis checkpoint.interval*: goodput
 *             against the checkpoint interval.
 * Series are the combinations of the other axes' values. */
enum cs_sweep_fig {
    CS_SWEEP_FIG_SCALING,
    CS_SWEEP_FIG_TOPOLOGY,
    CS_SWEEP_FIG_COST,
    CS_SWEEP_FIG_GOODPUT,
    CS_SWEEP_FIG_COUNT
};
/* "sweep_scaling", ...: the stem of the data file, the template
 * plots/<stem>.gp and the images <stem>.png / <stem>.svg. */
const char *cs_sweep_fig_name(enum cs_sweep_fig f);
/* A one-line description for people ("scaling efficiency against GPUs"). */
const char *cs_sweep_fig_title(enum cs_sweep_fig f);

/* Writes dir/<stem>.dat for every figure the results allow and sets
 * made[f]; gnuplot blocks (one per series, separated by two blank lines),
 * each starting with a header line whose second field is the series name.
 * Returns CS_OK, or CS_EIO with a message in err. */
cs_status cs_sweep_plot_data(const struct cs_sweep_results *r, const char *dir,
                             bool made[CS_SWEEP_FIG_COUNT], char *err, size_t errlen);


/* cs_sweep_plot_data, then for each figure made: copies plots/<stem>.gp
 * into dir and runs gnuplot there (report/gnuplot.c: fork + execvp, no
 * shell); rendered[f] is true when gnuplot succeeded (<stem>.png and
 * <stem>.svg). When gnuplot is not installed, *no_gnuplot is set and the
 * data and scripts are still written. Returns CS_OK, or CS_EIO with a
 * message in err (a file that cannot be written, a template missing). */
cs_status cs_sweep_plot_render(const struct cs_sweep_results *r, const char *dir,
                               bool made[CS_SWEEP_FIG_COUNT], bool rendered[CS_SWEEP_FIG_COUNT],
                               bool *no_gnuplot, char *err, size_t errlen);

#endif
