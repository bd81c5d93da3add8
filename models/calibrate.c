/* calibrate.c: fits the collective, compute, storage and step models to
 * measurements with GSL's nonlinear least squares (gsl_multifit_nlinear,
 * Levenberg-Marquardt trust region, finite-difference Jacobian), and applies
 * a scenario's calibration to the options the simulators take (calib.h;
 * docs/calibration.md gives the models and why these parameters). */
#include "clustersim/models/calib.h"
#include "clustersim/sim/rng.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

void cs_calib_fit_fini(struct cs_calib_fit *f)
{
    if (!f)
        return;
    free(f->pts);
    f->pts = NULL;
    f->n = 0;
}

static void cs__fit_init(struct cs_calib_fit *f, const char *kind, const char *unit, const char *fmt, ...)
{
    memset(f, 0, sizeof *f);
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    snprintf(f->unit, sizeof f->unit, "%s", unit);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->name, sizeof f->name, fmt, ap);
    va_end(ap);
    f->mape = f->max_err = f->rms = NAN;
}

static cs_status cs__refuse(struct cs_calib_fit *f, size_t have, int params)
{
    f->ok = false;
    snprintf(f->msg, sizeof f->msg,
             "refused: %zu usable points for %d parameters (a fit needs at least parameters + 1 = %d)", have, params,
             params + 1);
    return CS_ERANGE;
}

static void cs__param(struct cs_calib_fit *f, const char *name, double v)
{
    if (f->n_params >= CS_CALIB_MAX_PARAMS)
        return;
    snprintf(f->param_names[f->n_params], sizeof f->param_names[0], "%s", name);
    f->params[f->n_params++] = v;
}

static void cs__summarize(struct cs_calib_fit *f)
{
    double s = 0, m = 0;
    for (size_t i = 0; i < f->n; i++) {
        double e = fabs(f->pts[i].err);
        s += e;
        if (e > m)
            m = e;
    }
    f->mape = f->n ? s / (double)f->n : NAN;
    f->max_err = f->n ? m : NAN;
    cs_calib_fit_check_residual(f, CS_CALIB_RMS_WARN);
}

void cs_calib_fit_check_residual(struct cs_calib_fit *f, double threshold)
{
    double ss = 0;
    for (size_t i = 0; i < f->n; i++)
        ss += f->pts[i].err * f->pts[i].err;
    f->rms = f->n ? sqrt(ss / (double)f->n) : NAN;
    f->warning[0] = '\0';
    if (f->n && !(f->rms <= threshold))
        snprintf(f->warning, sizeof f->warning,
                 "relative RMS residual %.1f%% exceeds the %.0f%% threshold: the model does not describe these "
                 "measurements; check them before using the fitted values",
                 100.0 * f->rms, 100.0 * threshold);
}

static double cs__logistic(double x) { return 1.0 / (1.0 + exp(-x)); }
static double cs__logit(double p)
{
    p = fmin(fmax(p, 1e-6), 1 - 1e-6);
    return log(p / (1 - p));
}

/* Smooth maximum with exponent 4, as cs_coll_launch_bound_s. */
static double cs__smax4(double a, double b)
{
    double lo = fmin(a, b), hi = fmax(a, b);
    if (!(hi > 0))
        return 0.0;
    return hi * pow(1.0 + pow(lo / hi, 4.0), 0.25);
}

/* ---------------------------------------------------- Levenberg-Marquardt */

typedef void (*cs__resid_fn)(const double *theta, void *ctx, double *r);

struct cs__lm_ctx {
    cs__resid_fn fn;
    void *ctx;
    size_t p;
    double *buf;   /* n residuals */
};

static int cs__lm_f(const gsl_vector *x, void *params, gsl_vector *f)
{
    struct cs__lm_ctx *c = params;
    double th[CS_CALIB_MAX_PARAMS];
    for (size_t i = 0; i < c->p; i++)
        th[i] = gsl_vector_get(x, i);
    /* f may be a strided view (a column of the finite-difference Jacobian):
     * fill a contiguous buffer, then copy element by element. */
    c->fn(th, c->ctx, c->buf);
    for (size_t i = 0; i < f->size; i++)
        gsl_vector_set(f, i, isfinite(c->buf[i]) ? c->buf[i] : 10.0); /* an unusable point: large, finite */
    return GSL_SUCCESS;
}

/* Minimizes sum r_i(theta)^2 from theta (updated in place). Returns the sum
 * of squares at the end, or NAN when GSL failed outright. */
