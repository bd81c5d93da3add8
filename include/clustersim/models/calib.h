/* calib.h: calibration from measured microbenchmarks (docs/calibration.md).
 *
 * This header (models layer) holds the measurements as plain data and the
 * fits; the readers that fill them are in config/calib_io.h and the writers
 * of the overlay and report in report/calib_report.h.
 * - inputs (config/nccl.c, config/calib_inputs.c): nccl-tests logs, a GEMM
 *   CSV, fio JSON and a CSV of measured step times become plain data;
 *   errors name the file and line (and column or key);
 * - fits (models/calibrate.c): GSL nonlinear least squares
 *   (gsl_multifit_nlinear, Levenberg-Marquardt) of the collective, compute,
 *   storage and step models to those data, with per-point residuals;
 * - the overlay (report/calib_report.c writes it, config/cfg_calib.c reads
 *   it back as `calibration:` of a scenario) and its application to the
 *   options the simulators take (cs_step_options_from_scenario).
 *
 * Residuals are relative: err = fitted / measured - 1 of the quantity a user
 * reads (busbw, TFLOP/s, bandwidth, step time); the least-squares objective
 * is the sum of squared log ratios, so that a 1 GB/s miss at 8 KB weighs as
 * much as a 100 GB/s miss at 8 GB. A fit with fewer points than parameters
 * + 1 is refused (CS_ERANGE) with a message. */
#ifndef CLUSTERSIM_MODELS_CALIB_H
#define CLUSTERSIM_MODELS_CALIB_H

#include "clustersim/models/collective.h"
#include "clustersim/models/compute.h"
#include "clustersim/base/diag.h"
#include "clustersim/models/refcase.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/step.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- inputs */

/* One row of an nccl-tests table: [0] out-of-place, [1] in-place (NAN when
 * the log has no such half: old out-of-place-only tables, rccl-tests -O 0
 * in-place-only ones). wrong is -1 for "N/A" (-c 0). Rows of one run that
 * repeat a size (-N run cycles, rccl-tests stress cycles, a table printed
 * twice) are averaged into one row: arithmetic means of time, algbw, busbw
 * and the -I figures, the max of #wrong; `cycles` says how many. A cycle
 * starts where a size is smaller than the row before it; its j-th row is
 * averaged into the first cycle's j-th row when the sizes agree. */
struct cs_nccl_row {
    int line;                 /* first line of this size */
    int cycles;               /* rows averaged (1 when the size appears once) */
    double size_bytes, count;
    double time_us[2], algbw_gbps[2], busbw_gbps[2];
    long wrong[2];
    /* -I per-iteration columns (nccl-tests >= 2.19.2); NAN when absent. */
    double iter_min_us[2], iter_max_us[2], iter_p99_us[2], iter_cv_pct[2];
    char stamp[20];           /* -S timestamp "YYYY-MM-DD HH:MM:SS" ("" none) */
};

/* One run (one table of one data type and reduction) of a log. */
struct cs_nccl_run {
    char file[256];
    int line;                 /* where the run's header starts */
    enum cs_coll_op op;
    enum cs_coll_algo algo;   /* "NCCL_ALGO=X" seen in the log, else AUTO */
    int n_threads, n_gpus;    /* "# nThread T nGpus G" (0: not given) */
    int ranks;                /* "Rank" lines of "Using devices", else T x G */
    int nodes;                /* distinct host names of those lines, else 1 */
    char gpu[64];             /* device model of rank 0 ("" unknown) */
    char dtype[16];
    char redop[16];
    char tool[16];            /* "nccl-tests", "rccl-tests" ("" not said) */
    char version[48];         /* the tool's version as printed ("" unknown) */
    bool json;                /* read from nccl-tests -J JSON */
    bool cputime;             /* -C 1: the time columns are CPU time */
    bool per_iter;            /* -I 1: per-iteration columns were present */
    bool in_place_only;       /* rccl-tests -O 0: only the in-place half */
    int cycles;               /* sweeps of the table (-N; 1: one) */
    size_t n_rows;
    struct cs_nccl_row *rows; /* owned; in printed order */
};

struct cs_nccl_log {
    size_t n_runs;
    struct cs_nccl_run *runs; /* owned */
    size_t skipped_rows;      /* malformed rows skipped (lenient parsing) */
};

void cs_nccl_log_fini(struct cs_nccl_log *l);
/* The time a fit uses: out-of-place, or in-place for an in-place-only
 * table; NAN when neither. */
double cs_nccl_row_time_us(const struct cs_nccl_row *r);

