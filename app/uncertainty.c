/* uncertainty.c: Monte Carlo over the model's own parameters (contract in
 * clustersim/app/uncertainty.h; method and sources in docs/uncertainty.md).
 * Sample i draws its inputs from a generator seeded with (scenario seed,
 * CS_RNG_UNCERTAINTY, i), so the result does not depend on the threads. */
#include "clustersim/app/uncertainty.h"

#include "clustersim/app/validate.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/models/run.h"
#include "clustersim/sim/rng.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_unc_input_names[] = {"step_time", "mtbf", "restart", NULL};

#define TORNADO_REPLICAS 16

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

double cs_unc_quantile(double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    double h = p * (double)(n - 1);
    size_t k = (size_t)floor(h);
    if (k + 1 >= n)
        return v[n - 1];
    return v[k] + (h - (double)k) * (v[k + 1] - v[k]);
}

void cs_app_unc_spec(const cs_catalog *cat, const struct cs_scenario *s, struct cs_unc_spec *out)
{
    memset(out, 0, sizeof *out);
    const struct cs_uncertainty_cfg *u = &s->uncertainty;
    double mape = NAN, sigma = NAN;
    struct cs_app_validate v;
    if (isfinite(u->step_error)) {
        mape = u->step_error;
        snprintf(out->step_source, sizeof out->step_source, "uncertainty.step_error %.3g", mape);
    } else if (s->calibration.enabled && isfinite(s->calibration.step_fit_mape)) {
        /* calibrated to the user's step times: the fit's residual on them
         * (in-sample: the floor of the error, not its held-out value) */
        mape = s->calibration.step_fit_mape;
        out->step_rows = s->calibration.step_fit_points;
        snprintf(out->step_source, sizeof out->step_source,
                 "calibration's step-time fit: %.1f%% over %d measured steps (in-sample residual)", 100 * mape,
                 s->calibration.step_fit_points);
    } else if (cat && s->has_workload && cs_app_validate_all(cat, &v) == CS_OK) {
        /* one comparison, read up to three ways */
        bool moe = cs_model_is_moe(&s->workload.model);
        const char *gpu = s->cluster.gpu.name;
        struct cs_app_vmodel vm;
        cs_app_vmodel_of(&v, &s->workload, &vm);
        struct cs_app_vrange vr, vall;
        vr.rows[1] = vall.rows[1] = 0;
        if (vm.rows[1] < CS_UNC_MODEL_MIN_ROWS)
            cs_app_vrange_of(&v, gpu, CS_STACK_CUSTOM, moe, &vr);
        if (vm.rows[1] < CS_UNC_MODEL_MIN_ROWS && vr.rows[1] == 0)
            cs_app_vrange_of(&v, "*", CS_STACK_CUSTOM, moe, &vall);
        cs_app_validate_fini(&v);
        if (vm.rows[1] >= CS_UNC_MODEL_MIN_ROWS) {
            /* this architecture's own held-out rows: a family the model
             * mispredicts one way gets a band as wide as its bias */
            mape = vm.mape[1];
            sigma = vm.rms_log[1];
            out->step_rows = vm.rows[1];
            snprintf(out->step_source, sizeof out->step_source,
                     "held-out validation error of this architecture (%.63s): %.1f%% over %d rows on "
                     "%.159s, mean %+.1f%% (%s; validate-refs)",
                     s->workload.model.name, 100 * mape, vm.rows[1], vm.gpus, 100 * vm.bias[1],
                     vm.bias[1] > 0 ? "predicted faster than measured" : "predicted slower than measured");
        } else if (vr.rows[1] > 0) {
            mape = vr.mape[1];
            out->step_rows = vr.rows[1];
            snprintf(out->step_source, sizeof out->step_source,
                     "held-out validation error on %s, %s runs: %.1f%% over %d rows (validate-refs)", gpu,
                     moe ? "mixture-of-experts" : "dense", 100 * mape, vr.rows[1]);
        } else if (vall.rows[1] > 0) {
            mape = vall.mape[1];
            out->step_rows = vall.rows[1];
            snprintf(out->step_source, sizeof out->step_source,
                     "no held-out rows on %s: every GPU's held-out error, %s runs: %.1f%% over %d rows "
                     "(validate-refs)", gpu, moe ? "mixture-of-experts" : "dense", 100 * mape, vall.rows[1]);
        }
    }
    if (!isfinite(mape)) {
        mape = 0;
        snprintf(out->step_source, sizeof out->step_source,
                 "no validation index in the data directory: the step's error is not included");
    }
    out->step_mape = mape;
    /* mean |N(0, s^2)| = s sqrt(2/pi); an architecture's rows give the
     * spread of their log errors directly */
    out->step_sigma = isfinite(sigma) ? sigma : mape * sqrt(3.14159265358979323846 / 2.0);
    if (s->failures.enabled && s->failures.n_components > 0) {
        out->mtbf_lo = u->mtbf_lo > 0 ? u->mtbf_lo : 0.5;
        out->mtbf_hi = u->mtbf_hi > 0 ? u->mtbf_hi : 2.0;
        out->restart_lo = u->restart_lo > 0 ? u->restart_lo : 0.5;
        out->restart_hi = u->restart_hi > 0 ? u->restart_hi : 2.0;
    } else {
        out->mtbf_lo = out->mtbf_hi = out->restart_lo = out->restart_hi = 1.0;
    }
}

