/* table.h: aligned text tables for people. Cells are copied; numbers are
 * formatted by the caller. Columns whose header starts with '>' (the marker
 * is not shown) are right-aligned. The table writes to a caller's FILE*. */
#ifndef CLUSTERSIM_TABLE_H
#define CLUSTERSIM_TABLE_H

#include <stdio.h>

typedef struct cs_table cs_table;

/* Creates a table with `ncols` columns named by `headers` (copied).
 * Caller frees with cs_table_destroy. */
cs_table *cs_table_create(int ncols, const char *const *headers);
void cs_table_destroy(cs_table *t);
/* Adds a row of ncols cells (copied; NULL prints as empty). */
void cs_table_add_row(cs_table *t, const char *const *cells);
/* Adds a row from printf-style cells separated by '\t' in one format. */
void cs_table_add_rowf(cs_table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Writes the table with two spaces between columns and a rule under the
 * header; `indent` spaces before each line. */
void cs_table_write(const cs_table *t, FILE *out, int indent);

#endif
