/* csv.h: text fields of the report layer's CSV writers (internal to
 * report/), quoted as RFC 4180 says: a field holding a comma, a double
 * quote or a line break is enclosed in double quotes and its quotes are
 * doubled, so a scenario name like `big "test", 2` stays one field; a text
 * starting with = + - @ (not a number) gets an apostrophe, so no
 * spreadsheet runs it as a formula (base/csv.h, cs_csv_text). */
#ifndef CLUSTERSIM_REPORT_CSV_H
#define CLUSTERSIM_REPORT_CSV_H

#include <stdio.h>

/* Writes s (borrowed; NULL as empty), quoted only when it must be. */
void cs_out_csv_field(FILE *f, const char *s);
/* Writes s always quoted (the name columns, quoted in every row so far). */
void cs_out_csv_quoted(FILE *f, const char *s);

#endif
