/* stats.c: statistics collectors (sim/ layer): Welford online moments,
 * stored samples with GSL quantiles, time-weighted averages, histograms. */
#include "clustersim/sim/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "clustersim/base/xmalloc.h"

/* ---- online mean / variance ---------------------------------------------- */

void cs_stat_online_init(struct cs_stat_online *s)
{
    s->count = 0;
    s->mean = 0.0;
    s->m2 = 0.0;
    s->min = INFINITY;
    s->max = -INFINITY;
}

void cs_stat_online_add(struct cs_stat_online *s, double x)
{
    /* Welford: mean_n = mean_{n-1} + d/n, M2_n = M2_{n-1} + d (x - mean_n)
     * with d = x - mean_{n-1}. A zeroed struct has min = max = 0, so the
     * first value sets them unconditionally. */
    s->count++;
    double d = x - s->mean;
    s->mean += d / (double)s->count;
    s->m2 += d * (x - s->mean);
    if (s->count == 1 || x < s->min)
        s->min = x;
    if (s->count == 1 || x > s->max)
        s->max = x;
}

void cs_stat_online_merge(struct cs_stat_online *a,
                          const struct cs_stat_online *b)
{
    if (b->count == 0)
        return;
    if (a->count == 0) {
        *a = *b;
        return;
    }
    /* Chan et al. 1979, eq. 2.1b: M2 = M2_a + M2_b + d^2 n_a n_b / n. */
    double na = (double)a->count, nb = (double)b->count, n = na + nb;
    double d = b->mean - a->mean;
    a->mean += d * nb / n;
    a->m2 += b->m2 + d * d * na * nb / n;
    a->count += b->count;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

double cs_stat_online_mean(const struct cs_stat_online *s)
{
    return s->count ? s->mean : NAN;
}

double cs_stat_online_variance(const struct cs_stat_online *s)
{
    return s->count >= 2 ? s->m2 / (double)(s->count - 1) : NAN;
}

double cs_stat_online_stddev(const struct cs_stat_online *s)
{
    return sqrt(cs_stat_online_variance(s));
}

/* ---- stored samples and quantiles ---------------------------------------- */

void cs_stat_sample_init(struct cs_stat_sample *s)
{
    memset(s, 0, sizeof *s);
}

void cs_stat_sample_fini(struct cs_stat_sample *s)
{
    free(s->values);
    cs_stat_sample_init(s);
}

void cs_stat_sample_add(struct cs_stat_sample *s, double x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->values = cs_xrealloc(s->values, s->cap, sizeof *s->values);
    }
    s->values[s->n++] = x;
    s->sorted = 0;
}

size_t cs_stat_sample_count(const struct cs_stat_sample *s) { return s->n; }

double cs_stat_sample_mean(const struct cs_stat_sample *s)
{
    if (s->n == 0)
        return NAN;
    return gsl_stats_mean(s->values, 1, s->n);
}

cs_status cs_stat_sample_quantile(struct cs_stat_sample *s, double p,
                                  double *out)
{
    if (s->n == 0 || !(p >= 0.0 && p <= 1.0))
        return CS_EINVAL;
    if (!s->sorted) {
        gsl_sort(s->values, 1, s->n);
        s->sorted = 1;
    }
    *out = gsl_stats_quantile_from_sorted_data(s->values, 1, s->n, p);
    return CS_OK;
}

/* ---- time-weighted average ------------------------------------------------ */

void cs_stat_timeavg_init(struct cs_stat_timeavg *s, cs_time t0, double v0)
{
    s->t0 = t0;
    s->t_last = t0;
    s->v = v0;
    s->sum = 0.0;
    s->comp = 0.0;
}

/* Neumaier's variant of Kahan summation (Neumaier 1974, ZAMM 54): adds x to
 * (sum, comp) keeping the rounding error of each addition in comp. */
static void cs_stat__neumaier_add(double *sum, double *comp, double x)
{
    double t = *sum + x;
    if (fabs(*sum) >= fabs(x))
        *comp += (*sum - t) + x;
    else
        *comp += (x - t) + *sum;
    *sum = t;
}

cs_status cs_stat_timeavg_set(struct cs_stat_timeavg *s, cs_time t, double v)
{
    if (t < s->t_last)
        return CS_EINVAL;
    if (t > s->t_last)
        cs_stat__neumaier_add(&s->sum, &s->comp, s->v * (double)(t - s->t_last));
    s->t_last = t;
    s->v = v;
    return CS_OK;
}

/* Integral from t0 to t_end in value*ns; t_end >= t_last. */
static double cs_stat__timeavg_area_ns(const struct cs_stat_timeavg *s,
                                       cs_time t_end)
{
    double sum = s->sum, comp = s->comp;
    if (t_end > s->t_last)
        cs_stat__neumaier_add(&sum, &comp, s->v * (double)(t_end - s->t_last));
    return sum + comp;
}

cs_status cs_stat_timeavg_integral(const struct cs_stat_timeavg *s,
                                   cs_time t_end, double *out)
{
    if (t_end < s->t_last)
        return CS_EINVAL;
    *out = cs_stat__timeavg_area_ns(s, t_end) / (double)CS_S;
    return CS_OK;
}

cs_status cs_stat_timeavg_mean(const struct cs_stat_timeavg *s, cs_time t_end,
                               double *out)
{
    if (t_end < s->t_last)
        return CS_EINVAL;
    if (t_end == s->t0) {
        *out = s->v;
        return CS_OK;
    }
    *out = cs_stat__timeavg_area_ns(s, t_end) / (double)(t_end - s->t0);
    return CS_OK;
}

/* ---- fixed-bin histogram --------------------------------------------------- */

cs_status cs_stat_hist_init(struct cs_stat_hist *h, double lo, double hi,
                            size_t nbins)
{
    memset(h, 0, sizeof *h);
    if (!isfinite(lo) || !isfinite(hi) || !(lo < hi) || !isfinite(hi - lo) ||
        nbins < 1 ||
        nbins > 100000000)
        return CS_EINVAL;
    h->lo = lo;
    h->hi = hi;
    h->nbins = nbins;
    h->bins = cs_xcalloc(nbins, sizeof *h->bins);
    return CS_OK;
}

void cs_stat_hist_fini(struct cs_stat_hist *h)
{
    free(h->bins);
    memset(h, 0, sizeof *h);
}

void cs_stat_hist_add(struct cs_stat_hist *h, double x)
{
    h->count++;
    if (x < h->lo) {
        h->under++;
        return;
    }
    if (!(x < h->hi)) { /* also NaN */
        h->over++;
        return;
    }
    size_t i = (size_t)((x - h->lo) / (h->hi - h->lo) * (double)h->nbins);
    if (i >= h->nbins) /* rounding just below hi */
        i = h->nbins - 1;
    h->bins[i]++;
}

double cs_stat_hist_edge(const struct cs_stat_hist *h, size_t i)
{
    if (i >= h->nbins)
        return h->hi;
    return h->lo + (h->hi - h->lo) * ((double)i / (double)h->nbins);
}
