/* uncertainty.h: confidence intervals on the headline figures from the
 * model's own parameters (app layer, app/uncertainty.c; method and sources
 * in docs/uncertainty.md).
 *
 * Inputs and their distributions:
 * - step: the step time's relative error, log-normal with the sigma whose
 *   mean absolute value is the step model's held-out validation error on
 *   this GPU and model kind (validate-refs; where this GPU has no held-out
 *   rows, every GPU's): sigma = MAPE x sqrt(pi / 2);
 * - mtbf: a factor on every failure class's MTBF, log-uniform on the
 *   scenario's uncertainty.mtbf range (default [0.5, 2]: a stated range);
 * - restart: a factor on the detection and restart times, uniform on
 *   uncertainty.restart (default [0.5, 2], stated).
 * Each Monte Carlo sample draws every input from its own stream
 * (CS_RNG_UNCERTAINTY of the scenario's seed, deterministic per seed and
 * independent of the thread count) and simulates one run replica with them,
 * so the spread holds the parameters' uncertainty and the failures'
 * randomness together. The tornado moves one input to its 5th and 95th
 * percentile, the others at their nominal values, and reports the mean time
 * to train over common-seed replicas. */
#ifndef CLUSTERSIM_APP_UNCERTAINTY_H
#define CLUSTERSIM_APP_UNCERTAINTY_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/step.h"

#include <stdbool.h>
#include <stddef.h>

enum cs_unc_input { CS_UNC_STEP, CS_UNC_MTBF, CS_UNC_RESTART, CS_UNC_COUNT };
extern const char *const cs_unc_input_names[]; /* "step_time", "mtbf", "restart" */

#define CS_UNC_DEFAULT_SAMPLES 200
#define CS_UNC_MAX_THREADS 64

struct cs_unc_spec {
    double step_sigma;          /* log-normal sigma of the step-time factor; 0: none */
    double step_mape;           /* the validation error it comes from */
    int step_rows;              /* held-out rows behind it */
    char step_source[512];      /* where it comes from, for reports */
    double mtbf_lo, mtbf_hi;    /* factor range; 1, 1 without failures */
    double restart_lo, restart_hi;
};

/* The distributions for scenario s: the step's from the validation index
 * (the held-out rows of the workload's own architecture where there are
 * at least CS_UNC_MODEL_MIN_ROWS of them, cs_app_validated_model, with the
 * spread of their log errors, which takes in their bias; else the GPU's
 * held-out rows of its kind, cs_app_validated_range_kind; a step error of
 * 0 when there is none, said in step_source), the others from
 * s->uncertainty (defaults above). */
#define CS_UNC_MODEL_MIN_ROWS 5
void cs_app_unc_spec(const cs_catalog *cat, const struct cs_scenario *s, struct cs_unc_spec *out);

struct cs_unc_dist {
    double mean, p05, p50, p95;
};

struct cs_unc_tornado {
    enum cs_unc_input input;
    double low_factor, high_factor;  /* the input at its p05 and p95 */
    double low, high;                /* the figure (time to train, s; else step time) there */
};

typedef void (*cs_unc_progress)(int done, int total, void *ctx);

struct cs_app_uncertainty {
    struct cs_unc_spec spec;
    int samples;
    struct cs_unc_dist step_time_s;
    bool has_time;                   /* a tokens-mode run: time to train below */
    struct cs_unc_dist time_to_train_s;
    double *time_samples;            /* owned: per sample (has_time), in sample order */
    int n_tornado;                   /* inputs that vary, by swing (largest first) */
    struct cs_unc_tornado tornado[CS_UNC_COUNT];
};

/* Monte Carlo over the spec for scenario s whose step is `step` (fits).
 * samples >= 1; threads 1..CS_UNC_MAX_THREADS; progress may be NULL
 * (called under a lock). Fills out (caller finalizes it). */
cs_status cs_app_uncertainty(const struct cs_scenario *s, const struct cs_step_result *step,
                             const struct cs_unc_spec *spec, int samples, int threads,
                             cs_unc_progress progress, void *ctx, cs_diags *d,
                             struct cs_app_uncertainty *out);
void cs_app_uncertainty_fini(struct cs_app_uncertainty *u);

/* `tco --uncertainty`: the option totals' p05/p50/p95 by Monte Carlo over
 * price and facility ranges: the scenario's cost.ranges when it has them;
 * else, stated ranges of +-cost.sensitivity (default 20%) around every
 * priced input among the GPU and cloud prices, the electricity price, PUE,
 * staff and support (the inputs are uniform on them, as cost.ranges are).
 * The tornado is cs_cost_sensitivity's for the option that is cheapest at
 * the base values, by swing. */
#define CS_UNC_MAX_RANGES CS_CIN_COUNT
struct cs_app_cost_unc {
    int samples;
    bool stated;                      /* the ranges are the stated defaults (no cost.ranges) */
    int n_ranges;
    struct cs_cost_range ranges[CS_UNC_MAX_RANGES > CS_COST_MAX_RANGES ? CS_UNC_MAX_RANGES
                                                                         : CS_COST_MAX_RANGES];
    struct cs_cost_mc mc;
    enum cs_cost_option tornado_option;
    int n_tornado;
    struct cs_cost_sens_row tornado[CS_CIN_COUNT];
};
cs_status cs_app_cost_uncertainty(const struct cs_scenario *s, const struct cs_cost_inputs *in,
                                  const struct cs_cost_result *base, int samples,
                                  struct cs_app_cost_unc *out);

/* The p-quantile (0..1) of n values (sorted in place), linear between
 * order statistics; NAN for n == 0. */
double cs_unc_quantile(double *v, size_t n, double p);

#endif
