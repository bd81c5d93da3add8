/* csv.h: splitting one CSV line into fields (base layer), RFC 4180 quoting:
 * fields separated by commas, a field may be "quoted" (commas and doubled
 * quotes "" inside), blanks around a field are trimmed. The one splitter
 * behind the trace, reference-table and calibration readers. */
#ifndef CLUSTERSIM_BASE_CSV_H
#define CLUSTERSIM_BASE_CSV_H

#include "clustersim/base/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

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

/* ---- Writing: the one text-cell writer of every CSV clustersim writes ----
 *
 * A text cell (a name, a path, a label: anything that is not a number the
 * program formatted itself) is written as RFC 4180 says: enclosed in double
 * quotes, its quotes doubled, when it holds a comma, a double quote, a CR or
 * LF, or starts or ends with a blank (which readers, ours included, trim);
 * else as it is, unless `always_quote`.
 *
 * Spreadsheet formulas are neutralised (OWASP "CSV injection"): a cell whose
 * first character is = + - @, a TAB or a CR is read by Excel, LibreOffice
 * and Google Sheets as a formula (=HYPERLINK(...), +cmd|...), so such a text
 * cell is written quoted with an apostrophe in front ("'=1+2"), which the
 * spreadsheets show as text. A cell that is a whole decimal number ("-3",
 * "+1e9", "-0.5") is left alone: it is data, and no formula; so is a lone
 * "-" or "+" (the tables' "none"). Readers that
 * want the original text back strip one leading apostrophe before = + - @.
 * The choice costs a visible apostrophe on names that start with those
 * characters; the alternative (leaving them) lets a trace or scenario name
 * run a formula on the machine of whoever opens the CSV. */
void cs_csv_text(struct cs_strbuf *b, const char *s, bool always_quote);
/* The same into a stream. `s` NULL is an empty cell. */
void cs_csv_fput_text(FILE *f, const char *s, bool always_quote);
/* True when text cell s would be neutralised (an apostrophe added). */
bool cs_csv_is_formula(const char *s);

#endif
