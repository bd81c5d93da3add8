/* csv.c: RFC 4180 text fields for the CSV writers (report layer). */
#include "csv.h"

#include <string.h>

void cs_out_csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void cs_out_csv_field(FILE *f, const char *s)
{
    if (s && strpbrk(s, ",\"\r\n"))
        cs_out_csv_quoted(f, s);
    else if (s)
        fputs(s, f);
}