/* One draw of the three factors: u in [0,1)^3 from the caller; the
 * inverse CDFs map them (so the tornado can ask for a percentile). */
static void factors_at(const struct cs_unc_spec *sp, const double q[CS_UNC_COUNT], double f[CS_UNC_COUNT])
{
    f[CS_UNC_STEP] = sp->step_sigma > 0 ? exp(gsl_cdf_ugaussian_Pinv(q[0]) * sp->step_sigma) : 1.0;
    f[CS_UNC_MTBF] = sp->mtbf_lo * pow(sp->mtbf_hi / sp->mtbf_lo, q[1]);
    f[CS_UNC_RESTART] = sp->restart_lo + (sp->restart_hi - sp->restart_lo) * q[2];
}

/* The scenario and step with the factors applied. */
static void apply(const struct cs_scenario *s, const struct cs_step_result *step, const double f[CS_UNC_COUNT],
                  struct cs_scenario *so, struct cs_step_result *sto)
{
    *so = *s;   /* shallow: nothing below is freed or written through a pointer */
    *sto = *step;
    sto->time_s = step->time_s * f[CS_UNC_STEP];
    sto->tokens_per_s = step->tokens_per_s / f[CS_UNC_STEP];
    for (int i = 0; i < so->failures.n_components; i++)
        so->failures.components[i].mtbf_s *= f[CS_UNC_MTBF];
    so->failures.detection_s *= f[CS_UNC_RESTART];
    so->failures.restart_s *= f[CS_UNC_RESTART];
}

/* Time to train with the factors, over `n` replicas from `seed0` (mean);
 * NAN when the run is not simulated. */
static cs_status time_with(const struct cs_scenario *s, const struct cs_step_result *step,
                           const double f[CS_UNC_COUNT], int n, uint64_t seed0, cs_diags *d, double *out)
{
    struct cs_scenario so;
    struct cs_step_result sto;
    apply(s, step, f, &so, &sto);
    struct cs_run_options ro;
    cs_run_options_default(&ro);
    struct cs_run_result r;
    memset(&r, 0, sizeof r);
    cs_status st = cs_run_prepare(&so, &sto, &ro, d, &r);
    *out = NAN;
    if (st != CS_OK || !r.enabled || r.duration_mode)
        return st;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        struct cs_run_replica rep;
        st = cs_run_replica_simulate(&so, &r, &ro, cs_run_replica_seed(seed0, i), &rep);
        if (st != CS_OK)
            return st;
        sum += rep.wall_s;
    }
    *out = sum / n;
    return CS_OK;
}

struct uwork {
    const struct cs_scenario *s;
    const struct cs_step_result *step;
    const struct cs_unc_spec *sp;
    int samples;
    double *step_t, *ttt;
    cs_status st;
    pthread_mutex_t mu;
    int next, done;
    cs_unc_progress progress;
    void *ctx;
};

