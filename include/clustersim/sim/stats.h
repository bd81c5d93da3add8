/* stats.h: statistics collectors for simulations (sim/ layer): online
 * mean/variance, stored samples with quantiles (GSL), time-weighted averages
 * of piecewise-constant signals (utilization, queue length), and fixed-bin
 * histograms. All are caller-allocated (x_init / x_fini) plain structs. */
#ifndef CLUSTERSIM_STATS_H
#define CLUSTERSIM_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "clustersim/sim/sim.h"
#include "clustersim/base/status.h"

/* ---- online mean / variance ---------------------------------------------- */

/* Welford's running mean and sum of squared deviations (Welford 1962,
 * Technometrics 4(3); Knuth TAOCP vol. 2, 4.2.2). O(1) memory, numerically
 * stable. A zeroed struct also works (min and max then read 0 while empty). */
struct cs_stat_online {
    uint64_t count;
    double mean;
    double m2;  /* sum of (x - mean)^2 */
    double min; /* +inf while empty */
    double max; /* -inf while empty */
};

void cs_stat_online_init(struct cs_stat_online *s);
void cs_stat_online_add(struct cs_stat_online *s, double x);
/* Folds `b` into `a` as if every value added to b had been added to a
 * (Chan, Golub, LeVeque 1979, "Updating formulae and a pairwise algorithm for
 * computing sample variances", eq. 2.1b). */
void cs_stat_online_merge(struct cs_stat_online *a,
                          const struct cs_stat_online *b);
/* Mean; NaN when empty. */
double cs_stat_online_mean(const struct cs_stat_online *s);
/* Sample (n-1) variance; NaN when fewer than 2 values. */
double cs_stat_online_variance(const struct cs_stat_online *s);
/* Square root of the sample variance; NaN when fewer than 2 values. */
double cs_stat_online_stddev(const struct cs_stat_online *s);

/* ---- stored samples and quantiles ---------------------------------------- */

/* Keeps every value so quantiles are exact. Sorting is lazy: the first
 * quantile after an add sorts in place (gsl_sort, O(n log n)). */
struct cs_stat_sample {
    double *values; /* owned */
    size_t n, cap;
    int sorted;
};

void cs_stat_sample_init(struct cs_stat_sample *s);
/* Frees the values; the struct may be init'ed again. Accepts a zeroed one. */
void cs_stat_sample_fini(struct cs_stat_sample *s);
void cs_stat_sample_add(struct cs_stat_sample *s, double x);
size_t cs_stat_sample_count(const struct cs_stat_sample *s);
/* Mean; NaN when empty. */
double cs_stat_sample_mean(const struct cs_stat_sample *s);
/* The p-quantile (0 <= p <= 1) by linear interpolation between order
 * statistics, as gsl_stats_quantile_from_sorted_data computes it
 * (Hyndman & Fan 1996 type 7: h = (n-1)p). Stores it in *out.
 * CS_EINVAL (out untouched) when empty or p is outside [0, 1] or NaN. */
cs_status cs_stat_sample_quantile(struct cs_stat_sample *s, double p,
                                  double *out);

/* ---- time-weighted average ------------------------------------------------ */

/* The time average of a piecewise-constant signal v(t): (1/(T-t0)) * integral
 * from t0 to T of v dt. The integral is accumulated in value*ns with
 * Neumaier's compensated sum, so millions of updates do not lose precision. */
struct cs_stat_timeavg {
    cs_time t0;     /* start of the window */
    cs_time t_last; /* time of the last set */
    double v;       /* current value */
    double sum;     /* integral up to t_last, value*ns */
    double comp;    /* Neumaier compensation term */
};

/* Starts the signal at value v0 at time t0. */
void cs_stat_timeavg_init(struct cs_stat_timeavg *s, cs_time t0, double v0);
/* The signal takes value v from time t on. CS_EINVAL (nothing changed) when
 * t is before the previous set or init. */
cs_status cs_stat_timeavg_set(struct cs_stat_timeavg *s, cs_time t, double v);
/* Integral of v dt from t0 to t_end, in value*seconds. CS_EINVAL (out
 * untouched) when t_end is before the last set. */
cs_status cs_stat_timeavg_integral(const struct cs_stat_timeavg *s,
                                   cs_time t_end, double *out);
/* Time average over [t0, t_end]. When t_end == t0 the window is empty and the
 * average is defined as the current value. CS_EINVAL (out untouched) when
 * t_end is before the last set. */
cs_status cs_stat_timeavg_mean(const struct cs_stat_timeavg *s, cs_time t_end,
                               double *out);

/* ---- fixed-bin histogram --------------------------------------------------- */

/* nbins equal-width bins over [lo, hi); values below lo or at/above hi are
 * counted in `under` / `over` (NaN counts as over). */
struct cs_stat_hist {
    double lo, hi;
    size_t nbins;
    uint64_t *bins; /* owned */
    uint64_t under, over, count;
};

/* CS_EINVAL (h zeroed, nothing allocated) unless lo < hi are finite, hi - lo
 * is finite and 1 <= nbins <= 1e8. Caller frees with cs_stat_hist_fini. */
cs_status cs_stat_hist_init(struct cs_stat_hist *h, double lo, double hi,
                            size_t nbins);
/* Frees the bins. Accepts a zeroed or failed-init histogram. */
void cs_stat_hist_fini(struct cs_stat_hist *h);
void cs_stat_hist_add(struct cs_stat_hist *h, double x);
/* Lower edge of bin i (i may equal nbins: the upper edge hi). */
double cs_stat_hist_edge(const struct cs_stat_hist *h, size_t i);

#endif
