/* numfmt.h: numbers as people read them on figures and in labels (base
 * layer, base/numfmt.c): the shortest decimal text that keeps a chosen
 * number of significant digits, never the float noise of "%.17g"
 * ("0.10000000000000001"). No I/O, no globals. For quantities with a unit
 * ("80 GiB", "$30K", "70%") use cs_units_format of base/units.h. */
#ifndef CLUSTERSIM_NUMFMT_H
#define CLUSTERSIM_NUMFMT_H

#include <stddef.h>

/* Significant digits of figure labels (legend entries, panel titles, tic
 * labels) unless a caller has a reason for another count. */
#define CS_NUM_LABEL_DIGITS 6

/* Writes v into buf (at most buflen bytes, NUL-terminated) and returns buf:
 *   - whole numbers below 10^9 in magnitude in full ("128", "-4096",
 *     "123456789");
 *   - otherwise the shortest "%.Pg" text, P from 1 to max_sig (clamped to
 *     1..17), that reads back as the same double as v rounded to max_sig
 *     significant digits: 0.1 -> "0.1" (not "0.10000000000000001"),
 *     0.1 + 0.2 -> "0.3", 1234.56789 at 6 -> "1234.57";
 *   - exponents without '+' and leading zeros: 1e-7 -> "1e-7",
 *     2.5e9 -> "2.5e9", 1.23456789e12 at 6 -> "1.23457e12";
 *   - -0 as "0"; NaN as "NaN" (gnuplot's missing-value word here), infinities
 *     as "inf" and "-inf".
 * buf may be NULL only when buflen is 0. */
char *cs_num_format(double v, int max_sig, char *buf, size_t buflen);

#endif