static void *uworker(void *arg)
{
    struct uwork *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int i = w->next++;
        bool stop = w->st != CS_OK;
        pthread_mutex_unlock(&w->mu);
        if (i >= w->samples || stop)
            break;
        gsl_rng *g = cs_rng_create(cs_rng_mix64(w->s->seed + (uint64_t)i), CS_RNG_UNCERTAINTY);
        double q[CS_UNC_COUNT], f[CS_UNC_COUNT];
        for (int k = 0; k < CS_UNC_COUNT; k++)
            q[k] = gsl_rng_uniform_pos(g);
        gsl_rng_free(g);
        factors_at(w->sp, q, f);
        w->step_t[i] = w->step->time_s * f[CS_UNC_STEP];
        cs_diags d;
        cs_diags_init(&d);
        cs_status st = time_with(w->s, w->step, f, 1, cs_rng_mix64(w->s->seed ^ 0x756e63ULL) + (uint64_t)i,
                                 &d, &w->ttt[i]);
        cs_diags_fini(&d);
        pthread_mutex_lock(&w->mu);
        if (st != CS_OK && w->st == CS_OK)
            w->st = st;
        w->done++;
        if (w->progress)
            w->progress(w->done, w->samples, w->ctx);
        pthread_mutex_unlock(&w->mu);
    }
    return NULL;
}

static struct cs_unc_dist dist_of(const double *v, int n)
{
    struct cs_unc_dist r = {NAN, NAN, NAN, NAN};
    double *c = cs_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *c);
    int m = 0;
    double sum = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) {
            c[m++] = v[i];
            sum += v[i];
        }
    if (m > 0) {
        r.mean = sum / m;
        r.p05 = cs_unc_quantile(c, (size_t)m, 0.05);
        r.p50 = cs_unc_quantile(c, (size_t)m, 0.50);
        r.p95 = cs_unc_quantile(c, (size_t)m, 0.95);
    }
    free(c);
    return r;
}

cs_status cs_app_uncertainty(const struct cs_scenario *s, const struct cs_step_result *step,
                             const struct cs_unc_spec *spec, int samples, int threads,
                             cs_unc_progress progress, void *ctx, cs_diags *d,
                             struct cs_app_uncertainty *out)
{
    memset(out, 0, sizeof *out);
    out->spec = *spec;
    if (!step->fits || !(step->time_s > 0) || samples < 1) {
        cs_diag_error(d, s->file, 0, 0, "uncertainty: needs a step that fits and at least one sample");
        return CS_EINVAL;
    }
    out->samples = samples;
    struct uwork w = {.s = s, .step = step, .sp = spec, .samples = samples, .st = CS_OK,
                      .progress = progress, .ctx = ctx};
    w.step_t = cs_xcalloc((size_t)samples, sizeof *w.step_t);
    w.ttt = cs_xcalloc((size_t)samples, sizeof *w.ttt);
    pthread_mutex_init(&w.mu, NULL);
    int nt = threads < 1 ? 1 : threads > CS_UNC_MAX_THREADS ? CS_UNC_MAX_THREADS : threads;
    if (nt > samples)
        nt = samples;
    pthread_t th[CS_UNC_MAX_THREADS];
    int started = 0;
    for (int i = 1; i < nt; i++)
        if (pthread_create(&th[started], NULL, uworker, &w) == 0)
            started++;
    uworker(&w);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&w.mu);
    if (w.st != CS_OK) {
        cs_diag_error(d, s->file, 0, 0, "uncertainty: a run-model sample failed: %s", cs_strerror(w.st));
        free(w.step_t);
        free(w.ttt);
        return w.st;
    }
    out->step_time_s = dist_of(w.step_t, samples);
    free(w.step_t);
    out->has_time = isfinite(w.ttt[0]);
    if (out->has_time) {
        out->time_to_train_s = dist_of(w.ttt, samples);
        out->time_samples = w.ttt;
    } else {
        free(w.ttt);
    }
    /* Tornado: each varying input at its p05 and p95, the others nominal
     * (q = 0.5 for the step, the nominal factor 1 for the others), common
     * replicas; the figure is the time to train, else the step time. */
    double nominal_q[CS_UNC_COUNT] = {0.5, 0.5, 0.5};
    double lo[CS_UNC_COUNT] = {spec->step_sigma, spec->mtbf_hi / spec->mtbf_lo, spec->restart_hi - spec->restart_lo};
    uint64_t seed0 = cs_rng_mix64(s->seed ^ 0x746f726eULL);
    for (int k = 0; k < CS_UNC_COUNT; k++) {
        if (!(k == CS_UNC_STEP ? lo[k] > 0 : k == CS_UNC_MTBF ? lo[k] > 1 : lo[k] > 0))
            continue;
        if (!out->has_time && k != CS_UNC_STEP)
            continue;
        struct cs_unc_tornado *t = &out->tornado[out->n_tornado];
        t->input = (enum cs_unc_input)k;
        double f[2][CS_UNC_COUNT], val[2];
        for (int e = 0; e < 2; e++) {
            double q[CS_UNC_COUNT];
            memcpy(q, nominal_q, sizeof q);
            q[k] = e == 0 ? 0.05 : 0.95;
            factors_at(spec, q, f[e]);
            /* the others at factor 1 (their nominal value), not their median */
            for (int j = 0; j < CS_UNC_COUNT; j++)
                if (j != k)
                    f[e][j] = 1.0;
            if (out->has_time) {
                cs_status st = time_with(s, step, f[e], TORNADO_REPLICAS, seed0, d, &val[e]);
                if (st != CS_OK)
                    return st;
            } else {
                val[e] = step->time_s * f[e][CS_UNC_STEP];
            }
        }
        t->low_factor = f[0][k];
        t->high_factor = f[1][k];
        t->low = val[0];
        t->high = val[1];
        out->n_tornado++;
    }
    /* by swing, largest first */
    for (int i = 1; i < out->n_tornado; i++)
        for (int j = i; j > 0 && fabs(out->tornado[j].high - out->tornado[j].low) >
                                     fabs(out->tornado[j - 1].high - out->tornado[j - 1].low);
             j--) {
            struct cs_unc_tornado x = out->tornado[j];
            out->tornado[j] = out->tornado[j - 1];
            out->tornado[j - 1] = x;
        }
    return CS_OK;
}