static double cs__lm(size_t n, size_t p, double *theta, cs__resid_fn fn, void *ctx, size_t maxiter)
{
    cs_rng_gsl_errors_off();
    struct cs__lm_ctx c = {fn, ctx, p, cs_xmalloc(n * sizeof(double))};
    gsl_multifit_nlinear_fdf fdf;
    memset(&fdf, 0, sizeof fdf);
    fdf.f = cs__lm_f;
    fdf.df = NULL; /* finite differences */
    fdf.n = n;
    fdf.p = p;
    fdf.params = &c;
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.trs = gsl_multifit_nlinear_trs_lm;
    par.scale = gsl_multifit_nlinear_scale_levenberg; /* robust to a parameter the data do not see */
    gsl_multifit_nlinear_workspace *w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, n, p);
    if (!w) {
        free(c.buf);
        return NAN;
    }
    gsl_vector_view x0 = gsl_vector_view_array(theta, p);
    double out = NAN;
    if (gsl_multifit_nlinear_init(&x0.vector, &fdf, w) == GSL_SUCCESS) {
        int info = 0;
        /* Convergence or the iteration cap both end the fit; what counts is
         * the residual, which the caller reports. */
        (void)gsl_multifit_nlinear_driver(maxiter, 1e-8, 1e-10, 1e-10, NULL, NULL, &info, w);
        gsl_vector *x = gsl_multifit_nlinear_position(w);
        gsl_vector *f = gsl_multifit_nlinear_residual(w);
        double chisq = 0;
        gsl_blas_ddot(f, f, &chisq);
        for (size_t i = 0; i < p; i++)
            theta[i] = gsl_vector_get(x, i);
        out = chisq;
    }
    gsl_multifit_nlinear_free(w);
    free(c.buf);
    return out;
}

/* ------------------------------------------------------ nccl-tests curve */

double cs_calib_curve_time_s(const struct cs_calib_curve *c, double bytes)
{
    if (!(bytes > 0) || c->ranks < 2)
        return 0.0;
    double x = bytes * cs_coll_busbw_factor((enum cs_coll_op)c->op, c->ranks);
    double dev = INFINITY;
    int nr = c->n_regimes >= 1 && c->n_regimes <= 2 ? c->n_regimes : 1;
    for (int r = 0; r < nr; r++)
        dev = fmin(dev, c->lat_s[r] + x / c->busbw_bytes_per_s[r]);
    return c->launch_s > 0 ? cs__smax4(c->launch_s, dev) : dev;
}

const struct cs_calib_curve *cs_calib_find_curve(const struct cs_calib_cfg *cal, enum cs_coll_op op, int ranks,
                                                 int nodes, enum cs_coll_algo algo)
{
    if (!cal || !cal->enabled)
        return NULL;
    /* An exact algorithm match first; for AUTO, then any measured curve. */
    const struct cs_calib_curve *any = NULL;
    for (int i = 0; i < cal->n_curves && i < CS_CALIB_MAX_CURVES; i++) {
        const struct cs_calib_curve *c = &cal->curves[i];
        if (c->op != (int)op || c->ranks != ranks || c->nodes != nodes)
            continue;
        if (c->algo == (int)algo)
            return c;
        if (algo == CS_COLL_AUTO && !any)
            any = c;
    }
    return any;
}

struct cs__curve_ctx {
    size_t n;
    const double *x, *t;   /* bus bytes, measured seconds */
    int model;             /* 1, 2, 3 */
};

/* theta: model 1 (ln a, ln B); 2 (ln L, ln a, ln B); 3 (ln L, ln a1, ln B1, ln a2, ln B2). */
static void cs__curve_params(const double *th, int model, struct cs_calib_curve *c)
{
    c->launch_s = 0;
    c->n_regimes = 1;
    if (model == 1) {
        c->lat_s[0] = exp(th[0]);
        c->busbw_bytes_per_s[0] = exp(th[1]);
    } else if (model == 2) {
        c->launch_s = exp(th[0]);
        c->lat_s[0] = exp(th[1]);
        c->busbw_bytes_per_s[0] = exp(th[2]);
    } else {
        c->launch_s = exp(th[0]);
        c->n_regimes = 2;
        c->lat_s[0] = exp(th[1]);
        c->busbw_bytes_per_s[0] = exp(th[2]);
        c->lat_s[1] = exp(th[3]);
        c->busbw_bytes_per_s[1] = exp(th[4]);
    }
}

static double cs__curve_dev(const struct cs_calib_curve *c, double x)
{
    double dev = c->lat_s[0] + x / c->busbw_bytes_per_s[0];
    if (c->n_regimes == 2)
        dev = fmin(dev, c->lat_s[1] + x / c->busbw_bytes_per_s[1]);
    return c->launch_s > 0 ? cs__smax4(c->launch_s, dev) : dev;
}

static void cs__curve_resid(const double *th, void *vctx, double *r)
{
    const struct cs__curve_ctx *c = vctx;
    struct cs_calib_curve cv;
    memset(&cv, 0, sizeof cv);
    cs__curve_params(th, c->model, &cv);
    for (size_t i = 0; i < c->n; i++)
        r[i] = log(cs__curve_dev(&cv, c->x[i]) / c->t[i]);
}

