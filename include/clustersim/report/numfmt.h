/* numfmt.h: numbers for people (report layer, report/numfmt.c), as the
 * HTML reports print them: fixed decimals, a comma every three integer
 * digits, a unit, and never exponent notation (1e20 prints all 21 digits).
 * Every function writes into buf (n bytes, truncated if short), returns
 * buf, and prints "n/a" for NAN or an infinity. A value that rounds to zero
 * prints without a minus sign ("0", not "-0"). */
#ifndef CLUSTERSIM_REPORT_NUMFMT_H
#define CLUSTERSIM_REPORT_NUMFMT_H

#include <stddef.h>

/* v with `decimals` (0..12) decimals: 1234567.891, 2 -> "1,234,567.89";
 * -0.004, 2 -> "0.00". */
const char *cs_fmt_fixed(double v, int decimals, char *buf, size_t n);
/* v to `sig` (1..15) significant digits, as cs_fmt_fixed with the decimals
 * that gives (at least 0, at most 9): 0.0012345, 3 -> "0.00123";
 * 98765.4, 3 -> "98,765" (integer digits are never dropped). */
const char *cs_fmt_sig(double v, int sig, char *buf, size_t n);
/* Dollars: whole dollars from $100 ("$1,889,419", "-$2,500"), cents below
 * ("$3.21", "$0.08"); zero is "$0". */
const char *cs_fmt_usd(double v, char *buf, size_t n);
/* A ratio as a percentage with `decimals` decimals: 0.20312, 1 -> "20.3%". */
const char *cs_fmt_pct(double ratio, int decimals, char *buf, size_t n);
/* A duration in seconds in the unit that reads best: "10.7 days" (from 2
 * days), "5.25 h" (from 2 hours), "12.5 min" (from 2 minutes), "48.3 s"
 * (from 1 s), "350 ms" (from 1 ms), "120 us" below (3 significant digits,
 * integer digits kept). */
const char *cs_fmt_duration(double s, char *buf, size_t n);
/* Bytes in decimal (SI) units, 3 significant digits: "62.4 GB", "1.50 TB",
 * "512 B". */
const char *cs_fmt_bytes(double b, char *buf, size_t n);
/* v with an SI prefix (k, M, G, T, P, E, Z) before unit, 3 significant
 * digits: 9.89e14, "FLOP/s" -> "989 TFLOP/s"; 3.35e12, "B/s" -> "3.35 TB/s". */
const char *cs_fmt_si(double v, const char *unit, char *buf, size_t n);
/* A count: integers with separators ("1,024"); a fraction to 3
 * significant digits ("0.125", "12.5"). */
const char *cs_fmt_count(double v, char *buf, size_t n);

/* A JSON leaf by its key (the last part of its path that is not an index
 * or a statistic such as mean or p95), for the reports' tables of every
 * figure: *usd* as dollars; *_per_s and *_per_gpu as numbers; *_s and
 * *_seconds as a duration; *bytes* as bytes (B/s with _per_s); *flops* as
 * FLOP/s (FLOP with per_step; tflops* already in TFLOP/s); *_w as watts;
 * *_hours as hours; utilization, goodput, mfu, *share*, *fraction*,
 * *fragmentation*, *quota and *_ratio as percentages (1 decimal); anything
 * else as a count (6 significant digits for fractions). */
const char *cs_fmt_auto(const char *key, double v, char *buf, size_t n);

/* A figure of the text tables: "%.4g" below 10,000 in magnitude (and for
 * NAN or an infinity), from 10,000 on the whole number with thousands
 * separators as cs_fmt_sig(v, 4) gives it ("1,781,766"), so never exponent
 * notation where "%.4g" would turn to it. */
const char *cs_fmt_g4(double v, char *buf, size_t n);

#endif