/* GEMM CSV: a header naming the columns m, n, k, dtype (fp32 tf32 bf16 fp16
 * fp8; default bf16), and seconds or tflops (one of them), optionally
 * batch and name; '#' comments. One row per GEMM (m x k) * (k x n). */
struct cs_gemm_row {
    int line;
    double m, n, k, batch;
    enum cs_precision dtype;
    double seconds;           /* per call; from tflops when that was given */
    double tflops;            /* achieved: 2 m n k batch / seconds / 1e12 */
    char name[48];
};

/* fio JSON (--output-format=json): one entry per job and direction that
 * moved data (read, write). */
struct cs_fio_job {
    char jobname[64];
    bool write;
    double bs_bytes;          /* block size ("bs" of the job or global options); NAN unknown */
    double iodepth;           /* NAN unknown */
    double bw_bytes_per_s;
    double iops;
    double clat_mean_s;       /* completion latency mean; NAN when absent */
    double io_bytes;
};

/* ------------------------------------------------------------------ fits */


/* One residual. */
struct cs_calib_point {
    char label[64];           /* "8 ranks 1 node 1073741824 B", a GEMM shape, a step row */
    double x;                 /* size in bytes, or 0 */
    double measured, fitted;  /* in the unit of the fit (GB/s, TFLOP/s, s) */
    double err;               /* fitted / measured - 1 */
};

#define CS_CALIB_MAX_PARAMS 8
struct cs_calib_fit {
    char kind[12];            /* curve, collective, gemm, storage, steps */
    char name[96];            /* what was fitted */
    char unit[16];            /* of measured/fitted */
    bool ok;                  /* false: refused or failed; see msg */
    char msg[256];
    int n_params;
    char param_names[CS_CALIB_MAX_PARAMS][32];
    double params[CS_CALIB_MAX_PARAMS];
    size_t n;
    struct cs_calib_point *pts;   /* owned; free with cs_calib_fit_fini */
    double mape, max_err;     /* mean and max of |err| */
    double rms;               /* sqrt(mean(err^2)), the relative RMS residual */
    char warning[224];        /* "" or why the fit should not be trusted */
};

/* A fit whose relative RMS residual exceeds this (15%) is kept but carries
 * a warning (fit->warning), which the overlay records and `clustersim
 * calibrate` prints: docs/calibration.md, "Residual threshold". */
#define CS_CALIB_RMS_WARN 0.15
/* Sets f->rms from f->pts and f->warning when it exceeds threshold (every
 * fit of models/calibrate.c calls it with CS_CALIB_RMS_WARN). */
void cs_calib_fit_check_residual(struct cs_calib_fit *f, double threshold);
void cs_calib_fit_fini(struct cs_calib_fit *f);

/* Fits the nccl-tests time curve of one run (out-of-place columns, rows
 * with size > 0): t(S) = smoothmax_4(L, min_r(a_r + x / B_r)), x = S x
 * busbw factor. Three nested models are tried: one regime (a, B), one
 * regime with a launch floor, two regimes (LL-like and Simple-like
 * protocols) with a launch floor; the one with the lowest corrected AIC
 * among those the data can support wins. Fewer than 3 points: CS_ERANGE,
 * fit->msg says why. */
cs_status cs_calib_fit_curve(const struct cs_nccl_run *run, struct cs_calib_curve *curve,
                             struct cs_calib_fit *fit);

/* Time (s) of a curve at `bytes` (nccl-tests convention). */
double cs_calib_curve_time_s(const struct cs_calib_curve *c, double bytes);
/* The curve of `cal` for (op, ranks, nodes) measured with `algo` (for
 * AUTO: a curve measured with AUTO, else any), or NULL. Borrowed. */
const struct cs_calib_curve *cs_calib_find_curve(const struct cs_calib_cfg *cal, enum cs_coll_op op, int ranks,
                                                 int nodes, enum cs_coll_algo algo);

/* A run with the cluster it ran on (both borrowed). */
struct cs_calib_coll_input {
    const struct cs_nccl_run *run;
    const struct cs_cluster_cfg *cluster;
};
/* Fits the physical parameters of the closed-form model (collective.h) to
 * every run at once: intra-node efficiency (when a one-node run uses ring or
 * tree), network efficiency (when a run spans nodes), NVLS efficiency (when
 * the model picks NVLS for a point) and the launch floor (when a run has
 * sizes below 1 MiB). Stores them in cal (other fields untouched). `base`
 * gives the other parameters. */