cs_status cs_calib_fit_curve(const struct cs_nccl_run *run, struct cs_calib_curve *curve, struct cs_calib_fit *fit)
{
    cs__fit_init(fit, "curve", "GB/s", "%s %d ranks %d node%s%s%s", cs_coll_op_name(run->op), run->ranks, run->nodes,
                 run->nodes == 1 ? "" : "s", run->algo != CS_COLL_AUTO ? " algo " : "",
                 run->algo != CS_COLL_AUTO ? cs_coll_algo_name(run->algo) : "");
    if (run->ranks < 2) {
        snprintf(fit->msg, sizeof fit->msg, "refused: %d rank: nothing to communicate", run->ranks);
        return CS_ERANGE;
    }
    double f = cs_coll_busbw_factor(run->op, run->ranks);
    double *x = cs_xmalloc((run->n_rows + 1) * sizeof *x);
    double *t = cs_xmalloc((run->n_rows + 1) * sizeof *t);
    double *sz = cs_xmalloc((run->n_rows + 1) * sizeof *sz);
    size_t n = 0;
    double tmin = INFINITY, bmax = 0, smin = INFINITY, smax = 0;
    for (size_t i = 0; i < run->n_rows; i++) {
        const struct cs_nccl_row *r = &run->rows[i];
        double tu = cs_nccl_row_time_us(r);
        if (!(r->size_bytes > 0) || !(tu > 0))
            continue;
        sz[n] = r->size_bytes;
        x[n] = r->size_bytes * f;
        t[n] = tu * 1e-6;
        tmin = fmin(tmin, t[n]);
        bmax = fmax(bmax, x[n] / t[n]);
        smin = fmin(smin, sz[n]);
        smax = fmax(smax, sz[n]);
        n++;
    }
    if (n < 3) {
        free(x), free(t), free(sz);
        return cs__refuse(fit, n, 2);
    }
    /* Nested models; corrected AIC picks (Burnham & Anderson 2002, eq. 2.14):
     * AICc = n ln(RSS/n) + 2p + 2p(p+1)/(n-p-1), defined for n >= p + 2. */
    static const int np[4] = {0, 2, 3, 5};
    double best_aicc = INFINITY, best_th[5] = {0};
    int best = 0;
    for (int m = 1; m <= 3; m++) {
        int p = np[m];
        /* AICc needs n >= p + 2; the one-regime model is also fitted (and
         * compared by plain AIC) when n = p + 1, the fewest points allowed. */
        if ((int)n < p + 2 && !(m == 1 && (int)n == p + 1))
            continue;
        double th[5];
        double a0 = log(fmax(tmin * 0.5, 1e-9)), b0 = log(bmax * 1.05);
        if (m == 1) {
            th[0] = a0, th[1] = b0;
        } else if (m == 2) {
            th[0] = log(tmin), th[1] = a0, th[2] = b0;
        } else {
            th[0] = log(tmin), th[1] = log(tmin * 0.3), th[2] = log(bmax * 0.25), th[3] = log(tmin), th[4] = b0;
        }
        struct cs__curve_ctx ctx = {n, x, t, m};
        double rss = cs__lm(n, (size_t)p, th, cs__curve_resid, &ctx, 200);
        if (!isfinite(rss))
            continue;
        double corr = (int)n > p + 1 ? 2.0 * p * (p + 1) / (double)(n - p - 1) : 0.0;
        double aicc = (double)n * log(rss / (double)n + 1e-30) + 2.0 * p + corr;
        if (aicc < best_aicc) {
            best_aicc = aicc;
            best = m;
            memcpy(best_th, th, sizeof th);
        }
    }
    if (!best) {
        free(x), free(t), free(sz);
        snprintf(fit->msg, sizeof fit->msg, "the least-squares solver failed on every model");
        return CS_ERANGE;
    }
    struct cs_calib_curve cv;
    memset(&cv, 0, sizeof cv);
    cs__curve_params(best_th, best, &cv);
    if (cv.n_regimes == 2 && cv.lat_s[1] < cv.lat_s[0]) { /* regime 0: the low-latency (LL-like) one */
        double l = cv.lat_s[0], b = cv.busbw_bytes_per_s[0];
        cv.lat_s[0] = cv.lat_s[1], cv.busbw_bytes_per_s[0] = cv.busbw_bytes_per_s[1];
        cv.lat_s[1] = l, cv.busbw_bytes_per_s[1] = b;
    }
    cv.op = (int)run->op;
    cv.algo = (int)run->algo;
    cv.ranks = run->ranks;
    cv.nodes = run->nodes;
    cv.min_bytes = smin;
    cv.max_bytes = smax;
    fit->pts = cs_xcalloc(n, sizeof *fit->pts);
    fit->n = n;
    for (size_t i = 0; i < n; i++) {
        struct cs_calib_point *pt = &fit->pts[i];
        double tf = cs__curve_dev(&cv, x[i]);
        snprintf(pt->label, sizeof pt->label, "%.0f B", sz[i]);
        pt->x = sz[i];
        pt->measured = x[i] / t[i] / 1e9;
        pt->fitted = x[i] / tf / 1e9;
        pt->err = t[i] / tf - 1.0;
    }
    cs__summarize(fit);
    cv.mape = fit->mape;
    cv.max_err = fit->max_err;
    if (cv.launch_s > 0)
        cs__param(fit, "launch_us", cv.launch_s * 1e6);
    for (int r = 0; r < cv.n_regimes; r++) {
        char nm[32];
        snprintf(nm, sizeof nm, "lat%d_us", r);
        cs__param(fit, nm, cv.lat_s[r] * 1e6);
        snprintf(nm, sizeof nm, "busbw%d_GBps", r);
        cs__param(fit, nm, cv.busbw_bytes_per_s[r] / 1e9);
    }
    fit->ok = true;
    snprintf(fit->msg, sizeof fit->msg, "model %s (AICc among %s)",
             best == 1 ? "latency + size/bw" : best == 2 ? "launch floor, latency + size/bw"
                                                         : "launch floor, two protocol regimes",
             n >= 7 ? "3 models" : n >= 5 ? "2 models" : "1 model");
    *curve = cv;
    free(x), free(t), free(sz);
    return CS_OK;
}