void cs_app_uncertainty_fini(struct cs_app_uncertainty *u)
{
    if (!u)
        return;
    free(u->time_samples);
    memset(u, 0, sizeof *u);
}

cs_status cs_app_cost_uncertainty(const struct cs_scenario *s, const struct cs_cost_inputs *in,
                                  const struct cs_cost_result *base, int samples,
                                  struct cs_app_cost_unc *out)
{
    memset(out, 0, sizeof *out);
    out->samples = samples;
    if (s->cost.ext.n_ranges > 0) {
        out->n_ranges = s->cost.ext.n_ranges;
        memcpy(out->ranges, s->cost.ext.ranges, (size_t)out->n_ranges * sizeof *out->ranges);
    } else {
        static const enum cs_cost_input stated[] = {
            CS_CIN_GPU_PRICE, CS_CIN_ELECTRICITY, CS_CIN_PUE, CS_CIN_STAFF, CS_CIN_SUPPORT,
            CS_CIN_ON_DEMAND, CS_CIN_RESERVED_1Y, CS_CIN_RESERVED_3Y, CS_CIN_SPOT};
        double sd = s->cost.ext.sensitivity > 0 && s->cost.ext.sensitivity < 1 ? s->cost.ext.sensitivity : 0.2;
        out->stated = true;
        for (size_t i = 0; i < sizeof stated / sizeof stated[0]; i++) {
            double v = in->v[stated[i]];
            if (!isfinite(v) || v == 0)
                continue;
            struct cs_cost_range *r = &out->ranges[out->n_ranges++];
            snprintf(r->key, sizeof r->key, "%s", cs_cost_input_name(stated[i]));
            double lo = v * (1 - sd), hi = v * (1 + sd);
            if (stated[i] == CS_CIN_PUE && lo < 1.0)
                lo = 1.0; /* a PUE is at least 1 */
            r->low = lo;
            r->high = hi;
        }
    }
    if (out->n_ranges == 0)
        return CS_EINVAL;
    cs_status st = cs_cost_monte_carlo(in, out->ranges, out->n_ranges, samples, s->seed, &out->mc);
    if (st != CS_OK)
        return st;
    double best = INFINITY;
    for (int o = 0; o < CS_OPT_COUNT; o++)
        if (base->opt[o].available && base->opt[o].total_usd < best) {
            best = base->opt[o].total_usd;
            out->tornado_option = (enum cs_cost_option)o;
        }
    double sd = s->cost.ext.sensitivity > 0 && s->cost.ext.sensitivity < 1 ? s->cost.ext.sensitivity : 0.2;
    int n = cs_cost_sensitivity(in, sd, out->tornado);
    /* by the swing of the tornado's option */
    int o = (int)out->tornado_option;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && fabs(out->tornado[j].high_usd[o] - out->tornado[j].low_usd[o]) >
                                     fabs(out->tornado[j - 1].high_usd[o] - out->tornado[j - 1].low_usd[o]);
             j--) {
            struct cs_cost_sens_row x = out->tornado[j];
            out->tornado[j] = out->tornado[j - 1];
            out->tornado[j - 1] = x;
        }
    out->n_tornado = n;
    return CS_OK;
}
