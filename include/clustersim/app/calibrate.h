/* calibrate.h: the orchestration of `clustersim calibrate` (app layer,
 * app/calibrate.c): the measured inputs read (config/calib_io.h) and
 * recorded with their sha256, the scenarios the measurements ran on built,
 * the fits of models/calib.h run in order (one curve per nccl-tests run,
 * the closed-form collective model over every run, GEMM, storage, then the
 * step times on top of what was fitted before) and the calibration overlay
 * assembled. The cli writes the overlay, the report and the figure
 * (report/calib_report.h) and prints the diagnostics. docs/calibration.md. */
#ifndef CLUSTERSIM_APP_CALIBRATE_H
#define CLUSTERSIM_APP_CALIBRATE_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/collective.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One nccl-tests log with what the command line says about it (FILE@OP,
 * FILE@ALGO). */
struct cs_app_calib_nccl {
    const char *path;          /* borrowed; "-" is standard input */
    enum cs_coll_op op;        /* CS_COLL_OP_COUNT: the log names its collective */
    bool have_algo;            /* every run of the log was measured with algo */
    enum cs_coll_algo algo;
};

/* The inputs, by kind; every pointer is borrowed and NULL (or n_nccl 0)
 * means none of that kind. */
struct cs_app_calib_opts {
    const struct cs_app_calib_nccl *nccl;
    size_t n_nccl;
    const char *gemm;          /* GEMM CSV */
    const char *fio;           /* fio JSON */
    const char *fio_tier;      /* tier fio measured; NULL: the base's first tier, else "nvme" */
    const char *steps;         /* measured step times CSV */
    const char *base;          /* base scenario: the cluster the measurements ran on */
    bool strict;               /* a malformed nccl-tests row is an error, not a skip */
    const char *date;          /* recorded in the overlay (ISO 8601 UTC); NULL: "unknown" */
    /* Progress, nullable: the stage (a string literal naming what it
     * counts: "nccl-tests runs", "step scenarios", "step simulations
     * (fit)"), the work done in it and its total (0: not known ahead, the
     * fit's simulations). */
    void (*progress)(void *ctx, const char *stage, uint64_t done, uint64_t total);
    void *progress_ctx;
};

/* The step that failed (CS_APP_CALIB_NONE when none did). */
enum cs_app_calib_stage {
    CS_APP_CALIB_NONE,
    CS_APP_CALIB_BASE,         /* reading or loading the base scenario */
    CS_APP_CALIB_NCCL,         /* reading or parsing an nccl-tests log */
    CS_APP_CALIB_RUNS,         /* the cluster an nccl-tests run measured */
    CS_APP_CALIB_GEMM,
    CS_APP_CALIB_FIO,
    CS_APP_CALIB_STEPS,
};

struct cs_app_calib {
    /* The overlay: inputs (kind, file, sha256 of the contents as read,
     * malformed nccl rows skipped), the fitted calibration (fields not
     * fitted are NAN, curves only from fits that succeeded), the storage
     * tier, and every fit tried, refused ones included (ok false, msg), with
     * its residuals and warning. Owned. */
    struct cs_calib_overlay ov;
    enum cs_app_calib_stage failed;
};

/* Runs the calibration: reads the base scenario (against cat, borrowed),
 * then each nccl-tests log (every log is parsed, so that all their errors
 * are reported, unless one cannot be read), fits a curve per run (a later
 * run of the same op, ranks, nodes and algorithm replaces the earlier
 * curve) and the collective model over all runs, then the GEMM, fio and
 * step-time inputs in that order, stopping at the first that fails.
 *
 * Diagnostics go to d in the order they arise: the base scenario's and the
 * logs' (file:line warnings for skipped rows), then, without a file, a
 * warning per fit refused or over the residual threshold
 * (CS_CALIB_RMS_WARN; "NAME: why") and per curve replaced or dropped past
 * CS_CALIB_MAX_CURVES, then the error of a later input. Warnings of the
 * scenarios rebuilt per run or step row (they repeat the base's, reported
 * once) are kept only when that step fails.
 *
 * *out is zeroed first; release it with cs_app_calib_fini whatever the
 * status. Returns CS_OK; CS_EIO (an error naming the file) when an input
 * cannot be read; the reader's or loader's status (CS_ECONFIG, ...) for a
 * malformed input, with strict making a malformed nccl-tests row one;
 * CS_EINVAL when GEMM timings have no GPU (no base scenario and no
 * nccl-tests run) or a step row's scenario has no workload. out->failed
 * names the step. A fit that is refused is not a failure: it is a
 * warning, and recorded in the overlay. */
cs_status cs_app_calibrate(const cs_catalog *cat, const struct cs_app_calib_opts *o, cs_diags *d,
                           struct cs_app_calib *out);

void cs_app_calib_fini(struct cs_app_calib *r);

#endif