/* ---------------------------------------------- closed-form parameters */

enum { P_INTRA, P_NET, P_NVLS, P_LAUNCH, P_NCOLL };
static const char *const cs__coll_pnames[P_NCOLL] = {"intra_efficiency", "net_efficiency", "nvls_efficiency",
                                                     "launch_floor_us"};

struct cs__coll_pt {
    const struct cs_cluster_cfg *cl;
    const struct cs_nccl_run *run;
    double bytes, t;
};
struct cs__coll_ctx {
    size_t n;
    const struct cs__coll_pt *pts;
    const struct cs_coll_params *base;
    int idx[P_NCOLL];      /* theta index of each parameter, -1 when not fitted */
    double fixed[P_NCOLL]; /* values of those not fitted (NAN: leave as is) */
};

static void cs__coll_values(const struct cs__coll_ctx *c, const double *th, double v[P_NCOLL])
{
    for (int k = 0; k < P_NCOLL; k++) {
        if (c->idx[k] < 0)
            v[k] = c->fixed[k];
        else
            v[k] = k == P_LAUNCH ? exp(th[c->idx[k]]) : cs__logistic(th[c->idx[k]]);
    }
}

/* Time of point pt with the parameter values v (NAN entries: unchanged). */
static double cs__coll_time(const struct cs__coll_pt *pt, const struct cs_coll_params *base, const double v[P_NCOLL],
                            enum cs_coll_algo *chosen)
{
    struct cs_cluster_cfg c = *pt->cl;
    struct cs_coll_params p = *base;
    if (!isnan(v[P_INTRA]))
        c.intra.efficiency = v[P_INTRA];
    if (!isnan(v[P_NET]))
        c.fabric.link.efficiency = v[P_NET];
    if (!isnan(v[P_NVLS]))
        p.nvls_efficiency = v[P_NVLS];
    if (!isnan(v[P_LAUNCH]))
        p.launch_floor_s = v[P_LAUNCH];
    int nodes = pt->run->nodes > 0 ? pt->run->nodes : 1;
    struct cs_coll_group g = {pt->run->ranks, pt->run->ranks / nodes, 1, 0, nodes, 0, 0, 0};
    /* Inside the fitter an unusable point is NAN (dropped before fitting,
     * large in a residual); the status stays in this file. */
    double t;
    return cs_coll_time_ex(&c, &p, pt->run->op, pt->bytes, &g, pt->run->algo, &t, chosen, NULL) == CS_OK ? t
                                                                                                        : NAN;
}

static void cs__coll_resid(const double *th, void *vctx, double *r)
{
    const struct cs__coll_ctx *c = vctx;
    double v[P_NCOLL];
    cs__coll_values(c, th, v);
    for (size_t i = 0; i < c->n; i++)
        r[i] = log(cs__coll_time(&c->pts[i], c->base, v, NULL) / c->pts[i].t);
}

cs_status cs_calib_predict_busbw(const struct cs_cluster_cfg *cluster, const struct cs_coll_params *base,
                                 const struct cs_calib_cfg *cal, const struct cs_nccl_run *run, double bytes,
                                 double *out)
{
    double v[P_NCOLL] = {NAN, NAN, NAN, NAN};
    if (cal) {
        v[P_INTRA] = cal->intra_efficiency;
        v[P_NET] = cal->net_efficiency;
        v[P_NVLS] = cal->nvls_efficiency;
        v[P_LAUNCH] = cal->launch_floor_s;
    }
    struct cs__coll_pt pt = {cluster, run, bytes, 0};
    double t = cs__coll_time(&pt, base, v, NULL);
    if (!(t > 0) || !isfinite(t))
        return CS_EINVAL;
    *out = bytes * cs_coll_busbw_factor(run->op, run->ranks) / t;
    return CS_OK;
}

