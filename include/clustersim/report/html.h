/* html.h: self-contained HTML pages (report layer, report/html.c) for
 * `clustersim report`: escaped text, tables, bar charts drawn as inline
 * SVG, and gnuplot SVG files inlined. Pages load nothing from outside (no
 * script, style sheet, font or image URL), so they open offline and can be
 * mailed as one file. Writers take a borrowed FILE *. */
#ifndef CLUSTERSIM_HTML_H
#define CLUSTERSIM_HTML_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes s with & < > " ' escaped (safe in text and in quoted attributes). */
void cs_html_escape(FILE *f, const char *s);

/* The document head (title escaped, inline style) and the opening <body>;
 * cs_html_end closes them. */
void cs_html_begin(FILE *f, const char *title);
void cs_html_end(FILE *f);
void cs_html_heading(FILE *f, int level, const char *text); /* level 1..4 */
void cs_html_para(FILE *f, const char *text);

/* A table: ncols header cells, nrows x ncols body cells row-major (NULL is
 * an empty cell). Cells that look like numbers are right-aligned and long
 * numbers are shortened to 6 significant digits. */
void cs_html_table(FILE *f, size_t ncols, const char *const *head, size_t nrows,
                   const char *const *cells);

/* Every scalar leaf of obj as a two-column table (key path, value), in the
 * object's order; arrays by index. */
void cs_html_json_table(FILE *f, const cJSON *obj);

/* A horizontal bar chart as inline SVG: n bars (labels escaped), values in
 * `unit`; non-finite values are drawn as "n/a". */
void cs_html_svg_bars(FILE *f, const char *title, const char *unit, size_t n,
                      const char *const *labels, const double *values);

/* Copies the SVG document at path into the page from its "<svg" on (the
 * XML prolog and doctype are dropped). False when it cannot be read or has
 * no <svg element; nothing is written then. */
bool cs_html_svg_file(FILE *f, const char *path);

#endif
