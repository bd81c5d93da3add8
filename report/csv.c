/* csv.c: text fields for the report layer's CSV writers: the base layer's
 * one CSV text writer (base/csv.h: RFC 4180 quoting, formulas neutralised). */
#include "csv.h"

#include "clustersim/base/csv.h"

void cs_out_csv_quoted(FILE *f, const char *s)
{
    cs_csv_fput_text(f, s, true);
}

void cs_out_csv_field(FILE *f, const char *s)
{
    cs_csv_fput_text(f, s, false);
}
