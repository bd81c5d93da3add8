/* numparse.h: strict numbers from text (base layer): the one parser behind
 * every reader of plain numbers (CSV cells, log columns, YAML scalars,
 * command-line values). Strict means the whole string is one number:
 * no leading or trailing blanks or other characters, nothing empty, no
 * overflow, and for doubles no NaN or infinity. Quantities with units are
 * units.h's business. */
#ifndef CLUSTERSIM_BASE_NUMPARSE_H
#define CLUSTERSIM_BASE_NUMPARSE_H

#include <stdbool.h>

/* A finite decimal number in C's strtod syntax ("12", "-3.5e9"; hex floats
 * and "inf"/"nan" are refused). True with *out set; false, *out untouched,
 * otherwise. */
bool cs_num_parse_double(const char *s, double *out);

/* An integer in [min, max], written in decimal (base 10) or with C's 0x/0
 * prefixes (base 0), with an optional sign. True with *out set; false, *out
 * untouched, otherwise. */
bool cs_num_parse_long(const char *s, int base, long min, long max, long *out);

#endif