cs_status cs_calib_fit_collective(const struct cs_calib_coll_input *in, size_t n, const struct cs_coll_params *base,
                                  struct cs_calib_cfg *cal, struct cs_calib_fit *fit)
{
    cs__fit_init(fit, "collective", "GB/s", "closed-form collective model (collective.h), %zu run%s", n,
                 n == 1 ? "" : "s");
    size_t np = 0;
    for (size_t i = 0; i < n; i++)
        np += in[i].run->n_rows;
    struct cs__coll_pt *pts = cs_xcalloc(np + 1, sizeof *pts);
    size_t m = 0;
    bool use[P_NCOLL] = {false, false, false, false};
    double nan4[P_NCOLL] = {NAN, NAN, NAN, NAN};
    double init[P_NCOLL] = {base->nvswitch_efficiency, base->net_efficiency, base->nvls_efficiency,
                            base->launch_floor_s};
    for (size_t i = 0; i < n; i++) {
        const struct cs_nccl_run *r = in[i].run;
        if (r->ranks < 2)
            continue;
        for (size_t j = 0; j < r->n_rows; j++) {
            const struct cs_nccl_row *row = &r->rows[j];
            double tu = cs_nccl_row_time_us(row);
            if (!(row->size_bytes > 0) || !(tu > 0))
                continue;
            struct cs__coll_pt pt = {in[i].cluster, r, row->size_bytes, tu * 1e-6};
            enum cs_coll_algo chosen = CS_COLL_AUTO;
            double t = cs__coll_time(&pt, base, nan4, &chosen);
            if (!(t > 0) || !isfinite(t))
                continue; /* the model cannot run this (e.g. NVLS on a cluster without it) */
            pts[m++] = pt;
            if (chosen == CS_COLL_NVLS)
                use[P_NVLS] = true;
            else if (r->nodes <= 1)
                use[P_INTRA] = true;
            if (r->nodes > 1)
                use[P_NET] = true;
            if (row->size_bytes < 1048576.0)
                use[P_LAUNCH] = true;
        }
        if (isfinite(in[i].cluster->intra.efficiency))
            init[P_INTRA] = in[i].cluster->intra.efficiency;
        else if (in[i].cluster->intra.kind == CS_INTRA_PCIE)
            init[P_INTRA] = base->pcie_efficiency;
        if (isfinite(in[i].cluster->fabric.link.efficiency))
            init[P_NET] = in[i].cluster->fabric.link.efficiency;
    }
    struct cs__coll_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.n = m;
    ctx.pts = pts;
    ctx.base = base;
    double th[P_NCOLL];
    int p = 0;
    for (int k = 0; k < P_NCOLL; k++) {
        ctx.fixed[k] = NAN;
        ctx.idx[k] = use[k] ? p : -1;
        if (use[k])
            th[p++] = k == P_LAUNCH ? log(fmax(init[k], 1e-6)) : cs__logit(init[k]);
    }
    if (p == 0 || m < (size_t)p + 1) {
        free(pts);
        return cs__refuse(fit, m, p > 0 ? p : 1);
    }
    double rss = cs__lm(m, (size_t)p, th, cs__coll_resid, &ctx, 100);
    if (!isfinite(rss)) {
        free(pts);
        snprintf(fit->msg, sizeof fit->msg, "the least-squares solver failed");
        return CS_ERANGE;
    }
    double v[P_NCOLL];
    cs__coll_values(&ctx, th, v);
    fit->pts = cs_xcalloc(m, sizeof *fit->pts);
    fit->n = m;
    for (size_t i = 0; i < m; i++) {
        const struct cs__coll_pt *pt = &pts[i];
        double f = cs_coll_busbw_factor(pt->run->op, pt->run->ranks);
        double tf = cs__coll_time(pt, base, v, NULL);
        struct cs_calib_point *o = &fit->pts[i];
        snprintf(o->label, sizeof o->label, "%s %dx%d %.0f B", cs_coll_op_name(pt->run->op), pt->run->nodes,
                 pt->run->ranks / (pt->run->nodes > 0 ? pt->run->nodes : 1), pt->bytes);
        o->x = pt->bytes;
        o->measured = pt->bytes * f / pt->t / 1e9;
        o->fitted = pt->bytes * f / tf / 1e9;
        o->err = pt->t / tf - 1.0;
    }
    cs__summarize(fit);
    for (int k = 0; k < P_NCOLL; k++) {
        if (!use[k])
            continue;
        /* An efficiency the logistic drove to 0 (a fit that went wrong, and
         * says so by its residual) stays a positive number the overlay
         * loader accepts. */
        if (k != P_LAUNCH && !(v[k] > 0))
            v[k] = 1e-12;
        cs__param(fit, cs__coll_pnames[k], k == P_LAUNCH ? v[k] * 1e6 : v[k]);
        if (k == P_INTRA)
            cal->intra_efficiency = v[k];
        else if (k == P_NET)
            cal->net_efficiency = v[k];
        else if (k == P_NVLS)
            cal->nvls_efficiency = v[k];
        else
            cal->launch_floor_s = v[k];
    }
    cal->enabled = true;
    fit->ok = true;
    free(pts);
    return CS_OK;
}

/* ----------------------------------------------------------------- GEMM */

struct cs__gemm_ctx {
    const struct cs_gemm_row *rows;
    size_t n;
    const struct cs_gpu_spec *gpu;
    struct cs_compute_params base;
};

static void cs__gemm_params(const struct cs__gemm_ctx *c, const double *th, struct cs_compute_params *p)
{
    *p = c->base;
    p->gemm_eff_max = cs__logistic(th[0]);
    p->gemm_dim_half = exp(th[1]);
}

