/* csv.h: splitting one CSV line into fields (base layer), RFC 4180 quoting:
 * fields separated by commas, a field may be "quoted" (commas and doubled
 * quotes "" inside), blanks around a field are trimmed. The one splitter
 * behind the trace, reference-table and calibration readers. */
#ifndef CLUSTERSIM_BASE_CSV_H
#define CLUSTERSIM_BASE_CSV_H

#include <stdbool.h>
#include <stddef.h>

struct cs_csv_field {
    const char *s;  /* start of the content (inside the quotes); borrowed from the line */
    size_t len;     /* content bytes; a quoted field's "" pairs still count twice */
    int col;        /* 1-based column of the field's first character */
    bool quoted;
};

/* Splits `len` bytes of `line` into at most `max` fields. Returns the field
 * count; -1 with *bad_col (may be NULL) at the field past `max`; -2 with
 * *bad_col at the opening quote of a quoted field that does not end, or at
 * a character after a closing quote that is not a comma. */
int cs_csv_split(const char *line, size_t len, struct cs_csv_field *f, int max, int *bad_col);

/* Copies a field's content into buf (cap bytes, NUL-terminated, truncated
 * to cap - 1), turning "" into ". Returns the unescaped length (which may
 * exceed cap - 1 when truncated). */
size_t cs_csv_field_copy(const struct cs_csv_field *f, char *buf, size_t cap);

/* Splits a NUL-terminated line in place: each field unescaped and
 * NUL-terminated where it stands, fields[i] pointing at it, cols[i] (may be
 * NULL) its column. Returns the count, or -1 / -2 as cs_csv_split. */
int cs_csv_split_inplace(char *line, char **fields, int *cols, int max, int *bad_col);

#endif
