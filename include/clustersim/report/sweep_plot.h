/* sweep_plot.h: a sweep directory's results read back, and the figures
 * drawn from them (report layer, report/sweep_plot.c), for `clustersim plot`
 * and `clustersim report sweep`. */
#ifndef CLUSTERSIM_REPORT_SWEEP_PLOT_H
#define CLUSTERSIM_REPORT_SWEEP_PLOT_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A sweep directory's rows as strings, for `clustersim plot` and
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
 * last line is ignored). CS_EIO / CS_ECONFIG with one error in d
 * (caller-owned) whose file (and line, for a bad row) is the one at fault.
 * Free *out with cs_sweep_results_fini (nothing to free on failure). */
cs_status cs_sweep_results_load(const char *dir, struct cs_sweep_results *out, cs_diags *d);
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
 * Returns CS_OK, or CS_EIO with one error in d (caller-owned) whose file is
 * the data file that cannot be written. */
cs_status cs_sweep_plot_data(const struct cs_sweep_results *r, const char *dir,
                             bool made[CS_SWEEP_FIG_COUNT], cs_diags *d);


/* cs_sweep_plot_data, then for each figure made: copies plots/<stem>.gp
 * into dir and runs gnuplot there (report/gnuplot.c: fork + execvp, no
 * shell); rendered[f] is true when gnuplot succeeded (<stem>.png and
 * <stem>.svg). When gnuplot is not installed, *no_gnuplot is set and the
 * data and scripts are still written. Returns CS_OK, or CS_EIO with one
 * error in d (caller-owned) naming the file (one that cannot be written, a
 * template missing). */
cs_status cs_sweep_plot_render(const struct cs_sweep_results *r, const char *dir,
                               bool made[CS_SWEEP_FIG_COUNT], bool rendered[CS_SWEEP_FIG_COUNT],
                               bool *no_gnuplot, cs_diags *d);

#endif