static void cs__gemm_resid(const double *th, void *vctx, double *r)
{
    const struct cs__gemm_ctx *c = vctx;
    struct cs_compute_params p;
    cs__gemm_params(c, th, &p);
    for (size_t i = 0; i < c->n; i++) {
        const struct cs_gemm_row *g = &c->rows[i];
        r[i] = log(cs_compute_gemm_s(c->gpu, &p, g->dtype, g->m, g->n, g->k, g->batch) / g->seconds);
    }
}

cs_status cs_calib_fit_gemm(const struct cs_gemm_row *rows, size_t n, const struct cs_gpu_spec *gpu,
                            const struct cs_compute_params *base, struct cs_calib_cfg *cal, struct cs_calib_fit *fit)
{
    cs__fit_init(fit, "gemm", "TFLOP/s", "GEMM efficiency eff = eff_max g(m) g(n) g(k) on %s", gpu->name);
    if (n < 3)
        return cs__refuse(fit, n, 2);
    for (size_t i = 0; i < n; i++) {
        if (!(gpu->peak_flops[rows[i].dtype] > 0)) {
            snprintf(fit->msg, sizeof fit->msg, "refused: line %d: %s has no %s peak in the catalog", rows[i].line,
                     gpu->name, cs_precision_name(rows[i].dtype));
            return CS_EINVAL;
        }
    }
    struct cs__gemm_ctx ctx = {rows, n, gpu, *base};
    double th[2] = {cs__logit(base->gemm_eff_max), log(base->gemm_dim_half > 0 ? base->gemm_dim_half : 128)};
    double rss = cs__lm(n, 2, th, cs__gemm_resid, &ctx, 200);
    if (!isfinite(rss)) {
        snprintf(fit->msg, sizeof fit->msg, "the least-squares solver failed");
        return CS_ERANGE;
    }
    struct cs_compute_params p;
    cs__gemm_params(&ctx, th, &p);
    fit->pts = cs_xcalloc(n, sizeof *fit->pts);
    fit->n = n;
    for (size_t i = 0; i < n; i++) {
        const struct cs_gemm_row *g = &rows[i];
        double tf = cs_compute_gemm_s(gpu, &p, g->dtype, g->m, g->n, g->k, g->batch);
        struct cs_calib_point *o = &fit->pts[i];
        snprintf(o->label, sizeof o->label, "%.0fx%.0fx%.0f%s %s", g->m, g->n, g->k, g->batch > 1 ? " batched" : "",
                 cs_precision_name(g->dtype));
        o->measured = g->tflops;
        o->fitted = 2.0 * g->m * g->n * g->k * g->batch / tf / 1e12;
        o->err = g->seconds / tf - 1.0;
    }
    cs__summarize(fit);
    cs__param(fit, "gemm_eff_max", p.gemm_eff_max);
    cs__param(fit, "gemm_dim_half", p.gemm_dim_half);
    cal->gemm_eff_max = p.gemm_eff_max;
    cal->gemm_dim_half = p.gemm_dim_half;
    cal->enabled = true;
    fit->ok = true;
    return CS_OK;
}

/* -------------------------------------------------------------- storage */

struct cs__io_ctx {
    const struct cs_fio_job *const *jobs;
    size_t n;
};

/* Bandwidth of a job with per-byte time 1/BW plus a per-request latency
 * shared by q requests in flight (Little's law): bw = 1 / (1/BW + lat/(q bs)). */
static double cs__io_bw(double bw, double lat, const struct cs_fio_job *j)
{
    double q = j->iodepth > 0 ? j->iodepth : 1;
    return 1.0 / (1.0 / bw + lat / (q * j->bs_bytes));
}

static void cs__io_resid(const double *th, void *vctx, double *r)
{
    const struct cs__io_ctx *c = vctx;
    for (size_t i = 0; i < c->n; i++)
        r[i] = log(cs__io_bw(exp(th[0]), exp(th[1]), c->jobs[i]) / c->jobs[i]->bw_bytes_per_s);
}

