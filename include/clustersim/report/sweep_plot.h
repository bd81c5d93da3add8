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
 *             options against cost.utilization (or the first cost axis);
 *             one panel per combination of the other varying axes;
 *   GOODPUT   run.goodput and an axis checkpoint.interval*: goodput
 *             against the checkpoint interval;
 *   THROUGHPUT only when none of the others is drawn: tokens/s per GPU
 *             against the first axis with two values or more.
 * Series are the combinations of the other varying axes' values. */
enum cs_sweep_fig {
    CS_SWEEP_FIG_SCALING,
    CS_SWEEP_FIG_TOPOLOGY,
    CS_SWEEP_FIG_COST,
    CS_SWEEP_FIG_GOODPUT,
    CS_SWEEP_FIG_THROUGHPUT,
    CS_SWEEP_FIG_COUNT
};
/* "sweep_scaling", ...: the stem of the data file <stem>.dat, the script
 * <stem>.gp and the images <stem>.png / <stem>.svg (first page). */
const char *cs_sweep_fig_name(enum cs_sweep_fig f);
/* A one-line description for people ("scaling efficiency against GPUs"). */
const char *cs_sweep_fig_title(enum cs_sweep_fig f);

/* Series in one panel at most: the palette's size (report/palette.h). */
#define CS_SWEEP_MAX_SERIES 20
/* Panels on one page (one PNG/SVG) and pages of one figure at most. */
#define CS_SWEEP_PANELS_PER_PAGE 12
#define CS_SWEEP_MAX_PAGES 8

/* What an axis is to one figure. */
enum cs_sweep_role {
    CS_SWEEP_ROLE_X,      /* on the x axis (scaling: the GPU-count axes) */
    CS_SWEEP_ROLE_FIXED,  /* one value among the rows drawn: in the title */
    CS_SWEEP_ROLE_SERIES, /* a line per value: in the legend */
    CS_SWEEP_ROLE_PANEL   /* a panel per value */
};

/* The layout cs_sweep_plot_data gives figure f. Strings are for people:
 * numbers at 6 significant digits with the key's unit where it has one
 * ("utilization=10%"); legend and panel names are the key's last
 * component (the whole key when two axes end alike), fixed: whole keys. */
struct cs_sweep_layout {
    size_t naxes;
    enum cs_sweep_role *role; /* naxes; owned */
    size_t nseries;           /* legend entries (cost: the 7 options) */
    char **series;            /* nseries labels ("all points" for a lone line); owned */
    size_t npanels;           /* >= 1 */
    char **panels;            /* npanels labels ("" for a lone panel); owned */
    size_t shown, pages;      /* cs_sweep_paginate(npanels) */
    char *fixed;              /* "key=value, ..." of the fixed axes, or NULL; owned */
};
/* False (nothing to free) when the results do not make figure f. */
bool cs_sweep_fig_layout(const struct cs_sweep_results *r, enum cs_sweep_fig f,
                         struct cs_sweep_layout *out);
void cs_sweep_layout_fini(struct cs_sweep_layout *l);
/* Pages of figure f (0 when not made). */
size_t cs_sweep_fig_pages(const struct cs_sweep_results *r, enum cs_sweep_fig f);
/* npanels panels: *shown = the first min(npanels, PANELS_PER_PAGE x
 * MAX_PAGES) of them are drawn, on *pages = ceil(shown / PANELS_PER_PAGE)
 * pages; the others are left out with a warning. */
void cs_sweep_paginate(size_t npanels, size_t *shown, size_t *pages);
/* The file stem of page `page` (0-based) of figure f: "sweep_cost" for the
 * first, "sweep_cost_p2" for the second, ... */
void cs_sweep_page_stem(enum cs_sweep_fig f, size_t page, char *buf, size_t buflen);

/* Writes dir/<stem>.dat and the script dir/<stem>.gp for every figure the
 * results allow and sets made[f]. Data: gnuplot blocks (two blank lines
 * between), panel by panel, each starting with a header line whose second
 * field is the series name (cost: the panel's). Adds one warning
 * ("warning: <stem>: N of M panels left out ...") per figure with panels
 * past CS_SWEEP_MAX_PAGES pages. Returns CS_OK, or CS_EIO with one error in
 * d (caller-owned) whose file is the one that cannot be written. */
cs_status cs_sweep_plot_data(const struct cs_sweep_results *r, const char *dir,
                             bool made[CS_SWEEP_FIG_COUNT], cs_diags *d);


/* cs_sweep_plot_data, then for each figure made runs gnuplot <stem>.gp in
 * dir (report/gnuplot.c: fork + execvp, no shell); rendered[f] is true
 * when gnuplot succeeded (<stem>.png and <stem>.svg, and <stem>_pK.* for
 * the pages past the first). When gnuplot is not installed, *no_gnuplot is
 * set and the data and scripts are still written. Returns CS_OK, or CS_EIO
 * with one error in d (caller-owned) naming the file that cannot be
 * written. */
cs_status cs_sweep_plot_render(const struct cs_sweep_results *r, const char *dir,
                               bool made[CS_SWEEP_FIG_COUNT], bool rendered[CS_SWEEP_FIG_COUNT],
                               bool *no_gnuplot, cs_diags *d);

/* Removes from dir every file cs_sweep_plot_render can write (<stem>.dat,
 * <stem>.gp, <stem>[_pK].png and .svg of every figure); missing ones are
 * skipped. For callers that render into a temporary directory. */
void cs_sweep_plot_remove(const char *dir);

#endif