cs_status cs_calib_fit_collective(const struct cs_calib_coll_input *in, size_t n, const struct cs_coll_params *base,
                                  struct cs_calib_cfg *cal, struct cs_calib_fit *fit);
/* Busbw (B/s) the closed form predicts for a run's row with the calibrated
 * efficiencies of cal (NULL: none) applied to a copy of cluster, in *out.
 * CS_EINVAL (*out untouched) when the model gives no positive time for it. */
cs_status cs_calib_predict_busbw(const struct cs_cluster_cfg *cluster, const struct cs_coll_params *base,
                                 const struct cs_calib_cfg *cal, const struct cs_nccl_run *run, double bytes,
                                 double *out);

/* Fits gemm_eff_max and gemm_dim_half of cs_compute_params to measured
 * GEMMs on `gpu` (cs_compute_gemm_s with batch); stores them in cal. */
cs_status cs_calib_fit_gemm(const struct cs_gemm_row *rows, size_t n, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *base, struct cs_calib_cfg *cal, struct cs_calib_fit *fit);

/* Storage tier figures from fio: per direction, bw(bs) = bs x q / (lat +
 * bs / BW) fitted (q = iodepth) when there are >= 3 jobs with distinct block
 * sizes, else the best measured bandwidth. NAN where nothing was measured. */
struct cs_calib_storage {
    char tier[CS_NAME_MAX];
    double read_bw_bytes_per_s, write_bw_bytes_per_s, latency_s;
};
cs_status cs_calib_fit_storage(const struct cs_fio_job *jobs, size_t n, struct cs_calib_storage *out,
                               struct cs_calib_fit *fit);

/* A measured step: either a reference case (ref, its metric) or a cluster +
 * workload with measured seconds per step. opts are the options before the
 * global factors (they are applied on top). All borrowed. */
struct cs_calib_step_case {
    char label[64];
    const struct cs_ref_case *ref;          /* or NULL */
    const struct cs_cluster_cfg *cluster;   /* when ref is NULL */
    const struct cs_workload *workload;     /* when ref is NULL */
    struct cs_step_options opts;
    double measured;                        /* ref: its metric; else seconds */
};
/* Applies the global factors to o: gemm_eff_max, attn_eff and mem_eff times
 * scale (each capped at 1), overlap_slowdown = slowdown (NAN: unchanged). */
void cs_calib_apply_factors(struct cs_step_options *o, double scale, double slowdown);
/* Predicts one case with factors (NAN when it cannot be simulated). */
double cs_calib_step_predict(const struct cs_calib_step_case *c, double scale, double slowdown);
/* Fits compute_scale and overlap_slowdown to the cases; stores them in cal. */
cs_status cs_calib_fit_steps(const struct cs_calib_step_case *cases, size_t n, struct cs_calib_cfg *cal,
                             struct cs_calib_fit *fit);
/* The same, calling progress (nullable) with the step simulations done so
 * far (total 0: the solver's iterations are not known ahead) after each
 * evaluation of the residuals (n simulations). */
cs_status cs_calib_fit_steps_progress(const struct cs_calib_step_case *cases, size_t n, struct cs_calib_cfg *cal,
                                      struct cs_calib_fit *fit,
                                      void (*progress)(void *ctx, uint64_t done, uint64_t total), void *ctx);

/* ------------------------------------------------------- applying it */

/* Step options for a scenario: cs_step_options_default for its GPU, then
 * its calibration (GEMM parameters, compute scale, overlap slowdown, NVLS
 * efficiency) when it has one. The efficiencies of the cluster were applied
 * at load time. */
void cs_step_options_from_scenario(const struct cs_scenario *s, struct cs_step_options *o);
/* Collective parameters as nccl-tests sees them (launch floor on):
 * cs_coll_params_default, then the scenario's calibration. */
void cs_calib_coll_params(const struct cs_scenario *s, struct cs_coll_params *p);

/* --------------------------------------------------------- the overlay */

struct cs_calib_input {
    char kind[8];             /* nccl, gemm, fio, steps, base */
    char file[512];
    char sha256[65];
    size_t skipped_rows;      /* malformed rows skipped (nccl) */
};
struct cs_calib_overlay {
    char date[32];            /* ISO 8601 UTC */
    size_t n_inputs;
    struct cs_calib_input *inputs;   /* owned */
    struct cs_calib_cfg cal;
    bool has_storage;
    struct cs_calib_storage storage;
    size_t n_fits;
    struct cs_calib_fit *fits;       /* owned */
};
void cs_calib_overlay_fini(struct cs_calib_overlay *o);

#endif