cs_status cs_calib_fit_storage(const struct cs_fio_job *jobs, size_t n, struct cs_calib_storage *out,
                               struct cs_calib_fit *fit)
{
    cs__fit_init(fit, "storage", "GB/s", "storage tier %s from fio (bw = 1/(1/BW + lat/(iodepth bs)))",
                 out->tier[0] ? out->tier : "?");
    out->read_bw_bytes_per_s = out->write_bw_bytes_per_s = out->latency_s = NAN;
    if (n == 0)
        return cs__refuse(fit, 0, 1);
    const struct cs_fio_job **sel = cs_xcalloc(n, sizeof *sel);
    fit->pts = cs_xcalloc(n, sizeof *fit->pts);
    double lat_sum = 0;
    int lat_n = 0;
    for (int w = 0; w < 2; w++) {
        size_t m = 0, distinct = 0;
        double best = 0;
        for (size_t i = 0; i < n; i++) {
            if (jobs[i].write != (w == 1))
                continue;
            best = fmax(best, jobs[i].bw_bytes_per_s);
            if (jobs[i].bs_bytes > 0) {
                bool seen = false;
                for (size_t j = 0; j < m; j++)
                    if (sel[j]->bs_bytes == jobs[i].bs_bytes)
                        seen = true;
                distinct += !seen;
                sel[m++] = &jobs[i];
            }
        }
        if (best == 0)
            continue;
        double bw = best, lat = NAN;
        if (m >= 3 && distinct >= 2) {
            double th[2] = {log(best), log(1e-4)};
            struct cs__io_ctx ctx = {sel, m};
            if (isfinite(cs__lm(m, 2, th, cs__io_resid, &ctx, 200))) {
                bw = exp(th[0]);
                lat = exp(th[1]);
            }
        }
        for (size_t i = 0; i < n; i++) {
            if (jobs[i].write != (w == 1))
                continue;
            struct cs_calib_point *o = &fit->pts[fit->n++];
            /* the job name is cut so the label always fits (64 bytes) */
            snprintf(o->label, sizeof o->label, "%.24s %s bs=%.0f", jobs[i].jobname,
                     w ? "write" : "read", jobs[i].bs_bytes);
            o->x = jobs[i].bs_bytes;
            o->measured = jobs[i].bw_bytes_per_s / 1e9;
            o->fitted = (!isnan(lat) && jobs[i].bs_bytes > 0 ? cs__io_bw(bw, lat, &jobs[i]) : bw) / 1e9;
            o->err = o->fitted / o->measured - 1.0;
            if (isfinite(jobs[i].clat_mean_s)) {
                lat_sum += jobs[i].clat_mean_s;
                lat_n++;
            }
        }
        if (w)
            out->write_bw_bytes_per_s = bw;
        else
            out->read_bw_bytes_per_s = bw;
        cs__param(fit, w ? "write_bw_GBps" : "read_bw_GBps", bw / 1e9);
        if (!isnan(lat)) {
            cs__param(fit, w ? "write_lat_us" : "read_lat_us", lat * 1e6);
            out->latency_s = isnan(out->latency_s) ? lat : fmin(out->latency_s, lat);
        }
    }
    if (isnan(out->latency_s) && lat_n > 0)
        out->latency_s = lat_sum / lat_n; /* mean completion latency, when no fit gave one */
    free(sel);
    cs__summarize(fit);
    fit->ok = true;
    return CS_OK;
}

/* ---------------------------------------------------------------- steps */

void cs_calib_apply_factors(struct cs_step_options *o, double scale, double slowdown)
{
    if (isfinite(scale) && scale > 0) {
        o->compute.gemm_eff_max = fmin(1.0, o->compute.gemm_eff_max * scale);
        o->compute.attn_eff = fmin(1.0, o->compute.attn_eff * scale);
        o->compute.mem_eff = fmin(1.0, o->compute.mem_eff * scale);
    }
    if (isfinite(slowdown) && slowdown >= 0)
        o->overlap_slowdown = slowdown;
}

double cs_calib_step_predict(const struct cs_calib_step_case *c, double scale, double slowdown)
{
    struct cs_step_options o = c->opts;
    cs_calib_apply_factors(&o, scale, slowdown);
    cs_diags d;
    cs_diags_init(&d);
    double out = NAN;
    if (c->ref) {
        struct cs_step_result r;
        double v;
        if (cs_refs_predict(c->ref, &o, &d, &v, &r, NULL) == CS_OK)
            out = v;
    } else {
        struct cs_step_result r;
        if (cs_step_simulate(c->cluster, c->workload, &o, &d, &r) == CS_OK && r.fits)
            out = r.time_s;
    }
    cs_diags_fini(&d);
    return out;
}

/* Step time grows as throughput falls: a TFLOP/s metric enters inverted. */
static bool cs__is_rate(const struct cs_calib_step_case *c)
{
    return c->ref && c->ref->metric != CS_REF_ITER_S;
}

struct cs__step_ctx {
    const struct cs_calib_step_case *cases;
    size_t n;
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *pctx;
    uint64_t sims;       /* step simulations so far (progress) */
};

#define CS__SLOWDOWN_MAX 3.0

static void cs__step_resid(const double *th, void *vctx, double *r)
{
    struct cs__step_ctx *c = vctx;
    double scale = exp(th[0]), slow = CS__SLOWDOWN_MAX * cs__logistic(th[1]);
    for (size_t i = 0; i < c->n; i++) {
        double p = cs_calib_step_predict(&c->cases[i], scale, slow);
        r[i] = log(p / c->cases[i].measured);
    }
    c->sims += c->n;
    if (c->progress)
        c->progress(c->pctx, c->sims, 0);
}

cs_status cs_calib_fit_steps(const struct cs_calib_step_case *cases, size_t n, struct cs_calib_cfg *cal,
                             struct cs_calib_fit *fit)
{
    return cs_calib_fit_steps_progress(cases, n, cal, fit, NULL, NULL);
}

cs_status cs_calib_fit_steps_progress(const struct cs_calib_step_case *cases, size_t n, struct cs_calib_cfg *cal,
                                      struct cs_calib_fit *fit,
                                      void (*progress)(void *ctx, uint64_t done, uint64_t total), void *pctx)
{
    cs__fit_init(fit, "steps", n && cs__is_rate(&cases[0]) ? "metric" : "s",
                 "global factors (compute scale, overlap slowdown) from %zu measured step%s", n, n == 1 ? "" : "s");
    if (n < 3)
        return cs__refuse(fit, n, 2);
    double s0 = cases[0].opts.overlap_slowdown;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(cs_calib_step_predict(&cases[i], 1.0, s0))) {
            snprintf(fit->msg, sizeof fit->msg, "refused: %s cannot be simulated (invalid or does not fit in memory)",
                     cases[i].label);
            return CS_EINVAL;
        }
    }
    struct cs__step_ctx ctx = {cases, n, progress, pctx, 0};
    double th[2] = {0.0, cs__logit(fmin(fmax(s0, 0.01), CS__SLOWDOWN_MAX - 0.01) / CS__SLOWDOWN_MAX)};
    double rss = cs__lm(n, 2, th, cs__step_resid, &ctx, 25) /* each evaluation simulates every step */;
    if (!isfinite(rss)) {
        snprintf(fit->msg, sizeof fit->msg, "the least-squares solver failed");
        return CS_ERANGE;
    }
    double scale = exp(th[0]), slow = CS__SLOWDOWN_MAX * cs__logistic(th[1]);
    fit->pts = cs_xcalloc(n, sizeof *fit->pts);
    fit->n = n;
    for (size_t i = 0; i < n; i++) {
        struct cs_calib_point *o = &fit->pts[i];
        snprintf(o->label, sizeof o->label, "%s", cases[i].label);
        o->measured = cases[i].measured;
        o->fitted = cs_calib_step_predict(&cases[i], scale, slow);
        o->err = o->fitted / o->measured - 1.0;
    }
    cs__summarize(fit);
    cs__param(fit, "compute_scale", scale);
    cs__param(fit, "overlap_slowdown", slow);
    cal->compute_scale = scale;
    cal->overlap_slowdown = slow;
    cal->enabled = true;
    fit->ok = true;
    return CS_OK;
}

/* ------------------------------------------------------- applying it */

void cs_step_options_from_scenario(const struct cs_scenario *s, struct cs_step_options *o)
{
    cs_step_options_default(&s->cluster.gpu, o);
    o->moe_seed = s->seed;   /* the routing stream's (moe.h) */
    if (s->has_workload) {
        /* the software stack the scenario describes (workload keys) */
        const struct cs_workload *w = &s->workload;
        if (isfinite(w->tp_comm_overlap))
            o->tp_overlap = w->tp_comm_overlap;
        o->dp_overlap = w->dp_overlap;
        if (isfinite(w->dp_bucket_bytes) && w->dp_bucket_bytes > 0)
            o->dp_bucket_bytes = w->dp_bucket_bytes;
        if (isfinite(w->memory_reserve_bytes))
            o->compute.mem_reserve_bytes = w->memory_reserve_bytes;
        if (isfinite(w->memory_fragmentation))
            o->compute.mem_fragmentation = w->memory_fragmentation;
        if (isfinite(w->host_python_scale) && w->host_python_scale > 0)
            o->compute.host_python_scale = w->host_python_scale;
        o->compute.fp8_linear_factor = cs_compute_fp8_linear_factor(w, &s->cluster.gpu);
        if (w->fused_attention == 1)
            o->compute.fused_attention = true;
        else if (w->fused_attention == 2)
            o->compute.fused_attention = false;
    }
    const struct cs_calib_cfg *c = &s->calibration;
    if (!c->enabled)
        return;
    if (isfinite(c->gemm_eff_max))
        o->compute.gemm_eff_max = c->gemm_eff_max;
    if (isfinite(c->gemm_dim_half))
        o->compute.gemm_dim_half = c->gemm_dim_half;
    if (isfinite(c->nvls_efficiency))
        o->coll.nvls_efficiency = c->nvls_efficiency;
    cs_calib_apply_factors(o, c->compute_scale, c->overlap_slowdown);
}

void cs_calib_coll_params(const struct cs_scenario *s, struct cs_coll_params *p)
{
    cs_coll_params_default(p);
    const struct cs_calib_cfg *c = &s->calibration;
    if (!c->enabled)
        return;
    if (isfinite(c->nvls_efficiency))
        p->nvls_efficiency = c->nvls_efficiency;
    if (isfinite(c->launch_floor_s))
        p->launch_floor_s = c->launch_floor_s;
}

/* ---------------------------------------------------------- data */

void cs_nccl_log_fini(struct cs_nccl_log *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n_runs; i++)
        free(l->runs[i].rows);
    free(l->runs);
    l->runs = NULL;
    l->n_runs = 0;
    l->skipped_rows = 0;
}

double cs_nccl_row_time_us(const struct cs_nccl_row *r)
{
    return isnan(r->time_us[0]) ? r->time_us[1] : r->time_us[0];
}

void cs_calib_overlay_fini(struct cs_calib_overlay *o)
{
    if (!o)
        return;
    free(o->inputs);
    for (size_t i = 0; i < o->n_fits; i++)
        cs_calib_fit_fini(&o->fits[i]);
    free(o->fits);
    o->inputs = NULL;
    o->fits = NULL;
    o->n_inputs = o->n_fits = 0;
}
